/**
 * An agent's call of an MCP server's tool received and finished without a read, on fake-indexeddb with the official
 * SDK on both ends: once the first call has read the registry, the next write what the reading path writes, replays
 * and conflicts are answered from the record, a registry change made elsewhere is never missed, and a call has
 * exactly one final result whenever its answer comes.
 */
import 'fake-indexeddb/auto';
import type { ToolCallPayload } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONVERSATION, call, clockServer, finalResults, openMcpApps } from '../../test/mcp-apps.js';
import { AppRegistry } from '../apps/registry.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { createMcpToolCaller, type McpToolCaller } from './calls.js';
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
