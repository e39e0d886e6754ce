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
import {
  hashCanonicalJSON,
  LineUpError,
  LineUpProtocolError,
  parseDocument,
  type UIIssue,
  UISchemaError,
  UIStreamError,
} from '@lineup/shared';
import {
  type AppCallPayload,
  type AppResultPayload,
  type ClientInventoryPayload,
  type InvalidEnvelope,
  type LineUpConnectionRefusal,
  type LineUpMessage,
  type LineUpMessageOf,
  type LineUpMessageType,
  type LineUpPayloadOf,
  type LineUpUnsupportedReason,
  parseEnvelope,
  readEnvelopeText,
  type ToolCallPayload,
  type UIActionAnswerPayload,
  type UIActionPayload,
  type UnsupportedEnvelope,
  wireIssues,
} from '@lineup/shared/protocol';
import type { ConversationJournal } from '../conversations/conversation-store.js';
import type { OutboxMessage } from '../outbox/delivery.js';
import type { ToolCallAnswer, ToolCallDisposition } from '../tools/intake.js';
import { StreamReceivers } from './stream-receivers.js';
import type { SurfaceReferenceChecker } from './surface-reference.js';
import type { AgentTransport, TransportListener } from './transport.js';

/** The connection's state, for a status indicator. */
export type AgentConnectionStatus = 'idle' | 'connecting' | 'open' | 'closed';

type Message<T extends LineUpMessageType> = LineUpMessageOf<T>;

/** What the host does with what the agent sends. Every handler is optional; errors are reported, not thrown. */
export interface AgentClientHandlers {
  /**
   * Called with each message before it is recorded or shown: throw a `LineUpProtocolError` to refuse it — the
   * agent is answered `invalid_message` with its issues (paths below `payload`), and nothing else happens. For the
   * host's own rules that the wire schema cannot state (the Surface host's markup rules of an inline bundle).
   */
  check?(message: LineUpMessage): void;
  /** A valid document: `payload.document` is the frozen copy `parseDocument` returned (no need to validate again). */
  document?(message: Message<'lineup.v1.ui.document'>): void;
  checkpoint?(message: Message<'lineup.v1.ui.checkpoint'>): void;
  surfaceOpen?(message: Message<'lineup.v1.ui.open'>): void;
  surfacePatch?(message: Message<'lineup.v1.ui.patch'>): void;
  surfaceClose?(message: Message<'lineup.v1.ui.close'>): void;
  agentMessage?(message: Message<'lineup.v1.chat.agent_message'>): void;
  /** A capability call; answered `unsupported` when absent (the host declares no capability). */
  appCall?(message: Message<'lineup.v1.app.call'>): AppResultPayload | Promise<AppResultPayload>;
  /** The agent answered one of ours `unsupported`. */
  agentUnsupported?(message: Message<'lineup.v1.unsupported'>): void;
  /**
   * One of the user's messages (a chat turn, a Surface event) is about to be sent — recorded first with a
   * journal, where it waits while the agent is away. `sent` follows once the transport took it: show the turn
   * now, in the order the user made it, even when the agent answers before its acknowledgement arrives.
   */
  queued?(message: LineUpMessage): void;
  /** Every valid envelope received (after dedupe), and every envelope sent: for a message log. */
  received?(message: LineUpMessage): void;
  sent?(message: LineUpMessage): void;
  /**
   * A frame the client refused (a `LineUpProtocolError`, after its answer went out), a connection refused for a
   * flood (`AgentClientError` `overloaded`), or a handler that failed.
   */
  problem?(error: unknown): void;
  statusChanged?(status: AgentConnectionStatus): void;
}

/** The runtime's intake of tool calls (a `ToolRuntime`, or a host wrapping one). */
export interface ToolCallReceiver {
  receive(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition }>;
  /**
   * Whether a call with this `call_id` is recorded in the conversation: an invalid call message under it is then
   * answered `call_id_conflict` (it is another content), else `invalid_message`.
   */
  callRecorded?(conversationId: string, callId: string): Promise<boolean>;
}

/** The runtime's intake of capability calls (a `CapabilityRuntime`). */
export interface CapabilityCallReceiver {
  receive(conversationId: string, call: AppCallPayload): Promise<{ readonly answer?: AppResultPayload }>;
  /** As `ToolCallReceiver.callRecorded`, for `app.call`. */
  callRecorded?(conversationId: string, callId: string): Promise<boolean>;
}

/** Where the agent's answers for DSL agent actions go (an `ActionRunner`). */
export interface ActionAnswerReceiver {
  receiveAnswer(conversationId: string, answer: UIActionAnswerPayload): Promise<unknown>;
}

