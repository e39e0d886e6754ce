/**
 * The OpenAI-compatible chat completions brain: the LLM agent (`createLLMAgent`) for one conversation — the
 * inventory's Agent Tools and the `intelligent_ui*` tools offered to the model, its tool calls sent as
 * `lineup.v1.tool.call`, its answers as `chat.agent_message`; its component streams' cursors persisted in the host's
 * `StreamRecords`, so after a restart a stream of the earlier run is refused with its last valid snapshot.
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
      // Stream cursors in the host's store, with its run epoch (seed 004 §5).
      streams: {
        open: (_conversationId, sourceCallId, document) =>
          context.streams.open(context.key, sourceCallId, document),
        step: (_conversationId, cursor, event) => context.streams.step(context.key, cursor, event),
      },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
    });
    return {
      receive: (_message, text) => agent.receive(text),
      // Its memory comes back from the log; a turn a restart cut off runs again. It sends nothing while restoring.
      restore: (entries) => {
        agent.restore(entries);
        return [];
      },
      // Idle between turns: the host may drop it then, and restore it from the log when the conversation speaks.
      idle: () => !agent.busy(),
    };
  };
}
