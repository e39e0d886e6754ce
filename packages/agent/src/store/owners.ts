/**
 * Who handles a conversation, across workers on one PostgreSQL (or the one process on PGlite). Each worker is a run
 * epoch with a heartbeat; a conversation has at most one owner epoch at a time, recorded in its row, and the seq of
 * the last envelope its brain was handed (`handled_seq`). A worker claims a conversation that has no owner, or whose
 * owner's heartbeat stopped for `leaseMs` — never one a live worker holds. Every write the owner makes for the
 * conversation (what its brain sends, the envelopes it marks handled) checks in the same statement that it still owns
 * it: a worker that was frozen and lost its conversations cannot write into them (fencing by epoch). The log is the
 * only channel between workers: the device's worker writes what it takes, the owner reads it; the owner writes what
 * its brain sends, the device's worker delivers it.
 */
import { Batcher } from './batch.js';
import { type AgentStore, type ConversationKey, ENDED_EPOCHS, type LogEntry } from './store.js';

export type SendOutcome = 'logged' | 'call_repeated' | 'not_owner';

export class Ownership {
  /** Claims, hand-over marks and reads of the incoming envelopes, each gathered into one statement per batch. */
  readonly #claims = new Batcher<ConversationKey, number | null>((keys) => this.#claimAll(keys));
  readonly #marks = new Batcher<{ key: ConversationKey; seq: number }, boolean>((marks) =>
    this.#markAll(marks),
  );
  readonly #reads = new Batcher<{ key: ConversationKey; afterSeq: number; limit: number }, LogEntry[]>(
    (reads) => this.#readAll(reads),
  );

  constructor(readonly store: AgentStore) {}

  get #db() {
    return this.store.db;
  }

  /**
   * Claims the conversation for this worker when it is free, already this worker's, or its owner ended. Returns the
   * seq up to which its envelopes were handed to a brain, or `null` when a live worker owns it.
   */
  claim(key: ConversationKey): Promise<number | null> {
    return this.#claims.submit(key);
  }

  /** Records that the brain was handed the envelope at `seq`; `false` when this worker no longer owns it. */
  handled(key: ConversationKey, seq: number): Promise<boolean> {
    return this.#marks.submit({ key, seq });
  }

  /** The device's envelopes of the conversation after `afterSeq`, oldest first (at most `limit`). */
  incoming(key: ConversationKey, afterSeq: number, limit = 256): Promise<LogEntry[]> {
    return this.#reads.submit({ key, afterSeq, limit });
  }

  async #claimAll(keys: readonly ConversationKey[]): Promise<(number | null)[]> {
    const distinct = distinctKeys(keys);
    const { rows } = await this.#db.query<{ i: number; handled_seq: string }>(
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, d text, c text))
       UPDATE lineup_conversations SET owner_epoch = $2
       FROM input WHERE device_id = input.d AND conversation_id = input.c
         AND (owner_epoch IS NULL OR owner_epoch = $2 OR owner_epoch IN (${ENDED_EPOCHS('$3')}))
       RETURNING input.i, handled_seq`,
      [JSON.stringify(distinct.rows), this.store.epoch, this.store.leaseMs],
    );
    const claimed = new Map(rows.map((row) => [Number(row.i), Number(row.handled_seq)]));
    return distinct.indexOf.map((index) => claimed.get(index) ?? null);
  }

  async #markAll(marks: readonly { key: ConversationKey; seq: number }[]): Promise<boolean[]> {
    const distinct = distinctKeys(marks.map((mark) => mark.key));
    const seqs = distinct.rows.map(() => 0);
    marks.forEach((mark, at) => {
      const index = distinct.indexOf[at] as number;
      seqs[index] = Math.max(seqs[index] as number, mark.seq);
    });
    const { rows } = await this.#db.query<{ i: number }>(
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, d text, c text, s int8))
       UPDATE lineup_conversations SET handled_seq = greatest(handled_seq, input.s)
       FROM input WHERE device_id = input.d AND conversation_id = input.c AND owner_epoch = $2
       RETURNING input.i`,
      [JSON.stringify(distinct.rows.map((row, index) => ({ ...row, s: seqs[index] }))), this.store.epoch],
    );
    const owned = new Set(rows.map((row) => Number(row.i)));
    return distinct.indexOf.map((index) => owned.has(index));
  }

  async #readAll(
    reads: readonly { key: ConversationKey; afterSeq: number; limit: number }[],
  ): Promise<LogEntry[][]> {
    const input = reads.map((read, i) => ({
      i,
      d: read.key.deviceId,
      c: read.key.conversationId,
      a: read.afterSeq,
      l: read.limit,
    }));
    const { rows } = await this.#db.query<{ i: number; seq: string; type: string; envelope: string }>(
      `SELECT x.i, l.seq, l.type, l.envelope
       FROM jsonb_to_recordset($1::jsonb) AS x(i int, d text, c text, a int8, l int)
       CROSS JOIN LATERAL (
         SELECT seq, type, envelope FROM lineup_log
         WHERE device_id = x.d AND conversation_id = x.c AND direction = 'in' AND seq > x.a
         ORDER BY seq LIMIT x.l
       ) l
       ORDER BY x.i, l.seq`,
      [JSON.stringify(input)],
    );
    const entries = reads.map((): LogEntry[] => []);
    for (const row of rows)
      entries[Number(row.i)]?.push({
        seq: Number(row.seq),
        direction: 'in',
        type: row.type,
        envelope: JSON.parse(row.envelope) as Record<string, unknown>,
      });
    return entries;
  }

  /**
   * Logs what the brain sends — with its tool call recorded first, once — in one transaction, only while this worker
   * owns the conversation.
   */
  async sendOut(
    key: ConversationKey,
    envelope: { readonly id: string; readonly type: string },
    call?: { readonly callId: string; readonly tool: string; readonly arguments: unknown },
  ): Promise<SendOutcome> {
    return this.#db.transaction(async (tx) => {
      const { rows: owner } = await tx.query(
        `SELECT 1 FROM lineup_conversations WHERE device_id = $1 AND conversation_id = $2 AND owner_epoch = $3
         FOR SHARE`,
        [key.deviceId, key.conversationId, this.store.epoch],
      );
      if (owner.length === 0) return 'not_owner';
      if (call !== undefined) {
        const { rows } = await tx.query(
          `INSERT INTO lineup_tool_calls (device_id, conversation_id, call_id, tool, arguments, status)
           VALUES ($1, $2, $3, $4, $5, 'sent') ON CONFLICT DO NOTHING RETURNING call_id`,
          [key.deviceId, key.conversationId, call.callId, call.tool, JSON.stringify(call.arguments ?? null)],
        );
        if (rows.length === 0) return 'call_repeated';
      }
      await tx.query(
        `INSERT INTO lineup_log (device_id, conversation_id, direction, envelope_id, type, envelope, delivered)
         VALUES ($1, $2, 'out', $3, $4, $5, false)`,
        [key.deviceId, key.conversationId, envelope.id, envelope.type, JSON.stringify(envelope)],
      );
      return 'logged';
    });
  }

  /**
   * The conversations this worker should pump now: its own with envelopes not yet handed to a brain, and those of
   * the devices connected to it that have such envelopes and no live owner.
   */
  async work(devices: readonly string[]): Promise<ConversationKey[]> {
    const { rows } = await this.#db.query<{ device_id: string; conversation_id: string }>(
      `SELECT c.device_id, c.conversation_id FROM lineup_conversations c
       WHERE (c.owner_epoch = $1
              OR (c.device_id = ANY($2::text[])
                  AND (c.owner_epoch IS NULL OR c.owner_epoch IN (${ENDED_EPOCHS('$3')}))))
         AND EXISTS (SELECT 1 FROM lineup_log l WHERE l.device_id = c.device_id
                       AND l.conversation_id = c.conversation_id AND l.direction = 'in' AND l.seq > c.handled_seq)
       LIMIT 1000`,
      [this.store.epoch, devices, this.store.leaseMs],
    );
    return rows.map((row) => ({ deviceId: row.device_id, conversationId: row.conversation_id }));
  }

  /** What the agent sent to these devices and they have not acknowledged, oldest first. */
  async undeliveredFor(devices: readonly string[], limit = 1_000): Promise<(LogEntry & ConversationKey)[]> {
    if (devices.length === 0) return [];
    const { rows } = await this.#db.query<{
      seq: string;
      device_id: string;
      conversation_id: string;
      type: string;
      envelope: string;
    }>(
      `SELECT seq, device_id, conversation_id, type, envelope FROM lineup_log
       WHERE device_id = ANY($1::text[]) AND direction = 'out' AND NOT delivered ORDER BY seq LIMIT $2`,
      [devices, limit],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      direction: 'out' as const,
      type: row.type,
      envelope: JSON.parse(row.envelope) as Record<string, unknown>,
      deviceId: row.device_id,
      conversationId: row.conversation_id,
    }));
  }
}

/** The distinct conversations of a batch (`rows`, each with its index `i`), and each request's index into them. */
function distinctKeys(keys: readonly ConversationKey[]): {
  rows: { i: number; d: string; c: string }[];
  indexOf: number[];
} {
  const rows: { i: number; d: string; c: string }[] = [];
  const byKey = new Map<string, number>();
  const indexOf = keys.map((key) => {
    const text = JSON.stringify([key.deviceId, key.conversationId]);
    let index = byKey.get(text);
    if (index === undefined) {
      index = rows.length;
      byKey.set(text, index);
      rows.push({ i: index, d: key.deviceId, c: key.conversationId });
    }
    return index;
  });
  return { rows, indexOf };
}
