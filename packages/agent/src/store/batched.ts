/**
 * The store's statements that a burst of devices makes many of at once — taking envelopes, acknowledgements, reads at
 * session start, inventories — each answering a whole batch in one statement (one round trip, atomic by itself, one
 * commit). `AgentStore` gathers the requests with a `Batcher`.
 */
import { type ConversationKey, type LogEntry, logEntry, type RawLogRow } from './rows.js';
import type { SqlQueryable } from './sql.js';

export interface Take {
  readonly key: ConversationKey;
  readonly envelope: { readonly id: string; readonly type: string; readonly sender: { readonly id: string } };
}
export interface Ack {
  readonly deviceId: string;
  readonly envelopeId: string;
}
export interface LogRead {
  readonly key: ConversationKey;
  readonly limit: number;
}
export interface InventorySave {
  readonly key: ConversationKey;
  readonly revision: string;
  /** The inventory as JSON text. */
  readonly inventory: string;
}

/**
 * Takes envelopes the devices sent: each `'new'` when its (device, conversation, sender, id) was not taken before —
 * then it is in the log, atomically with the mark — or `'seen'`. Within a batch a repeated one is new once, for the
 * first of them.
 */
export async function takeAll(db: SqlQueryable, takes: readonly Take[]): Promise<('new' | 'seen')[]> {
  const input = takes.map(({ key, envelope }, index) => ({
    i: index,
    d: key.deviceId,
    c: key.conversationId,
    s: envelope.sender.id,
    e: envelope.id,
    t: envelope.type,
    v: JSON.stringify(envelope),
  }));
  const { rows } = await db.query<{ i: number }>(
    `WITH input AS (
       SELECT DISTINCT ON (d, c, s, e) i, d, c, s, e, t, v
       FROM jsonb_to_recordset($1::jsonb) AS x(i int, d text, c text, s text, e text, t text, v text)
       ORDER BY d, c, s, e, i
     ), conversation AS (
       INSERT INTO lineup_conversations (device_id, conversation_id)
       SELECT DISTINCT d, c FROM input ON CONFLICT DO NOTHING
     ), mark AS (
       INSERT INTO lineup_envelopes_seen (device_id, conversation_id, sender_id, envelope_id)
       SELECT d, c, s, e FROM input ON CONFLICT DO NOTHING
       RETURNING device_id, conversation_id, sender_id, envelope_id
     ), logged AS (
       INSERT INTO lineup_log (device_id, conversation_id, direction, envelope_id, type, envelope, delivered)
       SELECT input.d, input.c, 'in', input.e, input.t, input.v, true
       FROM input JOIN mark ON mark.device_id = input.d AND mark.conversation_id = input.c
         AND mark.sender_id = input.s AND mark.envelope_id = input.e
       ORDER BY input.i
       RETURNING seq
     )
     SELECT input.i FROM input JOIN mark ON mark.device_id = input.d AND mark.conversation_id = input.c
       AND mark.sender_id = input.s AND mark.envelope_id = input.e`,
    [JSON.stringify(input)],
  );
  const taken = new Set(rows.map((row) => Number(row.i)));
  return takes.map((_take, index) => (taken.has(index) ? 'new' : 'seen'));
}

/** Marks what the agent sent with these envelope ids as delivered; `false` for one that was not undelivered. */
export async function markAllDelivered(db: SqlQueryable, acks: readonly Ack[]): Promise<boolean[]> {
  const { rows } = await db.query<{ device_id: string; envelope_id: string }>(
    `UPDATE lineup_log SET delivered = true
     FROM (SELECT DISTINCT d, e FROM jsonb_to_recordset($1::jsonb) AS x(d text, e text)) AS input
     WHERE device_id = input.d AND envelope_id = input.e AND direction = 'out' AND NOT delivered
     RETURNING device_id, envelope_id`,
    [JSON.stringify(acks.map((ack) => ({ d: ack.deviceId, e: ack.envelopeId })))],
  );
  // One row of the log per id: a second acknowledgement of it in the same batch finds it delivered already.
  const marked = new Set(rows.map((row) => JSON.stringify([row.device_id, row.envelope_id])));
  return acks.map((ack) => marked.delete(JSON.stringify([ack.deviceId, ack.envelopeId])));
}

/** What the agent sent into each conversation that the device has not acknowledged, oldest first. */
export async function readAllUndelivered(db: SqlQueryable, reads: readonly LogRead[]): Promise<LogEntry[][]> {
  const input = reads.map((read, i) => ({
    i,
    d: read.key.deviceId,
    c: read.key.conversationId,
    l: read.limit,
  }));
  const { rows } = await db.query<RawLogRow & { i: number }>(
    `SELECT x.i, l.seq, l.direction, l.type, l.envelope
     FROM jsonb_to_recordset($1::jsonb) AS x(i int, d text, c text, l int)
     CROSS JOIN LATERAL (
       SELECT seq, direction, type, envelope FROM lineup_log
       WHERE device_id = x.d AND conversation_id = x.c AND direction = 'out' AND NOT delivered
       ORDER BY seq LIMIT x.l
     ) l
     ORDER BY x.i, l.seq`,
    [JSON.stringify(input)],
  );
  const entries = reads.map((): LogEntry[] => []);
  for (const row of rows) entries[Number(row.i)]?.push(logEntry(row));
  return entries;
}

/** Keeps each conversation's latest inventory. */
export async function saveAllInventories(
  db: SqlQueryable,
  saves: readonly InventorySave[],
): Promise<undefined[]> {
  // One row per conversation in a statement: of two for one conversation, the later one is kept.
  const latest = new Map<string, { d: string; c: string; r: string; v: string }>();
  for (const save of saves)
    latest.set(JSON.stringify([save.key.deviceId, save.key.conversationId]), {
      d: save.key.deviceId,
      c: save.key.conversationId,
      r: save.revision,
      v: save.inventory,
    });
  await db.query(
    `INSERT INTO lineup_conversations (device_id, conversation_id, inventory_revision, inventory)
     SELECT d, c, r, v FROM jsonb_to_recordset($1::jsonb) AS x(d text, c text, r text, v text)
     ON CONFLICT (device_id, conversation_id)
     DO UPDATE SET inventory_revision = excluded.inventory_revision, inventory = excluded.inventory,
       updated_at = now()`,
    [JSON.stringify([...latest.values()])],
  );
  return saves.map(() => undefined);
}
