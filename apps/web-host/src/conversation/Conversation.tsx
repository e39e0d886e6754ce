/**
 * The conversation panel, view code over the agent connection (agent/connection.ts, `AgentClient`): chat turns,
 * DSL interfaces (@lineup/renderer-react), inline Surfaces (@lineup/surface-host) and the log of what the client
 * sends the agent. A pasted lineup.v1 message is sent from the agent's end of the in-process transport, so it takes
 * exactly the path of a remote agent's; a pasted DSL document is shown as it is.
 */
import { IntelligentUIStreamView, IntelligentUIView } from '@lineup/renderer-react';
import { acceptCheckpoint, LineUpProtocolError, UIStreamError, type UIStreamState } from '@lineup/shared';
import type { LineUpMessage, UIOpenPayload } from '@lineup/shared/protocol';
import {
  checkSurfaceBundle,
  prepareSurfaceFrame,
  SurfaceInstances,
  type SurfaceRejection,
} from '@lineup/surface-host';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { type AgentConnection, type ConnectionView, HOST_CONVERSATION_ID } from '../agent/connection.ts';
import { type HostText, labelText, useText } from '../i18n.tsx';
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
  | {
      readonly kind: 'surface';
      readonly label: string;
      readonly payload: UIOpenPayload;
      readonly conversationId: string;
    }
  /** A chat turn: the user's (plain text) or the agent's (Markdown, through the DSL's Markdown allowlist). */
  | { readonly kind: 'chat'; readonly label: string; readonly from: 'user' | 'agent'; readonly text: string }
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
  return <IntelligentUIStreamView stream={stream} />;
}

function PasteForm({ onValue }: { readonly onValue: (value: unknown) => void }) {
  const label = useText();
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
      <label htmlFor="paste-document">{label.pasteLabel}</label>
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
          {label.deliver}
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

/** How a message the client sent the agent shows in the log (an inventory as one line, the whole folded). */
function sentNote(message: LineUpMessage): NewEntry | null {
  switch (message.type) {
    case 'lineup.v1.chat.user_message':
      return null; // the user's turn shows as a chat entry
    case 'lineup.v1.client.inventory':
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${message.payload.revision}, ${message.payload.tools?.length ?? 0} Agent Tools`,
        detail: JSON.stringify(message.payload, null, 2),
      };
    case 'lineup.v1.ui.event':
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${message.payload.instance_id} ${message.payload.event} ${JSON.stringify(message.payload.data)}`,
      };
    default:
      return {
        kind: 'note',
        label: 'Sent to the agent',
        tone: 'to-agent',
        text: `${message.type} ${JSON.stringify(message.payload)}`,
      };
  }
}

/** A chat turn of the agent as a one-node DSL document, so its Markdown takes the DSL's Markdown allowlist. */
function markdownDocument(key: number, text: string) {
  return {
    version: '1.0',
    id: `chat-${key}`,
    mode: 'structured_ui',
    title: 'Agent',
    state: {},
    derived: {},
    root: { id: 'text', type: 'Markdown', props: { text } },
  };
}

function ChatForm({ onSend }: { readonly onSend: (text: string) => Promise<void> }) {
  const label = useText();
  const [text, setText] = useState('');
  return (
    <form
      className="host__chat"
      onSubmit={(event) => {
        event.preventDefault();
        const value = text.trim();
        if (value === '') return;
        void onSend(value).then(() => setText(''));
      }}
    >
      <label htmlFor="chat-message">{label.messageLabel}</label>
      <div className="host__chat-row">
        <input
          id="chat-message"
          value={text}
          autoComplete="off"
          maxLength={16_384}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" disabled={text.trim() === ''}>
          {label.send}
        </button>
      </div>
    </form>
  );
}

/** The agent connection's state, announced politely when it changes. */
function ConnectionStatus({
  connection,
  text,
}: {
  readonly connection: AgentConnection | null;
  readonly text: HostText;
}) {
  const status = useSyncExternalStore(
    (listener) => connection?.onStatus(listener) ?? (() => {}),
    () => connection?.status ?? 'idle',
    () => 'idle' as const,
  );
  return (
    <span className={`host__connection host__connection--${status}`} role="status">
      {text.status[status]}
      {status === 'open' && ` (${connection?.remoteUrl ?? text.demoAgent})`}
    </span>
  );
}

