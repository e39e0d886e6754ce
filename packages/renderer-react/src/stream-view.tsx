/**
 * `IntelligentUIStreamView`: renders a component stream (seed 002 §12, seed 004 §5) from the state the host
 * keeps with `acceptCheckpoint`. One generation is one UI instance: frames of the same generation update it
 * in place — unchanged branches keep their objects, so their components are not re-rendered, and local
 * state, NumberInput drafts, DOM and focus stay — while a new generation starts afresh. Local controls work
 * at once; `invoke` actions are only available once the generation has completed.
 */
import type { UIStreamState } from '@lineup/shared';
import { DocumentRenderer, type IntelligentUIViewProps } from './document-view.js';
import { type ActionTexts, actionTexts } from './texts.js';

export interface IntelligentUIStreamViewProps
  extends Omit<IntelligentUIViewProps, 'document' | 'documentRef' | 'maxDocumentBytes'> {
  /** The receiver state returned by `acceptCheckpoint` (or `startUIStream` / `advanceUIStream`). */
  readonly stream: UIStreamState;
  /**
   * The host knows this generation takes no more steps though it never ended — a newer generation of the same UI
   * opened, or the agent's run that streamed it ended (seed 004 §5: an interrupted UI keeps its last valid snapshot
   * and asks for nothing). It is shown as interrupted, its actions unavailable. Ignored once the stream ended.
   */
  readonly interrupted?: boolean;
}

function StreamStatus({
  stream,
  interrupted,
  texts,
}: {
  readonly stream: UIStreamState;
  readonly interrupted: boolean;
  readonly texts: ActionTexts['stream'];
}) {
  const message = stream.checkpoint.message;
  switch (stream.status) {
    case 'streaming':
      return interrupted ? (
        <p className="lu-stream-status lu-stream-ended" role="status">
          {texts.interrupted}
        </p>
      ) : (
        <p className="lu-stream-status" role="status">
          {texts.streaming}
        </p>
      );
    case 'completed':
      return null;
    case 'cancelled':
      return (
        <p className="lu-stream-status lu-stream-ended" role="status">
          {texts.cancelled}
          {message !== undefined && ` ${message}`}
        </p>
      );
    case 'failed':
      return (
        <p className="lu-stream-status lu-stream-ended" role="alert">
          {texts.failed}
          {message !== undefined && ` ${message}`}
        </p>
      );
  }
}

export function IntelligentUIStreamView({
  stream,
  interrupted = false,
  ...props
}: IntelligentUIStreamViewProps) {
  const { sourceCallId, uiId, generation, revision } = stream;
  const texts = actionTexts(props.locale);
  const status = stream.status === 'streaming' && interrupted ? 'interrupted' : stream.status;
  return (
    <div
      className="lu-stream"
      data-status={status}
      data-lu-theme={props.theme ?? 'auto'}
      aria-busy={status === 'streaming'}
    >
      <DocumentRenderer
        {...props}
        // One instance per (sourceCallId, uiId, generation) (seed 004 §5): a new generation remounts.
        key={`${sourceCallId}\n${uiId}\n${generation}`}
        document={stream.document}
        documentRef={{ sourceCallId, uiId, generation, revision }}
        {...(status === 'streaming'
          ? { invokeUnavailable: 'streaming' as const }
          : status === 'completed'
            ? {}
            : { invokeUnavailable: 'stream_ended' as const })}
      />
      <StreamStatus stream={stream} interrupted={interrupted} texts={texts.stream} />
    </div>
  );
}
