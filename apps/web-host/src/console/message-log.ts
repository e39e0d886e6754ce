/**
 * The agent console's message log: every envelope the client received or sent (`AgentConnection.onMessage`),
 * newest last, bounded to the last `MESSAGE_LOG_LIMIT` with a count of the dropped ones (a burst of thousands
 * keeps its last `MESSAGE_LOG_LIMIT`), filtered by a type substring, each with a one-line summary. Summaries are
 * protocol data (ids, tokens, values), not prose, so they read the same in every language.
 */
import type { LineUpMessage, LineUpMessageType, LineUpPayloadOf } from '@lineup/shared/protocol';
import type { LoggedMessage } from '../agent/connection.ts';

/** Envelopes the log keeps; older ones are dropped and counted. */
export const MESSAGE_LOG_LIMIT = 500;

/** A summary is cut to this many characters (the whole envelope is one click away). */
export const MAX_SUMMARY_LENGTH = 160;

export interface LogEntry extends LoggedMessage {
  /** Position in the log since the page opened: a stable key that survives dropping. */
  readonly sequence: number;
}

export interface MessageLog {
  readonly entries: readonly LogEntry[];
  /** How many older entries were dropped to keep the bound. */
  readonly dropped: number;
}

export const EMPTY_MESSAGE_LOG: MessageLog = Object.freeze({ entries: [], dropped: 0 });

/** The log with `entry` appended last; past `limit`, the oldest entries go and are counted. */
export function appendToLog(log: MessageLog, entry: LoggedMessage, limit = MESSAGE_LOG_LIMIT): MessageLog {
  return appendAllToLog(log, [entry], limit);
}

/**
 * The log with `added` appended last, in order, as if one by one; past `limit`, the oldest go and are counted.
 * Costs O(limit + added) however many are added, so a burst is appended once per frame, not once per envelope.
 */
export function appendAllToLog(
  log: MessageLog,
  added: readonly LoggedMessage[],
  limit = MESSAGE_LOG_LIMIT,
): MessageLog {
  if (added.length === 0) return log;
  const first = log.dropped + log.entries.length + 1;
  // Of the added entries, only the last `limit` can be kept: the others are numbered and counted, never copied.
  const skipped = Math.max(0, added.length - limit);
  const kept = added.slice(skipped).map((entry, index) => ({ ...entry, sequence: first + skipped + index }));
  const entries = log.entries.concat(kept);
  const excess = Math.max(0, entries.length - limit);
  return {
    entries: excess === 0 ? entries : entries.slice(excess),
    dropped: log.dropped + skipped + excess,
  };
}

/** Entries whose type contains `query` (case-insensitive, surrounding spaces ignored); all for an empty query. */
export function filterLog(entries: readonly LogEntry[], query: string): readonly LogEntry[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return entries;
  return entries.filter((entry) => entry.message.type.toLowerCase().includes(needle));
}

const json = (value: unknown) => JSON.stringify(value);

/** One summary per message type: what tells two messages of that type apart at a glance. */
const SUMMARIES: { readonly [T in LineUpMessageType]: (payload: LineUpPayloadOf<T>) => string } = {
  'lineup.v1.ui.open': (payload) =>
    `${payload.instance_id} ${payload.app?.name ?? `${payload.surface?.app_id}/${payload.surface?.surface_id}`}`,
  'lineup.v1.ui.patch': (payload) => `${payload.instance_id} ${json(payload.state)}`,
  'lineup.v1.ui.close': (payload) => `${payload.instance_id} ${payload.reason}`,
  'lineup.v1.ui.event': (payload) => `${payload.instance_id} ${payload.event} ${json(payload.data)}`,
  'lineup.v1.ui.document': (payload) => `${String(payload.document.id ?? '')}`.trim(),
  'lineup.v1.ui.checkpoint': (payload) => {
    const { sourceCallId, uiId, seq } = payload.checkpoint as Record<string, unknown>;
    return [sourceCallId, uiId, seq === undefined ? undefined : `seq=${String(seq)}`]
      .filter((part) => part !== undefined)
      .join(' ');
  },
  'lineup.v1.ui.action': (payload) => `${payload.operation_id} ${payload.action_id} ${json(payload.prompt)}`,
  'lineup.v1.ui.action_result': (payload) =>
    `${payload.operation_id} ${payload.status}${payload.message === undefined ? '' : ` ${json(payload.message)}`}`,
  'lineup.v1.client.inventory': (payload) => `${payload.revision} tools=${payload.tools?.length ?? 0}`,
  'lineup.v1.app.list': (payload) => payload.capabilities.map((capability) => capability.name).join(' '),
  'lineup.v1.app.call': (payload) => `${payload.call_id} ${payload.capability} ${json(payload.arguments)}`,
  'lineup.v1.app.result': (payload) =>
    `${payload.call_id} ${payload.status}${payload.error === undefined ? '' : ` ${payload.error.code}`}`,
  'lineup.v1.tool.call': (payload) => `${payload.call_id} ${payload.tool} ${json(payload.arguments)}`,
  'lineup.v1.tool.progress': (payload) =>
    `${payload.call_id} ${payload.status}${payload.reason === undefined ? '' : ` (${payload.reason})`}`,
  'lineup.v1.tool.result': (payload) =>
    payload.outcome === 'error'
      ? `${payload.call_id} error ${payload.error?.code ?? ''}`.trimEnd()
      : `${payload.call_id} completed ${json(payload.result)}`,
  'lineup.v1.chat.user_message': (payload) =>
    payload.view_context === undefined
      ? json(payload.text)
      : `${json(payload.text)} view_context=${json(payload.view_context)}`,
  'lineup.v1.chat.agent_message': (payload) => json(payload.text),
  'lineup.v1.unsupported': (payload) =>
    `${payload.message_id} ${payload.message_type ?? ''} ${payload.reason}`.replace('  ', ' '),
};

/** The one-line summary of a message, at most `MAX_SUMMARY_LENGTH` characters. */
export function summarize(message: LineUpMessage): string {
  const summary = (SUMMARIES[message.type] as (payload: unknown) => string)(message.payload);
  return summary.length > MAX_SUMMARY_LENGTH ? `${summary.slice(0, MAX_SUMMARY_LENGTH - 1)}…` : summary;
}

/** `HH:MM:SS.mmm` in local time: enough to order what happened within one session. */
export function clockTime(at: number): string {
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
