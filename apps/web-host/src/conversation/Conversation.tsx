/**
 * The conversation panel: DSL interfaces (@lineup/renderer-react), inline Surfaces (@lineup/surface-host) and
 * what the client sends back to the agent. Until an agent transport is connected, input comes from the example
 * menu or is pasted: a DSL document, or a lineup.v1 message handled exactly as one from the agent would be.
 */
import { IntelligentUIStreamView, IntelligentUIView } from '@lineup/renderer-react';
import { acceptCheckpoint, LineUpProtocolError, UIStreamError, type UIStreamState } from '@lineup/shared';
import { parseEnvelope, type UIOpenPayload } from '@lineup/shared/protocol';
import {
  checkSurfaceBundle,
  prepareSurfaceFrame,
  type SurfaceEvent,
  SurfaceInstances,
  type SurfaceRejection,
} from '@lineup/surface-host';
import { useEffect, useRef, useState } from 'react';
import { onHostProblem, useRuntime } from '../runtime.tsx';
import { EXAMPLE_DOCUMENTS } from './examples.ts';
import { SurfaceEntry } from './SurfaceEntry.tsx';
import { exampleStreamFrames, receiveFrame } from './stream-replay.ts';
import { weatherOpenEnvelope } from './surface-example.ts';

type NewEntry =
  | { readonly kind: 'document'; readonly label: string; readonly document: unknown }
  | { readonly kind: 'stream'; readonly label: string }
  /** A component stream the agent sends as `ui.checkpoint` messages; `stream` is the receiver state. */
  | { readonly kind: 'checkpoints'; readonly label: string; readonly stream: UIStreamState }
  | { readonly kind: 'surface'; readonly label: string; readonly payload: UIOpenPayload }
  /** What the client sends the agent (`ui.event`, `unsupported`), or a message it could not take. */
  | {
      readonly kind: 'note';
      readonly label: string;
      readonly tone: 'to-agent' | 'refused';
      readonly text: string;
      /** The whole message, when `text` only summarizes it (an inventory is long). */
      readonly detail?: string;
    };
type Entry = NewEntry & { readonly key: number };

function eventNote(event: SurfaceEvent): NewEntry {
  return {
    kind: 'note',
    label: 'Sent to the agent',
    tone: 'to-agent',
    text: `lineup.v1.ui.event ${event.instance_id} ${event.event} ${JSON.stringify(event.data)}`,
  };
}

/** The note for a message refused with located issues: where (below `prefix`), and why. */
function invalidNote(error: LineUpProtocolError, prefix = ''): NewEntry {
  const issue = error.issues[0];
  return {
    kind: 'note',
    label: 'Refused',
    tone: 'refused',
    text: `Invalid message at ${prefix}${issue?.path}: ${issue?.message}`,
  };
}

function rejectionNote(instanceId: string, rejection: SurfaceRejection): NewEntry {
  const times = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  let text: string;
  switch (rejection.reason) {
    case 'navigated':
      text = `Surface ${instanceId} tried to leave its document and was removed.`;
      break;
    case 'flooded':
      text = `Surface ${instanceId} flooded the host with window messages and was removed.`;
      break;
    case 'focus_taken':
      text = `Surface ${instanceId} took keyboard focus without a click; focus was given back.`;
      break;
    case 'rate_limited':
      text = `Dropped ${times(rejection.count, 'event')} from Surface ${instanceId} over its rate limit.`;
      break;
    case 'foreign_message':
      text = `Ignored ${times(rejection.count, 'window message')} from Surface ${instanceId}.`;
      break;
    case 'invalid_message':
      text = `Dropped ${times(rejection.count, 'invalid message')} from Surface ${instanceId}: ${rejection.issues[0]?.message ?? 'invalid message'}`;
      break;
  }
  return { kind: 'note', label: 'Refused', tone: 'refused', text };
}

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

function PasteForm({ onValue }: { readonly onValue: (value: unknown) => void }) {
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
          setError('This is not JSON text. Paste a document or a lineup.v1 message as a JSON object.');
          return;
        }
        setError(null);
        onValue(value);
        setText('');
      }}
    >
      <label htmlFor="paste-document">Document or lineup.v1 message (JSON)</label>
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
          Deliver
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

/** A pasted or example value is a lineup.v1 envelope when it has the envelope's `v` and `type`. */
function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'v' in value && 'type' in value;
}

