/**
 * @lineup/shared/protocol — the `lineup.v1` wire protocol between an agent and a client (seed 000, seed 003 §4):
 * the envelope and every message type, `parseEnvelope` (unknown types come back as `unsupported`, never
 * executed), Agent Tool descriptors and MiniApp manifests. docs/protocol.md is the catalogue with examples.
 */

export { AGENT_TOOL_LIMITS, TOOL_CONSENT_LIMITS } from '../limits/tool-limits.js';
export { AppScopeSchema, ToolMethodSchema } from '../names/names.js';
// The connection level: frames answered by closing the connection
export { LINEUP_CONNECTION_REFUSALS, type LineUpConnectionRefusal } from './binding.js';
export {
  ENVELOPE_HEADER_SCAN_CHARS,
  type EnvelopeHeader,
  envelopeHeader,
  type InvalidEnvelope,
  LINEUP_ENVELOPE_BUDGET,
  type ParsedEnvelope,
  type ParsedMessage,
  type ParseEnvelopeOptions,
  parseEnvelope,
  parseEnvelopeText,
  type ReadEnvelope,
  readEnvelopeText,
  type UnsupportedEnvelope,
} from './envelope.js';
// Envelope and message catalogue
export {
  isLineUpMessageType,
  LINEUP_DIRECTIONS,
  LINEUP_MESSAGE_SCHEMAS,
  LINEUP_MESSAGE_TYPES,
  LINEUP_PAYLOAD_SCHEMAS,
  LINEUP_PROTOCOL_VERSION,
  LINEUP_UNSUPPORTED_REASONS,
  type LineUpDirection,
  type LineUpEnvelope,
  LineUpEnvelopeSchema,
  type LineUpMessage,
  type LineUpMessageDirection,
  type LineUpMessageOf,
  LineUpMessageSchema,
  type LineUpMessageType,
  type LineUpParty,
  type LineUpPayloadOf,
  type LineUpUnsupportedReason,
  type UnsupportedPayload,
  UnsupportedPayloadSchema,
} from './envelope-schemas.js';
// MCP servers as apps (docs/mcp.md)
export {
  MCP_APP_VIEW_MIME_TYPE,
  MCP_APPS_EXTENSION_ID,
  MCP_CONTENT_OUTPUT_SCHEMA,
  MCP_SERVER_LIMITS,
  MCP_SERVER_MANIFEST_VERSION,
  MCP_VIEW_URI_PATTERN,
  type McpAppTool,
  McpAppToolSchema,
  type McpServerInfo,
  McpServerInfoSchema,
  type McpServerManifest,
  McpServerManifestSchema,
  McpServerUrlSchema,
  type McpToolAnnotations,
  type McpView,
  type McpViewDeclarations,
  McpViewDeclarationsSchema,
  McpViewSchema,
  McpViewUriSchema,
  mcpAppId,
  mcpAppScope,
  mcpServerUrlProblem,
  mcpServerVersion,
  mcpToolCallModel,
  mcpToolMethods,
  mcpToolRisk,
  mcpViewAsksForMore,
  parseMcpServerManifest,
} from './mcp/server.js';
export {
  MCP_VIEW_GRANTABLE_DEVICES,
  type McpViewDevice,
  mcpViewConnectSource,
  mcpViewConnectSourceProblem,
  mcpViewGrantableDevices,
  mcpViewGrantableResources,
  mcpViewGrantableSources,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
  mcpViewResourceSourceProblem,
} from './mcp/view-domains.js';
// ui.action / ui.action_result (DSL 1.1 agent callbacks)
export {
  UI_ACTION_ANSWER_STATUSES,
  type UIActionAnswerPayload,
  UIActionAnswerPayloadSchema,
  type UIActionAnswerStatus,
  type UIActionPayload,
  UIActionPayloadSchema,
} from './messages/action.js';
// app.call / app.result
export {
  APP_RESULT_STATUSES,
  type AppCallPayload,
  AppCallPayloadSchema,
  type AppResultError,
  type AppResultPayload,
  AppResultPayloadSchema,
  type AppResultStatus,
} from './messages/capability.js';
// chat.user_message / chat.agent_message
export {
  type ChatAgentMessagePayload,
  ChatAgentMessagePayloadSchema,
  type ChatUserMessagePayload,
  ChatUserMessagePayloadSchema,
  VIEW_CONTEXT_LIMITS,
  type ViewContext,
  ViewContextSchema,
} from './messages/chat.js';
// Shared fields
export {
  LINEUP_ID_PATTERN,
  LINEUP_RISK_LEVELS,
  LineUpIdSchema,
  type LineUpRiskLevel,
} from './messages/common.js';
// ui.document / ui.checkpoint
export {
  type UICheckpointPayload,
  UICheckpointPayloadSchema,
  type UIDocumentPayload,
  UIDocumentPayloadSchema,
} from './messages/document.js';
// client.inventory / app.list
export {
  type AppCapability,
  type AppCapabilityDescriptor,
  AppCapabilityDescriptorSchema,
  type AppListPayload,
  AppListPayloadSchema,
  type ClientInventoryPayload,
  ClientInventoryPayloadSchema,
  type InventoryApplication,
  type InventorySurface,
  type StandardComponent,
} from './messages/inventory.js';
// Located issues of a refused message (unsupported, tool.result and app.result errors)
export {
  type LineUpIssue,
  LineUpIssueListSchema,
  LineUpIssueSchema,
  wireIssues,
} from './messages/issues.js';
// JSON Schema objects carried in messages
export {
  JSON_SCHEMA_DIALECTS,
  JSON_SCHEMA_KEYWORDS,
  JSON_SCHEMA_TYPES,
} from './messages/json-schema-shape.js';
// Limits of the wire
export { LINEUP_WIRE_LIMITS } from './messages/limits.js';
// ui.open / ui.patch / ui.close / ui.event
export {
  type SurfaceBundle,
  SurfaceBundleSchema,
  type SurfaceReference,
  UI_USER_CLOSE_EVENT,
  type UIClosePayload,
  UIClosePayloadSchema,
  type UIEventPayload,
  UIEventPayloadSchema,
  type UIOpenPayload,
  UIOpenPayloadSchema,
  type UIPatchPayload,
  UIPatchPayloadSchema,
} from './messages/surface.js';
// tool.call / tool.progress / tool.result
export {
  TOOL_ERROR_CODES,
  TOOL_PROGRESS_STATUSES,
  TOOL_RESULT_OUTCOMES,
  type ToolCallPayload,
  ToolCallPayloadSchema,
  type ToolError,
  type ToolErrorCode,
  type ToolProgressPayload,
  ToolProgressPayloadSchema,
  type ToolProgressStatus,
  type ToolResultOutcome,
  type ToolResultPayload,
  ToolResultPayloadSchema,
} from './messages/tool.js';
// What the runtime built-ins read and answer
export {
  DEADLINE_OPERATION_LIMITS,
  DeadlineOperationArgumentsSchema,
  type DeadlineOperationResult,
  DeadlineOperationResultSchema,
  OPERATION_INTERRUPT_STATUSES,
  OPERATION_INTERRUPTERS,
  OPERATION_NOT_STARTED_REASONS,
  type OperationInterrupter,
  type OperationInterruptResult,
  OperationInterruptResultSchema,
  type OperationNotStartedReason,
} from './tools/builtins.js';
// MiniApp bundle integrity
export {
  BUNDLE_LIMITS,
  type BundleFile,
  type BundleSignature,
  BundleSignatureSchema,
  bundleDataUrl,
  bundleIntegrity,
  bundleMediaType,
  bundleSignatureMessage,
  fileIntegrity,
  integrityOfDigest,
  MINIAPP_SIGNATURE_FILE_NAME,
  manifestDigest,
  resolveBundlePath,
  sortBundleFiles,
} from './tools/bundle.js';
// Agent Tool descriptors
export {
  AGENT_TOOL_ACTIVATIONS,
  AGENT_TOOL_CALL_MODELS,
  AGENT_TOOL_EXECUTOR_KINDS,
  AGENT_TOOL_IDEMPOTENCY_KEYS,
  type AgentToolActivation,
  type AgentToolCallModel,
  type AgentToolDescriptor,
  AgentToolDescriptorSchema,
  type AgentToolExecutor,
  type AgentToolExecutorKind,
  AgentToolExecutorSchema,
  type AgentToolInventoryEntry,
  AgentToolInventoryEntrySchema,
  agentToolName,
  MCP_TOOL_NAME_PATTERN,
  McpToolNameSchema,
  parseAgentToolDescriptor,
  RUNTIME_TOOL_BUILTINS,
  type RuntimeToolBuiltin,
  toAgentToolInventoryEntry,
} from './tools/descriptor.js';
// Executable content detection
export { isScriptURL } from './tools/executable-content.js';
// MiniApp manifests
export {
  MINIAPP_MANIFEST_FILE_NAME,
  MINIAPP_MANIFEST_LIMITS,
  MINIAPP_MANIFEST_VERSION,
  type MiniAppManifest,
  MiniAppManifestSchema,
  type MiniAppSurface,
  parseMiniAppManifest,
} from './tools/manifest.js';