export function Conversation() {
  const runtime = useRuntime();
  const text = useText();
  const [entries, setEntries] = useState<readonly Entry[]>([]);
  const next = useRef(1);
  /** The receiver state of each agent stream, by sourceCallId and uiId, and the entry that shows it. */
  const receivers = useRef(new Map<string, { readonly key: number; readonly stream: UIStreamState }>());
  /** The conversation of each open Surface: its events go back there. */
  const surfaceConversations = useRef(new Map<string, string>());
  const add = (entry: NewEntry) => {
    const key = next.current++;
    setEntries((current) => [...current, { ...entry, key }]);
  };
  const addRef = useRef(add);
  addRef.current = add;
  const connection = runtime.status === 'ready' ? runtime.connection : null;
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const refused = (text: string) => addRef.current({ kind: 'note', label: 'Refused', tone: 'refused', text });
  const [instances] = useState(
    () =>
      new SurfaceInstances({
        onEvent: (event) => {
          const to = surfaceConversations.current.get(event.instance_id) ?? HOST_CONVERSATION_ID;
          const current = connectionRef.current;
          if (current === null) return refused('The runtime is not ready yet; the event was not sent.');
          current
            .sendUIEvent(to, event)
            .catch((error: unknown) =>
              refused(`The event was not sent: ${error instanceof Error ? error.message : 'unknown error'}`),
            );
        },
        onRejected: (instanceId, rejection) => {
          addRef.current(rejectionNote(instanceId, rejection));
          if (rejection.reason === 'navigated') removeSurface(instanceId);
        },
      }),
  );
  useEffect(() => () => instances.closeAll(), [instances]);
  // A Surface frame loads ahead, so the agent's first Surface opens without waiting for one.
  useEffect(() => prepareSurfaceFrame(document), []);
  useEffect(
    () => onHostProblem((text) => addRef.current({ kind: 'note', label: 'Refused', tone: 'refused', text })),
    [],
  );

  const removeSurface = (instanceId: string) =>
    setEntries((current) =>
      current.filter((entry) => !(entry.kind === 'surface' && entry.payload.instance_id === instanceId)),
    );

  /** What the agent sends, as the connection hands it over. */
  const view: ConnectionView = {
    sent: (message) => {
      const note = sentNote(message);
      if (note !== null) add(note);
    },
    problem: (error) => {
      if (error instanceof LineUpProtocolError) add(invalidNote(error));
      else refused(error instanceof Error ? error.message : 'The agent connection failed.');
    },
    agentUnsupported: (message) =>
      refused(`The agent does not support ${message.payload.message_type ?? 'a message'} we sent.`),
    agentMessage: (message) =>
      add({ kind: 'chat', label: 'Agent', from: 'agent', text: message.payload.text }),
    document: (message) =>
      add({ kind: 'document', label: 'Agent document', document: message.payload.document }),
    surfaceOpen: (message) => {
      const { payload } = message;
      if (payload.app === undefined) {
        refused('No MiniApp is installed to provide this Surface; only inline Surfaces open here.');
        return;
      }
      try {
        checkSurfaceBundle(payload.app);
      } catch (error) {
        if (!(error instanceof LineUpProtocolError)) throw error;
        add(invalidNote(error, 'payload.'));
        return;
      }
      surfaceConversations.current.set(payload.instance_id, message.conversation_id);
      const label = payload.app.name;
      const conversationId = message.conversation_id;
      setEntries((current) => {
        // seed 000 §4.1: the same instance id replaces the open instance, in place.
        if (
          current.some(
            (entry) => entry.kind === 'surface' && entry.payload.instance_id === payload.instance_id,
          )
        )
          return current.map((entry) =>
            entry.kind === 'surface' && entry.payload.instance_id === payload.instance_id
              ? { ...entry, payload, label, conversationId }
              : entry,
          );
        return [...current, { kind: 'surface', label, payload, conversationId, key: next.current++ }];
      });
    },
    surfacePatch: (message) => {
      if (instances.patch(message.payload) === 'unknown_instance')
        refused(`No open Surface ${message.payload.instance_id} to patch.`);
    },
    surfaceClose: (message) => {
      instances.close(message.payload);
      removeSurface(message.payload.instance_id);
    },
    checkpoint: (message) => {
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
        refused(`Refused a stream frame at ${issue?.path}: ${issue?.message}`);
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
    },
  };
  const viewRef = useRef(view);
  viewRef.current = view;
  // The view attaches once; its handlers always read the latest render's closures.
  useEffect(() => {
    if (connection === null) return;
    const forward = new Proxy({} as ConnectionView, {
      get: (_target, name: keyof ConnectionView) => viewRef.current[name],
    });
    connection.attach(forward);
    // Messages given before the runtime was ready go out now, in order.
    for (const value of waitingForAgent.current.splice(0)) connection.agent?.send(value);
    return () => connection.attach(null);
  }, [connection]);

  /** A lineup.v1 message from the message box, sent from the agent's end of the in-process transport. */
  const waitingForAgent = useRef<object[]>([]);
  const sendAsAgent = (value: unknown) => {
    if (connection === null) waitingForAgent.current.push(value as object);
    else if (connection.agent === null)
      refused(
        'A remote agent is connected: the message box cannot speak for it. Paste a DSL document instead.',
      );
    else connection.agent.send(value as object);
  };

  const deliver = (value: unknown) =>
    isEnvelope(value)
      ? sendAsAgent(value)
      : add({ kind: 'document', label: 'Pasted document', document: value });

  const sendUserMessage = async (text: string) => {
    if (connection === null) {
      refused('The runtime is not ready yet.');
      return;
    }
    try {
      await connection.client.sendUserMessage(HOST_CONVERSATION_ID, text);
      add({ kind: 'chat', label: 'You', from: 'user', text });
    } catch (error) {
      refused(`Not sent: ${error instanceof Error ? error.message : 'unknown error'}`);
      throw error;
    }
  };

  return (
    <section className="host__conversation" aria-labelledby="conversation-title">
      <div className="host__conversation-head">
        <h2 id="conversation-title">{text.conversation}</h2>
        <ConnectionStatus connection={connection} text={text} />
      </div>
      {entries.length === 0 && <p className="host__empty">{text.empty}</p>}
      <ol className="host__entries">
        {entries.map((entry) => (
          <li
            key={entry.key}
            className={`host__entry host__entry--${entry.kind}`}
            aria-label={labelText(text, entry.label)}
          >
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
            ) : entry.kind === 'chat' ? (
              <div className={`host__chat-turn host__chat-turn--${entry.from}`}>
                <span className="host__chat-from">{entry.from === 'user' ? text.you : text.agent}</span>
                {entry.from === 'user' ? (
                  <p className="host__chat-text">{entry.text}</p>
                ) : (
                  <IntelligentUIView document={markdownDocument(entry.key, entry.text)} />
                )}
              </div>
            ) : (
              <div className={`host__note host__note--${entry.tone}`}>
                <span className="host__note-label">
                  {entry.tone === 'to-agent' ? text.toAgent : text.refused}
                </span>{' '}
                <code>{entry.text}</code>
                {entry.detail !== undefined && (
                  <details className="host__note-detail">
                    <summary>{text.wholeMessage}</summary>
                    <pre>{entry.detail}</pre>
                  </details>
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      <div className="host__composer">
        <ChatForm onSend={sendUserMessage} />
        <fieldset className="host__examples">
          <legend>{text.examples}</legend>
          {EXAMPLE_DOCUMENTS.map((example) => (
            <button
              key={example.key}
              type="button"
              onClick={() => add({ kind: 'document', label: example.label, document: example.document })}
            >
              {labelText(text, example.label)}
            </button>
          ))}
          <button type="button" onClick={() => add({ kind: 'stream', label: 'Streamed interface' })}>
            {labelText(text, 'Streamed interface')}
          </button>
          <button type="button" onClick={() => sendAsAgent(weatherOpenEnvelope(next.current))}>
            {text.inlineSurface}
          </button>
        </fieldset>
        <PasteForm onValue={deliver} />
      </div>
    </section>
  );
}
