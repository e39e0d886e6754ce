/**
 * An MCP server as an app of the runtime, on fake-indexeddb with the official SDK on both ends: install, refresh,
 * enable, disable and uninstall (each a new inventory revision, nothing written for a refusal), and the `mcp`
 * executor — the whole pipeline, the server's answers mapped to one final result, and the crash rule: a call that
 * may have reached the server when the page died is never sent again.
 */
import 'fake-indexeddb/auto';
import { LineUpProtocolError } from '@lineup/shared';
import { MCP_CONTENT_OUTPUT_SCHEMA, type ToolCallPayload } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { pomodoroManifest } from '../../test/manifests.js';
import { sdkServer } from '../../test/mcp-servers.js';
import { AppRegistry } from '../apps/registry.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { createMcpToolCaller, type McpCallOutcome, type McpToolCaller, mcpFinalResult } from './calls.js';
import { installMcpServer, refreshMcpServer } from './install.js';
import { McpServerError, readMcpServer } from './read-server.js';

const CONVERSATION = 'conv_1';
const VIEW = '<!doctype html><p>clock</p>';

let db: RuntimeDatabase;
let registry: AppRegistry;
let now = Date.parse('2026-12-04T08:00:00Z');
let databases = 0;
let ids = 0;
const clock = { now: () => now };

function clockServer(extra: { failAdd?: boolean } = {}) {
  return sdkServer({
    name: 'Clock Server',
    tools: [
      {
        name: 'get-time',
        description: 'Returns the time.',
        annotations: { readOnlyHint: true },
        _meta: { ui: { resourceUri: 'ui://clock/view.html' } },
        run: () => ({ content: [{ type: 'text', text: '08:00' }] }),
      },
      {
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
        run: (args) =>
          extra.failAdd === true
            ? { content: [{ type: 'text', text: 'cannot add today' }], isError: true }
            : {
                content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }],
                structuredContent: { sum: Number(args.a) + Number(args.b) },
              },
      },
      {
        name: 'tick',
        description: 'Only the view calls it.',
        _meta: { ui: { visibility: ['app'] } },
        run: () => ({ content: [] }),
      },
    ],
    resources: [{ uri: 'ui://clock/view.html', text: VIEW }],
  });
}

beforeEach(async () => {
  db = await openRuntimeDatabase(`mcp-apps-${databases++}`);
  // These tests are about the mcp executor: the host's rules allow every MCP tool (consent/tool-consent.test.ts and
  // consent/pipeline.test.ts test the consent step, and a call that asks).
  registry = new AppRegistry(db, {
    clock,
    toolPolicy: [{ tools: '*', kind: 'mcp_server', decision: 'allow' }],
  });
});

const call = (callId: string, tool: string, args: ToolCallPayload['arguments'] = {}) => ({
  call_id: callId,
  inventory_revision: 'inventory-1',
  tool,
  arguments: args,
});

async function finalOf(callId: string) {
  const record = await db.get('tool_calls', `${CONVERSATION}\n${callId}`);
  return record?.latest.type === 'lineup.v1.tool.result' ? record.latest.payload : undefined;
}

