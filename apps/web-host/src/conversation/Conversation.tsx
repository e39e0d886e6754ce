/**
 * The conversation panel, view code over the agent connection (agent/connection.ts, `AgentClient`) and the
 * conversation model (model.ts): chat turns, DSL interfaces (@lineup/renderer-react), inline Surfaces
 * (@lineup/surface-host) and the log of what the client sends the agent. The conversation shown is read back from
 * the runtime database when the page loads or the user picks another one, so a reload changes nothing on screen;
 * each interface's local state is kept as it changes. A pasted lineup.v1 message is sent from the agent's end of
 * the in-process transport, so it takes exactly the path of a remote agent's; a pasted DSL document is shown as
 * it is.
 */

import { IntelligentUIStreamView, IntelligentUIView, type UIInvokeHandler } from '@lineup/renderer-react';
import type { ActionRunner, ConversationRecord } from '@lineup/runtime';
import { type UIDocumentRef, UIStreamError, type UIStreamState } from '@lineup/shared';
import { prepareSurfaceFrame, SurfaceInstances } from '@lineup/surface-host';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { shownAgentUrl } from '../agent/agent-link.ts';
import type { AgentConnection, ConnectionView } from '../agent/connection.ts';
import { type ActionReceipts, useReceipts } from '../capabilities/receipts.ts';
import { type HostText, labelText, useLanguage, useText } from '../i18n.tsx';
import { onHostProblem, useRuntime } from '../runtime.tsx';
import { FrameSnapshot, spaced } from '../scheduling/per-frame.ts';
import { onDraft } from './drafts.ts';
import { EXAMPLE_DOCUMENTS, exampleDocumentEnvelope } from './examples.ts';
import {
  type ConversationMessage,
  ConversationModel,
  type Entry,
  refusalNote,
  refusedNote,
  rejectionNote,
  type SideEffect,
} from './model.ts';
import { SurfaceEntry } from './SurfaceEntry.tsx';
import { exampleStreamFrames, receiveFrame } from './stream-replay.ts';
import { weatherOpenEnvelope } from './surface-example.ts';

/** Milliseconds between replayed stream frames: slow enough to watch the UI build up. */
const FRAME_INTERVAL = 400;

/** A pasted document is at most this many characters of JSON text (the DSL's 262,144-byte budget, as text). */
const MAX_PASTE_LENGTH = 262_144;

/** Interfaces sit in the conversation, under its h2: their titles are h3 (and their headings below). */
const INTERFACE_HEADING_LEVEL = 3;

/**
 * The conversation shows its latest this many entries, and this many more each time the user asks for earlier
 * ones: thousands of turns on screen would make every frame slower (layout, memory) while nobody reads them. The
 * others stay in the model and the store, and a notice says how many are not shown.
 */
export const CONVERSATION_WINDOW = 200;

/**
 * While envelopes keep arriving, the list shows what arrived at most this often (the first after a pause shows at
 * the next frame): each update lays out and paints the list, time a burst is better spent taking envelopes in.
 */
const CONVERSATION_UPDATE_INTERVAL_MS = 100;

/** Entries that are interfaces: announced when they arrive, and where focus goes after Deliver. */
/** An MCP server's view (with the MCP Apps SDK's bridge): loaded the first time a conversation shows one. */
const McpViewEntry = lazy(() =>
  import('./McpViewEntry.tsx').then((module) => ({ default: module.McpViewEntry })),
);

const INTERFACE_KINDS: ReadonlySet<Entry['kind']> = new Set([
  'document',
  'checkpoints',
  'stream',
  'surface',
  'mcp_view',
]);

/** The title a document entry shows, if it has one. */
function entryTitle(entry: Entry): string | undefined {
  const document =
    entry.kind === 'document'
      ? (entry.document as { title?: unknown } | null)
      : entry.kind === 'checkpoints'
        ? entry.stream.document
        : null;
  return typeof document?.title === 'string' ? document.title : undefined;
}

