/**
 * @lineup/miniapp-sdk — what MiniApp authors import: `defineAgentTools` declares the app's Agent Tools (and
 * their local handlers) once, in source; `createMiniAppClient` is the page's end of the runtime channel. The
 * build step lives at `@lineup/miniapp-sdk/vite`.
 */

export type { MiniAppLifecyclePhase, MiniAppSessionData } from '@lineup/shared/bridge';
export {
  createMiniAppClient,
  instanceIdFromHash,
  MINIAPP_INSTANCE_PARAMETER,
  type MiniAppClient,
  type MiniAppClientOptions,
  type MiniAppClientWindow,
  MiniAppRequestError,
  type SessionDataSnapshot,
} from './client.js';
export {
  type AgentToolContext,
  type AgentToolDefinition,
  type AgentToolErrorCode,
  type AgentToolOutcome,
  type AgentTools,
  type AgentToolsDefinition,
  agentTool,
  type DeadlineOperationAgentTool,
  defineAgentTools,
  type OperationInterruptAgentTool,
  type RuntimeAgentTool,
  type SdkAgentTool,
  type SdkAgentToolActivation,
  type SdkAgentToolCallModel,
} from './define.js';
export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
