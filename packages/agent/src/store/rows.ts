/** The shapes the store's tables hold, and how their rows become values. */

/** A conversation as the host keys it: the authenticated device, and the conversation id the device chose. */
export interface ConversationKey {
  readonly deviceId: string;
  readonly conversationId: string;
}

export interface LogEntry {
  readonly seq: number;
  readonly direction: 'in' | 'out';
  readonly type: string;
  readonly envelope: Record<string, unknown>;
}

export interface RawLogRow {
  seq: string;
  direction: 'in' | 'out';
  type: string;
  envelope: string;
}

/**
 * JSON is kept as its text (never `jsonb`): byte for byte what was validated, and no value the protocol admits — a
 * lone surrogate escape, say — can make PostgreSQL refuse a row.
 */
export const parsed = <T = unknown>(text: string | null): T => (text === null ? null : JSON.parse(text)) as T;

export const logEntry = (row: RawLogRow): LogEntry => ({
  seq: Number(row.seq),
  direction: row.direction,
  type: row.type,
  envelope: parsed<Record<string, unknown>>(row.envelope),
});
