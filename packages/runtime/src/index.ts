/**
 * @lineup/runtime — the browser runtime (DESIGN.md): persisted in IndexedDB through `idb`. This release holds
 * the database with its versioned upgrade path, the app registry that publishes the revisioned
 * `client.inventory`, and the intake of Agent Tool calls (dedupe, checks, persisted receipt); execution,
 * activations, operations, session data, the action ledger and the outbox delivery follow.
 */
export {
  AppRegistry,
  buildInventory,
  type Clock,
  HOST_STANDARD_COMPONENTS,
  type InstallOutcome,
} from './apps/registry.js';
export {
  type AppTarget,
  HOST_INTENTS,
  type HostIntent,
  OPERATION_SESSION_KEY,
  type RuntimeHost,
  type SessionDataSnapshot,
  ToolRuntime,
  type ToolRuntimeOptions,
} from './execution/tool-runtime.js';
export {
  type DeliveryReport,
  OutboxDelivery,
  type OutboxDeliveryOptions,
  type OutboxLocks,
  type OutboxMessage,
} from './outbox/delivery.js';
export {
  type ActivationRecord,
  type ActivationStatus,
  type AppRecord,
  type AuditRecord,
  type AuditType,
  type InstanceRecord,
  type InventoryRecord,
  type OperationRecord,
  type OutboxRecord,
  openRuntimeDatabase,
  RUNTIME_DATABASE_NAME,
  RUNTIME_DATABASE_VERSION,
  type RuntimeDatabase,
  type SessionDataRecord,
  type ToolCallRecord,
  type ToolCallStage,
} from './storage/database.js';
export { type ToolCallAnswer, type ToolCallDisposition, ToolCallIntake } from './tools/intake.js';
