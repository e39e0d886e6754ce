/**
 * @lineup/shared/bridge — the two postMessage channels between a host page and its iframes (seed 000 §2, §4.2;
 * DESIGN.md): `lineup.surface.v1` for agent Surfaces and `lineup.miniapp.v1` for installed MiniApp bundles. Each
 * parser validates namespace, instance id, names, JSON shape and size; the caller checks `event.source`.
 */

// JSON data carried by the channels
export type {
  JSONObject,
  JSONValue,
} from '../json/json-data.js';
// Shared by both channels
export { BRIDGE_LIMITS } from './channel.js';
// lineup.miniapp.v1
export {
  answerRefusedMiniAppMessage,
  MINIAPP_CHANNEL_LIMITS,
  MINIAPP_INSTANCE_PARAMETER,
  MINIAPP_ISSUE_PATH_PATTERN,
  MINIAPP_LIFECYCLE_PHASES,
  MINIAPP_NAMESPACE,
  MINIAPP_PROTOCOL_INVALID,
  MINIAPP_SDK_ERROR_CODES,
  type MiniAppError,
  type MiniAppErrorIssue,
  MiniAppErrorIssueSchema,
  type MiniAppFailedMessage,
  MiniAppFailedMessageSchema,
  type MiniAppLifecycleMessage,
  MiniAppLifecycleMessageSchema,
  type MiniAppLifecyclePhase,
  type MiniAppMessageFromFrame,
  MiniAppMessageFromFrameSchema,
  type MiniAppMessageToFrame,
  MiniAppMessageToFrameSchema,
  type MiniAppReadyMessage,
  MiniAppReadyMessageSchema,
  type MiniAppRefusalAnswer,
  type MiniAppRequestResultMessage,
  MiniAppRequestResultMessageSchema,
  type MiniAppSdkErrorCode,
  type MiniAppSessionData,
  type MiniAppSessionDataMessage,
  MiniAppSessionDataMessageSchema,
  MiniAppSessionDataSchema,
  type MiniAppSessionDataWriteMessage,
  MiniAppSessionDataWriteMessageSchema,
  type MiniAppToolInvocationCancelMessage,
  MiniAppToolInvocationCancelMessageSchema,
  type MiniAppToolInvocationMessage,
  MiniAppToolInvocationMessageSchema,
  type MiniAppToolReturnMessage,
  MiniAppToolReturnMessageSchema,
  type MiniAppUIActionArguments,
  type MiniAppUIActionMessage,
  MiniAppUIActionMessageSchema,
  parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrame,
} from './miniapp.js';
// The bounds of a lineup.miniapp.v1 error by name (MINIAPP_CHANNEL_LIMITS has them too): a bundler inlines them
export {
  MAX_ERROR_CODE_LENGTH as MINIAPP_MAX_ERROR_CODE_LENGTH,
  MAX_ERROR_ISSUE_PATH_LENGTH as MINIAPP_MAX_ERROR_ISSUE_PATH_LENGTH,
  MAX_ERROR_ISSUES as MINIAPP_MAX_ERROR_ISSUES,
  MAX_ERROR_MESSAGE_LENGTH as MINIAPP_MAX_ERROR_MESSAGE_LENGTH,
  MINIAPP_ERROR_CODE_PATTERN,
} from './miniapp-constants.js';
// A channel issue (path and code, never a value), zod-free: what a page's dispatcher and the runtime's refusals carry
export { miniAppErrorIssue } from './miniapp-issues.js';
// lineup.surface.v1
export {
  MCP_VIEW_CHANNEL_LIMITS,
  type McpViewStorage,
  McpViewStorageSchema,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_EVENT_NAME_PATTERN,
  SURFACE_FRAME_PROTOCOLS,
  SURFACE_NAMESPACE,
  SURFACE_RESERVED_EVENT_NAMES,
  SURFACE_VIOLATION_KINDS,
  type SurfaceEventMessage,
  SurfaceEventMessageSchema,
  type SurfaceFocusMessage,
  SurfaceFocusMessageSchema,
  type SurfaceMcpMessage,
  SurfaceMcpMessageSchema,
  type SurfaceMessageFromFrame,
  SurfaceMessageFromFrameSchema,
  type SurfaceMessageToFrame,
  SurfaceMessageToFrameSchema,
  type SurfacePageMessage,
  SurfacePageMessageSchema,
  type SurfaceReadyMessage,
  SurfaceReadyMessageSchema,
  type SurfaceResizeMessage,
  SurfaceResizeMessageSchema,
  type SurfaceStartMessage,
  SurfaceStartMessageSchema,
  type SurfaceStateMessage,
  SurfaceStateMessageSchema,
  type SurfaceViolationKind,
  type SurfaceViolationMessage,
  SurfaceViolationMessageSchema,
} from './surface.js';
export {
  parseSurfaceKeyMessage,
  parseSurfaceStorageMessage,
  type SurfaceKeyMessage,
  SurfaceKeyMessageSchema,
  type SurfaceStorageMessage,
  SurfaceStorageMessageSchema,
} from './surface-view.js';