async function settled(callId: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const final = await finalOf(callId);
    if (final !== undefined) return final;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${callId} never finished`);
}

describe('installing an MCP server', () => {
  it('keeps the server, its views and a new inventory with its agent tools in one transaction', async () => {
    const server = clockServer();
    const { outcome, manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    expect(outcome).toBe('installed');
    const [record] = await registry.list();
    expect(record).toMatchObject({ kind: 'mcp_server', id: 'mcp.clock_server', enabled: true });
    const inventory = await registry.inventory();
    expect(inventory.revision).toBe('inventory-1');
    expect(inventory.tools?.map((tool) => [tool.name, tool.risk, tool.call_model])).toEqual([
      ['clock_server.get_time', 'display_only', 'query'],
      ['clock_server.add', 'user_confirmation', 'command'],
    ]);
    // The view-only tool and every executor stay out of what the agent sees.
    expect(JSON.stringify(inventory)).not.toContain('tick');
    expect(JSON.stringify(inventory)).not.toContain('executor');
    expect(inventory.applications).toEqual([
      { id: 'mcp.clock_server', version: manifest.version, surfaces: [] },
    ]);
    const { files } = await registry.mcpViewFiles('mcp.clock_server');
    expect(new TextDecoder().decode(files.get(manifest.views[0]?.path as string))).toBe(VIEW);
    expect(await db.getAll('audit')).toEqual([
      expect.objectContaining({
        type: 'app_installed',
        appId: 'mcp.clock_server',
        version: manifest.version,
      }),
    ]);
    expect((await db.getAll('outbox')).map((row) => row.type)).toEqual(['lineup.v1.client.inventory']);
  });

  it('writes nothing when the server is unchanged, and a new version when its view changed', async () => {
    const server = clockServer();
    const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    const unchanged = await refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect });
    expect(unchanged.outcome).toBe('unchanged');
    expect((await registry.inventory()).revision).toBe('inventory-1');
    server.change({ resources: [{ uri: 'ui://clock/view.html', text: `${VIEW}<p>2</p>` }] });
    const changed = await refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect });
    expect(changed.outcome).toBe('updated');
    expect(changed.change).toMatchObject({
      from: manifest.version,
      addedTools: [],
      removedTools: [],
      changedViews: ['ui://clock/view.html'],
    });
    expect((await registry.inventory()).revision).toBe('inventory-2');
    // Only the new version's view is kept.
    const kept = await db.getAll('bundle_files');
    expect(kept.map((file) => file.version)).toEqual([changed.change.to]);
  });

  it('a refresh that cannot read the server keeps the installed version as it was', async () => {
    const server = clockServer();
    await installMcpServer(registry, server.url, { connect: server.connect });
    const before = await registry.list();
    server.down(true);
    await expect(
      refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect }),
    ).rejects.toMatchObject({
      code: 'unreachable',
    });
    expect(await registry.list()).toEqual(before);
  });

  it('refuses a server whose app scope another app uses, and changes nothing', async () => {
    await registry.install(pomodoroManifest(), { bundleUrl: '/apps/pomodoro/' });
    const server = clockServer();
    const error = await installMcpServer(registry, server.url, {
      connect: server.connect,
      appScope: 'pomodoro',
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).code).toBe('scope_taken');
    expect(await db.count('apps')).toBe(1);
    expect((await registry.inventory()).revision).toBe('inventory-1');
  });

  it('refuses views that do not match the manifest', async () => {
    const server = clockServer();
    const { manifest, files } = await readMcpServer(server.url, { connect: server.connect });
    const changed = new Map([...files].map(([path]) => [path, new TextEncoder().encode('<p>other</p>')]));
    await expect(registry.installMcpServer(manifest, changed)).rejects.toMatchObject({
      code: 'size_mismatch',
    });
    await expect(registry.installMcpServer({ ...manifest, kind: 'miniapp' }, files)).rejects.toBeInstanceOf(
      LineUpProtocolError,
    );
    expect(await db.count('apps')).toBe(0);
  });

  it('enable, disable and uninstall each publish a new revision; a disabled server has no tools', async () => {
    const server = clockServer();
    await installMcpServer(registry, server.url, { connect: server.connect });
    expect(await registry.setEnabled('mcp.clock_server', false)).toBe(true);
    expect((await registry.inventory()).tools).toBeUndefined();
    expect(await registry.setEnabled('mcp.clock_server', true)).toBe(true);
    expect((await registry.inventory()).tools).toHaveLength(2);
    await registry.uninstall('mcp.clock_server');
    expect((await registry.inventory()).revision).toBe('inventory-4');
    expect(await db.count('bundle_files')).toBe(0);
    expect(await registry.checkSurfaceReference({ app_id: 'mcp.clock_server', surface_id: 'x' })).toBe(
      'revoked',
    );
  });

  it('is no MiniApp: no bundle to mount, no Surface by reference', async () => {
    const server = clockServer();
    const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    await expect(registry.bundleFiles('mcp.clock_server')).rejects.toBeInstanceOf(LineUpProtocolError);
    expect(
      await registry.checkSurfaceReference({
        app_id: 'mcp.clock_server',
        surface_id: manifest.views[0]?.id as string,
      }),
    ).toBe('unknown_reference');
  });
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

describe('a call received and finished without a read', () => {
  /** Every IndexedDB read request, counted on the classes fake-indexeddb installs (whatever wraps them). */
  function countReads() {
    const spies = [IDBObjectStore.prototype, IDBIndex.prototype].flatMap((prototype) =>
      (['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor'] as const).map(
        (method) => vi.spyOn(prototype, method),
      ),
    );
    return {
      get total() {
        return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
      },
      restore: () => {
        for (const spy of spies) spy.mockRestore();
      },
    };
  }

  /** A runtime whose host says when the outbox changed; `caller` may hold the server's answers back. */
  async function installed(caller?: (server: ReturnType<typeof clockServer>) => McpToolCaller) {
    const server = clockServer();
    await installMcpServer(registry, server.url, { connect: server.connect });
    let outboxChanged = () => {};
    const runtime = new ToolRuntime(db, registry, {
      clock,
      ids: () => `id_${++ids}`,
      host: {
        requestForeground() {},
        closeApp() {},
        sessionDataChanged() {},
        outboxChanged: () => outboxChanged(),
      },
      mcp: caller?.(server) ?? createMcpToolCaller({ connect: server.connect }),
    });
    /** Receives `payload` and waits for its final result, through the host's signal only (no read of its own). */
    const callThrough = async (payload: ToolCallPayload) => {
      const finished = new Promise<void>((resolve) => {
        outboxChanged = resolve;
      });
      const received = await runtime.receive(CONVERSATION, payload);
      if (received.disposition === 'accepted') await finished;
      return received;
    };
    return { server, runtime, callThrough };
  }

  /** A caller that holds each answer of the real one until `release()`. */
  function held(server: ReturnType<typeof clockServer>) {
    const real = createMcpToolCaller({ connect: server.connect });
    const gates: (() => void)[] = [];
    const caller: McpToolCaller = {
      call: async (request) => {
        const outcome = await real.call(request);
        await new Promise<void>((resolve) => gates.push(resolve));
        return outcome;
      },
    };
    return { caller, release: () => gates.shift()?.(), waiting: () => gates.length };
  }

  it('after the first call, a call reads nothing from receipt to final result, and writes what the reading path writes', async () => {
    const { server, callThrough } = await installed();
    await callThrough(call('call_1', 'clock_server.add', { a: 1, b: 2 }));
    const reads = countReads();
    let received: Awaited<ReturnType<typeof callThrough>>;
    try {
      received = await callThrough(call('call_2', 'clock_server.add', { a: 1, b: 2 }));
      expect(reads.total).toBe(0);
    } finally {
      reads.restore();
    }
    expect(received.answer).toEqual({
      type: 'lineup.v1.tool.progress',
      payload: { call_id: 'call_2', app_scope: 'clock_server', status: 'accepted' },
    });
    expect(server.calls).toEqual(['add', 'add']);
    // The same facts as the call that read: its record, its audit entries, its outbox rows (ids aside).
    const [first, second] = await Promise.all(
      ['call_1', 'call_2'].map((id) => db.get('tool_calls', `${CONVERSATION}\n${id}`)),
    );
    const comparable = (record: typeof first, id: string) =>
      JSON.parse(
        JSON.stringify(record)
          .replaceAll(id, 'CALL')
          .replace(/"id_\d+"/g, '"ID"'),
      );
    expect(comparable(second, 'call_2')).toEqual(comparable(first, 'call_1'));
    expect(second).toMatchObject({ stage: 'finished', latest: { payload: { result: { sum: 3 } } } });
    expect(second).not.toHaveProperty('mcpInFlight');
    expect(second).not.toHaveProperty('dueAt');
    const audit = (await db.getAll('audit')).filter((entry) => entry.callId !== undefined);
    expect(audit.map((entry) => `${entry.callId} ${entry.type} ${entry.detail ?? ''}`)).toEqual([
      'call_1 tool_call_accepted ',
      'call_1 tool_consent allowed host',
      'call_1 tool_call_finished completed',
      'call_2 tool_call_accepted ',
      'call_2 tool_consent allowed host',
      'call_2 tool_call_finished completed',
    ]);
    const rows = (await db.getAll('outbox')).filter((row) => row.conversationId === CONVERSATION);
    expect(rows.map((row) => `${(row.payload as { call_id: string }).call_id} ${row.type}`)).toEqual([
      'call_1 lineup.v1.tool.progress',
      'call_1 lineup.v1.tool.result',
      'call_2 lineup.v1.tool.progress',
      'call_2 lineup.v1.tool.result',
    ]);
    // Nothing of the assertions is left behind.
    expect(await db.getAllKeys('inventory')).toEqual(['current']);
    expect(await db.count('tool_calls')).toBe(2);
  });

  it('a replay or a conflict of a call received without a read is answered from its record, never sent again', async () => {
    const { server, runtime, callThrough } = await installed();
    await callThrough(call('call_1', 'clock_server.get_time'));
    await callThrough(call('call_2', 'clock_server.add', { a: 1, b: 1 }));
    const replay = await runtime.receive(CONVERSATION, call('call_2', 'clock_server.add', { a: 1, b: 1 }));
    expect(replay).toEqual({
      disposition: 'replayed',
      answer: {
        type: 'lineup.v1.tool.result',
        payload: { call_id: 'call_2', outcome: 'completed', result: { sum: 2 } },
      },
    });
    const conflict = await runtime.receive(CONVERSATION, call('call_2', 'clock_server.add', { a: 5, b: 1 }));
    expect(conflict.disposition).toBe('conflict');
    expect(conflict.answer.payload).toMatchObject({ error: { code: 'call_id_conflict' } });
    expect(server.calls).toEqual(['get-time', 'add']);
    expect(await finalOf('call_2')).toEqual({ call_id: 'call_2', outcome: 'completed', result: { sum: 2 } });
  });

  it('the same new call twice at once: one is accepted and sent, the other answered from its record', async () => {
    const { server, runtime, callThrough } = await installed();
    await callThrough(call('call_1', 'clock_server.get_time'));
    const twice = await Promise.all([
      runtime.receive(CONVERSATION, call('call_2', 'clock_server.add', { a: 3, b: 4 })),
      runtime.receive(CONVERSATION, call('call_2', 'clock_server.add', { a: 3, b: 4 })),
    ]);
    expect(twice.map((received) => received.disposition).sort()).toEqual(['accepted', 'replayed']);
    expect(await settled('call_2')).toEqual({ call_id: 'call_2', outcome: 'completed', result: { sum: 7 } });
    expect(server.calls).toEqual(['get-time', 'add']);
    const accepted = (await db.getAll('audit')).filter(
      (entry) => entry.callId === 'call_2' && entry.type === 'tool_call_accepted',
    );
    expect(accepted).toHaveLength(1);
  });

  it('a refusal after the first call is answered as always: stale revision, unknown tool, bad arguments', async () => {
    const { server, runtime, callThrough } = await installed();
    await callThrough(call('call_1', 'clock_server.get_time'));
    const stale = await runtime.receive(CONVERSATION, {
      ...call('call_2', 'clock_server.get_time'),
      inventory_revision: 'inventory-0',
    });
    expect(stale.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'stale_inventory' } });
    const invalid = await runtime.receive(CONVERSATION, call('call_3', 'clock_server.add', { a: 'one' }));
    expect(invalid.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'invalid_arguments' } });
    const hidden = await runtime.receive(CONVERSATION, call('call_4', 'clock_server.tick'));
    expect(hidden.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
    expect(server.calls).toEqual(['get-time']);
    expect(await db.count('tool_calls')).toBe(4);
  });

  it('a registry change made elsewhere (another tab) is never missed: the call is checked against the new inventory', async () => {
    const { server, runtime, callThrough } = await installed();
    await callThrough(call('call_1', 'clock_server.get_time'));
    // Another tab's registry disables the server: this runtime heard nothing of it.
    const elsewhere = new AppRegistry(db, { clock });
    await elsewhere.setEnabled('mcp.clock_server', false);
    const old = await runtime.receive(CONVERSATION, call('call_2', 'clock_server.get_time'));
    expect(old.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'stale_inventory' } });
    const next = await runtime.receive(CONVERSATION, {
      ...call('call_3', 'clock_server.get_time'),
      inventory_revision: 'inventory-2',
    });
    expect(next.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
    // Enabled again elsewhere: calls of the newest revision go through, and again without a read after the first.
    await elsewhere.setEnabled('mcp.clock_server', true);
    await callThrough({ ...call('call_4', 'clock_server.get_time'), inventory_revision: 'inventory-3' });
    const reads = countReads();
    try {
      await callThrough({ ...call('call_5', 'clock_server.get_time'), inventory_revision: 'inventory-3' });
      expect(reads.total).toBe(0);
    } finally {
      reads.restore();
    }
    expect(server.calls).toEqual(['get-time', 'get-time', 'get-time']);
  });

  it('a result that comes after its call ended keeps nothing: exactly one final result (withdrawn, timed out, recovered by another tab)', async () => {
    let gate: ReturnType<typeof held> | undefined;
    const { runtime, callThrough } = await installed((server) => {
      gate = held(server);
      return gate.caller;
    });
    const answered = async (payload: ToolCallPayload) => {
      const done = callThrough(payload);
      await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
      gate!.release();
      await done;
    };
    const lateAnswerChangesNothing = async (callId: string, final: unknown) => {
      expect(await finalOf(callId)).toEqual(final);
      gate!.release();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await finalOf(callId)).toEqual(final);
    };
    // The first call reads the registry; the next are received without a read.
    await answered(call('call_1', 'clock_server.get_time'));
    // Withdrawn while the server has it (the registry changed too).
    await runtime.receive(CONVERSATION, call('call_2', 'clock_server.get_time'));
    await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
    await registry.setEnabled('mcp.clock_server', false);
    await runtime.withdraw();
    await lateAnswerChangesNothing('call_2', {
      call_id: 'call_2',
      outcome: 'error',
      error: { code: 'revoked' },
    });
    // Timed out while the server has it, the registry unchanged: only the call's own record says it ended.
    await registry.setEnabled('mcp.clock_server', true);
    const revision3 = (callId: string) => ({
      ...call(callId, 'clock_server.get_time'),
      inventory_revision: 'inventory-3',
    });
    await answered(revision3('call_3'));
    await runtime.receive(CONVERSATION, revision3('call_4'));
    await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
    now += 61_000;
    await runtime.settle();
    await lateAnswerChangesNothing('call_4', {
      call_id: 'call_4',
      outcome: 'error',
      error: { code: 'timeout' },
    });
    // Ended by another tab's recovery (its own connection, its own runtime) while this one still waits for the
    // server: the answer that comes then cannot be the request's second end.
    await answered(revision3('call_5'));
    await runtime.receive(CONVERSATION, revision3('call_6'));
    await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
    const otherTab = await openRuntimeDatabase(db.name);
    await new ToolRuntime(otherTab, new AppRegistry(otherTab), { clock }).recover();
    otherTab.close();
    await lateAnswerChangesNothing('call_6', {
      call_id: 'call_6',
      outcome: 'error',
      error: {
        code: 'outcome_unknown',
        message:
          'The page closed while the MCP server had the call: it may have run there, and is not sent again.',
      },
    });
    expect(await finalOf('call_5')).toMatchObject({ outcome: 'completed' });
    for (const id of ['call_2', 'call_4', 'call_6']) {
      const results = (await db.getAll('outbox')).filter(
        (row) => row.type === 'lineup.v1.tool.result' && row.payload.call_id === id,
      );
      expect(results).toHaveLength(1);
    }
  });

  it('a registry change while the call runs: the answer is checked against the tool it was called as, and kept', async () => {
    let gate: ReturnType<typeof held> | undefined;
    const { runtime, callThrough } = await installed((server) => {
      gate = held(server);
      return gate.caller;
    });
    const first = callThrough(call('call_1', 'clock_server.get_time'));
    await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
    gate!.release();
    await first;
    const second = callThrough(call('call_2', 'clock_server.add', { a: 2, b: 2 }));
    await vi.waitFor(() => expect(gate!.waiting()).toBe(1));
    // Disabled, not yet withdrawn, when the answer comes: the server ran the call, and says so.
    await registry.setEnabled('mcp.clock_server', false);
    gate!.release();
    await second;
    expect(await finalOf('call_2')).toEqual({ call_id: 'call_2', outcome: 'completed', result: { sum: 4 } });
    // Withdrawing afterwards ends nothing more: the call has its one final result.
    expect(await runtime.withdraw()).toBe(0);
    expect(await finalOf('call_2')).toEqual({ call_id: 'call_2', outcome: 'completed', result: { sum: 4 } });
    // The next call is refused: the server is gone from the inventory.
    const refused = await runtime.receive(CONVERSATION, {
      ...call('call_3', 'clock_server.add', { a: 1, b: 1 }),
      inventory_revision: 'inventory-2',
    });
    expect(refused.answer.payload).toMatchObject({ outcome: 'error', error: { code: 'unsupported' } });
  });
});

describe("a view's tools/call (a local UI action, never an agent's call)", () => {
  async function runtimeFor(server = clockServer()) {
    await installMcpServer(registry, server.url, { connect: server.connect });
    const runtime = new ToolRuntime(db, registry, {
      clock,
      ids: () => `id_${++ids}`,
      mcp: createMcpToolCaller({ connect: server.connect }),
    });
    return { server, runtime };
  }
  const viewCall = (runtime: ToolRuntime, tool: string, args: unknown = {}, appId = 'mcp.clock_server') =>
    runtime.mcpViewCall({ conversationId: CONVERSATION, appId, tool, arguments: args });

  it('calls a tool of its own server, the app-only ones too, and audits each as a ui_action', async () => {
    const { server, runtime } = await runtimeFor();
    expect(await viewCall(runtime, 'get-time')).toEqual({
      status: 'ok',
      result: { content: [{ type: 'text', text: '08:00' }] },
    });
    expect((await viewCall(runtime, 'tick')).status).toBe('ok');
    expect(server.calls).toEqual(['get-time', 'tick']);
    const audit = (await db.getAll('audit')).filter((entry) => entry.type === 'ui_action');
    expect(audit.map((entry) => entry.detail)).toEqual([
      'view tools/call get-time ok',
      'view tools/call tick ok',
    ]);
    // No tool call, no receipt, nothing for the agent.
    expect(await db.count('tool_calls')).toBe(0);
    expect((await db.getAll('outbox')).map((row) => row.type)).toEqual(['lineup.v1.client.inventory']);
  });

  it.each<[string, string, unknown, string, string | undefined]>([
    ['a tool the server does not have', 'delete-everything', {}, 'unknown_tool', undefined],
    ["an agent's name for the tool", 'clock_server.get_time', {}, 'unknown_tool', undefined],
    ['arguments the schema refuses', 'add', { a: 'one' }, 'invalid_arguments', undefined],
    ['arguments that are not an object', 'add', [1, 2], 'invalid_arguments', undefined],
    ['a tool of another server', 'get-time', {}, 'unknown_server', 'mcp.other'],
  ])('refuses %s, and nothing reaches the server', async (_name, tool, args, code, appId) => {
    const { server, runtime } = await runtimeFor();
    expect(await viewCall(runtime, tool, args, appId)).toMatchObject({ status: 'error', code });
    expect(server.calls).toEqual([]);
    const [entry] = (await db.getAll('audit')).filter((record) => record.type === 'ui_action');
    expect(entry?.detail).toBe(`view tools/call ${tool} ${code}`);
  });

  it('refuses a tool the server shows to the model only', async () => {
    const server = sdkServer({
      name: 'Clock Server',
      tools: [
        {
          name: 'secret',
          description: 'For the agent only.',
          _meta: { ui: { visibility: ['model'] } },
          run: () => ({ content: [] }),
        },
      ],
    });
    const { runtime } = await runtimeFor(server);
    expect(await viewCall(runtime, 'secret')).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(server.calls).toEqual([]);
  });

  it('refuses every call of a disabled server', async () => {
    const { server, runtime } = await runtimeFor();
    await registry.setEnabled('mcp.clock_server', false);
    expect(await viewCall(runtime, 'get-time')).toMatchObject({ status: 'error', code: 'disabled' });
    expect(server.calls).toEqual([]);
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
