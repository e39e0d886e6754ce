/**
 * What an `AgentClient` is given and what it tells its host (seed 000 §3, §5.1): its options, the host's handlers,
 * the runtimes' intakes of calls and answers, and the bounds of what it holds. They sit below the client and the
 * parts it is made of (`session.ts`, `inbound.ts`, …), which all read them.
 */
import type {
  AppCallPayload,
  AppResultPayload,
  ClientInventoryPayload,
  LineUpMessage,
  LineUpMessageOf,
  LineUpMessageType,
  ToolCallPayload,
  UIActionAnswerPayload,
} from '@lineup/shared/protocol';
import type { ConversationJournal } from '../conversations/conversation-store.js';
import type { ToolCallAnswer, ToolCallDisposition } from '../tools/intake.js';
import type { SurfaceReferenceChecker } from './surface-reference.js';
import type { AgentTransport } from './transport.js';

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
