import { IntelligentUIStreamView } from '@lineup/renderer-react';
import { acceptCheckpoint, UIStreamError, type UIStreamState } from '@lineup/shared';
import { createRoot } from 'react-dom/client';

// A component stream: every frame is a full checkpoint. The host keeps the receiver state and renders it;
// duplicates, stale frames and gaps are handled by acceptCheckpoint, and a rejected frame leaves the view
// as it was. Within a generation the UI updates in place; invoke buttons wait for "complete".
export function showStream(container: HTMLElement) {
  const root = createRoot(container);
  let receiver: UIStreamState | null = null;
  return (frameText: string) => {
    try {
      receiver = acceptCheckpoint(receiver, JSON.parse(frameText));
      root.render(<IntelligentUIStreamView stream={receiver} />);
    } catch (error) {
      if (!(error instanceof UIStreamError)) throw error;
      console.log(error.issues[0]?.path);
    }
  };
}
