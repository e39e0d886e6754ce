/** @lineup/reference-agent: the server, the LLM agent and its pieces, for tests and for copying. */
export {
  type AgentMode,
  LINEUP_ACK_PROTOCOL,
  LINEUP_PROTOCOL,
  type ReferenceAgentOptions,
  type ReferenceAgentServer,
  startReferenceAgent,
} from './agent-server.js';
export { type ReferenceAgentConfig, readConfig } from './config.js';
export { envelopeSender, lineUpIdFrom, RecentIds } from './envelopes.js';
export { createLLMAgent, DEFAULT_INSTRUCTIONS, type LLMAgent, type LLMAgentOptions } from './llm/agent.js';
export {
  type ChatCompletion,
  type ChatCompletionsOptions,
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatTool,
  type ChatToolCall,
  createChatCompletionsModel,
} from './llm/chat.js';
export { buildToolTable, functionNameOf, INTELLIGENT_UI_CHAT_TOOLS, type ToolTable } from './llm/tools.js';
