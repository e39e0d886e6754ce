/**
 * `IntelligentUIStreamView`: renders a component stream (seed 002 §12, seed 004 §5) from the state the host
 * keeps with `acceptCheckpoint`. One generation is one UI instance: frames of the same generation update it
 * in place — unchanged branches keep their objects, so their components are not re-rendered, and local
 * state, NumberInput drafts, DOM and focus stay — while a new generation starts afresh. Local controls work
 * at once; `invoke` actions are only available once the generation has completed.
 */
import type { UIStreamState } from '@lineup/shared';
import { DocumentRenderer, type IntelligentUIViewProps } from './document-view.js';

export interface IntelligentUIStreamViewProps
  extends Omit<IntelligentUIViewProps, 'document' | 'documentRef' | 'maxDocumentBytes'> {
  /** The receiver state returned by `acceptCheckpoint` (or `startUIStream` / `advanceUIStream`). */
  readonly stream: UIStreamState;
}

function StreamStatus({ stream }: { readonly stream: UIStreamState }) {
  const message = stream.checkpoint.message;
  switch (stream.status) {
    case 'streaming':
      return (
        <p className="lu-stream-status" role="status">
          Generating…
        </p>
      );
    case 'completed':
      return null;
    case 'cancelled':
      return (
        <p className="lu-stream-status lu-stream-ended" role="status">
          Generation was cancelled; this is the last complete version.
          {message !== undefined && ` ${message}`}
        </p>
      );
    case 'failed':
      return (
        <p className="lu-stream-status lu-stream-ended" role="alert">
          Generation stopped with an error; this is the last complete version.
          {message !== undefined && ` ${message}`}
        </p>
      );
  }
}

export function IntelligentUIStreamView({ stream, ...props }: IntelligentUIStreamViewProps) {
  const { sourceCallId, uiId, generation, revision, status } = stream;
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
      <StreamStatus stream={stream} />
    </div>
  );
}