export interface AgentClientOptions {
  readonly transport: AgentTransport;
  /** `sender.id` of every envelope: printable ASCII without spaces, at most 64 characters. */
  readonly clientId: string;
  /** The current inventory (`AppRegistry.inventory`). */
  readonly inventory: () => Promise<ClientInventoryPayload>;
  /** Where tool calls go; without it they are answered `unsupported` tool results. */
  readonly tools?: ToolCallReceiver;
  /**
   * Where capability calls go (a `CapabilityRuntime`): a new call's result leaves through the outbox, a replay is
   * answered at once. Without it, `handlers.appCall` answers, else `unsupported`.
   */
  readonly capabilities?: CapabilityCallReceiver;
  /**
   * Where `lineup.v1.ui.action_result` goes (an `ActionRunner`: only a running agent action of that conversation
   * is settled). Without it, such answers change nothing.
   */
  readonly actions?: ActionAnswerReceiver;
  /**
   * Checks every `ui.open` by reference (seed 000 §5.1): one naming an app or Surface that is not installed and
   * enabled is answered `lineup.v1.unsupported` (`unknown_reference`, or `revoked` for one disabled or removed
   * since) and never reaches `handlers.surfaceOpen`. Without it, every reference is `unknown_reference`.
   */
  readonly surfaces?: SurfaceReferenceChecker;
  readonly handlers?: AgentClientHandlers;
  /** Conversations open from the start (the host restores them). */
  readonly conversations?: Iterable<string>;
  /** Called after each session start: deliver what is pending in the outbox now. */
  readonly onSessionStart?: () => void;
  /** New message ids (default `crypto.randomUUID`). */
  readonly ids?: () => string;
  /** How many incoming envelope ids are remembered for dedupe (default 4,096). */
  readonly dedupeWindow?: number;
  /**
   * Bounds of the frames received and not yet handled (default `AGENT_CLIENT_LIMITS`): past either, the client
   * refuses the connection (`overloaded`) and reads nothing more from it; the agent sends again what it did not
   * see acknowledged.
   */
  readonly limits?: Partial<AgentClientLimits>;
  /**
   * Where every envelope in and out is recorded (a `ConversationStore`). With it, the user's messages are
   * queued durably while the agent is away instead of refused.
   */
  readonly journal?: ConversationJournal;
}

/** What became of one of the user's messages: the transport took it, or it waits for the next session. */
export interface AgentClientSendResult {
  readonly message: LineUpMessage;
  readonly delivery: 'sent' | 'queued';
}

const CLIENT_ID = /^[\x21-\x7e]{1,64}$/;

/** What the client holds of frames received and not yet handled, and of stream receivers. */
export interface AgentClientLimits {
  readonly maxWaitingFrames: number;
  readonly maxWaitingChars: number;
  readonly streamReceivers: number;
}

/** The defaults of `AgentClientLimits`. */
export const AGENT_CLIENT_LIMITS: AgentClientLimits = Object.freeze({
  /** Frames waiting to be handled; a burst of thousands of small messages fits. */
  maxWaitingFrames: 10_000,
  /** UTF-16 code units of the frames waiting: 32 envelopes of the largest size. */
  maxWaitingChars: 32 * 1_048_576,
  /** Component streams whose receiver is kept in memory (an evicted one is rebuilt from the journal). */
  streamReceivers: 256,
});

/**
 * The client is not connected, was given something it cannot send, or refused a connection that sent more frames
 * than it holds (`overloaded`).
 */
export class AgentClientError extends LineUpError<'not_connected' | 'invalid_message' | 'overloaded'> {
  override readonly name = 'AgentClientError';
}

const CALL_TYPES = ['lineup.v1.tool.call', 'lineup.v1.app.call'] as const;
type CallType = (typeof CALL_TYPES)[number];

/** Frames one drain takes at most (and so messages one journal transaction records). */
const DRAIN_BATCH = 256;

/**
 * How long a drain works before it lets the page's other tasks run (typing, painting): a burst is taken in slices
 * of about this many milliseconds, so it never holds the main thread for long.
 */
const SLICE_MS = 8;

/**
 * How many of the envelope ids the journal recorded last the client reads when it starts (`recentlyReceived`):
 * what an agent may send again after a reload is what it has no acknowledgement for, and the client acknowledges
 * a batch (at most `DRAIN_BATCH` messages) once it is recorded.
 */
const RECENT_READ = 4 * DRAIN_BATCH;

/**
 * A message taken from a frame, waiting to be recorded: the frame's text, and `false` when the client knows that
 * the journal has not recorded it (see `ReceivedManyOptions.recorded`).
 */
