/** The streamed example: a built-in stream replayed frame by frame (stream-replay.ts), to watch the UI build up. */
import { IntelligentUIStreamView } from '@lineup/renderer-react';
import { UIStreamError, type UIStreamState } from '@lineup/shared';
import { useEffect, useState } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { INTERFACE_HEADING_LEVEL } from './interface-entries.ts';
import { exampleStreamFrames, receiveFrame } from './stream-replay.ts';

/** Milliseconds between replayed stream frames: slow enough to watch the UI build up. */
const FRAME_INTERVAL = 400;

export function StreamEntry({ id }: { readonly id: number }) {
  const text = useText();
  const [stream, setStream] = useState<UIStreamState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const frames = exampleStreamFrames(`example-stream-${id}`, 1);
    let current: UIStreamState | null = null;
    let index = 0;
    const timer = setInterval(() => {
      const frame = frames[index++];
      if (frame === undefined) {
        clearInterval(timer);
        return;
      }
      try {
        current = receiveFrame(current, frame);
        setStream(current);
      } catch (caught) {
        clearInterval(timer);
        setError(caught instanceof UIStreamError ? caught.message : 'The stream could not be read.');
      }
    }, FRAME_INTERVAL);
    return () => clearInterval(timer);
  }, [id]);
  if (error !== null) return <p role="alert">{error}</p>;
  if (stream === null)
    return (
      <p className="host__empty" role="status">
        {text.waitingForFrame}
      </p>
    );
  return <IntelligentUIStreamView stream={stream} headingLevel={INTERFACE_HEADING_LEVEL} />;
}
