/**
 * @lineup/runtime — the browser runtime (DESIGN.md): persisted in IndexedDB through `idb`. This release holds
 * the database with its versioned upgrade path, the app registry that publishes the revisioned
 * `client.inventory`, the intake of Agent Tool calls, their execution (activations and their waiting queue,
 * the deadline-operation and interrupt built-ins, SDK handlers in the app's sandboxed page, session data,
 * local UI actions, host lifecycle intents), the outbox delivery, the agent connection and conversations,
 * capabilities (`app.call`) and DSL 1.1 actions (the action ledger and its runner), the lock that keeps one
 * runtime per profile across tabs, and the JSON Schema validator they share (an interpreter: no code is
 * generated, so no `'unsafe-eval'` is needed).
 */
export {
  type ActionDocumentSource,
  ActionLedger,
  ActionLedgerError,
  type ActionLedgerErrorCode,
  type ActionLedgerOptions,
} from './actions/action-ledger.js';
export {
  ActionRunner,
  type ActionRunnerOptions,
  type AgentActionChannel,
  type AgentAnswerOutcome,
  DSL_RISK_OF,
  type DslCapabilityBinding,
} from './actions/action-runner.js';
export {
  BundleIntegrityError,
  type BundleIntegrityErrorCode,
  type BundlePolicy,
  checkPolicy,
  digestIntegrity,
  type FetchedBundle,
  fetchVerifiedBundle,
  PICKED_BUNDLE_URL,
  pickedBundleFetch,
  verifyBundleFiles,
} from './apps/bundle.js';
export type { CapabilityDeclaration } from './apps/capability-declarations.js';
export type { InstallOutcome } from './apps/install.js';
export { buildInventory, HOST_STANDARD_COMPONENTS } from './apps/inventory.js';
export { AppRegistry, type AppRegistryOptions } from './apps/registry.js';
export {
  type CapabilityCallAnswer,
  type CapabilityCallDisposition,
  CapabilityError,
  type CapabilityHandler,
  CapabilityRuntime,
  type CapabilityRuntimeOptions,
  type ConsentDecision,
  type ConsentOrigin,
  type ConsentOutcome,
  type ConsentRequest,
  type ExecuteOutcome,
} from './capabilities/capability-runtime.js';
export { AgentClient } from './client/agent-client.js';
export { AgentClientError } from './client/agent-client-error.js';
export {
  type ActionAnswerReceiver,
  AGENT_CLIENT_LIMITS,
  type AgentClientHandlers,
  type AgentClientLimits,
  type AgentClientOptions,
  type AgentClientSendResult,
  type AgentConnectionStatus,
  type CapabilityCallReceiver,
  type ToolCallReceiver,
} from './client/agent-client-options.js';
export { prepareAgentClient } from './client/prepare.js';
export type { SurfaceReferenceChecker, SurfaceReferenceStatus } from './client/surface-reference.js';
export {
  type AgentTransport,
  createInProcessTransport,
  type InProcessAgentEnd,
  type TransportListener,
} from './client/transport.js';
export {
  type BackoffOptions,
  backoffDelay,
  createWebSocketTransport,
  LINEUP_WEBSOCKET_PROTOCOLS,
  type WebSocketFactory,
  type WebSocketLike,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from './client/websocket-transport.js';
export {
  TOOL_POLICY_DECISIONS,
  type ToolConsentFacts,
  type ToolConsentPolicy,
  type ToolPolicyDecision,
  type ToolPolicyRule,
  type ToolPolicySource,
} from './consent/policy.js';
export {
  type ConsentTool,
  claimsOf,
  consentToolOf,
  effectivePolicy,
  type ToolConsentAnswer,
  type ToolConsentConfirm,
  type ToolConsentQuestion,
} from './consent/tool-consent.js';
export {
  type ConversationJournal,
  type ConversationPage,
  ConversationStore,
  ConversationStoreError,
  type ConversationStoreOptions,
  type ReceivedManyOptions,
} from './conversations/conversation-store.js';
export {
  type AppTarget,
  HOST_INTENTS,
  type HostIntent,
  type InvocationOutcome,
  type McpCallRecord,
  type McpViewCallAnswer,
  type McpViewCallRefusal,
  type MiniAppInvocation,
  OPERATION_SESSION_KEY,
  type PageRequestAnswer,
  type PageRequestErrorCode,
  type RuntimeHost,
  type SessionDataSnapshot,
  ToolRuntime,
  type ToolRuntimeOptions,
  type UIActionHandler,
} from './execution/tool-runtime.js';
export {
  MiniAppConnection,
  type MiniAppConnectionOptions,
  type MiniAppEndpoint,
} from './hosting/miniapp-connection.js';
export {
  type MountedMiniApp,
  type MountMiniAppOptions,
  mountMiniAppFrame,
} from './hosting/miniapp-frame.js';
export type { McpCallOutcome, McpCallToolResult, McpToolCaller, McpToolCallRequest } from './mcp/calls.js';
export {
  type DeliveryReport,
  OutboxDelivery,
  type OutboxDeliveryOptions,
  type OutboxLocks,
  type OutboxMessage,
} from './outbox/delivery.js';
export {
  RUNTIME_DATABASE_BLOCKED_TIMEOUT_MS,
  type RuntimeDatabaseLifecycle,
  RuntimeStorageError,
  type RuntimeStorageErrorCode,
} from './storage/connection.js';
export {
  type ActionLedgerRecord,
  type ActionReceiptStatus,
  type ActivationRecord,
  type ActivationStatus,
  type AppConsentSettings,
  type AppRecord,
  type AuditRecord,
  type AuditType,
  type CapabilityCallRecord,
  type CapabilityCallStage,
  type CapabilityRecord,
  type ConversationMessageRecord,
  type ConversationRecord,
  type GrantRecord,
  type HeldToolChange,
  type InstanceRecord,
  type InventoryRecord,
  type McpServerRecord,
  type MiniAppRecord,
  type OperationRecord,
  type OutboxRecord,
  openRuntimeDatabase,
  RUNTIME_DATABASE_NAME,
  RUNTIME_DATABASE_VERSION,
  type RuntimeDatabase,
  type SessionDataRecord,
  type ToolCallConsent,
  type ToolCallRecord,
  type ToolCallStage,
  type ToolGrantRecord,
  type ToolPolicyChoice,
  type ViewStateRecord,
} from './storage/database.js';
export {
  holdRuntimeLock,
  RUNTIME_LOCK_ANSWER_TIMEOUT_MS,
  RUNTIME_LOCK_HAND_OVER_TIMEOUT_MS,
  type RuntimeLock,
  type RuntimeLockChannel,
  type RuntimeLockManager,
  type RuntimeLockOptions,
  type RuntimeLockState,
  runtimeLockName,
} from './storage/runtime-lock.js';
export type { Clock } from './time/clock.js';
export { type ToolCallAnswer, type ToolCallDisposition, ToolCallIntake } from './tools/intake.js';
export { type SchemaOwner, SchemaUnusableError, type SchemaUnusableReason } from './tools/schema-check.js';
export { assertUsableSchema } from './tools/schema-validator.js';
