/**
 * The OpenAI-compatible chat completions brain: the LLM agent (`createLLMAgent`) for one conversation — the
 * inventory's Agent Tools and the `intelligent_ui*` tools offered to the model, its tool calls sent as
 * `lineup.v1.tool.call`, its answers as `chat.agent_message`.
 */
import type { AgentBrain } from '../host/brain.js';
import { createLLMAgent } from './llm/agent.js';
import type { ChatModel } from './llm/chat.js';

export interface ChatCompletionsBrainOptions {
  readonly model: ChatModel;
  /** Replaces the first paragraph of the system prompt; the Intelligent UI section is always appended. */
  readonly instructions?: string;
  /** Model rounds per user message before the agent gives up (default 8). */
  readonly maxRounds?: number;
}

export function chatCompletionsBrain(options: ChatCompletionsBrainOptions): AgentBrain {
  return (context) => {
    const agent = createLLMAgent({
      model: options.model,
      agentId: context.agentId,
      send: context.send,
      onProblem: context.report,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
    });
    return { receive: (_message, text) => agent.receive(text) };
  };
}
