/**
 * What the runtime database keeps of executing Agent Tool calls (seed 003 §4–§5): the calls (`tool_calls`), the
 * MiniApp instances of each conversation, their activations, the operations and the session data of each app
 * sub-session.
 */
import type { ToolCallPayload, ToolProgressPayload, ToolResultPayload } from '@lineup/shared/protocol';
import type { ToolCallConsent } from './consent-records.js';

/**
 * One Agent Tool call (seed 003 §4.2): keyed by conversation and `call_id`, with the call as received (so a reused
 * `call_id` with other content is told apart), and the latest answer the runtime persisted for it — a protocol
 * receipt, or the one final result.
 */
export interface ToolCallRecord {
  readonly key: string;
  readonly conversationId: string;
  readonly callId: string;
  readonly call: ToolCallPayload;
  /**
   * `hashCanonicalJSON` of the call's tool, inventory revision and arguments, in records written before 2026-12-06.
   * Newer records carry none: a replay's content is compared with `call` itself, so a new call computes no digest.
   */
  readonly contentHash?: string;
  readonly status: 'accepted' | 'rejected';
  readonly latest:
    | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
    | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload };
  readonly receivedAt: number;
  /**
   * Where an accepted call is: `received` (committed, not yet routed), `waiting` (queued on a starting
   * activation), `running` (its work started: an operation, a handler), `finished` (its final result persisted).
   * Refused calls are `finished` from the start.
   */
  readonly stage?: ToolCallStage;
  /** While not finished: when its `timeout_ms` runs out (Unix ms); the `by_due` index lists these. */
  readonly dueAt?: number;
  /** While an SDK handler runs it: the id of its `tool_invocation` in the app's frame. */
  readonly invocationId?: string;
  /** …and the instance whose page runs it. */
  readonly instanceId?: string;
  /**
   * For a tool of an MCP server: when the call was handed to the server (Unix ms). A call that is still running
   * after a reload may have taken effect there: it ends `outcome_unknown` and is never sent again.
   */
  readonly dispatchedAt?: number;
  /**
   * For a tool of an MCP server with a view: the server's whole `CallToolResult` (content, structured content),
   * bounded, which the view gets in `tool-result`. The agent gets the final result of the tool's output schema.
   */
  readonly mcpResult?: Readonly<Record<string, unknown>>;
  /**
   * For a call handed to an MCP server and not yet finished: the id of the request in flight. Every path that
   * finishes a call drops it, and writes it as the `requestEnded` of the final result's outbox row.
   */
  readonly mcpInFlight?: string;
  /** The consent step's facts: the question while the call waits for the user (`awaiting_consent`), then the answer. */
  readonly consent?: ToolCallConsent;
}

/**
 * Where `awaiting_consent` comes in: after the intake recorded and accepted the call, before it is routed — nothing
 * of the app, the server or a view has heard of it. A reload asks the question again; the call's timeout still
 * runs (`timeout`).
 */
export type ToolCallStage = 'received' | 'awaiting_consent' | 'waiting' | 'running' | 'finished';

/**
 * One MiniApp instance of one conversation (seed 003 §5): its app sub-session, its current activation, and
 * whether the host shows it in the foreground. Keyed by conversation and app scope: a conversation has at most
 * one instance of an app, and the runtime resolves it from the conversation, never from an id the agent sends.
 */
export interface InstanceRecord {
  readonly key: string;
  readonly instanceId: string;
  readonly appSessionId: string;
  readonly conversationId: string;
  readonly appScope: string;
  readonly appId: string;
  /** `open` while the host may show it; `closed` once the runtime ended it. */
  readonly state: 'open' | 'closed';
  readonly foreground: boolean;
  readonly activationId?: string;
  readonly createdAt: number;
}

/** seed 003 §4.3: `starting → ready | failed | cancelled`. */
export type ActivationStatus = 'starting' | 'ready' | 'failed' | 'cancelled';

/** One activation: the start of an instance, and the calls waiting for it (in arrival order). */
export interface ActivationRecord {
  readonly activationId: string;
  readonly instanceKey: string;
  readonly status: ActivationStatus;
  /** What ready means here: the app is ready, or also in the foreground. */
  readonly requirement: 'app_ready' | 'foreground_required';
  /** The call that started it (conversation\ncall id). */
  readonly callKey: string;
  /** Keys of the calls queued on it, in persisted arrival order. */
  readonly waiting: readonly string[];
  readonly startedAt: number;
  /** While starting: when it fails if not ready by then (Unix ms); the `by_due` index lists these. */
  readonly dueAt?: number;
  readonly settledAt?: number;
  /** A controlled token: `foreground_not_confirmed`, `cancelled`, `user_left`. */
  readonly reason?: string;
}

/** An operation (seed 003 §5): a deadline it ends at, and exactly one terminal state. */
export interface OperationRecord {
  readonly operationId: string;
  readonly instanceKey: string;
  readonly callKey: string;
  readonly status: 'running' | 'completed' | 'interrupted';
  readonly minutes: number;
  readonly startedAt: number;
  /** The deadline (Unix ms): a fact, never a duration. */
  readonly deadlineAt: number;
  /** While running: the deadline again, listed by the `by_due` index. */
  readonly dueAt?: number;
  readonly endedAt?: number;
  readonly by?: 'agent' | 'user_left';
}

/** The session data of one app sub-session: MiniApp-defined JSON the runtime never interprets. */
export interface SessionDataRecord {
  readonly key: string;
  readonly revision: number;
  readonly data: Readonly<Record<string, unknown>>;
}
