/**
 * The LineUp client's side of the agent connection (seed 000 §3, §5.1; seed 003 §4), framework-free, modelled on
 * remote-dom's `createRemoteConnection` and the MCP SDK's `Protocol`: it owns one `AgentTransport`, reads every
 * incoming frame as a `lineup.v1` envelope travelling agent → client, dispatches it by type to typed handlers
 * (documents, checkpoints and Surfaces to the host's views, tool calls to the runtime, capability calls to the
 * host), and builds every outgoing envelope (`v`, a unique `id`, `conversation_id`, `sender`) and validates it
 * before it is sent.
 *
 * Every frame gets a definite answer, or a documented reason for none (docs/protocol.md "What the client answers"):
 * - a message it takes is handled once and, where the transport takes acknowledgements, acknowledged once taken;
 * - a message of a type or version it does not know, or that names a conversation outside this session, is
 *   answered `lineup.v1.unsupported` by id (a call: its own result), and runs nothing;
 * - a message whose id and conversation are readable but that is invalid — its payload, its document, its stream
 *   frame, or what the host's `check` refuses — is answered by id with the located issues (a call: its own result,
 *   `invalid_message`), recorded nowhere and shown nowhere;
 * - a frame with nothing to answer in (not JSON, no readable conversation, over the envelope budget with its header
 *   unreadable) is refused at the connection level (`transport.refuse`: a WebSocket close code), as is a flood past
 *   `maxWaitingFrames`.
 * An answer's envelope id is derived from what it answers, so an answer sent again is a copy the agent can drop.
 *
 * Session start (seed 000 §5.1): whenever the transport opens, each open conversation gets the current
 * `client.inventory` first. A conversation is of this session once it got the inventory on this connection: the
 * agent acts only there (seed 003 §2.3 "不能…跨会话操控"), and the client announces a conversation before it
 * sends anything else into it. Outbox rows (tool progress and results, inventory changes) become envelopes whose
 * `id` is derived from the row, so a row sent again after a reconnect carries the same id and the agent can drop
 * the copy. Incoming envelopes are deduplicated by `id` too, within a bounded window; calls are deduplicated by the
 * runtime by `call_id` instead, so a call sent again is answered again from its record.
 *
 * With a `journal` (a `ConversationStore`), every envelope in and out is recorded per conversation, incoming ids
 * are deduplicated across reloads, and the user's own messages (chat turns, Surface events) are recorded before
 * they are sent: while the agent is away they wait, and go out in order, with their ids, at the next session
 * start — nothing the user said is lost.
 */
import type { LineUpPayloadOf, UIActionPayload, ViewContext } from '@lineup/shared/protocol';
import type { OutboxMessage } from '../outbox/delivery.js';
import {
  AGENT_CLIENT_LIMITS,
  type AgentClientHandlers,
  type AgentClientLimits,
  type AgentClientOptions,
  type AgentClientSendResult,
  type AgentConnectionStatus,
} from './agent-client-options.js';
import { Answers } from './answers.js';
import { ConnectionStatus } from './connection-status.js';
import { DRAIN_BATCH } from './drain-pacing.js';
import { Inbound } from './inbound.js';
import { Outgoing } from './outgoing.js';
import { AgentSession } from './session.js';
import type { TransportListener } from './transport.js';

// What this module exported before its parts moved beside it: importers of the client find them here too.
export { AgentClientError } from './agent-client-error.js';
export {
  type ActionAnswerReceiver,
  AGENT_CLIENT_LIMITS,
  type AgentClientHandlers,
  type AgentClientLimits,
  type AgentClientOptions,
  type AgentClientSendResult,
  type AgentConnectionStatus,
  type CapabilityCallReceiver,
  type ToolCallReceiver,
} from './agent-client-options.js';

const CLIENT_ID = /^[\x21-\x7e]{1,64}$/;

/**
 * The client: it connects the transport and owns the parts that do the work — the session (`session.ts`), what
 * comes in (`inbound.ts`) and what goes out (`outgoing.ts`, `answers.ts`) — which share its options, its handlers
 * and its connection status.
 */
