/**
 * The conversation panel, view code over the agent connection (agent/connection.ts, `AgentClient`) and the
 * conversation model (model.ts): chat turns, DSL interfaces (@lineup/renderer-react), inline Surfaces
 * (@lineup/surface-host) and the log of what the client sends the agent. The conversation shown is read back from
 * the runtime database when the page loads or the user picks another one (feed.ts), so a reload changes nothing on
 * screen; each interface's local state is kept as it changes. A pasted lineup.v1 message is sent from the agent's
 * end of the in-process transport, so it takes exactly the path of a remote agent's; a pasted document is shown as
 * it is.
 *
 * Its parts: the head (ConnectionStatus.tsx, ConversationPicker.tsx), the entries (EntryItem.tsx, by kind), the
 * announcer (announcement.ts) and the composer (ChatForm.tsx, ExampleButtons.tsx, PasteForm.tsx).
 */

import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { AgentConnection } from '../agent/connection.ts';
import { useLanguage, useText } from '../i18n/LanguageProvider.tsx';
import { useRuntime } from '../runtime.tsx';
import { FrameSnapshot, spaced } from '../scheduling/per-frame.ts';
import { useInterfaceAnnouncement } from './announcement.ts';
import { ChatForm } from './ChatForm.tsx';
import { ConnectionStatus } from './ConnectionStatus.tsx';
import { ConversationPicker } from './ConversationPicker.tsx';
import { EntryItem } from './EntryItem.tsx';
import { ExampleButtons } from './ExampleButtons.tsx';
import type { EntryActions } from './entry-actions.ts';
import { useConversationFeed } from './feed.ts';
import { INTERFACE_KINDS } from './interface-entries.ts';
import { ConversationModel, mcpViewStateKey } from './model.ts';
import { PasteForm } from './PasteForm.tsx';
import { isEnvelope } from './sent-as-agent.ts';
import { VIEW_CONTEXTS_STATE_KEY } from './view-context.ts';

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

/** The conversation shown, following the connection's choice. */
function useConversationId(connection: AgentConnection | null): string | null {
  return useSyncExternalStore(
    (listener) => connection?.onConversation(listener) ?? (() => {}),
    () => connection?.conversationId ?? null,
    () => null,
  );
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
  const { instances, loaded, tick, refused, live, sendAsAgent } = useConversationFeed(
    connection,
    conversationId,
    model,
    snapshot,
  );

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

  const shownModel = loaded?.model === model ? model : null;
  const announcement = useInterfaceAnnouncement(entries, shownModel, text);

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
    // What the views said since the last turn goes with it, once; a turn that was not sent gives it back.
    const conversation = connection.conversationId;
    const taken = mcpViews?.contexts.take(conversation) ?? [];
    try {
      // The store knows they were taken before the turn is recorded: a reload never sends them a second time.
      if (taken.length > 0) await mcpViews?.contexts.settled();
      const result = await connection.sendUserMessage(
        message,
        taken.map((item) => item.context),
      );
      live({ direction: 'out', message: result.message, pending: result.delivery === 'queued' });
      // The agent may answer with a tool whose view then shows at once.
      mcpViews?.prepareLikely();
    } catch (error) {
      mcpViews?.contexts.giveBack(conversation, taken);
      refused(`Not sent: ${error instanceof Error ? error.message : 'unknown error'}`);
      throw error;
    }
  };

  // Whose views told the agent something that waits for the next message (the composer says so).
  const [, setContextsChanged] = useState(0);
  useEffect(() => mcpViews?.contexts.onChange(() => setContextsChanged((value) => value + 1)), [mcpViews]);
  const viewsSaying =
    mcpViews === null || conversationId === null
      ? []
      : [...new Set(mcpViews.contexts.waiting(conversationId).map((item) => item.server))];

  const states = loaded?.model === model ? loaded.states : null;
  // What the views said and the user has not sent yet is kept with the conversation: a reload loses none of it.
  useEffect(() => {
    if (mcpViews === null || connection === null) return;
    return mcpViews.contexts.keepIn({
      save: (conversation, waiting) =>
        connection.store
          .saveViewState(conversation, VIEW_CONTEXTS_STATE_KEY, waiting)
          .catch((error: unknown) =>
            refused(
              `What the views said for your next message was not kept: ${error instanceof Error ? error.message : String(error)}`,
            ),
          ),
    });
  }, [mcpViews, connection, refused]);
  useEffect(() => {
    if (mcpViews !== null && conversationId !== null && states !== null)
      mcpViews.contexts.restore(conversationId, states.get(VIEW_CONTEXTS_STATE_KEY));
  }, [mcpViews, conversationId, states]);
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
          refused(
            `The interface's state was not saved: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    },
    [connection, conversationId, refused],
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
                  : entry.kind === 'mcp_view'
                    ? states.get(mcpViewStateKey(entry.callId))
                    : undefined
              }
              saveViewState={saveViewState}
              onUserClose={onUserClose}
            />
          ))}
      </ol>
      <div className="host__composer">
        <ChatForm onSend={sendUserMessage} viewsSaying={viewsSaying} />
        <ExampleButtons
          agentSends={connection?.agent !== null}
          sendAsAgent={sendAsAgent}
          show={(entry) => model.add(entry)}
        />
        <PasteForm onValue={deliver} />
      </div>
    </section>
  );
}