/** An entry's accessible name: its label and, for an interface, its title, so two entries differ by name. */
function entryName(text: HostText, entry: Entry): string {
  const label = labelText(text, entry.label);
  const title = entryTitle(entry);
  return title === undefined || title === label ? label : `${label}: ${title}`;
}

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
  return <IntelligentUIStreamView stream={stream} headingLevel={INTERFACE_HEADING_LEVEL} />;
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
  /** Who proposed what the box holds (an MCP view's `ui/message`), until the user sends or changes it. */
  const [proposedBy, setProposedBy] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(
    () =>
      onDraft((draft) => {
        // The proposal waits in the box for the user: nothing is sent until they press Send.
        setText(draft.text.slice(0, 16_384));
        setProposedBy(draft.from);
        input.current?.focus();
      }),
    [],
  );
  return (
    <form
      className="host__chat"
      onSubmit={(event) => {
        event.preventDefault();
        const value = text.trim();
        if (value === '') return;
        // The field empties at once, so what the user types next is never wiped when this send resolves
        // later. A message that could not be sent comes back into an empty field; why is already in the
        // conversation's notes.
        setText('');
        setProposedBy(null);
        onSend(value).catch(() => setText((current) => (current === '' ? value : current)));
      }}
    >
      <label htmlFor="chat-message">{label.messageLabel}</label>
      <div className="host__chat-row">
        <input
          ref={input}
          id="chat-message"
          value={text}
          autoComplete="off"
          maxLength={16_384}
          aria-describedby={proposedBy === null ? undefined : 'chat-proposed'}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value === '') setProposedBy(null);
          }}
        />
        <button type="submit" disabled={text.trim() === ''}>
          {label.send}
        </button>
      </div>
      {proposedBy !== null && (
        <p id="chat-proposed" className="host__chat-proposed" role="status">
          {label.proposedBy(proposedBy)}
        </p>
      )}
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
      {status === 'open' &&
        ` (${connection?.remoteUrl == null ? text.demoAgent : shownAgentUrl(connection.remoteUrl)})`}
    </span>
  );
}

/** The conversation shown, following the connection's choice. */
function useConversationId(connection: AgentConnection | null): string | null {
  return useSyncExternalStore(
    (listener) => connection?.onConversation(listener) ?? (() => {}),
    () => connection?.conversationId ?? null,
    () => null,
  );
}

