/**
 * @lineup/agent — the agent side of LineUp in Node (seed 004): what sits beside an agent's model loop and talks
 * `lineup.v1` to devices, with everything the seeds say the host persists kept in PostgreSQL — embedded (PGlite, a
 * folder, nothing to install) by default, or a PostgreSQL server.
 */

// Storage
export { MIGRATIONS, type Migration, migrate, SchemaVersionError } from './store/migrations.js';
export { openDatabase } from './store/open.js';
export { openPGlite, pgliteDatabase } from './store/pglite.js';
export { openPostgres, type PostgresOptions } from './store/postgres.js';
export type { SqlDatabase, SqlKind, SqlQueryable, SqlResult } from './store/sql.js';
export {
  AgentStore,
  AgentStoreError,
  type AgentStoreOptions,
  type ConversationKey,
  type LogEntry,
  type OperationRecord,
  type OperationStatus,
  type ToolCallRecord,
  type ToolCallStatus,
} from './store/store.js';
export {
  type StreamCursor,
  type StreamRecord,
  StreamRecords,
  StreamRefusal,
  type StreamRefusalCode,
} from './store/streams.js';
