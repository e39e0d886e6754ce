/**
 * How `createMcpToolCaller` tells the ways a call ends apart, against a real server of the official SDK reached by
 * the SDK's own client: a server that turns the call away with an HTTP client error did not run it (`refused`, and
 * the agent is told so), while a failure after the request left may have run it (`outcome_unknown`).
 */
import { describe, expect, it } from 'vitest';
import { sdkServer, statefulServer } from '../../test/mcp-servers.js';
import {
  createMcpToolCaller,
  jsonRpcErrorOf,
  mcpFinalResult,
  refusalMessage,
  refusalStatus,
  serverErrorMessage,
} from './calls.js';
import { createMcpConnector, type McpConnector } from './session.js';

const TOKEN = 'calls-test-token-1';

function echoServer(token?: string) {
  return sdkServer({
    name: 'Echo',
    ...(token === undefined ? {} : { token }),
    tools: [{ name: 'echo', run: () => ({ content: [{ type: 'text', text: 'echoed' }] }) }],
  });
}

const echo = (url: string) => ({ url, tool: 'echo', arguments: {}, timeoutMs: 5_000 });

describe('a server that turns a call away with an HTTP client error', () => {
  it('whose access token was forgotten (401): refused, the tool did not run, the next request goes without it', async () => {
    const server = echoServer(TOKEN);
    let token: string | undefined = TOKEN;
    const caller = createMcpToolCaller({
      connect: createMcpConnector({ fetch: server.fetch, auth: () => ({ token: async () => token }) }),
    });
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    expect(server.calls).toEqual(['echo']);

    token = undefined;
    const outcome = await caller.call(echo(server.url));
    expect(outcome).toMatchObject({ status: 'refused', httpStatus: 401 });
    expect(server.calls).toEqual(['echo']);
    expect(server.authorizations.at(-1)).toBeNull();
    const final = mcpFinalResult(outcome, {});
    expect(final).toEqual({
      outcome: 'error',
      error: { code: 'execution_failed', message: refusalMessage({ phase: 'call', httpStatus: 401 }) },
    });
    expect(final.error?.message).toMatch(/did not run.*token/);

    // Given again: the next call opens a session with it and runs.
    token = TOKEN;
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    expect(server.calls).toEqual(['echo', 'echo']);
    await caller.close();
  });

  it('that asks who you are before any session (401 on initialize): refused, not "unreachable"', async () => {
    const server = echoServer(TOKEN);
    const caller = createMcpToolCaller({ connect: server.connect });
    const outcome = await caller.call(echo(server.url));
    expect(outcome).toMatchObject({ status: 'refused', phase: 'connect', httpStatus: 401 });
    expect(server.methods).toEqual([]);
    expect(mcpFinalResult(outcome, {}).error?.message).toMatch(/HTTP 401\): it asks who you are/);
  });

  it.each([
    [400, /HTTP 400\); the call did not run/],
    [403, /HTTP 403\): it asks who you are/],
    [404, /HTTP 404\): it did not know the session, even one opened again for the call/],
    [409, /HTTP 409\); the call did not run/],
    [429, /HTTP 429\); the call did not run/],
  ])(
    '%i: refused with what it means, the tool did not run, and the next call opens a new session',
    async (status, message) => {
      const server = echoServer();
      const caller = createMcpToolCaller({ connect: server.connect });
      expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
      server.answerCalls(status);
      const outcome = await caller.call(echo(server.url));
      expect(outcome).toMatchObject({ status: 'refused', httpStatus: status });
      expect(server.calls).toEqual(['echo']);
      const final = mcpFinalResult(outcome, {});
      expect(final.error?.code).toBe('execution_failed');
      expect(final.error?.message).toMatch(message);

      server.answerCalls(null);
      const initializes = server.methods.filter((method) => method === 'initialize').length;
      expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
      expect(server.methods.filter((method) => method === 'initialize').length).toBe(initializes + 1);
      expect(server.calls).toEqual(['echo', 'echo']);
    },
  );

  it.each([404, 400] as const)(
    'a stateful server that restarted (its unknown session answered %i): the call goes in a new session, once',
    async (unknownSession) => {
      const server = statefulServer({
        unknownSession,
        tools: [{ name: 'echo', run: () => ({ content: [{ type: 'text', text: 'echoed' }] }) }],
      });
      const caller = createMcpToolCaller({ connect: server.connect });
      expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
      server.restart();
      expect(await caller.call(echo(server.url))).toEqual({
        status: 'ok',
        result: { content: [{ type: 'text', text: 'echoed' }] },
      });
      expect(server.calls).toEqual(['echo', 'echo']);
      expect(server.initializes()).toBe(2);
      expect(server.answers).toContain(unknownSession);
      // Without the restart, a call reuses its session.
      expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
      expect(server.initializes()).toBe(2);
      await caller.close();
    },
  );

  it('404 once on a session it gave (it restarted): the call goes once more in a new session, and runs once', async () => {
    const server = echoServer();
    const caller = createMcpToolCaller({ connect: server.connect });
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    server.answerCalls(404, 1);
    expect(await caller.call(echo(server.url))).toEqual({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'echoed' }] },
    });
    expect(server.calls).toEqual(['echo', 'echo']);
    expect(server.methods.filter((method) => method === 'initialize')).toHaveLength(2);
    expect(server.methods.filter((method) => method === 'tools/call')).toHaveLength(3);
  });

  it('404 on the first call of a session just opened is not tried again', async () => {
    const server = echoServer();
    const caller = createMcpToolCaller({ connect: server.connect });
    server.answerCalls(404, 1);
    expect(await caller.call(echo(server.url))).toMatchObject({
      status: 'refused',
      phase: 'call',
      httpStatus: 404,
    });
    expect(server.methods.filter((method) => method === 'tools/call')).toHaveLength(1);
    expect(server.calls).toEqual([]);
  });

  it("the try again keeps within the call's timeout: what is left of it, not another whole one", async () => {
    let release: () => void = () => {};
    const server = sdkServer({
      name: 'Slow',
      tools: [
        {
          name: 'echo',
          run: () =>
            new Promise((resolve) => {
              release = () => resolve({ content: [] });
            }),
        },
        { name: 'fast', run: () => ({ content: [] }) },
      ],
    });
    // The SDK's own timeout of each try: 1 s after the caller's.
    const timeouts: number[] = [];
    const connect: McpConnector = async (url, options) => {
      const session = await server.connect(url, options);
      return {
        ...session,
        callTool: (name, args, callOptions) => {
          timeouts.push(callOptions.timeoutMs);
          return session.callTool(name, args, callOptions);
        },
      };
    };
    const caller = createMcpToolCaller({ connect });
    expect(await caller.call({ ...echo(server.url), tool: 'fast' })).toMatchObject({ status: 'ok' });
    server.answerCalls(404, 1);
    expect(await caller.call({ ...echo(server.url), timeoutMs: 300 })).toEqual({ status: 'timeout' });
    release();
    expect(timeouts).toHaveLength(3);
    const [, first, second] = timeouts as [number, number, number];
    expect(first).toBe(1_300);
    expect(second).toBeLessThan(first);
    expect(second).toBeGreaterThan(1_000);
  });

  it('404 when the session opens: nothing answers at the URL, not "it may have run"', async () => {
    const server = sdkServer({ name: 'Gone', tools: [] });
    const connect = createMcpConnector({
      fetch: (async () => new Response('Not Found', { status: 404 })) as typeof fetch,
    });
    const outcome = await createMcpToolCaller({ connect }).call(echo(server.url));
    expect(outcome).toMatchObject({ status: 'refused', phase: 'connect', httpStatus: 404 });
    expect(mcpFinalResult(outcome, {}).error?.message).toMatch(/nothing answers as an MCP server at its URL/);
  });

  it.each([500, 502, 503])(
    '%i is not a refusal: the server may have acted, so the outcome is unknown',
    async (status) => {
      const server = echoServer();
      const caller = createMcpToolCaller({ connect: server.connect });
      expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
      server.answerCalls(status);
      const outcome = await caller.call(echo(server.url));
      expect(outcome).toMatchObject({ status: 'failed', phase: 'call' });
      expect(mcpFinalResult(outcome, {}).error?.code).toBe('outcome_unknown');
    },
  );

  it('a connection lost after the session opened is not a refusal either', async () => {
    const server = echoServer();
    const caller = createMcpToolCaller({ connect: server.connect });
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    server.down(true);
    const outcome = await caller.call(echo(server.url));
    expect(outcome).toMatchObject({ status: 'failed', phase: 'call' });
    expect(mcpFinalResult(outcome, {}).error?.code).toBe('outcome_unknown');
  });
});