interface Taken {
  readonly message: LineUpMessage;
  readonly text: string;
  readonly recorded: false | undefined;
}

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Yields to the event loop: `scheduler.yield` where the browser has it, else a task. */
function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Lets other tasks run once `SLICE_MS` have passed since the slice began. */
class Slice {
  #start = now();
  async pause(): Promise<void> {
    if (now() - this.#start < SLICE_MS) return;
    await yieldToEventLoop();
    this.#start = now();
  }
}
const isCallType = (type: string | undefined): type is CallType =>
  type === 'lineup.v1.tool.call' || type === 'lineup.v1.app.call';

/** The error codes a call can be refused with before it reaches a runtime, and what each says. */
const CALL_REFUSALS = {
  invalid_message: 'The call message is invalid: it was not recorded and did not run.',
  call_id_conflict: 'This call_id was already used for a different call.',
  unknown_conversation:
    'This conversation got no client.inventory on this connection; the call was not recorded and did not run.',
} as const;
type CallRefusal = keyof typeof CALL_REFUSALS;

/** The answer to a refused call: its own result, by `call_id`. */
function callRefusal(
  type: CallType,
  callId: string,
  code: CallRefusal,
  issues?: ReturnType<typeof wireIssues>,
): { readonly type: 'lineup.v1.tool.result' | 'lineup.v1.app.result'; readonly payload: object } {
  const error = { code, message: CALL_REFUSALS[code], ...(issues === undefined ? {} : { issues }) };
  return type === 'lineup.v1.tool.call'
    ? { type: 'lineup.v1.tool.result', payload: { call_id: callId, outcome: 'error', error } }
    : {
        type: 'lineup.v1.app.result',
        payload: { call_id: callId, status: code === 'unknown_conversation' ? 'rejected' : 'failed', error },
      };
}

/** How a frame that nothing can be answered in is refused: by what was wrong with it. */
function connectionRefusal(error: LineUpProtocolError): LineUpConnectionRefusal {
  const code = error.issues[0]?.code;
  if (code === 'too_large' || code === 'too_deep' || code === 'too_many') return 'too_large';
  return code === 'invalid_json' ? 'not_json' : 'not_an_envelope';
}

export class AgentClient {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #ids: () => string;
  readonly #conversations = new Set<string>();
  readonly #seen = new Set<string>();
  /** `#seen` holds the ids the journal recorded last (`#readRecent`): a message not among them is new. */
  #recentRead = false;
  /** The inventory revision last sent to each conversation (seed 000 §5.1: which revision went to whom). */
  readonly #inventorySent = new Map<string, { readonly revision: string }>();
  readonly #dedupeWindow: number;
  readonly #limits: AgentClientLimits;
  readonly #streams: StreamReceivers;
  /** Frames received and not yet handled, and their length; one drain at a time takes them, in order. */
  readonly #inbox: string[] = [];
  #inboxChars = 0;
  /** Frames put in the inbox and taken out of it, since the start: where a connection's backlog ends. */
  #framesReceived = 0;
  #framesTaken = 0;
  #drainScheduled = false;
  /** Frames not read since the connection was refused as overloaded (reported once per connection). */
  #shed = 0;
  #status: AgentConnectionStatus = 'idle';
  /** Deliveries of the direct answers to the envelope being handled: its ack waits for them. */
  readonly #answers: Promise<void>[] = [];
  /** Incoming frames are handled one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();
  /** The journal's queued messages are sent by one flush at a time, oldest first. */
  #flushing: Promise<ReadonlySet<string>> = Promise.resolve(new Set());
  /** True between a session's start (inventories sent) and the transport closing. */
  #sessionStarted = false;

  constructor(options: AgentClientOptions) {
    if (!CLIENT_ID.test(options.clientId))
      throw new TypeError('AgentClient: clientId must be 1–64 printable ASCII characters without spaces.');
    this.#options = options;
    this.#handlers = options.handlers ?? {};
    this.#ids = options.ids ?? (() => crypto.randomUUID());
    this.#dedupeWindow = options.dedupeWindow ?? 4_096;
    this.#limits = { ...AGENT_CLIENT_LIMITS, ...options.limits };
    const journal = options.journal;
    this.#streams = new StreamReceivers(
      journal?.checkpoints === undefined
        ? undefined
        : (conversationId, sourceCallId, uiId) => journal.checkpoints!(conversationId, sourceCallId, uiId),
      this.#limits.streamReceivers,
    );
    for (const id of options.conversations ?? []) this.#conversations.add(id);
  }

  get status(): AgentConnectionStatus {
    return this.#status;
  }

