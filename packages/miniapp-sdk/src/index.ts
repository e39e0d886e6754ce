/**
 * @lineup/miniapp-sdk — what MiniApp authors import: `defineAgentTools` declares the app's Agent Tools (and
 * their local handlers) once, in source; `createMiniAppClient` is the page's end of the runtime channel. The
 * build step lives at `@lineup/miniapp-sdk/vite`.
 */

export type { MiniAppLifecyclePhase, MiniAppSessionData } from '@lineup/shared/bridge';
export type {
  AgentToolContext,
  AgentToolDefinition,
  AgentToolErrorCode,
  AgentToolOutcome,
  AgentTools,
  DeadlineOperationAgentTool,
  OperationInterruptAgentTool,
  RuntimeAgentTool,
  SdkAgentTool,
  SdkAgentToolActivation,
  SdkAgentToolCallModel,
} from './agent-tool.js';
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
export { type AgentToolsDefinition, agentTool, defineAgentTools } from './define.js';
export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