/** The stored conversations, newest first, re-read whenever `tick` changes. */
function ConversationPicker({
  connection,
  conversationId,
  tick,
}: {
  readonly connection: AgentConnection;
  readonly conversationId: string;
  readonly tick: number;
}) {
  const text = useText();
  const [conversations, setConversations] = useState<readonly ConversationRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` is the signal to read the list again.
  useEffect(() => {
    let active = true;
    connection.store
      .list()
      .then((list) => active && setConversations(list))
      .catch(
        (caught: unknown) => active && setError(caught instanceof Error ? caught.message : String(caught)),
      );
    return () => {
      active = false;
    };
  }, [connection, conversationId, tick]);
  const fail = (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught));
  return (
    <div className="host__conversations">
      <label htmlFor="conversation-pick">{text.conversations}</label>
      <select
        id="conversation-pick"
        value={conversationId}
        onChange={(event) => void connection.switchTo(event.target.value).catch(fail)}
      >
        {conversations.some((record) => record.id === conversationId) ? null : (
          <option value={conversationId}>{text.untitled}</option>
        )}
        {conversations.map((record) => (
          <option key={record.id} value={record.id}>
            {record.title ?? text.untitled} · {new Date(record.updatedAt).toLocaleString(text.locale)}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => void connection.newConversation().catch(fail)}>
        {text.newConversation}
      </button>
      {error !== null && <span role="alert">{error}</span>}
    </div>
  );
}

/** A message built for the conversation shown at the moment it is sent (the host's own examples). */
class ForConversation {
  constructor(readonly build: (conversationId: string) => object) {}
}

function forConversation(value: object | ForConversation, conversationId: string): object {
  return value instanceof ForConversation ? value.build(conversationId) : value;
}

export function Conversation() {
  const runtime = useRuntime();
  const connection = runtime.status === 'ready' ? runtime.connection : null;
  const conversationId = useConversationId(connection);
  const text = useText();
  const { language } = useLanguage();
  const mcpViews = runtime.status === 'ready' ? runtime.mcpViews : null;
  // MCP views prepared ahead are in the language the host shows.
  useEffect(() => mcpViews?.setLanguage(language), [mcpViews, language]);
  // One model per conversation shown; a page load or a switch reads it back from the store.
  // What the user opened before the runtime was ready (an example, a pasted document) carries over to the
  // conversation that is then shown, instead of vanishing with the placeholder model.
  const previous = useRef<ConversationModel | null>(null);
  const hostRef = useRef(runtime.status === 'ready' ? runtime.host : null);
  hostRef.current = runtime.status === 'ready' ? runtime.host : null;
  const model = useMemo(() => {
    // A call of an installed MCP server's tool with a view shows that view (the host knows which).
    const next = new ConversationModel(conversationId ?? 'none', {
      mcpViewOf: (tool) => hostRef.current?.mcpViewOf(tool),
    });
    if (previous.current?.conversationId === 'none')
      for (const { key: _key, ...entry } of previous.current.entries) next.add(entry);
    previous.current = next;
    return next;
  }, [conversationId]);
  // The view renders at most once per frame, however many envelopes arrive in it (a burst).
  const snapshot = useMemo(
    () =>
      new FrameSnapshot(
        () => model.entries,
        (listener) => model.subscribe(listener),
        spaced(CONVERSATION_UPDATE_INTERVAL_MS),
      ),
    [model],
  );
  // The list renders from a deferred copy: during a burst React renders it in the background, interruptibly, so a
  // keystroke or a click is handled between two slices of that render instead of after all of it.
  const entries = useDeferredValue(
    useSyncExternalStore(snapshot.subscribe, snapshot.getSnapshot, snapshot.getSnapshot),
  );
  // How many of the latest entries are shown; it starts over with each conversation shown.
  const [windowed, setWindowed] = useState({ model, size: CONVERSATION_WINDOW });
  const windowSize = windowed.model === model ? windowed.size : CONVERSATION_WINDOW;
  const hiddenCount = Math.max(0, entries.length - windowSize);
  const shownEntries = hiddenCount === 0 ? entries : entries.slice(hiddenCount);
  const [loaded, setLoaded] = useState<{
    readonly model: ConversationModel;
    readonly states: ReadonlyMap<string, unknown>;
  } | null>(null);
  const [tick, setTick] = useState(0);
  const modelRef = useRef(model);
  modelRef.current = model;
  /** Live envelopes that arrive while the model is read back, applied after it (in order, deduplicated). */
  const early = useRef<ConversationMessage[] | null>([]);
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const refused = (message: string) => modelRef.current.add(refusedNote(message));

  const [instances] = useState(
    () =>
      new SurfaceInstances({
        onEvent: (event) => {
          const current = connectionRef.current;
          if (current === null) {
            refused('The runtime is not ready yet; the event was not sent.');
            return;
          }
          // The event goes back to the conversation that opened the Surface: the one shown.
          const to = current.conversationId;
          current
            .sendUIEvent(to, event)
            .then(({ message, delivery }) =>
              live({ direction: 'out', message, pending: delivery === 'queued' }),
            )
            .catch((error: unknown) =>
              refused(`The event was not sent: ${error instanceof Error ? error.message : 'unknown error'}`),
            );
        },
        onRejected: (instanceId, rejection) => {
          modelRef.current.add(rejectionNote(instanceId, rejection));
          if (rejection.reason === 'navigated') modelRef.current.removeSurface(instanceId);
        },
      }),
  );
  useEffect(() => () => instances.closeAll(), [instances]);
  // A Surface frame loads ahead, so the agent's first Surface opens without waiting for one.
  useEffect(() => prepareSurfaceFrame(document), []);
  useEffect(() => onHostProblem((message) => modelRef.current.add(refusedNote(message))), []);

  const effect = useCallback(
    (side: SideEffect | null) => {
      if (side?.kind === 'patch') instances.patch(side.payload);
      else if (side?.kind === 'close') instances.close(side.payload);
    },
    [instances],
  );
  /** One envelope from the connection, for the model shown (after its stored messages). */
  const live = (message: ConversationMessage) => {
    if (message.message.conversation_id !== modelRef.current.conversationId) {
      setTick((value) => value + 1); // another conversation moved: the list shows it
      return;
    }
    if (early.current !== null) early.current.push(message);
    else effect(modelRef.current.apply(message));
    if (message.message.type === 'lineup.v1.chat.user_message') setTick((value) => value + 1);
  };
  const liveRef = useRef(live);
  liveRef.current = live;

  // Read the conversation back from the store, then apply what arrived meanwhile.
  useEffect(() => {
    if (connection === null || conversationId === null) return;
    let active = true;
    early.current = [];
    setLoaded(null);
    (async () => {
      const [records, states] = await Promise.all([
        connection.store.allMessages(conversationId),
        connection.store.viewStates(conversationId),
      ]);
      if (!active) return;
      for (const record of records)
        model.apply({
          direction: record.direction,
          message: record.message,
          pending: record.pending !== undefined,
        });
      const waiting = early.current ?? [];
      early.current = null;
      for (const message of waiting) effect(model.apply(message));
      // What was read back shows with the loaded conversation, not a frame later (it would count as new).
      snapshot.flush();
      setLoaded({ model, states });
    })().catch((error: unknown) => {
      if (!active) return;
      early.current = null;
      snapshot.flush();
      setLoaded({ model, states: new Map() });
      model.add(
        refusedNote(
          `The conversation could not be read back: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
    return () => {
      active = false;
    };
  }, [connection, conversationId, model, snapshot, effect]);

  /** What the connection hands over: every envelope in and out, and problems. */
  const view: ConnectionView = {
    received: (message) => liveRef.current({ direction: 'in', message }),
    // The user's turn shows as soon as it is recorded, before the agent's acknowledgement or answer.
    queued: (message) => liveRef.current({ direction: 'out', message, pending: true }),
    sent: (message) => liveRef.current({ direction: 'out', message }),
    problem: (error) => {
      const note = refusalNote(error);
      if (note !== undefined) modelRef.current.add(note);
      else refused(error instanceof Error ? error.message : 'The agent connection failed.');
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
    for (const value of waitingForAgent.current.splice(0))
      connection.agent?.send(forConversation(value, connection.conversationId));
    return () => connection.attach(null);
  }, [connection]);

  /** A lineup.v1 message from the message box, sent from the agent's end of the in-process transport. */
  const waitingForAgent = useRef<(object | ForConversation)[]>([]);
  /**
   * Sends a `lineup.v1` message from the agent's end. An example is built for the conversation shown when it
   * goes out (`ForConversation`): one clicked before the runtime is ready waits, and must not go to the
   * placeholder conversation the page shows meanwhile.
   */
  const sendAsAgent = (value: object | ForConversation) => {
    if (connection === null) waitingForAgent.current.push(value);
    else if (connection.agent === null)
      refused(
        'A remote agent is connected: the message box cannot speak for it. Paste a DSL document instead.',
      );
    else connection.agent.send(forConversation(value, connection.conversationId));
  };

  // After Deliver the button is disabled (the box is empty again), so focus would fall to <body>: it moves to
  // what the delivery produced, once that arrives (an interface, or the note that refused it).
  const focusAfter = useRef<number | null>(null);
  const deliver = (value: unknown) => {
    focusAfter.current = model.entries.at(-1)?.key ?? -1;
    if (isEnvelope(value)) sendAsAgent(value as object);
    else model.add({ kind: 'document', label: 'Pasted document', document: value });
  };
  /** Where focus goes next: an entry (by key), or the conversation's heading. */
  const focusTarget = useRef<number | 'heading' | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // New interfaces are announced by name in a polite live region; the ones read back at load are not new.
  const [announcement, setAnnouncement] = useState('');
  const announced = useRef<{ model: ConversationModel; lastKey: number } | null>(null);
  const shownModel = loaded?.model === model ? model : null;
  useEffect(() => {
    if (shownModel === null) return;
    const lastKey = entries.at(-1)?.key ?? 0;
    if (announced.current?.model !== shownModel) {
      announced.current = { model: shownModel, lastKey };
      return;
    }
    // Keys grow and new entries are appended: the fresh ones are the tail after the last key known.
    const known = announced.current.lastKey;
    let start = entries.length;
    while (start > 0 && (entries[start - 1]?.key ?? 0) > known) start--;
    const fresh = entries.slice(start);
    announced.current.lastKey = Math.max(known, lastKey);
    const interfaces = fresh.filter((entry) => INTERFACE_KINDS.has(entry.kind));
    if (interfaces.length > 0)
      setAnnouncement(interfaces.map((entry) => text.newInterface(entryName(text, entry))).join(' '));
  }, [entries, shownModel, text]);

  useEffect(() => {
    const after = focusAfter.current;
    if (after !== null) {
      const target = entries.find(
        (entry) =>
          entry.key > after &&
          (INTERFACE_KINDS.has(entry.kind) || (entry.kind === 'note' && entry.tone === 'refused')),
      );
      if (target !== undefined) {
        focusAfter.current = null;
        focusTarget.current = target.key;
      }
    }
    const target = focusTarget.current;
    if (target === null) return;
    const element =
      target === 'heading'
        ? heading.current
        : list.current?.querySelector<HTMLElement>(`[data-entry-key="${target}"]`);
    if (element) {
      focusTarget.current = null;
      element.focus();
    }
  });

  /**
   * The user closed a Surface (or an MCP view, `view:<call id>`): focus goes to the entry shown after it (or before
   * it, or the heading).
   */
  const closeSurface = (instanceId: string) => {
    const viewCall = instanceId.startsWith('view:') ? instanceId.slice('view:'.length) : undefined;
    const index = shownEntries.findIndex((entry) =>
      viewCall !== undefined
        ? entry.kind === 'mcp_view' && entry.callId === viewCall
        : entry.kind === 'surface' && entry.payload.instance_id === instanceId,
    );
    const neighbour = shownEntries[index + 1] ?? shownEntries[index - 1];
    focusTarget.current = neighbour?.key ?? 'heading';
    if (viewCall !== undefined) {
      model.removeView(viewCall);
      return;
    }
    instances.userClose(instanceId);
    model.removeSurface(instanceId);
  };
  const closeSurfaceRef = useRef(closeSurface);
  closeSurfaceRef.current = closeSurface;
  // Stable, so the memoized entries do not render again because this render made a new function.
  const onUserClose = useCallback((instanceId: string) => closeSurfaceRef.current(instanceId), []);

  /** Shows the next `CONVERSATION_WINDOW` earlier entries; once none is hidden, focus goes to the first one. */
  const showEarlier = () => {
    if (hiddenCount <= CONVERSATION_WINDOW) focusTarget.current = entries[0]?.key ?? 'heading';
    setWindowed({ model, size: windowSize + CONVERSATION_WINDOW });
  };

  const sendUserMessage = async (message: string) => {
    if (connection === null) {
      refused('The runtime is not ready yet.');
      return;
    }
    try {
      const result = await connection.sendUserMessage(message);
      live({ direction: 'out', message: result.message, pending: result.delivery === 'queued' });
      // The agent may answer with a tool whose view then shows at once.
      mcpViews?.prepareLikely();
    } catch (error) {
      refused(`Not sent: ${error instanceof Error ? error.message : 'unknown error'}`);
      throw error;
    }
  };

  const states = loaded?.model === model ? loaded.states : null;
  /** DSL 1.1 invoke buttons of the agent's interfaces go to the runtime's action ledger (runner). */
  const runner = runtime.status === 'ready' ? runtime.actions : null;
  const receipts = runtime.status === 'ready' ? runtime.receipts : null;
  const actions = useMemo<EntryActions | null>(
    () =>
      runner !== null && receipts !== null && conversationId !== null
        ? { runner, receipts, conversationId }
        : null,
    [runner, receipts, conversationId],
  );
  const saveViewState = useCallback(
    (key: string, state: unknown) => {
      if (connection === null || conversationId === null) return;
      connection.store
        .saveViewState(conversationId, key, state)
        .catch((error: unknown) =>
          modelRef.current.add(
            refusedNote(
              `The interface's state was not saved: ${error instanceof Error ? error.message : String(error)}`,
            ),
          ),
        );
    },
    [connection, conversationId],
  );

  return (
    <section
      className="host__conversation"
      aria-labelledby="conversation-title"
      aria-busy={states === null}
      data-conversation-id={conversationId ?? undefined}
    >
      <div className="host__conversation-head">
        <h2 id="conversation-title" ref={heading} tabIndex={-1}>
          {text.conversation}
        </h2>
        <ConnectionStatus connection={connection} text={text} />
      </div>
      {connection !== null && conversationId !== null && (
        <ConversationPicker connection={connection} conversationId={conversationId} tick={tick} />
      )}
      {entries.length === 0 && states !== null && <p className="host__empty">{text.empty}</p>}
      <p className="host__visually-hidden" role="status" aria-live="polite" data-testid="announcer">
        {announcement}
      </p>
      {states !== null && hiddenCount > 0 && (
        <div className="host__earlier">
          <span>{text.earlierHidden(hiddenCount)}</span>{' '}
          <button type="button" onClick={showEarlier}>
            {text.showEarlier}
          </button>
        </div>
      )}
      <ol className="host__entries" ref={list}>
        {states !== null &&
          shownEntries.map((entry) => (
            <EntryItem
              key={`${model.conversationId}:${entry.key}`}
              entry={entry}
              text={text}
              actions={actions}
              instances={instances}
              savedState={
                entry.kind === 'document' || entry.kind === 'checkpoints'
                  ? states.get(entry.viewKey ?? '')
                  : undefined
              }
              saveViewState={saveViewState}
              onUserClose={onUserClose}
            />
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
              data-example={example.key}
              onClick={() =>
                example.sentByAgent === true && connection?.agent !== null
                  ? sendAsAgent(
                      new ForConversation((id) =>
                        exampleDocumentEnvelope(id, crypto.randomUUID(), example.document),
                      ),
                    )
                  : model.add({ kind: 'document', label: example.label, document: example.document })
              }
            >
              {labelText(text, example.label)}
            </button>
          ))}
          <button
            type="button"
            data-example="stream"
            onClick={() => model.add({ kind: 'stream', label: 'Streamed interface' })}
          >
            {labelText(text, 'Streamed interface')}
          </button>
          <button
            type="button"
            data-example="surface"
            onClick={() =>
              sendAsAgent(new ForConversation((id) => weatherOpenEnvelope(id, crypto.randomUUID())))
            }
          >
            {text.inlineSurface}
          </button>
        </fieldset>
        <PasteForm onValue={deliver} />
      </div>
    </section>
  );
}

