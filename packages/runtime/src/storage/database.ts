/**
 * The runtime's IndexedDB database (DESIGN.md "Persistence"): one database per host profile, opened through
 * `idb`, with a versioned upgrade path. Each version's step only adds what that version introduced, so a
 * profile created by any earlier version upgrades in place and keeps its facts.
 *
 * This module opens it, and is where the rest of the runtime takes its storage from: the schema (schema.ts), the
 * upgrade path with each version's history (upgrade.ts), the records of each store (`*-records.ts`), the
 * transactions' store sets and helpers (transactions.ts) and the inventory fences (inventory-fence.ts).
 */
import { openDB } from 'idb';
import { openWithLifecycle, type RuntimeDatabaseLifecycle } from './connection.js';
import {
  RUNTIME_DATABASE_NAME,
  RUNTIME_DATABASE_VERSION,
  type RuntimeDatabase,
  type RuntimeDatabaseSchema,
} from './schema.js';
import { upgradeRuntimeDatabase } from './upgrade.js';

export type { ActionLedgerRecord, ActionReceiptStatus } from './action-records.js';
export type {
  AppRecord,
  BundleFileRecord,
  InventoryFenceRecord,
  InventoryRecord,
  McpServerRecord,
  MiniAppRecord,
} from './app-records.js';
export type { AuditRecord, AuditType } from './audit-records.js';
export type {
  CapabilityCallRecord,
  CapabilityCallStage,
  CapabilityRecord,
  GrantRecord,
} from './capability-records.js';
export type {
  AppConsentSettings,
  HeldToolChange,
  ToolCallConsent,
  ToolGrantRecord,
  ToolPolicyChoice,
} from './consent-records.js';
export {
  type ConversationMessageRecord,
  type ConversationRecord,
  MESSAGE_PENDING,
  RECENT_RECEIVED_KEPT,
  type StoredMessageRecord,
  type ViewStateRecord,
} from './conversation-records.js';
export type {
  ActivationRecord,
  ActivationStatus,
  InstanceRecord,
  OperationRecord,
  SessionDataRecord,
  ToolCallRecord,
  ToolCallStage,
} from './execution-records.js';
export { guardInventory, registryStampIn, stampRegistry, writeInventoryFence } from './inventory-fence.js';
export { OUTBOX_PENDING, type OutboxRecord } from './outbox-records.js';
export {
  RUNTIME_DATABASE_NAME,
  RUNTIME_DATABASE_VERSION,
  type RuntimeDatabase,
  type RuntimeDatabaseSchema,
} from './schema.js';
export {
  abortQuietly,
  CAPABILITY_CALL_STORES,
  CONSENT_STORES,
  CONVERSATION_STORES,
  type ConsentTransaction,
  commitNow,
  EXECUTION_STORES,
  type ExecutionTransaction,
  issue,
  REGISTRY_STORES,
  type RegistryTransaction,
  STRICT,
  TOOL_CALL_STORES,
} from './transactions.js';
export { RECENT_RECEIVED_ON_UPGRADE } from './upgrade.js';

/**
 * Opens (creating or upgrading) the runtime database. The connection closes itself when another page needs a
 * newer version (tell the user through `lifecycle.onVersionChange`); opening waits at most
 * `lifecycle.blockedTimeoutMs` for older pages to let go (`onBlocked` says it waits), then rejects with
 * `RuntimeStorageError` `storage_blocked` (connection.ts).
 */
export function openRuntimeDatabase(
  name: string = RUNTIME_DATABASE_NAME,
  lifecycle: RuntimeDatabaseLifecycle = {},
): Promise<RuntimeDatabase> {
  return openWithLifecycle(RUNTIME_DATABASE_VERSION, lifecycle, (callbacks) =>
    openDB<RuntimeDatabaseSchema>(name, RUNTIME_DATABASE_VERSION, {
      ...callbacks,
      upgrade: upgradeRuntimeDatabase,
    }),
  );
}
