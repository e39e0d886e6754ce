/**
 * Calling a tool of an installed MCP server, for the runtime's `mcp` executor (`ToolRuntime`) and for a view's own
 * `tools/call` (a local UI action). `createMcpToolCaller` keeps one session per server URL, opened on the first call
 * and opened again after a failure, and turns every way a call can end into one `McpCallOutcome`; `mcpFinalResult`
 * turns that into the call's one final result for the agent.
 *
 * A failure is told apart by when it happened: before the request left (`failed` in `connect`: the server never got
 * the call) or after (`failed` in `call`: the server may have acted on it, so the outcome is unknown and the call is
 * never sent again). A server that turns the call away with an HTTP client error (`refused`: a 401 when it no
 * longer takes the token, a 404 when it ended the session) did not run it, and the agent is told so; one that answers
 * with a JSON-RPC error (`server_error`: "Tool … not found") gave a definite answer, which the agent gets.
 */
import { canonicalJSONString } from '@lineup/shared';
import { MINIAPP_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { MCP_CONTENT_OUTPUT_SCHEMA, type ToolResultPayload } from '@lineup/shared/protocol';
import type { McpConnector, McpSession } from './session.js';

/** A `CallToolResult` whose shape was checked: content blocks, and structured content when the server sent one. */
export interface McpCallToolResult {
  readonly content: readonly Readonly<Record<string, unknown>>[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

export type McpCallOutcome =
  | { readonly status: 'ok'; readonly result: McpCallToolResult }
  /** The server answered with `isError: true`; `message` is its first text, bounded. */
  | { readonly status: 'tool_error'; readonly message: string; readonly result: McpCallToolResult }
  /** No answer: before the request left (`connect`), or after (`call`: the server may have acted). */
  | { readonly status: 'failed'; readonly phase: 'connect' | 'call'; readonly reason: string }
  /**
   * The server turned the request away with an HTTP client error (4xx) instead of a JSON-RPC answer, when the
   * session opened (`connect`) or when the call went (`call`): its tool did not run. `401`/`403`: it asks who you
   * are (no access token, or one it no longer takes); `404`: nothing answers at its URL (`connect`), or it does not
   * know the session, even one opened again for the call; another 4xx: it refused the request as such. (A 404 or
   * 400 from a session the caller had already used is tried once more in a new session first: the server restarted.)
   */
  | {
      readonly status: 'refused';
      readonly phase: 'connect' | 'call';
      readonly httpStatus: number;
      readonly reason: string;
    }
  /**
   * The server answered the call with a JSON-RPC error (its `code`, and its message, bounded) instead of a result: a
   * definite answer — such as "Tool … not found" for a tool it no longer has — never an unknown outcome.
   */
  | { readonly status: 'server_error'; readonly code: number; readonly message: string }
  | { readonly status: 'timeout' }
  | { readonly status: 'cancelled' }
  /** An answer that is not a `CallToolResult`, or one larger than `maxResultBytes`. */
  | { readonly status: 'off_spec'; readonly reason: string };

export interface McpToolCallRequest {
  readonly url: string;
  /** The server's own tool name. */
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** What the runtime calls MCP tools through. */
export interface McpToolCaller {
  call(request: McpToolCallRequest): Promise<McpCallOutcome>;
}

export interface McpToolCallerOptions {
  readonly connect: McpConnector;
  /** The largest result kept, as JSON characters (default 1 MiB); a larger one is `off_spec`. */
  readonly maxResultBytes?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function bounded(text: string, max: number): string {
  const clean = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

const reasonOf = (error: unknown) =>
  bounded(error instanceof Error ? error.message : String(error), 200) || 'no reason given';

/** Checks the shape of a `tools/call` answer; undefined when it is not a `CallToolResult`. */
export function checkCallToolResult(value: unknown): McpCallToolResult | undefined {
  if (!isObject(value) || !Array.isArray(value.content)) return undefined;
  if (!value.content.every((block) => isObject(block) && typeof block.type === 'string')) return undefined;
  if (value.structuredContent !== undefined && !isObject(value.structuredContent)) return undefined;
  if (value.isError !== undefined && typeof value.isError !== 'boolean') return undefined;
  if (value._meta !== undefined && !isObject(value._meta)) return undefined;
  return {
    content: value.content as Record<string, unknown>[],
    ...(value.structuredContent === undefined
      ? {}
      : { structuredContent: value.structuredContent as Record<string, unknown> }),
    ...(value.isError === undefined ? {} : { isError: value.isError }),
    ...(value._meta === undefined ? {} : { _meta: value._meta as Record<string, unknown> }),
  };
}

/** The first text block of a result, bounded: what an error result says. */
function firstText(result: McpCallToolResult): string {
  for (const block of result.content)
    if (block.type === 'text' && typeof block.text === 'string') return bounded(block.text, 300);
  return '';
}

/**
 * An `McpToolCaller` on `connect`: one session per server URL, reused, and dropped after a failure (the next call
 * opens a new one). `close()` closes every session.
 */
export function createMcpToolCaller(
  options: McpToolCallerOptions,
): McpToolCaller & { close(): Promise<void> } {
  const maxResultBytes = options.maxResultBytes ?? 1_048_576;
  const sessions = new Map<string, Promise<McpSession>>();
  const drop = (url: string, session: Promise<McpSession>) => {
    if (sessions.get(url) === session) sessions.delete(url);
    session.then((open) => open.close()).catch(() => {});
  };
  /** One try in the server's session (opened when there is none): its outcome, and whether the session was reused. */
  const attempt = async (
    request: McpToolCallRequest,
    timeoutMs: number,
  ): Promise<{ readonly outcome: McpCallOutcome; readonly reused: boolean }> => {
    let opening = sessions.get(request.url);
    const reused = opening !== undefined;
    if (opening === undefined) {
      opening = options.connect(request.url, { signal: request.signal });
      sessions.set(request.url, opening);
    }
    let session: McpSession;
    try {
      session = await opening;
    } catch (error) {
      drop(request.url, opening);
      return { outcome: failureOf('connect', error), reused };
    }
    const controller = new AbortController();
    const abort = () => controller.abort();
    request.signal?.addEventListener('abort', abort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('timeout');
      }, timeoutMs);
    });
    try {
      const answer = await Promise.race([
        // The SDK's own timeout comes later than ours, so that ours decides.
        session.callTool(request.tool, request.arguments, {
          signal: controller.signal,
          timeoutMs: timeoutMs + 1_000,
        }),
        timedOut,
      ]);
      return { outcome: answer === 'timeout' ? { status: 'timeout' } : checkedOutcome(answer), reused };
    } catch (error) {
      if (request.signal?.aborted) return { outcome: { status: 'cancelled' }, reused };
      // The server's JSON-RPC error: an answer on a working session, which is kept.
      const answered = jsonRpcErrorOf(error);
      if (answered !== undefined) return { outcome: { status: 'server_error', ...answered }, reused };
      // The session is not trusted again: the next call opens another.
      drop(request.url, opening);
      return { outcome: failureOf('call', error), reused };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', abort);
    }
  };
  const checkedOutcome = (answer: unknown): McpCallOutcome => {
    const result = checkCallToolResult(answer);
    if (result === undefined) return { status: 'off_spec', reason: 'The answer is not a CallToolResult.' };
    let size: number;
    try {
      size = canonicalJSONString(result, {
        maxBytes: maxResultBytes,
        maxDepth: 64,
        maxValues: 100_000,
      }).length;
    } catch {
      return {
        status: 'off_spec',
        reason: `The answer is larger than ${maxResultBytes} bytes, or not JSON.`,
      };
    }
    if (size > maxResultBytes)
      return { status: 'off_spec', reason: `The answer is larger than ${maxResultBytes} bytes.` };
    if (result.isError === true) return { status: 'tool_error', message: firstText(result), result };
    return { status: 'ok', result };
  };
  return {
    async call(request) {
      if (request.signal?.aborted) return { status: 'cancelled' };
      const deadline = performance.now() + request.timeoutMs;
      const first = await attempt(request, request.timeoutMs);
      const { outcome } = first;
      // A server that no longer knows the session it gave (it restarted, or ended the session) answers 404, as the
      // protocol says, or 400, as the SDK's example servers do; either way it did not run the call, and the call goes
      // once more, in a new session.
      if (
        !(
          first.reused &&
          outcome.status === 'refused' &&
          outcome.phase === 'call' &&
          (outcome.httpStatus === 404 || outcome.httpStatus === 400)
        )
      )
        return outcome;
      const left = deadline - performance.now();
      if (left <= 0) return { status: 'timeout' };
      return (await attempt(request, left)).outcome;
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.then((value) => value.close()).catch(() => {})));
    },
  };
}

/**
 * A request that got no answer: `refused` when the server turned it away with an HTTP 4xx (it did not run), else
 * `failed` — in `call`, after the request left, so the server may have acted on it.
 */
function failureOf(phase: 'connect' | 'call', error: unknown): McpCallOutcome {
  const httpStatus = refusalStatus(error);
  const reason = reasonOf(error);
  return httpStatus === undefined
    ? { status: 'failed', phase, reason }
    : { status: 'refused', phase, httpStatus, reason };
}

/**
 * The HTTP client-error status (400–499) with which a server turned a request away, as the MCP SDK's transport
 * reports it (`UnauthorizedError` for a 401, an `SdkHttpError` with its `status` otherwise; told by their names and
 * fields, so the SDK need not be loaded), or undefined for anything else: a network failure or a 5xx may come after
 * the server acted.
 */
export function refusalStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'UnauthorizedError') return 401;
  if (error.name !== 'SdkHttpError') return undefined;
  const status =
    (error as { status?: unknown }).status ?? (error as { data?: { status?: unknown } }).data?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 499
    ? status
    : undefined;
}