  get conversations(): readonly string[] {
    return [...this.#conversations];
  }

  /** Connects the transport; the session starts when it opens (and again after every reconnect). */
  start(): void {
    if (this.#status !== 'idle') return;
    this.#setStatus('connecting');
    void this.#readRecent();
    const listener: TransportListener = {
      opened: () => {
        this.#shed = 0;
        // Frames still waiting from the connection before (refused as overloaded, or lost) are taken in first, and
        // the session starts after them: an agent that sends again what it missed once it has the inventory finds
        // the room it needs. What arrives on this connection meanwhile waits its turn.
        const backlogEnd = this.#framesReceived;
        // Connected, but not in session until the backlog is in: the host shows "connecting", not "closed".
        if (this.#framesTaken < backlogEnd) this.#setStatus('connecting');
        this.#enqueue(async () => {
          while (this.#framesTaken < backlogEnd)
            await this.#drain(Math.min(DRAIN_BATCH, backlogEnd - this.#framesTaken));
          await this.#sessionStart();
        });
      },
      received: (text) => {
        const length = typeof text === 'string' ? text.length : 0;
        if (
          this.#shed > 0 ||
          this.#inbox.length >= this.#limits.maxWaitingFrames ||
          this.#inboxChars + length > this.#limits.maxWaitingChars
        ) {
          this.#overloaded();
          return;
        }
        this.#inbox.push(text);
        this.#inboxChars += length;
        this.#framesReceived++;
        if (!this.#drainScheduled) {
          this.#drainScheduled = true;
          this.#enqueue(() => this.#drain());
        }
      },
      closed: (error) => {
        this.#sessionStarted = false;
        // One report per outage: the failed attempts of a transport retrying while closed are not news.
        const report = error !== undefined && this.#status !== 'closed';
        this.#setStatus('closed');
        if (report) this.#handlers.problem?.(error);
      },
    };
    this.#options.transport.connect(listener);
  }

  /** Stops for good. */
  stop(): void {
    this.#options.transport.close();
    this.#setStatus('closed');
  }

  /** Opens a conversation the user started; once connected, it gets the inventory first. */
  async openConversation(conversationId: string): Promise<void> {
    if (this.#conversations.has(conversationId)) return;
    this.#conversations.add(conversationId);
    if (this.#status === 'open') await this.#sendInventory(conversationId, await this.#options.inventory());
  }

  /**
   * Sends what the user said. Throws `AgentClientError` `invalid_message` for text the protocol refuses; while
   * the agent is away, `not_connected` — or, with a journal, the message is queued and goes out at the next
   * session start (`delivery: 'queued'`).
   */
  async sendUserMessage(conversationId: string, text: string): Promise<AgentClientSendResult> {
    const message = this.#build(conversationId, 'lineup.v1.chat.user_message', { text }, this.#newId());
    await this.openConversation(conversationId);
    return this.#sendQueued(message);
  }

  /** Sends a Surface's `ui.event` (the user's intent, from `@lineup/surface-host`); queued like a chat turn. */
  async sendUIEvent(
    conversationId: string,
    payload: LineUpPayloadOf<'lineup.v1.ui.event'>,
  ): Promise<AgentClientSendResult> {
    return this.#sendQueued(this.#build(conversationId, 'lineup.v1.ui.event', payload, this.#newId()));
  }

  /**
   * Sends a DSL agent action (`lineup.v1.ui.action`, from an `ActionRunner`) as the user's next turn; recorded and
   * queued like a chat turn, so it reaches the agent once, also after a reload while the agent is away.
   */
  async sendUIAction(conversationId: string, payload: UIActionPayload): Promise<AgentClientSendResult> {
    const message = this.#build(conversationId, 'lineup.v1.ui.action', payload, this.#newId());
    await this.openConversation(conversationId);
    return this.#sendQueued(message);
  }

  async #sendQueued(message: LineUpMessage): Promise<AgentClientSendResult> {
    const journal = this.#options.journal;
    if (journal === undefined) {
      if (this.#status !== 'open')
        throw new AgentClientError('not_connected', 'The agent is not connected; nothing was sent.');
      this.#handlers.queued?.(message);
      await this.#transmit(message);
      return { message, delivery: 'sent' };
    }
    await journal.queued(message);
    this.#handlers.queued?.(message);
    const delivered = await this.#flush();
    return { message, delivery: delivered.has(message.id) ? 'sent' : 'queued' };
  }

  /**
   * Sends the journal's queued messages, oldest first, once the session has started (inventories first);
   * resolves with the ids it delivered. A failed send leaves the rest pending for the next session.
   */
  #flush(): Promise<ReadonlySet<string>> {
    const run = async (): Promise<ReadonlySet<string>> => {
      const delivered = new Set<string>();
      const journal = this.#options.journal;
      if (journal === undefined || !this.#sessionStarted) return delivered;
      for (;;) {
        const pending = (await journal.pending()).filter((message) => !delivered.has(message.id));
        if (pending.length === 0) return delivered;
        for (const message of pending) {
          if (!this.#sessionStarted) return delivered;
          try {
            await this.#announce(message.conversation_id);
            await this.#transmit(message, false);
          } catch (error) {
            this.#handlers.problem?.(error);
            return delivered;
          }
          delivered.add(message.id);
          await journal.delivered(message);
        }
      }
    };
    this.#flushing = this.#flushing.then(run, run);
    return this.#flushing;
  }

  /**
   * Sends one outbox row as envelopes (a tool answer to its conversation; an inventory to every open
   * conversation, unless a newer revision superseded it), with ids derived from the row. Throws when not connected, so the row stays pending: use it
   * as `OutboxDelivery.deliver`'s `send`.
   */
  async sendOutboxMessage(message: OutboxMessage): Promise<void> {
    if (message.conversationId !== undefined) {
      await this.#announce(message.conversationId);
      await this.#send(message.conversationId, message.type, message.payload, this.#rowId(message.id));
      return;
    }
    const revision =
      message.type === 'lineup.v1.client.inventory'
        ? (message.payload as ClientInventoryPayload).revision
        : undefined;
    // A row of an inventory that is no longer the current one is superseded: an agent must never get an older
    // revision after a newer one. It counts as delivered (the current one goes out in its place).
    if (revision !== undefined && (await this.#options.inventory()).revision !== revision) return;
    for (const conversationId of this.#conversations) {
      if (revision === undefined) {
        await this.#send(
          conversationId,
          message.type,
          message.payload,
          this.#rowId(message.id, conversationId),
        );
        continue;
      }
      // A conversation that already has this revision (sent at session start, maybe still on its way) does not
      // get it twice.
      if (this.#inventorySent.get(conversationId)?.revision === revision) continue;
      await this.#claimInventory(conversationId, revision, () =>
        this.#send(conversationId, message.type, message.payload, this.#rowId(message.id, conversationId)),
      );
    }
  }

  /**
   * Sends an inventory revision to a conversation, noting it as sent *before* the send awaits anything, so a
   * session start and an outbox delivery running at once never both send it; a failed send takes the note back.
   */
  async #claimInventory(conversationId: string, revision: string, send: () => Promise<void>): Promise<void> {
    const previous = this.#inventorySent.get(conversationId);
    // A note of its own: taken back only if no one (a new session, another revision) replaced it meanwhile.
    const note = { revision };
    this.#inventorySent.set(conversationId, note);
    try {
      await send();
    } catch (error) {
      if (this.#inventorySent.get(conversationId) === note) {
        if (previous === undefined) this.#inventorySent.delete(conversationId);
        else this.#inventorySent.set(conversationId, previous);
      }
      throw error;
    }
    await this.#recordInventory(conversationId, revision);
  }

  /**
   * Makes `conversationId` one of this session before anything else goes into it: it gets the inventory first
   * (seed 000 §5.1), and from then on the agent may answer there.
   */
  async #announce(conversationId: string): Promise<void> {
    this.#conversations.add(conversationId);
    if (!this.#inSession(conversationId))
      await this.#sendInventory(conversationId, await this.#options.inventory());
  }

  /** The inventory revision last sent to `conversationId` on this client, if any. */
  inventoryRevisionSent(conversationId: string): string | undefined {
    return this.#inventorySent.get(conversationId)?.revision;
  }

  // ── Incoming ──────────────────────────────────────────────────────────────────────────────────────────

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => this.#handlers.problem?.(error));
  }

  async #sessionStart(): Promise<void> {
    // A new session: every conversation gets the inventory again, first (an outbox delivery of the same
    // revision that runs meanwhile sends it in its place, once: see #claimInventory).
    this.#inventorySent.clear();
    this.#setStatus('open');
    const inventory = await this.#options.inventory();
    for (const conversationId of this.#conversations)
      if (this.#inventorySent.get(conversationId)?.revision !== inventory.revision)
        await this.#sendInventory(conversationId, inventory);
    this.#sessionStarted = true;
    // What the user said while the agent was away goes out now, in order, before anything else of ours.
    await this.#flush();
    this.#options.onSessionStart?.();
  }

  /**
   * Handles the frames waiting, in order, at most `DRAIN_BATCH` at a time. Consecutive messages that are taken as
   * they are (no call, no refusal) are recorded in one journal transaction, handed on one by one once it knows
   * which are new, and acknowledged once it has committed: a burst costs one write per batch, not one per frame.
   */
  async #drain(count = DRAIN_BATCH): Promise<void> {
    this.#drainScheduled = false;
    const frames = this.#inbox.splice(0, count);
    this.#framesTaken += frames.length;
    for (const text of frames) this.#inboxChars -= text.length;
    if (this.#inbox.length > 0 && !this.#drainScheduled) {
      this.#drainScheduled = true;
      this.#enqueue(() => this.#drain());
    }
    const batch: Taken[] = [];
    const slice = new Slice();
    for (const text of frames) {
      await slice.pause();
      try {
        const read = readEnvelopeText(text, { direction: 'agent_to_client' });
        const message = read.kind === 'message' ? await this.#prepare(read.message) : undefined;
        // Not among the ids recorded last nor seen since (#prepare dropped those): not recorded. A call is looked up
        // by the journal (its id is not kept with the others: a call sent again is answered again).
        const recorded = this.#recentRead && !isCallType(message?.type) ? (false as const) : undefined;
        const taken: Taken | undefined = message === undefined ? undefined : { message, text, recorded };
        if (taken !== undefined && !isCallType(taken.message.type)) {
          batch.push(taken);
          continue;
        }
        // Anything else keeps its place: what waits is recorded and handed on first.
        await this.#record(batch.splice(0), slice);
        if (read.kind === 'invalid') await this.#refuseInvalid(read);
        else if (read.kind === 'unsupported') await this.#answerUnsupported(read);
        else if (taken !== undefined) await this.#record([taken], slice);
      } catch (error) {
        this.#handlers.problem?.(error);
      }
    }
    await this.#record(batch, slice);
  }

  /**
   * Reads the envelope ids the journal recorded last into the ids seen (`RECENT_READ`): a repeat of one is then
   * dropped as a copy, and any other message is known to be new without waiting for the journal's read.
   */
  async #readRecent(): Promise<void> {
    const journal = this.#options.journal;
    if (journal?.recentlyReceived === undefined) return;
    try {
      const ids = await journal.recentlyReceived(RECENT_READ);
      // Oldest first, and before what was seen meanwhile: the window lets go of the oldest.
      const since = [...this.#seen];
      this.#seen.clear();
      for (const id of [...ids].reverse()) this.#isDuplicate(id);
      for (const id of since) this.#isDuplicate(id);
      // A window smaller than what was read has let some of them go again: then the journal decides.
      this.#recentRead = this.#dedupeWindow >= RECENT_READ;
    } catch (error) {
      // Not fatal: the journal reads each batch before it is handed on, as without them.
      this.#handlers.problem?.(error);
    }
  }

  /** A conversation of this session: it got the inventory on this connection. */
  #inSession(conversationId: string): boolean {
    return this.#inventorySent.has(conversationId);
  }

  /** A frame that is not a message this client accepts: answered by id where it can be, else at the connection. */
  async #refuseInvalid({ error, header }: InvalidEnvelope): Promise<void> {
    this.#handlers.problem?.(error);
    const { id, type, conversation_id: conversationId, call_id: callId } = header;
    const call = isCallType(type) && callId !== undefined ? { type, callId } : undefined;
    if (conversationId === undefined || (id === undefined && call === undefined)) {
      this.#options.transport.refuse?.(connectionRefusal(error));
      return;
    }
    if (!this.#inSession(conversationId))
      return this.#answerOutsideSession(conversationId, id, type, call?.callId);
    const issues = wireIssues(error.issues);
    if (call !== undefined) {
      const recorded = await this.#callRecorded(call.type, conversationId, call.callId);
      const answer = callRefusal(
        call.type,
        call.callId,
        recorded ? 'call_id_conflict' : 'invalid_message',
        recorded ? undefined : issues,
      );
      await this.#answer(
        conversationId,
        answer.type,
        answer.payload,
        `invalid:${id ?? `call:${call.callId}`}`,
      );
    } else {
      await this.#answerRefused(conversationId, id as string, type, 'invalid_message', issues);
    }
    this.#acknowledge(id);
  }

  async #callRecorded(type: CallType, conversationId: string, callId: string): Promise<boolean> {
    const receiver = type === 'lineup.v1.tool.call' ? this.#options.tools : this.#options.capabilities;
    return (await receiver?.callRecorded?.(conversationId, callId)) ?? false;
  }

  /** A well-formed envelope of a type or version this client does not know: answered, never run. */
  async #answerUnsupported(read: UnsupportedEnvelope): Promise<void> {
    const { id, conversation_id: conversationId } = read;
    if (id === undefined || conversationId === undefined) {
      this.#options.transport.refuse?.('not_an_envelope');
      return;
    }
    if (!this.#inSession(conversationId)) return this.#answerOutsideSession(conversationId, id, read.type);
    await this.#answerRefused(conversationId, id, read.type, read.reason);
    this.#acknowledge(id);
  }

  /**
   * A message for a conversation outside this session: answered where the agent addressed it, and nothing is
   * recorded, so no conversation appears that the user does not have.
   */
  async #answerOutsideSession(
    conversationId: string,
    id: string | undefined,
    type: string | undefined,
    callId?: string,
  ): Promise<void> {
    if (isCallType(type) && callId !== undefined) {
      const answer = callRefusal(type, callId, 'unknown_conversation');
      await this.#answer(
        conversationId,
        answer.type,
        answer.payload,
        `outside:${id ?? `call:${callId}`}`,
        false,
      );
    } else if (id !== undefined) {
      await this.#answerRefused(conversationId, id, type, 'unknown_conversation', undefined, false);
    } else {
      this.#options.transport.refuse?.('not_an_envelope');
      return;
    }
    this.#acknowledge(id);
  }

  /**
   * A valid message of this side, before it is recorded: outside the session, a copy, or refused by its content,
   * it is answered (or acknowledged) here and nothing comes back; otherwise the message to record and hand on (a
   * document's carries parseDocument's frozen copy).
   */
  async #prepare(received: LineUpMessage): Promise<LineUpMessage | undefined> {
    const { id, conversation_id: conversationId, type } = received;
    if (!this.#inSession(conversationId)) {
      const callId = isCallType(type) ? (received.payload as { call_id: string }).call_id : undefined;
      await this.#answerOutsideSession(conversationId, id, type, callId);
      return undefined;
    }
    // A call sent again is answered again from its record by call_id (the runtime's dedupe, seed 003 §4.2); any
    // other copy was handled when it first came.
    if (!isCallType(type) && this.#isDuplicate(id)) {
      this.#acknowledge(id);
      return undefined;
    }
    try {
      return await this.#judge(received);
    } catch (error) {
      const refused = refusedIssues(error);
      if (refused === undefined) throw error;
      this.#handlers.problem?.(error);
      await this.#answerRefused(conversationId, id, type, 'invalid_message', wireIssues(...refused));
      // Refused, so it may come again corrected under the same id.
      this.#seen.delete(id);
      this.#acknowledge(id);
      return undefined;
    }
  }

  /**
   * Records taken messages in the journal (one transaction for all), hands each on as soon as the journal knows
   * which are new (before its transaction is on disk, so the user does not wait for the write), and acknowledges
   * them once they are recorded: the agent forgets only what is on disk.
   */
  async #record(entries: readonly Taken[], slice = new Slice()): Promise<void> {
    if (entries.length === 0) return;
    const messages = entries.map((entry) => entry.message);
    const journal = this.#options.journal;
    let fresh: readonly boolean[] = messages.map(() => true);
    let recorded: Promise<unknown> = Promise.resolve();
    if (journal !== undefined) {
      let known: (fresh: readonly boolean[]) => void = () => {};
      const early = new Promise<readonly boolean[]>((resolve) => (known = resolve));
      const recording =
        journal.receivedMany !== undefined
          ? journal.receivedMany(messages, {
              known,
              texts: entries.map((entry) => entry.text),
              recorded: entries.map((entry) => entry.recorded),
            })
          : Promise.all(messages.map((message) => journal.received(message)));
      // Not recorded: still shown now (a reload will not bring them back), and the host is told.
      recorded = recording.catch((error: unknown) => this.#handlers.problem?.(error));
      try {
        fresh = await Promise.race([early, recording]);
      } catch {
        // Reported through `recorded`; every message is shown.
      }
    }
    const taken: [id: string, answers: Promise<void>[]][] = [];
    for (const [index, message] of messages.entries()) {
      // The first goes on at once: handing it on is quick (a view renders it in a task of its own), and a pause
      // here, after a long judgement, would wait for the page's next frame before the user sees anything.
      if (index > 0) await slice.pause();
      // A repeat from before a reload is dropped; a call goes on to its runtime, whose own records answer it
      // again without running it twice (seed 003 §4.2).
      if (fresh[index] !== false || isCallType(message.type)) {
        this.#handlers.received?.(message);
        try {
          await this.#dispatch(message);
        } catch (error) {
          this.#handlers.problem?.(error);
        }
      }
      taken.push([message.id, this.#answers.splice(0)]);
    }
    await recorded;
    for (const [id, answers] of taken) this.#acknowledge(id, answers);
  }

  /**
   * What the envelope cannot judge: a document (`parseDocument`; the message handed on carries its frozen copy),
   * a stream frame (its stream's receiver), and the host's own `check`. Throws the refusal.
   */
  async #judge(message: LineUpMessage): Promise<LineUpMessage> {
    this.#handlers.check?.(message);
    if (message.type === 'lineup.v1.ui.document') {
      // The document is JSON data (parseDocument proved it); its DSL type is narrower than the wire's.
      const document = parseDocument(message.payload.document) as unknown as typeof message.payload.document;
      return Object.freeze({ ...message, payload: Object.freeze({ ...message.payload, document }) });
    }
    if (message.type === 'lineup.v1.ui.checkpoint')
      await this.#streams.accept(message.conversation_id, message.payload.checkpoint);
    return message;
  }

  async #dispatch(message: LineUpMessage): Promise<void> {
    const handlers = this.#handlers;
    switch (message.type) {
      case 'lineup.v1.ui.document':
        return handlers.document?.(message);
      case 'lineup.v1.ui.checkpoint':
        return handlers.checkpoint?.(message);
      case 'lineup.v1.ui.open': {
        const reference = message.payload.surface;
        if (reference !== undefined) {
          const status =
            (await this.#options.surfaces?.checkSurfaceReference(reference)) ?? 'unknown_reference';
          if (status !== 'available') {
            // A definite answer, never a fallback: nothing is opened or fetched.
            await this.#answerRefused(message.conversation_id, message.id, message.type, status);
            return;
          }
        }
        return handlers.surfaceOpen?.(message);
      }
      case 'lineup.v1.ui.patch':
        return handlers.surfacePatch?.(message);
      case 'lineup.v1.ui.close':
        return handlers.surfaceClose?.(message);
      case 'lineup.v1.chat.agent_message':
        return handlers.agentMessage?.(message);
      case 'lineup.v1.unsupported':
        return handlers.agentUnsupported?.(message);
      case 'lineup.v1.tool.call': {
        const tools = this.#options.tools;
        const key = `call:${message.id}`;
        if (tools === undefined) {
          await this.#answer(
            message.conversation_id,
            'lineup.v1.tool.result',
            { call_id: message.payload.call_id, outcome: 'error', error: { code: 'unsupported' } },
            key,
          );
          return;
        }
        const { answer, disposition } = await tools.receive(message.conversation_id, message.payload);
        // A replay is answered from the persisted record and adds no outbox row (seed 003 §4.2); a new call's
        // answers are outbox rows, which the host delivers through `sendOutboxMessage`.
        if (disposition === 'replayed' || disposition === 'conflict')
          await this.#answer(message.conversation_id, answer.type, answer.payload, key);
        return;
      }
      case 'lineup.v1.app.call': {
        const capabilities = this.#options.capabilities;
        const key = `call:${message.id}`;
        if (capabilities !== undefined) {
          // A new call is recorded and returns at once (the user is asked meanwhile); its result is an outbox row.
          const { answer } = await capabilities.receive(message.conversation_id, message.payload);
          if (answer !== undefined)
            await this.#answer(message.conversation_id, 'lineup.v1.app.result', answer, key);
          return;
        }
        const result: AppResultPayload =
          handlers.appCall === undefined
            ? { call_id: message.payload.call_id, status: 'unsupported' }
            : await handlers.appCall(message);
        await this.#answer(message.conversation_id, 'lineup.v1.app.result', result, key);
        return;
      }
      case 'lineup.v1.ui.action_result':
        // The runner settles only a running agent action of this conversation; anything else changes nothing.
        await this.#options.actions?.receiveAnswer(message.conversation_id, message.payload);
        return;
      default:
        // readEnvelopeText accepted it for agent → client, so no other type arrives here.
        return;
    }
  }

  /** `lineup.v1.unsupported` for message `id`: why it was not run, with issues for `invalid_message`. */
  async #answerRefused(
    conversationId: string,
    id: string,
    type: string | undefined,
    reason: LineUpUnsupportedReason,
    issues?: ReturnType<typeof wireIssues>,
    record = true,
  ): Promise<void> {
    await this.#answer(
      conversationId,
      'lineup.v1.unsupported',
      {
        message_id: id,
        ...(type === undefined ? {} : { message_type: type }),
        reason,
        ...(issues === undefined ? {} : { issues }),
      },
      `${reason}:${id}`,
      record,
    );
  }

  /**
   * Sends an answer whose envelope id derives from what it answers (`key`), so answering a copy again sends a copy
   * the agent drops. Unrecorded (`record` false) for a conversation outside the session.
   *
   * The frame is written to the connection now, in order; its delivery (the agent's ack, in `lineup.v1.ack`) is
   * awaited apart, so the agent's next frames are taken meanwhile: an agent slow to ack, or one that never does,
   * holds up nothing it sends. The envelope answered is acknowledged only once its answers are delivered
   * (`#acknowledge`): an answer that is lost leaves it unacknowledged, so the agent sends it again and gets the
   * answer again. A failure is the host's `problem`.
   */
  async #answer(
    conversationId: string,
    type: string,
    payload: unknown,
    key: string,
    record = true,
  ): Promise<void> {
    const id = `${this.#options.clientId}:a:${shortHash([conversationId, key])}`;
    const delivery = this.#send(conversationId, type, payload, id, record);
    this.#answers.push(delivery);
    delivery.catch((error: unknown) => this.#handlers.problem?.(error));
  }

  /**
   * Acknowledges agent envelope `id`, which has been handled: at once, or, when it was answered directly, once
   * every answer is delivered (never, if one is not: the agent sends the envelope again).
   */
  #acknowledge(id: string | undefined, answers = this.#answers.splice(0)): void {
    if (id === undefined) return;
    if (answers.length === 0) this.#acknowledgeNow(id);
    else
      Promise.all(answers).then(
        () => this.#acknowledgeNow(id),
        () => {
          // Not acknowledged: the answer was not delivered, and the copy the agent sends gets it again.
        },
      );
  }

  #acknowledgeNow(id: string): void {
    try {
      this.#options.transport.acknowledge?.(id);
    } catch (error) {
      this.#handlers.problem?.(error);
    }
  }

  /** More frames than the client holds: the connection is refused once, and nothing more is read from it. */
  #overloaded(): void {
    if (this.#shed++ > 0) return;
    this.#options.transport.refuse?.('overloaded');
    this.#handlers.problem?.(
      new AgentClientError(
        'overloaded',
        `The agent sent more frames than the client holds (${this.#limits.maxWaitingFrames} frames or ` +
          `${this.#limits.maxWaitingChars} characters waiting): the connection was refused and later frames were ` +
          'not read; the agent sends again what it did not see acknowledged.',
      ),
    );
  }

  #isDuplicate(id: string): boolean {
    if (this.#seen.has(id)) return true;
    this.#seen.add(id);
    if (this.#seen.size > this.#dedupeWindow) {
      const [oldest] = this.#seen;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return false;
  }

  // ── Outgoing ──────────────────────────────────────────────────────────────────────────────────────────

  async #sendInventory(conversationId: string, inventory: ClientInventoryPayload): Promise<void> {
    // One id per revision and conversation: sent again after a reconnect, the agent can drop the copy.
    await this.#claimInventory(conversationId, inventory.revision, () =>
      this.#send(
        conversationId,
        'lineup.v1.client.inventory',
        inventory,
        `${this.#options.clientId}:inv:${shortHash([inventory.revision, conversationId])}`,
      ),
    );
  }

  async #send(
    conversationId: string,
    type: string,
    payload: unknown,
    id: string,
    record = true,
  ): Promise<void> {
    if (this.#status !== 'open')
      throw new AgentClientError('not_connected', 'The agent is not connected; nothing was sent.');
    await this.#transmit(this.#build(conversationId, type, payload, id), record);
  }

  /** A validated envelope of ours (`invalid_message` when the protocol refuses it). */
  #build(conversationId: string, type: string, payload: unknown, id: string): LineUpMessage {
    const envelope = {
      v: 1,
      id,
      type,
      conversation_id: conversationId,
      sender: { kind: 'client', id: this.#options.clientId },
      payload,
    };
    let parsed: ReturnType<typeof parseEnvelope>;
    try {
      parsed = parseEnvelope(envelope, { direction: 'client_to_agent' });
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      throw new AgentClientError(
        'invalid_message',
        `Refused to send an invalid ${type}: ${error.issues[0]?.path} ${error.issues[0]?.message}`,
        { cause: error },
      );
    }
    if (parsed.kind !== 'message')
      throw new AgentClientError('invalid_message', `${type} is not a message this client sends.`);
    return parsed.message;
  }

  /** Sends one envelope; `record` logs it in the journal (a queued message is already there). */
  async #transmit(message: LineUpMessage, record = true): Promise<void> {
    if (this.#status !== 'open')
      throw new AgentClientError('not_connected', 'The agent is not connected; nothing was sent.');
    await this.#options.transport.send(JSON.stringify(message));
    this.#handlers.sent?.(message);
    const journal = this.#options.journal;
    if (record && journal !== undefined)
      await journal.sent(message).catch((error: unknown) => this.#handlers.problem?.(error));
  }

  async #recordInventory(conversationId: string, revision: string): Promise<void> {
    await this.#options.journal
      ?.inventorySent(conversationId, revision)
      .catch((error: unknown) => this.#handlers.problem?.(error));
  }

  #newId(): string {
    return `${this.#options.clientId}:${this.#ids()}`;
  }

  #rowId(rowId: number, conversationId?: string): string {
    const base = `${this.#options.clientId}:o${rowId}`;
    return conversationId === undefined ? base : `${base}:${shortHash(conversationId)}`;
  }

  #setStatus(status: AgentConnectionStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#handlers.statusChanged?.(status);
  }
}

/**
 * The issues of an error that refuses a message's content, with the prefix of the place they are relative to:
 * a document's (`parseDocument`), a stream frame's (`acceptCheckpoint`), or the host's `check` (below
 * `payload`); undefined for any other error (a failure, not a refusal).
 */
function refusedIssues(error: unknown): [readonly UIIssue[], string] | undefined {
  if (error instanceof UISchemaError) return [error.issues, 'payload.document'];
  if (error instanceof UIStreamError) return [error.issues, 'payload.checkpoint'];
  if (error instanceof LineUpProtocolError) return [error.issues, 'payload'];
  return undefined;
}

/** 16 hex digits of the SHA-256 of a JSON value: short, stable names for ids. */
function shortHash(value: unknown): string {
  return hashCanonicalJSON(value).slice(0, 16);
}
