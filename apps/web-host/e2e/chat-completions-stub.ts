import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible chat completions server on 127.0.0.1 (node:http, a free port), for driving the
 * reference agent's `llm` mode without any real network: each `POST /v1/chat/completions` is recorded and answered
 * with the next scripted assistant message as `choices[0].message`. Anything else, or a request past the end of
 * the script, is answered with an HTTP error (which the agent turns into a polite chat message).
 */

/** The request body the agent sent, as the model reads it. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly {
    readonly role: string;
    readonly content: string | null;
    readonly tool_call_id?: string;
    readonly tool_calls?: readonly {
      id: string;
      type: string;
      function: { name: string; arguments: string };
    }[];
  }[];
  readonly tools?: readonly {
    readonly type: string;
    readonly function: { readonly name: string; readonly description: string; readonly parameters: object };
  }[];
  readonly tool_choice?: string;
}

/** One scripted answer: the assistant message of `choices[0]` and its finish reason. */
export interface StubAnswer {
  readonly message: {
    readonly role: 'assistant';
    readonly content: string | null;
    readonly tool_calls?: readonly {
      readonly id: string;
      readonly type: 'function';
      readonly function: { readonly name: string; readonly arguments: string };
    }[];
  };
  readonly finish_reason: 'stop' | 'tool_calls';
}

/** The model asks for one function call; `args` goes on the wire as a JSON string, as OpenAI sends it. */
export const toolCallAnswer = (id: string, name: string, args: object): StubAnswer => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  finish_reason: 'tool_calls',
});

/** The model answers with text. */
export const textAnswer = (content: string): StubAnswer => ({
  message: { role: 'assistant', content },
  finish_reason: 'stop',
});

export interface ChatCompletionsStub {
  /** `http://127.0.0.1:<port>/v1`, for `OPENAI_BASE_URL`. */
  readonly baseUrl: string;
  /** Every chat completions request, in order. */
  readonly requests: ChatRequest[];
  readonly headers: IncomingHttpHeaders[];
  /** Requests the stub did not expect (wrong method or path, or past the script). */
  readonly unexpected: string[];
  close(): Promise<void>;
}

export async function startChatCompletionsStub(script: readonly StubAnswer[]): Promise<ChatCompletionsStub> {
  const requests: ChatRequest[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const unexpected: string[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        unexpected.push(`${request.method} ${request.url}`);
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      requests.push(JSON.parse(body) as ChatRequest);
      headers.push(request.headers);
      const answer = script[next++];
      if (answer === undefined) {
        unexpected.push(`request ${next} past the end of the script`);
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: 'the stub has no answer scripted for this request' } }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-stub-${next}`,
          object: 'chat.completion',
          created: 1_767_261_600,
          model: 'stub-model',
          choices: [{ index: 0, message: answer.message, finish_reason: answer.finish_reason }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    unexpected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
