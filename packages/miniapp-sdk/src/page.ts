/**
 * What a page built by `lineupMiniApp` gets for `@lineup/miniapp-sdk` (the plugin resolves the import here in a
 * client build): the same API as `index.ts`, with `defineAgentTools` taking the descriptors the build computed.
 * Not in the package's `exports`: only the plugin reaches it.
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
  type OperationInterruptAgentTool,
  type RuntimeAgentTool,
  type SdkAgentTool,
  type SdkAgentToolActivation,
  type SdkAgentToolCallModel,
} from './define.js';
export { defineAgentTools } from './define-page.js';
export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