export function Conversation() {
  const runtime = useRuntime();
  const [entries, setEntries] = useState<readonly Entry[]>([]);
  const next = useRef(1);
  /** The receiver state of each agent stream, by sourceCallId and uiId, and the entry that shows it. */
  const receivers = useRef(new Map<string, { readonly key: number; readonly stream: UIStreamState }>());
  const add = (entry: NewEntry) => {
    const key = next.current++;
    setEntries((current) => [...current, { ...entry, key }]);
  };
  const addRef = useRef(add);
  addRef.current = add;
  const [instances] = useState(
    () =>
      new SurfaceInstances({
        onEvent: (event) => addRef.current(eventNote(event)),
        onRejected: (instanceId, rejection) => {
          addRef.current(rejectionNote(instanceId, rejection));
          if (rejection.reason === 'navigated') removeSurface(instanceId);
        },
      }),
  );
  useEffect(() => () => instances.closeAll(), [instances]);
  // A Surface frame loads ahead, so the agent's first Surface opens without waiting for one.
  useEffect(() => prepareSurfaceFrame(document), []);

  const removeSurface = (instanceId: string) =>
    setEntries((current) =>
      current.filter((entry) => !(entry.kind === 'surface' && entry.payload.instance_id === instanceId)),
    );

  /** A message the client sends the agent, shown as a note (an inventory as one line, the whole folded). */
  const toAgent = (type: string, body: unknown) => {
    const inventory =
      type === 'lineup.v1.client.inventory' ? (body as { revision: string; tools?: unknown[] }) : null;
    add({
      kind: 'note',
      label: 'Sent to the agent',
      tone: 'to-agent',
      ...(inventory === null
        ? { text: `${type} ${JSON.stringify(body)}` }
        : {
            text: `${type} ${inventory.revision}, ${inventory.tools?.length ?? 0} Agent Tools`,
            detail: JSON.stringify(body, null, 2),
          }),
    });
  };
  const toAgentRef = useRef(toAgent);
  toAgentRef.current = toAgent;
  const host = runtime.status === 'ready' ? runtime.host : null;
  // Until an agent transport exists, what the runtime sends the agent (from its outbox, in order) shows here.
  useEffect(() => {
    if (host === null) return;
    host.setAgentSink((message) => toAgentRef.current(message.type, message.payload));
    return () => host.setAgentSink(null);
  }, [host]);
  useEffect(
    () => onHostProblem((text) => addRef.current({ kind: 'note', label: 'Refused', tone: 'refused', text })),
    [],
  );

  /** An agent → client message, handled as the client would handle it from the agent transport. */
  const deliverEnvelope = (value: unknown) => {
    let parsed: ReturnType<typeof parseEnvelope>;
    try {
      parsed = parseEnvelope(value, { direction: 'agent_to_client' });
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      add(invalidNote(error));
      return;
    }
    if (parsed.kind === 'unsupported') {
      add({
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `lineup.v1.unsupported ${parsed.reason}`,
      });
      return;
    }
    const { message } = parsed;
    switch (message.type) {
      case 'lineup.v1.ui.open': {
        const payload = message.payload;
        if (payload.app === undefined) {
          add({
            kind: 'note',
            label: 'Sent to the agent',
            tone: 'to-agent',
            text: 'lineup.v1.unsupported: no MiniApp is installed to provide this Surface.',
          });
          return;
        }
        try {
          checkSurfaceBundle(payload.app);
        } catch (error) {
          if (!(error instanceof LineUpProtocolError)) throw error;
          add(invalidNote(error, 'payload.'));
          return;
        }
        const label = payload.app.name;
        setEntries((current) => {
          // seed 000 §4.1: the same instance id replaces the open instance, in place.
          if (
            current.some(
              (entry) => entry.kind === 'surface' && entry.payload.instance_id === payload.instance_id,
            )
          )
            return current.map((entry) =>
              entry.kind === 'surface' && entry.payload.instance_id === payload.instance_id
                ? { ...entry, payload, label }
                : entry,
            );
          return [...current, { kind: 'surface', label, payload, key: next.current++ }];
        });
        return;
      }
      case 'lineup.v1.ui.patch':
        if (instances.patch(message.payload) === 'unknown_instance')
          add({
            kind: 'note',
            label: 'Refused',
            tone: 'refused',
            text: `No open Surface ${message.payload.instance_id} to patch.`,
          });
        return;
      case 'lineup.v1.ui.close':
        instances.close(message.payload);
        removeSurface(message.payload.instance_id);
        return;
      case 'lineup.v1.tool.call': {
        if (runtime.status !== 'ready') {
          add({ kind: 'note', label: 'Refused', tone: 'refused', text: 'The runtime is not ready yet.' });
          return;
        }
        const { payload } = message;
        runtime.host
          .receive(message.conversation_id, payload)
          .then(({ answer, disposition }) => {
            // A replay is answered from the persisted record, with no new outbox row (seed 003 §4.2); a new
            // call's answers were written to the outbox with its facts and reach the agent sink from there.
            if (disposition === 'replayed' || disposition === 'conflict')
              toAgent(answer.type, answer.payload);
          })
          .catch((error: unknown) =>
            add({
              kind: 'note',
              label: 'Refused',
              tone: 'refused',
              text: `The runtime could not take the call: ${error instanceof Error ? error.message : 'unknown error'}`,
            }),
          );
        return;
      }
      case 'lineup.v1.ui.checkpoint': {
        const frame = message.payload.checkpoint as { sourceCallId?: unknown; uiId?: unknown };
        const streamKey = `${String(frame.sourceCallId)}\n${String(frame.uiId)}`;
        const known = receivers.current.get(streamKey);
        let stream: UIStreamState;
        try {
          // One receiver per (sourceCallId, uiId): duplicates, stale frames and gaps follow acceptCheckpoint.
          stream = acceptCheckpoint(known?.stream ?? null, message.payload.checkpoint);
        } catch (error) {
          if (!(error instanceof UIStreamError)) throw error;
          const issue = error.issues[0];
          add({
            kind: 'note',
            label: 'Refused',
            tone: 'refused',
            text: `Refused a stream frame at ${issue?.path}: ${issue?.message}`,
          });
          return;
        }
        if (known?.stream === stream) return;
        const key = known?.key ?? next.current++;
        receivers.current.set(streamKey, { key, stream });
        setEntries((current) =>
          known === undefined
            ? [...current, { kind: 'checkpoints', label: 'Streamed interface', stream, key }]
            : current.map((entry) => (entry.key === key ? { ...entry, stream } : entry)),
        );
        return;
      }
      case 'lineup.v1.app.call':
        // seed 000 §5.3: every app.call gets an app.result with its call_id. This host has no capability
        // registry yet, so it declares none in its inventory, and a call of any capability is unsupported.
        add({
          kind: 'note',
          label: 'Sent to the agent',
          tone: 'to-agent',
          text: `lineup.v1.app.result ${JSON.stringify({ call_id: message.payload.call_id, status: 'unsupported' })}`,
        });
        return;
      case 'lineup.v1.ui.document':
        add({ kind: 'document', label: 'Agent document', document: message.payload.document });
        return;
      default:
        add({
          kind: 'note',
          label: 'Sent to the agent',
          tone: 'to-agent',
          text: `lineup.v1.unsupported: this host does not handle ${message.type} yet.`,
        });
    }
  };

  const deliver = (value: unknown) =>
    isEnvelope(value)
      ? deliverEnvelope(value)
      : add({ kind: 'document', label: 'Pasted document', document: value });

  return (
    <section className="host__conversation" aria-labelledby="conversation-title">
      <h2 id="conversation-title">Conversation</h2>
      {entries.length === 0 && (
        <p className="host__empty">
          No agent is connected yet. Show an example, or paste a document or a lineup.v1 message, to see how
          agent interfaces render here.
        </p>
      )}
      <ol className="host__entries">
        {entries.map((entry) => (
          <li key={entry.key} className={`host__entry host__entry--${entry.kind}`} aria-label={entry.label}>
            {entry.kind === 'document' ? (
              <IntelligentUIView document={entry.document} />
            ) : entry.kind === 'stream' ? (
              <StreamEntry id={entry.key} />
            ) : entry.kind === 'checkpoints' ? (
              <IntelligentUIStreamView stream={entry.stream} />
            ) : entry.kind === 'surface' ? (
              <SurfaceEntry
                payload={entry.payload}
                instances={instances}
                onUserClose={() => {
                  instances.userClose(entry.payload.instance_id);
                  removeSurface(entry.payload.instance_id);
                }}
              />
            ) : (
              <div className={`host__note host__note--${entry.tone}`}>
                <span className="host__note-label">{entry.tone === 'to-agent' ? '→ agent' : 'refused'}</span>{' '}
                <code>{entry.text}</code>
                {entry.detail !== undefined && (
                  <details className="host__note-detail">
                    <summary>Whole message</summary>
                    <pre>{entry.detail}</pre>
                  </details>
                )}
              </div>
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
          <button type="button" onClick={() => deliverEnvelope(weatherOpenEnvelope(next.current))}>
            Inline Surface
          </button>
        </fieldset>
        <PasteForm onValue={deliver} />
      </div>
    </section>
  );
}
