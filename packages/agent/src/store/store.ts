/**
 * What the agent host persists (seed 004 §4–§6), per device and conversation: the devices and their tokens, the
 * envelopes taken (de-duplicated by device, conversation, sender and id), the conversation's ordered log, its
 * latest inventory, every tool call sent with its receipt, progress and final result, and the action ledger. The
 * stream records are `StreamRecords` (streams.ts), on the same database and run epoch.
 */

import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Batcher } from './batch.js';
import {
  type Ack,
  type InventorySave,
  type LogRead,
  markAllDelivered,
  readAllUndelivered,
  saveAllInventories,
  type Take,
  takeAll,
} from './batched.js';
import { migrate } from './migrations.js';
import { type ConversationKey, type LogEntry, logEntry, parsed, type RawLogRow } from './rows.js';
import type { SqlDatabase } from './sql.js';

export type { ConversationKey, LogEntry } from './rows.js';

export type ToolCallStatus = 'sent' | 'receipt' | 'progress' | 'final';

export interface ToolCallRecord {
  readonly callId: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: ToolCallStatus;
  readonly receipt: unknown;
  readonly progress: unknown;
  readonly result: unknown;
}

export type OperationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'unknown';

export interface OperationRecord {
  readonly operationId: string;
  readonly requestDigest: string;
  readonly status: OperationStatus;
  readonly receipt: unknown;
}

