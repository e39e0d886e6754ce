/**
 * @lineup/reference-agent: `startReferenceAgent` and the command line's configuration, a thin example over
 * `@lineup/agent` (import the host, the brains and the model client from there).
 */

export {
  type AgentMode,
  REFERENCE_AGENT_ID,
  REFERENCE_DEVICE_ID,
  type ReferenceAgentOptions,
  type ReferenceAgentServer,
  startReferenceAgent,
} from './agent-server.js';
export { type ReferenceAgentConfig, readConfig } from './config.js';