/** What an agent interface needs to run its `invoke` actions. */
interface EntryActions {
  readonly runner: ActionRunner;
  readonly receipts: ActionReceipts;
  readonly conversationId: string;
}

/**
 * The renderer's `onInvoke` for one conversation: the click's request goes to the action ledger, which re-derives
 * it from the document the agent sent (never from what the page says), asks the user by risk and runs it.
 */
function invokeHandler(actions: EntryActions): UIInvokeHandler {
  return (request) => {
    if (request.documentRef === undefined)
      return Promise.reject(new Error('This interface has no document reference.'));
    return actions.runner.submit(
      actions.conversationId,
      {
        documentRef: request.documentRef,
        requestId: request.requestId,
        actionId: request.actionId,
        values: request.values,
      },
      request.report,
    );
  };
}

/** An interface the agent sent: its actions run through the ledger, and its kept receipts are shown. */
function AgentDocument({
  document,
  documentRef,
  actions,
  locale,
  stateProps,
}: {
  readonly document: unknown;
  readonly documentRef: UIDocumentRef | undefined;
  readonly actions: EntryActions | null;
  readonly locale: string;
  readonly stateProps: { readonly savedState?: unknown; readonly onStateChange?: (state: unknown) => void };
}) {
  const onInvoke = useMemo(() => (actions === null ? undefined : invokeHandler(actions)), [actions]);
  const receipts = useReceipts(actions?.receipts ?? null, actions?.conversationId ?? null, documentRef);
  return (
    <IntelligentUIView
      document={document}
      locale={locale}
      headingLevel={INTERFACE_HEADING_LEVEL}
      {...(documentRef === undefined ? {} : { documentRef })}
      {...(onInvoke === undefined ? {} : { onInvoke, receipts })}
      {...stateProps}
    />
  );
}

