/** @lineup/reference-agent: the server, the LLM agent and its pieces, for tests and for copying. */

export {
  buildToolTable,
  type ChatCompletion,
  type ChatCompletionsOptions,
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatTool,
  type ChatToolCall,
  createChatCompletionsModel,
  createLLMAgent,
  DEFAULT_INSTRUCTIONS,
  envelopeSender,
  functionNameOf,
  INTELLIGENT_UI_CHAT_TOOLS,
  type LLMAgent,
  type LLMAgentOptions,
  lineUpIdFrom,
  RecentIds,
  type ToolTable,
} from '@lineup/agent';
export {
  type AgentMode,
  LINEUP_ACK_PROTOCOL,
  LINEUP_PROTOCOL,
  type ReferenceAgentOptions,
  type ReferenceAgentServer,
  startReferenceAgent,
} from './agent-server.js';
export { type ReferenceAgentConfig, readConfig } from './config.js';
