/**
 * @lineup/scripted-agent — LineUp's deterministic demo agent: `lineup.v1` envelopes in, envelopes out, with no
 * framework, transport or clock, for the Web Reference Host's built-in demo agent (in process) and a reference
 * agent server (WebSocket, Node).
 */
export {
  createScriptedAgent,
  DEFAULT_AGENT_ID,
  POMODORO_TOOLS,
  type ScriptedAgent,
  type ScriptedAgentOptions,
  STREAM_FRAME_DELAY_MS,
} from './agent.js';
export { type IntentName, type IntentPhrases, SCRIPTED_AGENT_PHRASES } from './conversation/intents.js';
export { POMODORO_LIMITS } from './pomodoro/request.js';