function AgentStream({
  stream,
  interrupted,
  actions,
  locale,
  stateProps,
}: {
  readonly stream: UIStreamState;
  readonly interrupted: boolean;
  readonly actions: EntryActions | null;
  readonly locale: string;
  readonly stateProps: { readonly savedState?: unknown; readonly onStateChange?: (state: unknown) => void };
}) {
  const onInvoke = useMemo(() => (actions === null ? undefined : invokeHandler(actions)), [actions]);
  const { sourceCallId, uiId, generation, revision } = stream;
  const ref = useMemo(
    () => ({ sourceCallId, uiId, generation, revision }),
    [sourceCallId, uiId, generation, revision],
  );
  const receipts = useReceipts(actions?.receipts ?? null, actions?.conversationId ?? null, ref);
  return (
    <IntelligentUIStreamView
      stream={stream}
      interrupted={interrupted}
      locale={locale}
      headingLevel={INTERFACE_HEADING_LEVEL}
      {...(onInvoke === undefined ? {} : { onInvoke, receipts })}
      {...stateProps}
    />
  );
}

/**
 * One entry of the list. Memoized: when envelopes arrive, only the entries they add or change render; the others
 * (and their Markdown, their documents' validation) are left as they are.
 */
const EntryItem = memo(function EntryItem({
  entry,
  text,
  actions,
  instances,
  savedState,
  saveViewState,
  onUserClose,
}: {
  readonly entry: Entry;
  readonly text: HostText;
  readonly actions: EntryActions | null;
  readonly instances: SurfaceInstances;
  readonly savedState: unknown;
  readonly saveViewState: (viewKey: string, state: unknown) => void;
  readonly onUserClose: (instanceId: string) => void;
}) {
  const viewKey = entry.kind === 'document' || entry.kind === 'checkpoints' ? entry.viewKey : undefined;
  const onStateChange = useMemo(
    () => (viewKey === undefined ? undefined : (state: unknown) => saveViewState(viewKey, state)),
    [saveViewState, viewKey],
  );
  return (
    <li
      className={`host__entry host__entry--${entry.kind}`}
      aria-label={entryName(text, entry)}
      data-entry-key={entry.key}
      tabIndex={-1}
    >
      <EntryView
        entry={entry}
        text={text}
        actions={actions}
        instances={instances}
        savedState={savedState}
        onStateChange={onStateChange}
        onUserClose={onUserClose}
      />
    </li>
  );
});

