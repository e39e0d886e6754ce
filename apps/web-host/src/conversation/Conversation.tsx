/**
 * The conversation panel: each entry is one interface, rendered by @lineup/renderer-react. Until an agent
 * transport is connected, interfaces come from the example menu or from a document pasted as JSON; both go
 * through the same validation as an agent's.
 */
import { IntelligentUIStreamView, IntelligentUIView } from '@lineup/renderer-react';
import { UIStreamError, type UIStreamState } from '@lineup/shared';
import { useEffect, useRef, useState } from 'react';
import { EXAMPLE_DOCUMENTS } from './examples.ts';
import { exampleStreamFrames, receiveFrame } from './stream-replay.ts';

type NewEntry =
  | { readonly kind: 'document'; readonly label: string; readonly document: unknown }
  | { readonly kind: 'stream'; readonly label: string };
type Entry = NewEntry & { readonly key: number };

/** Milliseconds between replayed stream frames: slow enough to watch the UI build up. */
const FRAME_INTERVAL = 400;

/** A pasted document is at most this many characters of JSON text (the DSL's 262,144-byte budget, as text). */
const MAX_PASTE_LENGTH = 262_144;

function StreamEntry({ id }: { readonly id: number }) {
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
        Waiting for the first frame…
      </p>
    );
  return <IntelligentUIStreamView stream={stream} />;
}

function PasteForm({ onDocument }: { readonly onDocument: (document: unknown) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="host__paste"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.length > MAX_PASTE_LENGTH) {
          setError(`A document is at most ${MAX_PASTE_LENGTH} characters of JSON.`);
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          setError('This is not JSON text. Paste a document as a JSON object.');
          return;
        }
        setError(null);
        onDocument(value);
        setText('');
      }}
    >
      <label htmlFor="paste-document">Document JSON</label>
      <textarea
        id="paste-document"
        value={text}
        rows={4}
        spellCheck={false}
        placeholder='{"version":"1.0","id":"…","mode":"structured_ui",…}'
        onChange={(event) => setText(event.target.value)}
      />
      <div className="host__paste-actions">
        <button type="submit" disabled={text.trim() === ''}>
          Show document
        </button>
        {error !== null && (
          <span className="host__paste-error" role="alert">
            {error}
          </span>
        )}
      </div>
    </form>
  );
}

export function Conversation() {
  const [entries, setEntries] = useState<readonly Entry[]>([]);
  const next = useRef(1);
  const add = (entry: NewEntry) => {
    const key = next.current++;
    setEntries((current) => [...current, { ...entry, key }]);
  };
  return (
    <section className="host__conversation" aria-labelledby="conversation-title">
      <h2 id="conversation-title">Conversation</h2>
      {entries.length === 0 && (
        <p className="host__empty">
          No agent is connected yet. Show an example interface, or paste a document, to see how agent
          interfaces render here.
        </p>
      )}
      <ol className="host__entries">
        {entries.map((entry) => (
          <li key={entry.key} className="host__entry" aria-label={entry.label}>
            {entry.kind === 'document' ? (
              <IntelligentUIView document={entry.document} />
            ) : (
              <StreamEntry id={entry.key} />
            )}
          </li>
        ))}
      </ol>
      <div className="host__composer">
        <fieldset className="host__examples">
          <legend>Examples</legend>
          {EXAMPLE_DOCUMENTS.map((example) => (
            <button
              key={example.key}
              type="button"
              onClick={() => add({ kind: 'document', label: example.label, document: example.document })}
            >
              {example.label}
            </button>
          ))}
          <button type="button" onClick={() => add({ kind: 'stream', label: 'Streamed interface' })}>
            Streamed interface
          </button>
        </fieldset>
        <PasteForm onDocument={(document) => add({ kind: 'document', label: 'Pasted document', document })} />
      </div>
    </section>
  );
}
