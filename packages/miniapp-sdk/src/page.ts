/**
 * What a page built by `lineupMiniApp` gets for `@lineup/miniapp-sdk` (the plugin resolves the import here in a
 * client build): the same API as `index.ts`, with `defineAgentTools` taking the descriptors the build computed.
 * Not in the package's `exports`: only the plugin reaches it.
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
export { type AgentToolsDefinition, agentTool } from './define.js';
export { defineAgentTools } from './define-page.js';
export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
