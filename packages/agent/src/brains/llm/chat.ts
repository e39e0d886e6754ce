/**
 * A minimal OpenAI-compatible chat completions client on the global `fetch`: `POST {baseUrl}/chat/completions`
 * with `messages` and function `tools`, no SDK. It reads the first choice only and never streams.
 */

export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly ChatToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export interface ChatTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: object };
}

export interface ChatCompletion {
  /** The assistant message, as it goes into the history. */
  readonly message: Extract<ChatMessage, { role: 'assistant' }>;
  readonly finishReason: string;
}

/** What the agent needs from a model; tests may pass their own. */
export interface ChatModel {
  complete(messages: readonly ChatMessage[], tools: readonly ChatTool[]): Promise<ChatCompletion>;
}

export interface ChatCompletionsOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per request (default 120 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** Thrown for any failed request or unreadable answer; its message is for logs, never for the user. */
export class ChatModelError extends Error {
  override readonly name = 'ChatModelError';
}

export function createChatCompletionsModel(options: ChatCompletionsOptions): ChatModel {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 120_000;
  return {
    async complete(messages, tools) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const body = {
        model: options.model,
        messages,
        ...(tools.length > 0 ? { tools, tool_choice: 'auto' } : {}),
      };
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ChatModelError(`The request to ${url} failed: ${String(error)}`);
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) throw new ChatModelError(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
      return readCompletion(text);
    },
  };
}

function readCompletion(text: string): ChatCompletion {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ChatModelError('The model answered with something that is not JSON.');
  }
  const choice = (data as { choices?: unknown })?.choices;
  const first = Array.isArray(choice) ? (choice[0] as Record<string, unknown> | undefined) : undefined;
  const message = first?.message as Record<string, unknown> | undefined;
  if (message === undefined || typeof message !== 'object')
    throw new ChatModelError('The model answered without choices[0].message.');
  const content = typeof message.content === 'string' ? message.content : null;
  const calls: ChatToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls as Record<string, unknown>[]) {
      const fn = call?.function as Record<string, unknown> | undefined;
      if (typeof call?.id !== 'string' || typeof fn?.name !== 'string') continue;
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      calls.push({ id: call.id, type: 'function', function: { name: fn.name, arguments: args } });
    }
  }
  const finishReason = typeof first?.finish_reason === 'string' ? first.finish_reason : 'stop';
  return {
    message: { role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
    finishReason,
  };
}
