/**
 * The Vercel AI SDK adapter (`@lineup/agent/ai-sdk`, `ai` 6): any AI SDK language model — a provider's
 * (`@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/openai-compatible`, …) or a gateway model id — as the model of the
 * host's LLM loop. The inventory's Agent Tools and the five `intelligent_ui*` tools are offered as AI SDK tools
 * without `execute`: a step ends at the model's tool calls, and the loop answers them the LineUp way — an Agent Tool
 * as a persisted `lineup.v1.tool.call` whose final result may arrive much later (or after a restart), the
 * `intelligent_ui*` tools against the host's validators and persisted stream cursors. So the brain keeps everything
 * the chat-completions brain has: memory restored from the log, a cut-off turn run again, run epochs for streams.
 */
import type { AgentToolInventoryEntry } from '@lineup/shared/protocol';
import {
  type AssistantModelMessage,
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
  tool,
} from 'ai';
import type { AgentBrain } from '../host/brain.js';
import { chatCompletionsBrain } from './chat-completions.js';
import {
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatTool,
  type ChatToolCall,
} from './llm/chat.js';
import { buildToolTable } from './llm/tools.js';

/** What every `generateText` call of the brain gets besides the model, the prompt and the tools. */
export type AiSdkCallSettings = Omit<
  Parameters<typeof generateText>[0],
  'model' | 'tools' | 'toolChoice' | 'system' | 'prompt' | 'messages' | 'stopWhen' | 'activeTools'
>;

export interface AiSdkBrainOptions {
  /** An AI SDK language model, e.g. `openai('gpt-5-mini')` or `createOpenAICompatible({…})('llama3.2')`. */
  readonly model: LanguageModel;
  /** Replaces the first paragraph of the system prompt; the Intelligent UI section is always appended. */
  readonly instructions?: string;
  /** Model rounds per user message before the agent gives up (default 8). */
  readonly maxRounds?: number;
  /** Passed to every `generateText` call: `temperature`, `maxOutputTokens`, `maxRetries`, `providerOptions`, … */
  readonly settings?: AiSdkCallSettings;
}

/** The brain for `startAgentHost` (or `lineup-agent`'s API) with an AI SDK model. */
export function aiSdkBrain(options: AiSdkBrainOptions): AgentBrain {
  return chatCompletionsBrain({
    model: aiSdkChatModel(options.model, options.settings),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
  });
}

/**
 * The LineUp tools of one inventory as an AI SDK `ToolSet`, for an agent that runs its own AI SDK loop: each Agent
 * Tool under its function name (`pomodoro.start` → `pomodoro__start`; `agentTools` maps it back) with the inventory's
 * JSON Schema, and the `intelligent_ui*` tools with theirs. None has `execute`: a call is answered by sending a
 * `lineup.v1.tool.call` (Agent Tools) or through the host's stream records (`intelligent_ui*`).
 */
export function lineUpToolSet(inventory: readonly AgentToolInventoryEntry[]): {
  readonly tools: ToolSet;
  readonly agentTools: ReadonlyMap<string, string>;
} {
  const table = buildToolTable(inventory);
  return { tools: toToolSet(table.tools), agentTools: table.agentTools };
}

/**
 * An AI SDK language model behind the loop's `ChatModel` seam: one `generateText` step per call, the history
 * translated into AI SDK messages and the tools into AI SDK tools. Failures become `ChatModelError`.
 */
export function aiSdkChatModel(model: LanguageModel, settings: AiSdkCallSettings = {}): ChatModel {
  return {
    async complete(messages, tools) {
      const system = messages
        .filter((message) => message.role === 'system')
        .map((message) => message.content as string)
        .join('\n\n');
      let result: Awaited<ReturnType<typeof generateText>>;
      try {
        result = await generateText({
          ...settings,
          model,
          ...(system.length > 0 ? { system } : {}),
          messages: toModelMessages(messages),
          ...(tools.length > 0 ? { tools: toToolSet(tools), toolChoice: 'auto' as const } : {}),
        });
      } catch (error) {
        throw new ChatModelError(`The AI SDK model failed: ${String(error)}`, { cause: error });
      }
      const calls: ChatToolCall[] = result.toolCalls.map((call) => ({
        id: call.toolCallId,
        type: 'function',
        // A call the SDK could not parse keeps its raw text, so the loop tells the model it was not JSON.
        function: {
          name: call.toolName,
          arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
        },
      }));
      return {
        message: {
          role: 'assistant',
          content: result.text.length > 0 ? result.text : null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finishReason: result.finishReason,
      };
    },
  };
}

function toToolSet(tools: readonly ChatTool[]): ToolSet {
  const set: ToolSet = {};
  for (const { function: fn } of tools) {
    set[fn.name] = tool({
      description: fn.description,
      // No `validate`: the loop checks arguments itself and answers the model with the shared diagnostics.
      inputSchema: jsonSchema(fn.parameters as Parameters<typeof jsonSchema>[0]),
    });
  }
  return set;
}

/** The loop's history (OpenAI chat shape) as AI SDK model messages; system messages go to `system`. */
export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const content: Exclude<AssistantModelMessage['content'], string> = [];
        if (message.content !== null && message.content.length > 0)
          content.push({ type: 'text', text: message.content });
        for (const call of message.tool_calls ?? []) {
          toolNames.set(call.id, call.function.name);
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseArguments(call.function.arguments),
          });
        }
        out.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        out.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.tool_call_id,
              toolName: toolNames.get(message.tool_call_id) ?? 'unknown',
              output: { type: 'text', value: message.content },
            },
          ],
        });
        break;
    }
  }
  return out;
}

function parseArguments(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}