/** An agent's chat turn: its Markdown as a one-node document, made once per text. */
function AgentChatText({ entryKey, text }: { readonly entryKey: number; readonly text: string }) {
  const document = useMemo(() => markdownDocument(entryKey, text), [entryKey, text]);
  return <IntelligentUIView document={document} headingLevel={INTERFACE_HEADING_LEVEL} />;
}

/** The reference of a document the agent sent as `ui.document` (its envelope id is the source call). */
function documentRefOf(entry: Extract<Entry, { kind: 'document' }>): UIDocumentRef | undefined {
  const document = entry.document as { id?: unknown } | null;
  if (entry.viewKey === undefined || typeof document?.id !== 'string') return undefined;
  return { sourceCallId: entry.viewKey, uiId: document.id, generation: 0, revision: 0 };
}

function EntryView({
  entry,
  text,
  actions,
  instances,
  savedState,
  onStateChange,
  onUserClose,
}: {
  readonly entry: Entry;
  readonly text: HostText;
  readonly actions: EntryActions | null;
  readonly instances: SurfaceInstances;
  readonly savedState: unknown;
  readonly onStateChange: ((state: unknown) => void) | undefined;
  readonly onUserClose: (instanceId: string) => void;
}) {
  const stateProps = {
    ...(savedState === undefined ? {} : { savedState }),
    ...(onStateChange === undefined ? {} : { onStateChange }),
  };
  switch (entry.kind) {
    case 'document':
      // A document the agent sent (recorded, with its envelope id) can run actions; a local one cannot.
      return entry.viewKey === undefined ? (
        <IntelligentUIView
          document={entry.document}
          locale={text.locale}
          headingLevel={INTERFACE_HEADING_LEVEL}
          {...stateProps}
        />
      ) : (
        <AgentDocument
          document={entry.document}
          documentRef={documentRefOf(entry)}
          actions={actions}
          locale={text.locale}
          stateProps={stateProps}
        />
      );
    case 'stream':
      return <StreamEntry id={entry.key} />;
    case 'checkpoints':
      return (
        <AgentStream
          stream={entry.stream}
          interrupted={entry.interrupted === true}
          actions={actions}
          locale={text.locale}
          stateProps={stateProps}
        />
      );
    case 'surface':
      return (
        <SurfaceEntry
          payload={entry.payload}
          state={entry.state}
          instances={instances}
          onUserClose={() => onUserClose(entry.payload.instance_id)}
        />
      );
    case 'mcp_view':
      return (
        <Suspense fallback={<p className="host__empty">{text.mcpView.loading}</p>}>
          <McpViewEntry entry={entry} onClose={() => onUserClose(`view:${entry.callId}`)} />
        </Suspense>
      );
    case 'chat':
      return (
        <div className={`host__chat-turn host__chat-turn--${entry.from}`}>
          <span className="host__chat-from">{entry.from === 'user' ? text.you : text.agent}</span>
          {entry.via !== undefined && <span className="host__chat-via">{text.viaAction(entry.via)}</span>}
          {entry.from === 'user' ? (
            <p className="host__chat-text">{entry.text}</p>
          ) : (
            <AgentChatText entryKey={entry.key} text={entry.text} />
          )}
          {entry.pending === true && <span className="host__pending">{text.queued}</span>}
        </div>
      );
    case 'note':
      return (
        <div className={`host__note host__note--${entry.tone}`}>
          <span className="host__note-label">{entry.tone === 'to-agent' ? text.toAgent : text.refused}</span>{' '}
          <code>{entry.text}</code>
          {entry.pending === true && <span className="host__pending">{text.queued}</span>}
          {entry.detail !== undefined && (
            <details className="host__note-detail">
              <summary>{text.wholeMessage}</summary>
              <pre>{entry.detail}</pre>
            </details>
          )}
        </div>
      );
  }
}
