/**
 * @lineup/miniapp-sdk — what MiniApp authors import: `defineAgentTools` declares the app's Agent Tools (and
 * their local handlers) once, in source. The build step lives at `@lineup/miniapp-sdk/vite`.
 */
export {
  type AgentToolContext,
  type AgentToolDefinition,
  type AgentToolErrorCode,
  type AgentToolOutcome,
  type AgentTools,
  type AgentToolsDefinition,
  agentTool,
  defineAgentTools,
  type RuntimeAgentTool,
  type SdkAgentTool,
} from './define.js';
export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
