/**
 * How `createMcpToolCaller` tells the ways a call ends apart, against a real server of the official SDK reached by
 * the SDK's own client: a server that turns the call away with an HTTP client error did not run it (`refused`, and
 * the agent is told so), while a failure after the request left may have run it (`outcome_unknown`).
 */
import { describe, expect, it } from 'vitest';
import { sdkServer } from '../../test/mcp-servers.js';
import { createMcpToolCaller, mcpFinalResult, refusalMessage, refusalStatus } from './calls.js';
import { createMcpConnector } from './session.js';

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
      error: { code: 'execution_failed', message: refusalMessage(401) },
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
    expect(outcome).toMatchObject({ status: 'refused', httpStatus: 401 });
    expect(server.methods).toEqual([]);
    expect(mcpFinalResult(outcome, {}).error?.message).toBe(refusalMessage(401));
  });

  it.each([
    [400, /HTTP 400\); the call did not run/],
    [403, /HTTP 403\): it asks who you are/],
    [404, /HTTP 404\): it no longer knows the session/],
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
