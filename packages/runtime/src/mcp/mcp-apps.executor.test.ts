/**
 * The `mcp` executor, on fake-indexeddb with the official SDK on both ends: the whole pipeline of an agent's call of
 * an MCP server's tool, the server's answers mapped to one final result (`mcpFinalResult`), and the crash rule: a
 * call that may have reached the server when the page died is never sent again.
 */
import 'fake-indexeddb/auto';
import { MCP_CONTENT_OUTPUT_SCHEMA } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, call, clockServer, finalResults, openMcpApps } from '../../test/mcp-apps.js';
import type { AppRegistry } from '../apps/registry.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import type { RuntimeDatabase } from '../storage/database.js';
import { createMcpToolCaller, type McpCallOutcome, type McpToolCaller, mcpFinalResult } from './calls.js';
import { installMcpServer } from './install.js';

let db: RuntimeDatabase;
let registry: AppRegistry;
let now = Date.parse('2026-12-04T08:00:00Z');
let ids = 0;
const clock = { now: () => now };
const { finalOf, settled } = finalResults(() => db);

beforeEach(async () => {
  ({ db, registry } = await openMcpApps(clock));
});

describe('the mcp executor', () => {
  async function installed(server = clockServer(), caller?: McpToolCaller) {
    await installMcpServer(registry, server.url, { connect: server.connect });
    const runtime = new ToolRuntime(db, registry, {
      clock,
      ids: () => `id_${++ids}`,
      mcp: caller ?? createMcpToolCaller({ connect: server.connect }),
    });
    return { server, runtime };
  }

  it('calls the server once and sends the content blocks as the one final result', async () => {
    const { server, runtime } = await installed();
    const received = await runtime.receive(CONVERSATION, call('call_1', 'clock_server.get_time'));
    expect(received.answer).toEqual({
      type: 'lineup.v1.tool.progress',
      payload: { call_id: 'call_1', app_scope: 'clock_server', status: 'accepted' },
    });
    expect(await settled('call_1')).toEqual({
      call_id: 'call_1',
      outcome: 'completed',
      result: { content: [{ type: 'text', text: '08:00' }] },
    });
    expect(server.calls).toEqual(['get-time']);
    // A replay answers from the record and calls nothing.
    const replay = await runtime.receive(CONVERSATION, call('call_1', 'clock_server.get_time'));
    expect(replay.disposition).toBe('replayed');
    expect(server.calls).toEqual(['get-time']);
    // What the host shows beside the view: the arguments and the server's whole result.
    expect(await runtime.mcpCall(CONVERSATION, 'call_1')).toMatchObject({
      tool: 'clock_server.get_time',
      arguments: {},
      stage: 'finished',
      result: { content: [{ type: 'text', text: '08:00' }] },
      final: { outcome: 'completed' },
    });
  });

  it('sends the structured content of a tool with an output schema, checked against it', async () => {
    const { runtime } = await installed();
    await runtime.receive(CONVERSATION, call('call_2', 'clock_server.add', { a: 2, b: 3 }));
    expect(await settled('call_2')).toEqual({ call_id: 'call_2', outcome: 'completed', result: { sum: 5 } });
  });

  it('refuses arguments against the published schema before anything reaches the server', async () => {
    const { server, runtime } = await installed();
    const refused = await runtime.receive(CONVERSATION, call('call_3', 'clock_server.add', { a: 'two' }));
    expect(refused.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'invalid_arguments' } });
    expect(server.calls).toEqual([]);
  });

  it('a view-only tool is unknown to the agent', async () => {
    const { server, runtime } = await installed();
    const refused = await runtime.receive(CONVERSATION, call('call_4', 'clock_server.tick'));
    expect(refused.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
    expect(server.calls).toEqual([]);
  });

  it('an error result of the server is execution_failed with its words', async () => {
    const { runtime } = await installed(clockServer({ failAdd: true }));
    await runtime.receive(CONVERSATION, call('call_5', 'clock_server.add', { a: 1, b: 1 }));
    expect(await settled('call_5')).toEqual({
      call_id: 'call_5',
      outcome: 'error',
      error: { code: 'execution_failed', message: 'The MCP server reported an error: cannot add today' },
    });
    expect((await runtime.mcpCall(CONVERSATION, 'call_5'))?.result?.isError).toBe(true);
  });

  it('a server that cannot be reached ends the call: it was never sent', async () => {
    const { server, runtime } = await installed();
    server.down(true);
    await runtime.receive(CONVERSATION, call('call_6', 'clock_server.get_time'));
    expect(await settled('call_6')).toMatchObject({
      outcome: 'error',
      error: {
        code: 'execution_failed',
        message: 'The MCP server could not be reached; the call was not sent.',
      },
    });
  });

  it('a disabled server: the next call is refused as revoked; a call before it finished as it was', async () => {
    const { server, runtime } = await installed();
    await runtime.receive(CONVERSATION, call('call_7', 'clock_server.get_time'));
    await settled('call_7');
    await registry.setEnabled('mcp.clock_server', false);
    await runtime.withdraw();
    const refused = await runtime.receive(CONVERSATION, {
      ...call('call_8', 'clock_server.get_time'),
      inventory_revision: 'inventory-2',
    });
    expect(refused.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
    expect(server.calls).toEqual(['get-time']);
  });

  it('the crash rule: a call handed to the server before the page died ends outcome_unknown, never sent again', async () => {
    // A caller that never answers: the page "dies" while the server has the call.
    const sent: string[] = [];
    const hanging: McpToolCaller = {
      call: (request) => {
        sent.push(request.tool);
        return new Promise<McpCallOutcome>(() => {});
      },
    };
    const { server } = await installed(clockServer(), hanging);
    const first = new ToolRuntime(db, registry, { clock, ids: () => `id_${++ids}`, mcp: hanging });
    await first.receive(CONVERSATION, call('call_9', 'clock_server.get_time'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual(['get-time']);
    const running = await db.get('tool_calls', `${CONVERSATION}\ncall_9`);
    expect(running).toMatchObject({ stage: 'running', dispatchedAt: now });
    // The reload: a new runtime over the same database, with a caller that would answer.
    const after = new ToolRuntime(db, registry, {
      clock,
      ids: () => `id_${++ids}`,
      mcp: createMcpToolCaller({ connect: server.connect }),
    });
    await after.recover();
    expect(await finalOf('call_9')).toMatchObject({ outcome: 'error', error: { code: 'outcome_unknown' } });
    await after.recover();
    expect(server.calls).toEqual([]);
    expect(sent).toEqual(['get-time']);
    // The outbox holds exactly one final result for it.
    const results = (await db.getAll('outbox')).filter(
      (row) => row.type === 'lineup.v1.tool.result' && row.payload.call_id === 'call_9',
    );
    expect(results).toHaveLength(1);
  });

  it('a call received but not yet handed over before the page died is sent after the reload, once', async () => {
    const { server, runtime } = await installed();
    // Accepted and routed in one transaction, so "received, not dispatched" only exists if routing failed: write it.
    await runtime.receive(CONVERSATION, call('call_10', 'clock_server.get_time'));
    await settled('call_10');
    const record = await db.get('tool_calls', `${CONVERSATION}\ncall_10`);
    const { dispatchedAt: _dispatched, invocationId: _invocation, mcpResult: _result, ...received } = record!;
    await db.put('tool_calls', {
      ...received,
      key: `${CONVERSATION}\ncall_11`,
      callId: 'call_11',
      call: call('call_11', 'clock_server.get_time'),
      stage: 'received',
      dueAt: now + 60_000,
      latest: {
        type: 'lineup.v1.tool.progress',
        payload: { call_id: 'call_11', app_scope: 'clock_server', status: 'accepted' },
      },
    });
    await runtime.recover();
    expect(await settled('call_11')).toMatchObject({ outcome: 'completed' });
    expect(server.calls).toEqual(['get-time', 'get-time']);
  });

  it('a call the server does not answer in time ends timeout, and the request is cancelled', async () => {
    let aborted = false;
    const slow: McpToolCaller = {
      call: (request) =>
        new Promise<McpCallOutcome>((resolve) =>
          request.signal?.addEventListener('abort', () => {
            aborted = true;
            resolve({ status: 'cancelled' });
          }),
        ),
    };
    const { runtime } = await installed(clockServer(), slow);
    await runtime.receive(CONVERSATION, call('call_12', 'clock_server.get_time'));
    now += 61_000;
    await runtime.settle();
    expect(await finalOf('call_12')).toEqual({
      call_id: 'call_12',
      outcome: 'error',
      error: { code: 'timeout' },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe(true);
    // The late answer changes nothing.
    expect(await finalOf('call_12')).toEqual({
      call_id: 'call_12',
      outcome: 'error',
      error: { code: 'timeout' },
    });
  });
});

describe('mcpFinalResult', () => {
  const content = [{ type: 'text', text: 'hi' }];
  it.each<[string, McpCallOutcome, unknown, unknown]>([
    [
      'content of a tool without an output schema',
      { status: 'ok', result: { content } },
      MCP_CONTENT_OUTPUT_SCHEMA,
      { outcome: 'completed', result: { content } },
    ],
    [
      'structured content of a tool with one',
      { status: 'ok', result: { content, structuredContent: { n: 1 } } },
      { type: 'object' },
      { outcome: 'completed', result: { n: 1 } },
    ],
    [
      'no structured content where the schema needs it',
      { status: 'ok', result: { content } },
      { type: 'object' },
      { outcome: 'error', error: { code: 'invalid_output' } },
    ],
    [
      'a result larger than a tool result may be',
      { status: 'ok', result: { content: [{ type: 'text', text: 'x'.repeat(70_000) }] } },
      MCP_CONTENT_OUTPUT_SCHEMA,
      { outcome: 'error', error: { code: 'invalid_output' } },
    ],
    [
      'a failure before the request left',
      { status: 'failed', phase: 'connect', reason: 'x' },
      {},
      { error: { code: 'execution_failed' } },
    ],
    [
      'a failure after it left',
      { status: 'failed', phase: 'call', reason: 'x' },
      {},
      { error: { code: 'outcome_unknown' } },
    ],
    ['a timeout', { status: 'timeout' }, {}, { outcome: 'error', error: { code: 'timeout' } }],
    ['a cancelled request', { status: 'cancelled' }, {}, { error: { code: 'outcome_unknown' } }],
    [
      'an off-spec answer',
      { status: 'off_spec', reason: 'no content' },
      {},
      { error: { code: 'execution_failed' } },
    ],
  ])('%s', (_name, outcome, schema, expected) => {
    expect(mcpFinalResult(outcome, schema)).toMatchObject(expected as object);
  });
});