/** Device ids and labels: printable ASCII without spaces, 1–128 characters (like a LineUp id). */
const DEVICE_ID = /^[\x21-\x7e]{1,128}$/;
/** Tokens this store issues: `lat_` and 43 base64url characters (32 random bytes). */
const TOKEN = /^lat_[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class AgentStoreError extends Error {
  override readonly name = 'AgentStoreError';
  constructor(
    readonly code: 'invalid_device_id' | 'unknown_device' | 'operation_conflict',
    message: string,
  ) {
    super(message);
  }
}

export interface AgentStoreOptions {
  /** Names this worker in the run-epoch table (default `hostname:pid`). */
  readonly worker?: string;
  /**
   * How long a run's heartbeat may be silent before the run counts as ended (default 5,000 ms): its conversations
   * move to a worker a device reaches, its running operations read `unknown`.
   */
  readonly leaseMs?: number;
}

/** The run epochs whose heartbeat is older than `$param` milliseconds: runs that ended (closed, killed, frozen). */
export const ENDED_EPOCHS = (param: string) =>
  `SELECT epoch FROM lineup_run_epochs WHERE heartbeat_at < now() - make_interval(secs => ${param}::float8 / 1000)`;

export class AgentStore {
  // The statements a burst of devices makes, each kind gathered into one statement per batch (batched.ts).
  readonly #takes = new Batcher((takes: readonly Take[]) => takeAll(this.db, takes));
  readonly #deliveries = new Batcher((acks: readonly Ack[]) => markAllDelivered(this.db, acks));
  readonly #undeliveredReads = new Batcher((reads: readonly LogRead[]) => readAllUndelivered(this.db, reads));
  readonly #inventories = new Batcher((saves: readonly InventorySave[]) =>
    saveAllInventories(this.db, saves),
  );
  readonly #authentications = new Batcher((hashes: readonly string[]) => this.#authenticateAll(hashes));

  private constructor(
    readonly db: SqlDatabase,
    /** This run's epoch: a new one each time a store is opened, never reused (seed 004 §5). */
    readonly epoch: number,
    readonly leaseMs: number,
  ) {}

  /** Migrates `db` to the newest schema, then starts a new run epoch on it. */
  static async open(db: SqlDatabase, options: AgentStoreOptions = {}): Promise<AgentStore> {
    await migrate(db);
    const worker = options.worker ?? `${hostname()}:${process.pid}`;
    const { rows } = await db.query<{ epoch: string }>(
      'INSERT INTO lineup_run_epochs (worker) VALUES ($1) RETURNING epoch',
      [worker],
    );
    return new AgentStore(db, Number(rows[0]?.epoch), options.leaseMs ?? 5_000);
  }

  /** Says this run is alive (the host does it every quarter of `leaseMs`). */
  async heartbeat(): Promise<void> {
    await this.db.query('UPDATE lineup_run_epochs SET heartbeat_at = now() WHERE epoch = $1', [this.epoch]);
  }

  /** Ends this run for the others at once (a clean close): its conversations may move without waiting. */
  async retire(): Promise<void> {
    await this.db.query("UPDATE lineup_run_epochs SET heartbeat_at = '-infinity' WHERE epoch = $1", [
      this.epoch,
    ]);
  }

  // ── Devices ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Issues a new token for `deviceId` (creating the device; an earlier token of it stops working). Only the
   * token's SHA-256 is stored: show the token to the user once.
   */
  async issueDeviceToken(deviceId: string, label = ''): Promise<string> {
    if (typeof deviceId !== 'string' || !DEVICE_ID.test(deviceId))
      throw new AgentStoreError(
        'invalid_device_id',
        'A device id is 1–128 printable ASCII characters without spaces.',
      );
    const token = `lat_${randomBytes(32).toString('base64url')}`;
    await this.db.query(
      `INSERT INTO lineup_devices (device_id, label, token_sha256) VALUES ($1, $2, $3)
       ON CONFLICT (device_id) DO UPDATE SET token_sha256 = $3, label = $2, revoked_at = NULL`,
      [deviceId, label.slice(0, 200), sha256(token)],
    );
    return token;
  }

  /** Revokes the device's token; returns whether the device existed. Its conversations are kept. */
  async revokeDevice(deviceId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      'UPDATE lineup_devices SET revoked_at = now() WHERE device_id = $1 RETURNING device_id',
      [deviceId],
    );
    return rows.length > 0;
  }

  /**
   * The device a token belongs to, or `null` for a malformed, unknown or revoked token. Connections arriving together
   * (a reconnect storm after a worker ended, say) share one statement.
   */
  async authenticate(token: unknown): Promise<string | null> {
    if (typeof token !== 'string' || !TOKEN.test(token)) return null;
    return this.#authentications.submit(sha256(token));
  }

  async #authenticateAll(hashes: readonly string[]): Promise<(string | null)[]> {
    const { rows } = await this.db.query<{ device_id: string; token_sha256: string }>(
      'SELECT device_id, token_sha256 FROM lineup_devices WHERE token_sha256 = ANY($1::text[]) AND revoked_at IS NULL',
      [[...new Set(hashes)]],
    );
    const devices = new Map(rows.map((row) => [row.token_sha256, row.device_id]));
    return hashes.map((hash) => devices.get(hash) ?? null);
  }

  /**
   * For each token, whether it still opens a connection (neither revoked nor replaced by a newer one): the host asks
   * this for its open connections, and closes those whose token no longer does.
   */
  async tokensInForce(tokens: readonly string[]): Promise<boolean[]> {
    if (tokens.length === 0) return [];
    const hashes = tokens.map(sha256);
    const { rows } = await this.db.query<{ token_sha256: string }>(
      'SELECT token_sha256 FROM lineup_devices WHERE token_sha256 = ANY($1::text[]) AND revoked_at IS NULL',
      [[...new Set(hashes)]],
    );
    const inForce = new Set(rows.map((row) => row.token_sha256));
    return hashes.map((hash) => inForce.has(hash));
  }

  async devices(): Promise<{ deviceId: string; label: string; revoked: boolean }[]> {
    const { rows } = await this.db.query<{ device_id: string; label: string; revoked_at: unknown }>(
      'SELECT device_id, label, revoked_at FROM lineup_devices ORDER BY created_at, device_id',
    );
    return rows.map((row) => ({
      deviceId: row.device_id,
      label: row.label,
      revoked: row.revoked_at !== null,
    }));
  }

  // ── Envelopes and the log ────────────────────────────────────────────────────────────────────────────

  /**
   * Takes an envelope the device sent: `'new'` when its (sender, id) was not taken in this conversation before —
   * then it is in the log, atomically with the mark — or `'seen'` (delivery is at least once: answer the ack
   * again, handle nothing). Envelopes taken concurrently share one statement.
   */
  async takeEnvelope(
    key: ConversationKey,
    envelope: { readonly id: string; readonly type: string; readonly sender: { readonly id: string } },
  ): Promise<'new' | 'seen'> {
    return this.#takes.submit({ key, envelope });
  }

  /**
   * Appends an envelope the agent sends to the conversation's log, undelivered, before it goes out: it is sent
   * again (same id) at the conversation's next session start until the device acknowledges it.
   */
  async logOutgoing(
    key: ConversationKey,
    envelope: { readonly id: string; readonly type: string },
    options: { readonly delivered?: boolean } = {},
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO lineup_log (device_id, conversation_id, direction, envelope_id, type, envelope, delivered)
       VALUES ($1, $2, 'out', $3, $4, $5, $6)`,
      [
        key.deviceId,
        key.conversationId,
        envelope.id,
        envelope.type,
        JSON.stringify(envelope),
        options.delivered ?? false,
      ],
    );
  }

  /**
   * Marks what the agent sent with this envelope id as delivered (the device acknowledged it); `false` when nothing
   * undelivered has that id. Acknowledgements arriving together share one statement.
   */
  markDelivered(deviceId: string, envelopeId: string): Promise<boolean> {
    return this.#deliveries.submit({ deviceId, envelopeId });
  }

  /**
   * What the agent sent into the conversation that the device has not acknowledged, oldest first. Reads for many
   * conversations (a burst of session starts) share one statement.
   */
  undelivered(key: ConversationKey, limit = 1_000): Promise<LogEntry[]> {
    return this.#undeliveredReads.submit({ key, limit });
  }

  /** The last envelope of `type` the device sent into the conversation, if any. */
  async lastIncoming(key: ConversationKey, type: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await this.db.query<{ envelope: string }>(
      `SELECT envelope FROM lineup_log
       WHERE device_id = $1 AND conversation_id = $2 AND direction = 'in' AND type = $3
       ORDER BY seq DESC LIMIT 1`,
      [key.deviceId, key.conversationId, type],
    );
    const row = rows[0];
    return row === undefined ? undefined : parsed<Record<string, unknown>>(row.envelope);
  }

  /** The conversation's log, oldest first: at most `limit` entries after `afterSeq`. */
  async log(key: ConversationKey, options: { afterSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    const { rows } = await this.db.query<RawLogRow>(
      `SELECT seq, direction, type, envelope FROM lineup_log
       WHERE device_id = $1 AND conversation_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
      [key.deviceId, key.conversationId, options.afterSeq ?? 0, Math.min(options.limit ?? 1_000, 10_000)],
    );
    return rows.map(logEntry);
  }

  // ── Inventory ────────────────────────────────────────────────────────────────────────────────────────

  /** Keeps the conversation's latest inventory. Inventories arriving together share one statement. */
  async saveInventory(key: ConversationKey, revision: string, inventory: unknown): Promise<void> {
    await this.#inventories.submit({ key, revision, inventory: JSON.stringify(inventory) });
  }

  async inventory(key: ConversationKey): Promise<{ revision: string; inventory: unknown } | null> {
    const { rows } = await this.db.query<{ inventory_revision: string | null; inventory: string | null }>(
      'SELECT inventory_revision, inventory FROM lineup_conversations WHERE device_id = $1 AND conversation_id = $2',
      [key.deviceId, key.conversationId],
    );
    const row = rows[0];
    return row?.inventory_revision == null
      ? null
      : { revision: row.inventory_revision, inventory: parsed(row.inventory) };
  }

  // ── Tool calls ───────────────────────────────────────────────────────────────────────────────────────

  /** Records a call before it is sent; `false` when this call id was recorded before (never send it twice). */
  async recordCall(key: ConversationKey, callId: string, tool: string, args: unknown): Promise<boolean> {
    const { rows } = await this.db.query(
      `INSERT INTO lineup_tool_calls (device_id, conversation_id, call_id, tool, arguments, status)
       VALUES ($1, $2, $3, $4, $5, 'sent') ON CONFLICT DO NOTHING RETURNING call_id`,
      [key.deviceId, key.conversationId, callId, tool, JSON.stringify(args ?? null)],
    );
    return rows.length > 0;
  }

  /**
   * Records what the device answered to a call: `'applied'`, `'duplicate'` (the final result was applied
   * before: apply nothing again) or `'unknown_call'` (no call of that id was sent in this conversation).
   */
  async recordCallAnswer(
    key: ConversationKey,
    callId: string,
    kind: 'receipt' | 'progress' | 'final',
    payload: unknown,
    /** The envelope that carries a final result: the same envelope handled again is `'applied'` again. */
    envelopeId?: string,
  ): Promise<'applied' | 'duplicate' | 'unknown_call'> {
    const column = kind === 'final' ? 'result' : kind;
    const { rows } = await this.db.query(
      `UPDATE lineup_tool_calls SET status = CASE WHEN $4 = 'final' THEN 'final' ELSE
         CASE WHEN status = 'sent' OR $4 = 'progress' THEN $4 ELSE status END END,
         ${column} = $5, final_at = CASE WHEN $4 = 'final' THEN now() ELSE final_at END,
         final_envelope_id = CASE WHEN $4 = 'final' THEN $6 ELSE final_envelope_id END
       WHERE device_id = $1 AND conversation_id = $2 AND call_id = $3 AND status <> 'final'
       RETURNING call_id`,
      [key.deviceId, key.conversationId, callId, kind, JSON.stringify(payload ?? null), envelopeId ?? null],
    );
    if (rows.length > 0) return 'applied';
    const { rows: existing } = await this.db.query<{ final_envelope_id: string | null }>(
      `SELECT final_envelope_id FROM lineup_tool_calls WHERE device_id = $1 AND conversation_id = $2 AND call_id = $3`,
      [key.deviceId, key.conversationId, callId],
    );
    const row = existing[0];
    if (row === undefined) return 'unknown_call';
    return kind === 'final' && envelopeId !== undefined && row.final_envelope_id === envelopeId
      ? 'applied'
      : 'duplicate';
  }

  async call(key: ConversationKey, callId: string): Promise<ToolCallRecord | null> {
    const { rows } = await this.db.query<{
      call_id: string;
      tool: string;
      arguments: string;
      status: ToolCallStatus;
      receipt: string | null;
      progress: string | null;
      result: string | null;
    }>(
      `SELECT call_id, tool, arguments, status, receipt, progress, result FROM lineup_tool_calls
       WHERE device_id = $1 AND conversation_id = $2 AND call_id = $3`,
      [key.deviceId, key.conversationId, callId],
    );
    const row = rows[0];
    return row === undefined
      ? null
      : {
          callId: row.call_id,
          tool: row.tool,
          arguments: parsed(row.arguments),
          status: row.status,
          receipt: parsed(row.receipt),
          progress: parsed(row.progress),
          result: parsed(row.result),
        };
  }

  // ── The action ledger (seed 004 §4) ─────────────────────────────────────────────────────────────────

  /**
   * Reserves an operation before it is queued: `'reserved'` the first time; `'existing'` (with its record) for
   * the same id and the same request; throws `operation_conflict` for the same id with another request.
   */
  async reserveOperation(
    key: ConversationKey,
    operationId: string,
    requestDigest: string,
  ): Promise<{ outcome: 'reserved' | 'existing'; operation: OperationRecord }> {
    const { rows } = await this.db.query(
      `INSERT INTO lineup_operations (device_id, conversation_id, operation_id, request_digest, status, reserved_epoch)
       VALUES ($1, $2, $3, $4, 'queued', $5) ON CONFLICT DO NOTHING RETURNING operation_id`,
      [key.deviceId, key.conversationId, operationId, requestDigest, this.epoch],
    );
    const operation = (await this.operation(key, operationId)) as OperationRecord;
    if (rows.length > 0) return { outcome: 'reserved', operation };
    if (operation.requestDigest !== requestDigest)
      throw new AgentStoreError(
        'operation_conflict',
        `Operation ${operationId} was reserved for another request; an operation id names one request.`,
      );
    return { outcome: 'existing', operation };
  }

  /**
   * Claims a queued operation for execution, atomically: `'claimed'` for exactly one caller. An operation
   * reserved by an earlier run (before a restart) is never dispatched: it fails as `host_restarted` (nothing
   * ran). Anything else answers with the operation's current status.
   */
  async claimOperation(
    key: ConversationKey,
    operationId: string,
  ): Promise<
    { outcome: 'claimed' } | { outcome: 'not_claimed'; status: OperationStatus } | { outcome: 'unknown' }
  > {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ status: OperationStatus; reserved_epoch: string }>(
        `SELECT status, reserved_epoch FROM lineup_operations
         WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3 FOR UPDATE`,
        [key.deviceId, key.conversationId, operationId],
      );
      const row = rows[0];
      if (row === undefined) return { outcome: 'unknown' as const };
      if (row.status !== 'queued') return { outcome: 'not_claimed' as const, status: row.status };
      if (Number(row.reserved_epoch) !== this.epoch) {
        await tx.query(
          `UPDATE lineup_operations SET status = 'failed', receipt = $4, updated_at = now()
           WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3`,
          [key.deviceId, key.conversationId, operationId, JSON.stringify({ code: 'host_restarted' })],
        );
        return { outcome: 'not_claimed' as const, status: 'failed' as const };
      }
      await tx.query(
        `UPDATE lineup_operations SET status = 'running', claimed_epoch = $4, updated_at = now()
         WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3`,
        [key.deviceId, key.conversationId, operationId, this.epoch],
      );
      return { outcome: 'claimed' as const };
    });
  }

  /**
   * Settles an operation this run claimed. `false` when it is not running under this run (already settled, or
   * claimed by a run that ended: its effect is unknown and stays so).
   */
  async settleOperation(
    key: ConversationKey,
    operationId: string,
    status: Exclude<OperationStatus, 'queued' | 'running'>,
    receipt: unknown,
  ): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE lineup_operations SET status = $4, receipt = $5, updated_at = now()
       WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3
         AND status = 'running' AND claimed_epoch = $6 RETURNING operation_id`,
      [key.deviceId, key.conversationId, operationId, status, JSON.stringify(receipt ?? null), this.epoch],
    );
    return rows.length > 0;
  }

  /**
   * The operation's record. One that was running when its run ended (a run whose heartbeat stopped for `leaseMs`)
   * reads `unknown` from then on: its effect is not known, and it is never retried.
   */
  async operation(key: ConversationKey, operationId: string): Promise<OperationRecord | null> {
    await this.db.query(
      `UPDATE lineup_operations SET status = 'unknown', updated_at = now()
       WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3
         AND status = 'running' AND claimed_epoch <> $4
         AND claimed_epoch IN (${ENDED_EPOCHS('$5')})`,
      [key.deviceId, key.conversationId, operationId, this.epoch, this.leaseMs],
    );
    const { rows } = await this.db.query<{
      operation_id: string;
      request_digest: string;
      status: OperationStatus;
      receipt: string | null;
    }>(
      `SELECT operation_id, request_digest, status, receipt FROM lineup_operations
       WHERE device_id = $1 AND conversation_id = $2 AND operation_id = $3`,
      [key.deviceId, key.conversationId, operationId],
    );
    const row = rows[0];
    return row === undefined
      ? null
      : {
          operationId: row.operation_id,
          requestDigest: row.request_digest,
          status: row.status,
          receipt: parsed(row.receipt),
        };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
