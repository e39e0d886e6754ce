/**
 * @lineup/agent — the agent side of LineUp in Node (seed 004): what sits beside an agent's model loop and talks
 * `lineup.v1` to devices, with everything the seeds say the host persists kept in PostgreSQL — embedded (PGlite, a
 * folder, nothing to install) by default, or a PostgreSQL server.
 */

// Brains
export { type ChatCompletionsBrainOptions, chatCompletionsBrain } from './brains/chat-completions.js';
export { envelopeSender, lineUpIdFrom, RecentIds, type SendEnvelope } from './brains/envelopes.js';
export {
  createLLMAgent,
  DEFAULT_INSTRUCTIONS,
  type LLMAgent,
  type LLMAgentOptions,
  type StreamKeeper,
  streamRefusalText,
} from './brains/llm/agent.js';
export {
  type ChatCompletion,
  type ChatCompletionsOptions,
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatTool,
  type ChatToolCall,
  createChatCompletionsModel,
} from './brains/llm/chat.js';
export {
  buildToolTable,
  functionNameOf,
  INTELLIGENT_UI_CHAT_TOOLS,
  type ToolTable,
} from './brains/llm/tools.js';
export { scriptedBrain } from './brains/scripted.js';
// The host: the WebSocket binding for devices, and the brain seam
export type { AgentBrain, BrainContext, ConversationBrain, ReplayEntry } from './host/brain.js';
export { INTERRUPTED_TURN_TEXT } from './host/conversations.js';
export {
  AGENT_HOST_LIMITS,
  type AgentHost,
  type AgentHostLimits,
  type AgentHostOptions,
  LINEUP_ACK_PROTOCOL,
  LINEUP_PROTOCOL,
  startAgentHost,
  TOKEN_PROTOCOL_PREFIX,
} from './host/server.js';
// Storage
export { MIGRATIONS, type Migration, migrate, SchemaVersionError } from './store/migrations.js';
export { openDatabase } from './store/open.js';
export { Ownership, type SendOutcome } from './store/owners.js';
export { openPGlite, PGLITE_LOCK_FILE, pgliteDatabase, StoreBusyError } from './store/pglite.js';
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
