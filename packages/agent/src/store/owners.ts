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
import { type AgentStore, type ConversationKey, ENDED_EPOCHS, type LogEntry } from './store.js';

export type SendOutcome = 'logged' | 'call_repeated' | 'not_owner';

export class Ownership {
  constructor(readonly store: AgentStore) {}

  get #db() {
    return this.store.db;
  }

  /**
   * Claims the conversation for this worker when it is free, already this worker's, or its owner ended. Returns the
   * seq up to which its envelopes were handed to a brain, or `null` when a live worker owns it.
   */
  async claim(key: ConversationKey): Promise<number | null> {
    const { rows } = await this.#db.query<{ handled_seq: string }>(
      `UPDATE lineup_conversations SET owner_epoch = $3
       WHERE device_id = $1 AND conversation_id = $2
         AND (owner_epoch IS NULL OR owner_epoch = $3 OR owner_epoch IN (${ENDED_EPOCHS('$4')}))
       RETURNING handled_seq`,
      [key.deviceId, key.conversationId, this.store.epoch, this.store.leaseMs],
    );
    const row = rows[0];
    return row === undefined ? null : Number(row.handled_seq);
  }

  /** Records that the brain was handed the envelope at `seq`; `false` when this worker no longer owns it. */
  async handled(key: ConversationKey, seq: number): Promise<boolean> {
    const { rows } = await this.#db.query(
      `UPDATE lineup_conversations SET handled_seq = greatest(handled_seq, $3)
       WHERE device_id = $1 AND conversation_id = $2 AND owner_epoch = $4 RETURNING handled_seq`,
      [key.deviceId, key.conversationId, seq, this.store.epoch],
    );
    return rows.length > 0;
  }

  /** The device's envelopes of the conversation after `afterSeq`, oldest first (at most `limit`). */
  async incoming(key: ConversationKey, afterSeq: number, limit = 256): Promise<LogEntry[]> {
    const { rows } = await this.#db.query<{ seq: string; type: string; envelope: string }>(
      `SELECT seq, type, envelope FROM lineup_log
       WHERE device_id = $1 AND conversation_id = $2 AND direction = 'in' AND seq > $3 ORDER BY seq LIMIT $4`,
      [key.deviceId, key.conversationId, afterSeq, limit],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      direction: 'in' as const,
      type: row.type,
      envelope: JSON.parse(row.envelope) as Record<string, unknown>,
    }));
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
