/**
 * The agent console: a protocol inspector in the host, in the spirit of MCP's Inspector. It speaks as the agent
 * (`connection.agent`, the in-process agent end, so a call takes exactly the path of an agent's message) and
 * shows what the client answers:
 *
 * - the tool caller (ToolCaller.tsx, FieldInput.tsx): any Agent Tool of the current inventory, a form generated
 *   from its input schema (schema-form.ts), checked before a `lineup.v1.tool.call` is built and sent (tool-call.ts);
 * - each call's progress receipts and final result, live (CallList.tsx);
 * - the message log of every envelope in and out (MessageLogView.tsx, over message-log.ts);
 * - what MCP App views logged, never sent to the agent (ViewLogView.tsx, over conversation/view-log.ts).
 *
 * View code only: the pure rules live beside it. With a remote agent connected the console cannot speak for it,
 * so the caller is off and only the log runs; so it is with no agent at all (an agent link not answered yet, or
 * declined). The panel also lists the agents allowed from page links in this browser, each with "Forget".
 */
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AgentConnection, LoggedMessage } from '../agent/connection.ts';
import { RememberedAgentsList } from '../agent/RememberedAgentsList.tsx';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useAgentLink, useRuntime } from '../runtime.tsx';
import { FrameBatch } from '../scheduling/per-frame.ts';
import { CallList } from './CallList.tsx';
import { MessageLogView } from './MessageLogView.tsx';
import { appendAllToLog, EMPTY_MESSAGE_LOG, type MessageLog } from './message-log.ts';
import { ToolCaller } from './ToolCaller.tsx';
import { addWatchedCall, observe, type WatchedCall } from './tool-call.ts';
import { ViewLogView } from './ViewLogView.tsx';

/** The agent console panel: collapsed until opened, listening from the moment the runtime is ready. */
export function AgentConsole() {
  const runtime = useRuntime();
  const agentLink = useAgentLink();
  const text = useText().agentConsole;
  const [open, setOpen] = useState(false);
  return (
    <section className="host__console" aria-labelledby="console-title">
      <div className="host__console-head">
        <h2 id="console-title">{text.title}</h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="console-body"
          onClick={() => setOpen((current) => !current)}
        >
          {open ? text.hide : text.show}
        </button>
      </div>
      {/* Hidden, not unmounted: the log keeps listening while the panel is closed. */}
      <div id="console-body" className="host__console-body" hidden={!open}>
        <p className="host__console-intro">{text.intro}</p>
        {runtime.status === 'loading' && <p className="host__empty">{text.starting}</p>}
        {runtime.status === 'error' && <p className="host__empty">{text.unavailable}</p>}
        {runtime.status === 'ready' && (
          <>
            <ConsoleView connection={runtime.connection} initialInventory={runtime.inventory} open={open} />
            <ViewLogView log={runtime.mcpViews.log} text={text} />
          </>
        )}
        {agentLink !== null && <RememberedAgentsList gate={agentLink} />}
      </div>
    </section>
  );
}

export interface ConsoleViewProps {
  readonly connection: AgentConnection;
  /** The inventory when the runtime became ready; every inventory the client sends afterwards replaces it. */
  readonly initialInventory: ClientInventoryPayload;
  /** Whether the panel is open (the log follows new messages only then); open unless told. */
  readonly open?: boolean;
}

/** The console over a ready runtime. Exported for tests, which render it with a stand-in connection. */
export function ConsoleView({ connection, initialInventory, open = true }: ConsoleViewProps) {
  const text = useText().agentConsole;
  const [log, setLog] = useState<MessageLog>(EMPTY_MESSAGE_LOG);
  const [calls, setCalls] = useState<readonly WatchedCall[]>([]);
  const [inventory, setInventory] = useState(initialInventory);
  const status = useSyncExternalStore(
    (listener) => connection.onStatus(listener),
    () => connection.status,
    () => connection.status,
  );

  useEffect(() => {
    // A burst of envelopes reaches the log and the calls once per frame, not once per envelope.
    const batch = new FrameBatch<LoggedMessage>((entries) => {
      setLog((current) => appendAllToLog(current, entries));
      setCalls((current) => entries.reduce(observe, current));
    });
    const stop = connection.onMessage((entry: LoggedMessage) => {
      batch.add(entry);
      const { message } = entry;
      // What the agent sees is what the client sent: the tools and revision of the latest inventory.
      if (
        entry.direction === 'out' &&
        message.type === 'lineup.v1.client.inventory' &&
        message.conversation_id === connection.conversationId
      )
        setInventory(message.payload);
    });
    return () => {
      stop();
      batch.cancel();
    };
  }, [connection]);

  return (
    <div className="host__console-sections">
      <ToolCaller
        connection={connection}
        inventory={inventory}
        connected={status === 'open'}
        onSent={(call) => setCalls((current) => addWatchedCall(current, call))}
        text={text}
      />
      <CallList calls={calls} text={text} />
      <MessageLogView log={log} text={text} open={open} />
    </div>
  );
}