export class AgentClient {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #status: ConnectionStatus;
  readonly #outgoing: Outgoing;
  readonly #session: AgentSession;
  readonly #inbound: Inbound;
  /** Incoming frames are handled one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();

  constructor(options: AgentClientOptions) {
    if (!CLIENT_ID.test(options.clientId))
      throw new TypeError('AgentClient: clientId must be 1–64 printable ASCII characters without spaces.');
    this.#options = options;
    const handlers = options.handlers ?? {};
    this.#handlers = handlers;
    const limits: AgentClientLimits = { ...AGENT_CLIENT_LIMITS, ...options.limits };
    this.#status = new ConnectionStatus(handlers);
    this.#outgoing = new Outgoing(options, handlers, this.#status);
    this.#session = new AgentSession(options, handlers, this.#outgoing, this.#status);
    const answers = new Answers(options, handlers, this.#outgoing);
    this.#inbound = new Inbound(options, handlers, limits, this.#session, answers, (task) =>
      this.#enqueue(task),
    );
  }

  get status(): AgentConnectionStatus {
    return this.#status.current;
  }

  get conversations(): readonly string[] {
    return this.#session.conversations;
  }

  /** Connects the transport; the session starts when it opens (and again after every reconnect). */
  start(): void {
    if (this.#status.current !== 'idle') return;
    this.#status.set('connecting');
    void this.#inbound.readRecent();
    const inbound = this.#inbound;
    const listener: TransportListener = {
      opened: () => {
        inbound.opened();
        // Frames still waiting from the connection before (refused as overloaded, or lost) are taken in first, and
        // the session starts after them: an agent that sends again what it missed once it has the inventory finds
        // the room it needs. What arrives on this connection meanwhile waits its turn.
        const backlogEnd = inbound.framesReceived;
        // Connected, but not in session until the backlog is in: the host shows "connecting", not "closed".
        if (inbound.framesTaken < backlogEnd) this.#status.set('connecting');
        this.#enqueue(async () => {
          while (inbound.framesTaken < backlogEnd)
            await inbound.drain(Math.min(DRAIN_BATCH, backlogEnd - inbound.framesTaken));
          await this.#session.start();
        });
      },
      received: (text) => inbound.received(text),
      closed: (error) => {
        this.#session.end();
        // One report per outage: the failed attempts of a transport retrying while closed are not news.
        const report = error !== undefined && this.#status.current !== 'closed';
        this.#status.set('closed');
        if (report) this.#handlers.problem?.(error);
      },
    };
    this.#options.transport.connect(listener);
  }

  /** Stops for good. */
  stop(): void {
    this.#options.transport.close();
    this.#status.set('closed');
  }

  /** Opens a conversation the user started; once connected, it gets the inventory first. */
  openConversation(conversationId: string): Promise<void> {
    return this.#session.open(conversationId);
  }

  /**
   * Sends what the user said. Throws `AgentClientError` `invalid_message` for text the protocol refuses; while
   * the agent is away, `not_connected` — or, with a journal, the message is queued and goes out at the next
   * session start (`delivery: 'queued'`). `options.viewContext`: the latest context of each MCP App view that set
   * one since the user's last turn (`ViewContext` of `@lineup/shared/protocol`, at most 8, one per call), sent with
   * this turn as its `view_context`; refused like the text when it is not one.
   */
  async sendUserMessage(
    conversationId: string,
    text: string,
    options: { readonly viewContext?: readonly ViewContext[] } = {},
  ): Promise<AgentClientSendResult> {
    const viewContext = options.viewContext ?? [];
    const message = this.#outgoing.build(
      conversationId,
      'lineup.v1.chat.user_message',
      viewContext.length === 0 ? { text } : { text, view_context: [...viewContext] },
      this.#outgoing.newId(),
    );
    await this.openConversation(conversationId);
    return this.#session.sendQueued(message);
  }

  /** Sends a Surface's `ui.event` (the user's intent, from `@lineup/surface-host`); queued like a chat turn. */
  async sendUIEvent(
    conversationId: string,
    payload: LineUpPayloadOf<'lineup.v1.ui.event'>,
  ): Promise<AgentClientSendResult> {
    const message = this.#outgoing.build(
      conversationId,
      'lineup.v1.ui.event',
      payload,
      this.#outgoing.newId(),
    );
    // Like the user's other turns: the conversation is announced (its inventory first) before the event goes.
    await this.openConversation(conversationId);
    return this.#session.sendQueued(message);
  }

  /**
   * Sends a DSL agent action (`lineup.v1.ui.action`, from an `ActionRunner`) as the user's next turn; recorded and
   * queued like a chat turn, so it reaches the agent once, also after a reload while the agent is away.
   */
  async sendUIAction(conversationId: string, payload: UIActionPayload): Promise<AgentClientSendResult> {
    const message = this.#outgoing.build(
      conversationId,
      'lineup.v1.ui.action',
      payload,
      this.#outgoing.newId(),
    );
    await this.openConversation(conversationId);
    return this.#session.sendQueued(message);
  }

  /**
   * Sends one outbox row as envelopes (a tool answer to its conversation; an inventory to every open
   * conversation, unless a newer revision superseded it), with ids derived from the row. Throws when not connected, so the row stays pending: use it
   * as `OutboxDelivery.deliver`'s `send`.
   */
  sendOutboxMessage(message: OutboxMessage): Promise<void> {
    return this.#session.sendOutboxMessage(message);
  }

  /** The inventory revision last sent to `conversationId` on this client, if any. */
  inventoryRevisionSent(conversationId: string): string | undefined {
    return this.#session.revisionSent(conversationId);
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => this.#handlers.problem?.(error));
  }
}