describe('a server that answers the call with a JSON-RPC error', () => {
  it('a tool it no longer has ("not found"): a definite answer for the agent, on a session that is kept', async () => {
    const server = echoServer();
    const caller = createMcpToolCaller({ connect: server.connect });
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    const outcome = await caller.call({ ...echo(server.url), tool: 'dropped' });
    expect(outcome).toEqual({
      status: 'server_error',
      code: -32602,
      message: expect.stringMatching(/dropped not found/),
    });
    const final = mcpFinalResult(outcome, {});
    expect(final).toEqual({
      outcome: 'error',
      error: { code: 'execution_failed', message: serverErrorMessage(outcome as never) },
    });
    expect(final.error?.message).toMatch(
      /^The MCP server answered the call with an error \(JSON-RPC -32602\): /,
    );
    // The session still works: the next call goes on it, without a new initialize.
    expect(await caller.call(echo(server.url))).toMatchObject({ status: 'ok' });
    expect(server.methods.filter((method) => method === 'initialize')).toHaveLength(1);
    expect(server.calls).toEqual(['echo', 'echo']);
  });
});

describe('jsonRpcErrorOf', () => {
  const named = (name: string, fields: object = {}) => Object.assign(new Error('said so'), { name }, fields);

  it.each<[string, unknown, { code: number; message: string } | undefined]>([
    ['a ProtocolError', named('ProtocolError', { code: -32602 }), { code: -32602, message: 'said so' }],
    [
      'a subclass of it',
      named('ResourceNotFoundError', { code: -32002 }),
      { code: -32002, message: 'said so' },
    ],
    ["the SDK's own timeout", named('SdkError', { code: 'REQUEST_TIMEOUT' }), undefined],
    ['a closed connection', named('SdkError', { code: 'CONNECTION_CLOSED' }), undefined],
    [
      'a network error',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      undefined,
    ],
    ['an abort', new DOMException('aborted', 'AbortError'), undefined],
    ['a code that is not an integer', named('ProtocolError', { code: 1.5 }), undefined],
    ['not an error', { name: 'ProtocolError', code: -32602, message: 'x' }, undefined],
  ])('%s', (_name, error, expected) => {
    expect(jsonRpcErrorOf(error)).toEqual(expected);
  });
});

describe('refusalStatus', () => {
  const named = (name: string, fields: object = {}) => Object.assign(new Error('x'), { name }, fields);

  it.each([
    ['an UnauthorizedError', named('UnauthorizedError'), 401],
    ['an SdkHttpError with a 4xx status', named('SdkHttpError', { status: 404 }), 404],
    ['an SdkHttpError with the status in its data', named('SdkHttpError', { data: { status: 429 } }), 429],
    ['an SdkHttpError with a 5xx status', named('SdkHttpError', { status: 500 }), undefined],
    ['an SdkHttpError with a 3xx status', named('SdkHttpError', { status: 302 }), undefined],
    ['an SdkHttpError without a status', named('SdkHttpError'), undefined],
    [
      'an SdkHttpError with a status that is not a number',
      named('SdkHttpError', { status: '401' }),
      undefined,
    ],
    ['another error that names a 401', new Error('HTTP 401 Unauthorized'), undefined],
    ['a network failure', new TypeError('fetch failed'), undefined],
    ['a value that is not an error', { name: 'UnauthorizedError' }, undefined],
  ])('%s', (_name, error, expected) => {
    expect(refusalStatus(error)).toBe(expected);
  });
});
