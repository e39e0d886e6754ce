/**
 * The agent host's schema, as versioned migrations: one list for PGlite and PostgreSQL alike, applied in order at
 * start, each once, in one transaction under an advisory lock (two workers starting together on one server do
 * not both apply it). A database written by a newer version of this package is refused, never downgraded.
 */
import type { SqlDatabase } from './sql.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Single statements, run in order (PGlite's extended protocol takes one statement per query). */
  readonly statements: readonly string[];
}

const key = 'device_id text NOT NULL, conversation_id text NOT NULL';

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'devices, conversations with their owner, envelopes, calls, streams with run epochs, operations',
    statements: [
      `CREATE TABLE lineup_run_epochs (
        epoch bigserial PRIMARY KEY,
        worker text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE lineup_devices (
        device_id text PRIMARY KEY,
        label text NOT NULL DEFAULT '',
        token_sha256 text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`,
      `CREATE TABLE lineup_conversations (
        ${key},
        inventory_revision text,
        inventory text,
        owner_epoch bigint,
        handled_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, conversation_id)
      )`,
      `CREATE TABLE lineup_envelopes_seen (
        ${key},
        sender_id text NOT NULL,
        envelope_id text NOT NULL,
        seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, conversation_id, sender_id, envelope_id)
      )`,
      `CREATE TABLE lineup_log (
        seq bigserial PRIMARY KEY,
        ${key},
        direction text NOT NULL CHECK (direction IN ('in', 'out')),
        envelope_id text NOT NULL,
        type text NOT NULL,
        envelope text NOT NULL,
        delivered boolean NOT NULL DEFAULT false,
        at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX lineup_log_conversation ON lineup_log (device_id, conversation_id, seq)',
      `CREATE INDEX lineup_log_undelivered ON lineup_log (device_id, envelope_id)
        WHERE direction = 'out' AND NOT delivered`,
      `CREATE TABLE lineup_tool_calls (
        ${key},
        call_id text NOT NULL,
        tool text NOT NULL,
        arguments text NOT NULL,
        status text NOT NULL CHECK (status IN ('sent', 'receipt', 'progress', 'final')),
        receipt text,
        progress text,
        result text,
        final_envelope_id text,
        sent_at timestamptz NOT NULL DEFAULT now(),
        final_at timestamptz,
        PRIMARY KEY (device_id, conversation_id, call_id)
      )`,
      `CREATE TABLE lineup_streams (
        ${key},
        source_call_id text NOT NULL,
        ui_id text NOT NULL,
        generation integer NOT NULL,
        epoch bigint NOT NULL REFERENCES lineup_run_epochs (epoch),
        status text NOT NULL CHECK (status IN ('streaming', 'completed', 'cancelled', 'failed')),
        seq integer NOT NULL,
        revision integer NOT NULL,
        checkpoint text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, conversation_id, source_call_id),
        UNIQUE (device_id, conversation_id, ui_id, generation)
      )`,
      `CREATE TABLE lineup_operations (
        ${key},
        operation_id text NOT NULL,
        request_digest text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'unknown')),
        reserved_epoch bigint NOT NULL REFERENCES lineup_run_epochs (epoch),
        claimed_epoch bigint REFERENCES lineup_run_epochs (epoch),
        receipt text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, conversation_id, operation_id)
      )`,
    ],
  },
]);

/** The advisory lock key the migrations run under (a constant: "lineup" in ASCII). */
const MIGRATION_LOCK = 0x6c696e657570;

export class SchemaVersionError extends Error {
  override readonly name = 'SchemaVersionError';
}

/**
 * Brings `db` to the newest schema this package knows; returns the versions it applied (none when up to date).
 * Throws `SchemaVersionError` when the database is at a version newer than any it knows.
 */
export async function migrate(
  db: SqlDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS lineup_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM lineup_schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.version)));
    const newest = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
    const unknown = [...applied].filter((version) => version > newest);
    if (unknown.length > 0)
      throw new SchemaVersionError(
        `The database at ${db.location} has schema version ${Math.max(...unknown)}, newer than this @lineup/agent knows (${newest}). Run the newer version, or use another database.`,
      );
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO lineup_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    }
    return done;
  });
}