/**
 * The JSON-RPC error a server answered with, as the MCP SDK reports it (its `ProtocolError` and kin: an integer
 * `code`), or undefined for anything else — the SDK's own errors carry string codes (`REQUEST_TIMEOUT`,
 * `CONNECTION_CLOSED`, …), a network failure none, and an abort is a `DOMException`.
 */
export function jsonRpcErrorOf(
  error: unknown,
): { readonly code: number; readonly message: string } | undefined {
  if (!(error instanceof Error) || error.name === 'AbortError' || error.name === 'TimeoutError')
    return undefined;
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return undefined;
  const { code } = error as { code?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  return { code, message: bounded(error.message, 300) };
}

const CONTENT_SCHEMA_TEXT = canonicalJSONString(MCP_CONTENT_OUTPUT_SCHEMA);

/** Whether a tool is published with `MCP_CONTENT_OUTPUT_SCHEMA` (the server gave no output schema of its own). */
export function hasContentOutput(outputSchema: unknown): boolean {
  try {
    return canonicalJSONString(outputSchema) === CONTENT_SCHEMA_TEXT;
  } catch {
    return false;
  }
}

const MAX_RESULT = MINIAPP_CHANNEL_LIMITS.maxToolResultBytes;

/**
 * The one final result of an MCP tool call for the agent: the structured content (for a tool with an output
 * schema) or the content blocks (`{ content }`), within the wire's bound of a tool result; a server error, a failure
 * or a timeout as a stable code with a sentence. The runtime still checks a completed result against the tool's
 * output schema before it is kept.
 */
export function mcpFinalResult(
  outcome: McpCallOutcome,
  outputSchema: unknown,
): Omit<ToolResultPayload, 'call_id'> {
  const error = (code: NonNullable<ToolResultPayload['error']>['code'], message: string) =>
    ({ outcome: 'error', error: { code, message } }) as const;
  switch (outcome.status) {
    case 'ok': {
      const result = hasContentOutput(outputSchema)
        ? { content: outcome.result.content }
        : outcome.result.structuredContent;
      if (result === undefined)
        return error(
          'invalid_output',
          'The server sent no structuredContent for a tool with an output schema.',
        );
      if (
        canonicalJSONString(result, { maxBytes: 4 * 1_048_576, maxDepth: 64, maxValues: 100_000 }).length >
        MAX_RESULT
      )
        return error(
          'invalid_output',
          `The server's result is larger than ${MAX_RESULT} bytes, the bound of a tool result.`,
        );
      return { outcome: 'completed', result: result as NonNullable<ToolResultPayload['result']> };
    }
    case 'tool_error':
      return error(
        'execution_failed',
        outcome.message === ''
          ? 'The MCP server reported an error.'
          : `The MCP server reported an error: ${outcome.message}`,
      );
    case 'failed':
      return outcome.phase === 'connect'
        ? error('execution_failed', 'The MCP server could not be reached; the call was not sent.')
        : error(
            'outcome_unknown',
            'The connection failed while the MCP server had the call: it may have run there, and is not sent again.',
          );
    case 'refused':
      return error('execution_failed', refusalMessage(outcome));
    case 'server_error':
      return error('execution_failed', serverErrorMessage(outcome));
    case 'timeout':
      return { outcome: 'error', error: { code: 'timeout' } };
    case 'cancelled':
      return error(
        'outcome_unknown',
        'The call was cancelled while the MCP server had it: it may have run there.',
      );
    case 'off_spec':
      return error(
        'execution_failed',
        `The MCP server's answer is not a valid tool result: ${outcome.reason}`,
      );
  }
}

/** What a server's HTTP refusal of a call means, for the agent and the user: the call did not run there. */
export function refusalMessage(refusal: {
  readonly phase: 'connect' | 'call';
  readonly httpStatus: number;
}): string {
  const { httpStatus } = refusal;
  if (httpStatus === 401 || httpStatus === 403)
    return `The MCP server refused the call (HTTP ${httpStatus}): it asks who you are, and the access token is missing or no longer taken. The call did not run; the user has to give the server's token again, or sign in again.`;
  if (httpStatus === 404)
    return refusal.phase === 'connect'
      ? 'The MCP server refused the call (HTTP 404): nothing answers as an MCP server at its URL any more. The call did not run.'
      : 'The MCP server refused the call (HTTP 404): it did not know the session, even one opened again for the call. The call did not run.';
  return `The MCP server refused the call (HTTP ${httpStatus}); the call did not run.`;
}

/** What a server's JSON-RPC error answer to a call says, for the agent and the user. */
export function serverErrorMessage(answer: { readonly code: number; readonly message: string }): string {
  return answer.message === ''
    ? `The MCP server answered the call with an error (JSON-RPC ${answer.code}).`
    : `The MCP server answered the call with an error (JSON-RPC ${answer.code}): ${answer.message}`;
}
