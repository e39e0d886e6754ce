/**
 * The agent console's tool calls: the `lineup.v1.tool.call` envelope it sends as the agent (seed 003 §4), and
 * what it watches of each call afterwards — the client receiving it, the runtime's `tool.progress` receipts and
 * the one final `tool.result` (seed 003 §4.2–§4.3), all seen in the connection's message log. Pure functions;
 * the view keeps the state.
 *
 * `tool.call` carries no timeout: the runtime ends a call with `timeout` after the tool's own published
 * `timeout_ms`. The console's wait is only how long it watches before it says that no final result came yet.
 */
import { LineUpProtocolError } from '@lineup/shared';
import type { JSONObject } from '@lineup/shared/bridge';
import {
  type LineUpMessageOf,
  parseEnvelope,
  type ToolProgressPayload,
  type ToolResultPayload,
} from '@lineup/shared/protocol';
import type { LoggedMessage } from '../agent/connection.ts';

/** Who the console speaks as: an agent party of its own, so the log tells its calls from the agent's. */
export const CONSOLE_SENDER = Object.freeze({ kind: 'agent', id: 'agent_console' } as const);

/** Calls the console keeps watching; older ones are forgotten (the message log still has them). */
export const MAX_WATCHED_CALLS = 20;

/**
 * A random UUID (version 4). `crypto.randomUUID` exists only in secure contexts; a host served over plain
 * HTTP on a LAN address still has `getRandomValues`.
 */
export function consoleUuid(
  random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
) {
  const bytes = random(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface ToolCallRequest {
  readonly conversationId: string;
  readonly tool: string;
  /** The inventory revision the tool was chosen from (seed 003 §4.2 step 1). */
  readonly inventoryRevision: string;
  readonly arguments: JSONObject;
  /** Makes the envelope id `console_<uuid>` and the call id `call_console_<uuid>`. */
  readonly uuid: string;
}

export type ToolCallMessage = LineUpMessageOf<'lineup.v1.tool.call'>;

/** The `lineup.v1.tool.call` envelope an agent would send for this call. */
export function buildToolCallEnvelope(request: ToolCallRequest): ToolCallMessage {
  return {
    v: 1,
    id: `console_${request.uuid}`,
    type: 'lineup.v1.tool.call',
    conversation_id: request.conversationId,
    sender: { ...CONSOLE_SENDER },
    payload: {
      call_id: `call_console_${request.uuid}`,
      tool: request.tool,
      inventory_revision: request.inventoryRevision,
      arguments: request.arguments,
    },
  };
}

/**
 * Where the envelope breaks the protocol, as the client would see it (`parseEnvelope`, agent → client), or
 * null when it is a valid `tool.call`. The console checks before sending, since the client drops an invalid
 * message without answering it.
 */
export function envelopeProblem(envelope: ToolCallMessage): string | null {
  try {
    const parsed = parseEnvelope(envelope, { direction: 'agent_to_client' });
    return parsed.kind === 'message' ? null : 'type';
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    return error.issues[0]?.path ?? '';
  }
}

/** One call the console sent, and what it saw of it since. Times are Unix milliseconds. */
export interface WatchedCall {
  readonly callId: string;
  readonly envelopeId: string;
  readonly tool: string;
  readonly arguments: JSONObject;
  readonly sentAt: number;
  /** How long the console waits for the final result before saying none came (`overdue`). */
  readonly waitMs: number;
  /** When the client took the envelope in (the log's `in` entry), or null. */
  readonly receivedAt: number | null;
  readonly progress: readonly (ToolProgressPayload & { readonly at: number })[];
  readonly result: (ToolResultPayload & { readonly at: number }) | null;
}

export function watchCall(envelope: ToolCallMessage, sentAt: number, waitMs: number): WatchedCall {
  return {
    callId: envelope.payload.call_id,
    envelopeId: envelope.id,
    tool: envelope.payload.tool,
    arguments: envelope.payload.arguments,
    sentAt,
    waitMs,
    receivedAt: null,
    progress: [],
    result: null,
  };
}

/** A new call goes first; the oldest beyond `MAX_WATCHED_CALLS` is forgotten. */
export function addWatchedCall(calls: readonly WatchedCall[], call: WatchedCall): readonly WatchedCall[] {
  return [call, ...calls].slice(0, MAX_WATCHED_CALLS);
}

/**
 * The calls after one logged envelope: the client receiving a watched call, or a progress receipt or final
 * result the client sent for one. Returns `calls` itself when the envelope concerns none of them. A second
 * final result for a call (a replay answered from the persisted one) does not replace the first.
 */
export function observe(calls: readonly WatchedCall[], entry: LoggedMessage): readonly WatchedCall[] {
  const { message, direction, at } = entry;
  let update: ((call: WatchedCall) => WatchedCall | null) | null = null;
  if (direction === 'in' && message.type === 'lineup.v1.tool.call') {
    update = (call) =>
      call.envelopeId === message.id && call.receivedAt === null ? { ...call, receivedAt: at } : null;
  } else if (direction === 'out' && message.type === 'lineup.v1.tool.progress') {
    const { payload } = message;
    update = (call) =>
      call.callId === payload.call_id ? { ...call, progress: [...call.progress, { ...payload, at }] } : null;
  } else if (direction === 'out' && message.type === 'lineup.v1.tool.result') {
    const { payload } = message;
    update = (call) =>
      call.callId === payload.call_id && call.result === null
        ? { ...call, result: { ...payload, at } }
        : null;
  }
  if (update === null) return calls;
  let changed = false;
  const next = calls.map((call) => {
    const updated = update(call);
    if (updated === null) return call;
    changed = true;
    return updated;
  });
  return changed ? next : calls;
}

/**
 * Where a call stands: `sent` (the client has not taken it in yet), `received`, `in_progress` (a receipt came),
 * `completed` or `error` (its final result), or `overdue` (no final result within the console's wait).
 */
export type CallPhase = 'sent' | 'received' | 'in_progress' | 'completed' | 'error' | 'overdue';

export function callPhase(call: WatchedCall, now: number): CallPhase {
  if (call.result !== null) return call.result.outcome;
  if (now - call.sentAt >= call.waitMs) return 'overdue';
  if (call.progress.length > 0) return 'in_progress';
  return call.receivedAt === null ? 'sent' : 'received';
}
