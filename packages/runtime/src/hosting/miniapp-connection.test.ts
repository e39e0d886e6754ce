/**
 * The runtime's end of `lineup.miniapp.v1` wired to the SDK's own client (`createMiniAppClient`) through a
 * fake window pair, in process: activation by `app_ready`, SDK handlers with their output check, handler
 * errors, timeouts that abort the handler's signal, session data writes with revisions, local UI actions,
 * refused messages, a failed start, and a reload while a handler runs.
 */
import 'fake-indexeddb/auto';
import { defineAgentTools, generateManifest, type MiniAppClient } from '@lineup/miniapp-sdk';
import type { LineUpProtocolError } from '@lineup/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolCall } from '../../test/utils.js';
import { AppRegistry } from '../apps/registry.js';
import { type AppTarget, type RuntimeHost, ToolRuntime } from '../execution/tool-runtime.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { MiniAppConnection } from './miniapp-connection.js';

const START = Date.parse('2026-12-01T08:00:00.000Z');
const CONVERSATION = 'conv_1';

let release: () => void = () => {};
let seenSignal: AbortSignal | undefined;
let handlerRuns = 0;
/** How often the runtime told the host that rows wait in the outbox. */
let outboxSignals = 0;

const tools = defineAgentTools({
  appScope: 'notes',
  tools: {
    add: {
      contractVersion: '1.0',
      description: 'Adds a note.',
      input: z.strictObject({ text: z.string().min(1) }),
      output: z.strictObject({ count: z.int() }),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ text }) => {
        handlerRuns++;
        return { count: text.length };
      },
    },
    wait: {
      contractVersion: '1.0',
      description: 'Waits until released or aborted.',
      input: z.strictObject({}),
      output: z.strictObject({ done: z.boolean() }),
      callModel: 'command',
      timeoutMs: 1_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: (_input, { signal }) => {
        handlerRuns++;
        seenSignal = signal;
        return new Promise((resolve) => {
          release = () => resolve({ done: true });
        });
      },
    },
    strict: {
      contractVersion: '1.0',
      description: 'Takes a text the published schema cannot say all about.',
      // A refinement has no JSON Schema: the runtime lets "forbidden" through, the handler's schema does not.
      input: z.strictObject({ text: z.string().refine((text) => text !== 'forbidden') }),
      output: z.strictObject({ count: z.int() }),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ text }) => ({ count: text.length }),
    },
    broken: {
      contractVersion: '1.0',
      description: 'Returns a result off its own schema.',
      input: z.strictObject({}),
      output: z.strictObject({ items: z.array(z.strictObject({ count: z.int() })) }),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: () => ({ items: [{ count: 1 }, { count: 'secret' as unknown as number }] }),
    },
    huge: {
      contractVersion: '1.0',
      description: 'Returns more than the channel carries.',
      input: z.strictObject({}),
      output: z.strictObject({ text: z.string() }),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      // Over the 64 KiB of a result, within the bytes of a whole message: refused at `result`.
      handler: () => ({ text: 'x'.repeat(66_000) }),
    },
    fail: {
      contractVersion: '1.0',
      description: 'Throws.',
      input: z.strictObject({}),
      output: z.strictObject({}),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: () => {
        throw new Error('boom');
      },
    },
  },
});

const MANIFEST = generateManifest({ id: 'com.example.notes', name: 'Notes', version: '1.0.0' }, tools);

interface Page {
  readonly client: MiniAppClient;
  readonly connection: MiniAppConnection;
  readonly rejected: LineUpProtocolError[];
  /** Posts raw data to the runtime as this page's window would. */
  postRaw(data: unknown): Promise<void>;
}

let db: RuntimeDatabase;
let clock: { now: number };
let runtime: ToolRuntime;
let pages: Map<string, Page>;
let databases = 0;
let ids = 0;
const uiActions = { 'notes.highlight': vi.fn() };

function testHost(): RuntimeHost {
  const page = (target: AppTarget) => pages.get(target.instanceId);
  return {
    requestForeground: (target) => mount(target),
    startApp: (target) => mount(target),
    closeApp: (target) => page(target)?.connection.lifecycle('close'),
    sessionDataChanged: (target, snapshot) => page(target)?.connection.pushSessionData(snapshot),
    invoke: (target, invocation) => page(target)?.connection.invoke(invocation),
    cancelInvocation: (target, invocationId) => page(target)?.connection.cancelInvocation(invocationId),
    outboxChanged: () => {
      outboxSignals++;
    },
  };
}

/** A page for `target`: the SDK client on one side of a fake window pair, the connection on the other. */
function mount(target: AppTarget): Page {
  const listeners = new Set<(event: { source: unknown; data: unknown }) => void>();
  const pending: Promise<void>[] = [];
  const rejected: LineUpProtocolError[] = [];
  const connection = new MiniAppConnection(
    runtime,
    target,
    {
      post: (message) => {
        for (const listener of [...listeners]) listener({ source: parent, data: structuredClone(message) });
      },
    },
    { onRejected: (error) => rejected.push(error) },
  );
  const parent = {
    postMessage: (message: unknown) => void pending.push(connection.receive(structuredClone(message))),
  };
  const client = createClient(target, parent, listeners);
  const page: Page = {
    client,
    connection,
    rejected,
    postRaw: (data) => connection.receive(data),
  };
  pages.set(target.instanceId, page);
  return page;
}

let createClient: (
  target: AppTarget,
  parent: { postMessage(message: unknown): void },
  listeners: Set<(event: { source: unknown; data: unknown }) => void>,
) => MiniAppClient;

beforeEach(async () => {
  const { createMiniAppClient } = await import('@lineup/miniapp-sdk');
  createClient = (target, parent, listeners) =>
    createMiniAppClient({
      tools,
      instanceId: target.instanceId,
      window: {
        parent,
        location: { hash: '' },
        addEventListener: (_type, listener) => listeners.add(listener),
        removeEventListener: (_type, listener) => listeners.delete(listener),
        setTimeout: (callback, delay) => setTimeout(callback, delay),
        clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      },
    });
  db = await openRuntimeDatabase(`miniapp-connection-${databases++}`);
  clock = { now: START };
  const registry = new AppRegistry(db, { clock: { now: () => clock.now } });
  await registry.install(MANIFEST, { bundleUrl: '/apps/notes/' });
  pages = new Map();
  handlerRuns = 0;
  uiActions['notes.highlight'].mockReset();
  runtime = newRuntime(registry);
});

function newRuntime(registry: AppRegistry) {
  return new ToolRuntime(db, registry, {
    clock: { now: () => clock.now },
    ids: () => `id_${++ids}`,
    host: testHost(),
    uiActions,
  });
}

/** The tool answers in the outbox, as `call_id status-or-outcome`. */
async function answers(): Promise<string[]> {
  const rows = await db.getAll('outbox');
  return rows.flatMap((row) => {
    if (row.type === 'lineup.v1.tool.progress') return [`${row.payload.call_id} ${row.payload.status}`];
    if (row.type === 'lineup.v1.tool.result')
      return [
        `${row.payload.call_id} ${
          row.payload.outcome === 'completed'
            ? JSON.stringify(row.payload.result)
            : `${row.payload.error?.code}${row.payload.error?.message ? ` ${row.payload.error.message}` : ''}`
        }`,
      ];
    return [];
  });
}

const onlyPage = () => {
  const [page] = pages.values();
  if (page === undefined) throw new Error('No page was mounted.');
  return page;
};

describe('an SDK tool through the MiniApp channel', () => {
  it('starts the app, waits for app_ready, runs the handler and checks its result', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'hello' }));
    await vi.waitFor(async () =>
      expect(await answers()).toEqual([
        'c1 accepted',
        'c1 starting',
        'c1 activation_ready',
        'c1 {"count":5}',
      ]),
    );
    expect(handlerRuns).toBe(1);
    // The app is ready now: the next call runs at once, on the same page.
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.add', { text: 'hi' }));
    await vi.waitFor(async () =>
      expect((await answers()).slice(-2)).toEqual(['c2 accepted', 'c2 {"count":2}']),
    );
    expect(pages.size).toBe(1);
    const audit = (await db.getAll('audit')).map((entry) => entry.type);
    expect(audit).toEqual(expect.arrayContaining(['activation_started', 'app_ready', 'activation_ready']));
  });

  it("tells the host when a page's return wrote the final result, so it reaches the agent without waiting", async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'x' }));
    await vi.waitFor(async () => expect((await answers()).at(-1)).toBe('c1 {"count":1}'));
    const before = outboxSignals;
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.add', { text: 'yy' }));
    await vi.waitFor(async () => expect((await answers()).at(-1)).toBe('c2 {"count":2}'));
    expect(outboxSignals).toBeGreaterThan(before);
  });

  it('calls that arrive while the app starts wait, and run after ready in arrival order', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'a' }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.add', { text: 'bb' }));
    await vi.waitFor(async () =>
      expect((await answers()).filter((line) => line.includes('{'))).toHaveLength(2),
    );
    expect((await answers()).filter((line) => line.includes('{'))).toEqual([
      'c1 {"count":1}',
      'c2 {"count":2}',
    ]);
  });

  it('a handler error becomes execution_failed with the page code', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.fail'));
    await vi.waitFor(async () =>
      expect((await answers()).at(-1)).toBe("c1 execution_failed The app's handler returned handler_failed."),
    );
  });

  it("the SDK's invalid_arguments and invalid_output reach the agent with where and what is wanted, never what was sent", async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.strict', { text: 'forbidden' }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.broken'));
    await vi.waitFor(async () =>
      expect((await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result')).toHaveLength(
        2,
      ),
    );
    const results = (await db.getAll('outbox')).flatMap((row) =>
      row.type === 'lineup.v1.tool.result' ? [row.payload] : [],
    );
    expect(results).toEqual([
      {
        call_id: 'c1',
        outcome: 'error',
        error: {
          code: 'invalid_arguments',
          message:
            "The app's handler refused the arguments (its own input schema is stricter than the published one): text: invalid_value.",
          issues: [
            {
              path: 'payload.arguments.text',
              code: 'invalid_value',
              message: 'Not a value the schema allows.',
            },
          ],
        },
      },
      {
        call_id: 'c2',
        outcome: 'error',
        error: {
          code: 'invalid_output',
          message:
            "The app's handler returned a result its output schema refuses, so nothing was delivered: items[1].count: invalid_type (expected integer).",
          issues: [
            {
              path: 'result.items[1].count',
              code: 'invalid_type',
              message: 'Not of the type the schema wants: expected integer.',
            },
          ],
        },
      },
    ]);
    expect(JSON.stringify(results)).not.toMatch(/forbidden|secret/);
  });

  it('a page that sends issues outside the rules is refused, and its call is not ended by it', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.wait'));
    await vi.waitFor(() => expect(seenSignal).toBeDefined());
    const [running] = (await db.getAll('tool_calls')).filter((record) => record.stage === 'running');
    await onlyPage().postRaw({
      namespace: 'lineup.miniapp.v1',
      type: 'tool_return',
      instance_id: onlyPage().connection.target.instanceId,
      invocation_id: running?.invocationId,
      status: 'error',
      error: {
        code: 'invalid_result',
        issues: [{ path: 'count: "the user\'s note"', code: 'invalid_type' }],
      },
    });
    expect(onlyPage().rejected.at(-1)?.issues[0]?.path).toBe('error.issues[0].path');
    expect((await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result')).toEqual([]);
    release();
    await vi.waitFor(async () => expect((await answers()).at(-1)).toBe('c1 {"done":true}'));
  });

  it('a result that fails the output schema becomes invalid_output', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'x' }));
    await vi.waitFor(async () => expect((await answers()).at(-1)).toBe('c1 {"count":1}'));
    // A page returning something else for a running invocation: the runtime checks the published schema.
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.wait'));
    await vi.waitFor(() => expect(seenSignal).toBeDefined());
    const [running] = (await db.getAll('tool_calls')).filter((record) => record.stage === 'running');
    await onlyPage().postRaw({
      namespace: 'lineup.miniapp.v1',
      type: 'tool_return',
      instance_id: onlyPage().connection.target.instanceId,
      invocation_id: running?.invocationId,
      status: 'ok',
      result: { done: 'yes' },
    });
    expect((await answers()).at(-1)).toBe(
      "c2 invalid_output The result does not match the tool's output schema, so it was not delivered: done: invalid_type (expected boolean).",
    );
    // Where, never what: the published schema wants `done`, and `done` is not a boolean.
    const last = (await db.getAll('outbox')).at(-1);
    expect(last?.type === 'lineup.v1.tool.result' ? last.payload.error?.issues : undefined).toEqual([
      expect.objectContaining({ path: 'result.done', code: 'invalid_type' }),
    ]);
    // The handler's own later return is ignored: the call has its one final result.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result')).toHaveLength(2);
  });

  it('a call past its timeout ends with timeout and the handler signal aborts', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.wait'));
    await vi.waitFor(() => expect(seenSignal?.aborted).toBe(false));
    clock.now += 1_000;
    expect(await runtime.settle()).toBe(1);
    expect((await answers()).at(-1)).toBe('c1 timeout');
    expect(seenSignal?.aborted).toBe(true);
    release();
  });

  it('a reload while a handler runs ends the call execution_failed and never runs it again', async () => {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.wait'));
    await vi.waitFor(() => expect(handlerRuns).toBe(1));
    pages.clear();
    const registry = new AppRegistry(db, { clock: { now: () => clock.now } });
    runtime = newRuntime(registry);
    await runtime.recover();
    expect((await answers()).at(-1)).toBe(
      'c1 execution_failed The app was reloaded while its handler ran; it was not run again.',
    );
    await runtime.recover();
    expect(handlerRuns).toBe(1);
    expect((await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result')).toHaveLength(1);
  });

  it('a page that cannot start fails the activation and every waiting call', async () => {
    runtime = new ToolRuntime(db, new AppRegistry(db, { clock: { now: () => clock.now } }), {
      clock: { now: () => clock.now },
      ids: () => `id_${++ids}`,
      host: {
        ...testHost(),
        // This page cannot start: it reports app_failed and never app_ready.
        startApp: (target) => {
          const connection = new MiniAppConnection(runtime, target, { post: () => {} });
          void connection.receive({
            namespace: 'lineup.miniapp.v1',
            type: 'app_failed',
            instance_id: target.instanceId,
            error: { code: 'missing_audio' },
          });
        },
      },
    });
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'a' }));
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.add', { text: 'b' }));
    await vi.waitFor(async () =>
      expect((await answers()).filter((line) => line.includes('app_activation_failed'))).toHaveLength(2),
    );
    expect(handlerRuns).toBe(0);
    expect((await db.getAll('audit')).some((entry) => entry.type === 'app_failed')).toBe(true);
  });
});

describe('session data and UI actions from the page', () => {
  async function readyPage(): Promise<Page> {
    await runtime.receive(CONVERSATION, toolCall('c1', 'notes.add', { text: 'a' }));
    await vi.waitFor(async () => expect((await answers()).at(-1)).toBe('c1 {"count":1}'));
    return onlyPage();
  }

  it('writes one key at a time with revisions, pushes each snapshot, and refuses stale or reserved writes', async () => {
    const page = await readyPage();
    const seen: number[] = [];
    page.client.onSessionData((snapshot) => seen.push(snapshot.revision));
    expect(await page.client.writeSessionData('draft', { text: 'hello' })).toBe(1);
    expect(page.client.sessionData).toEqual({ revision: 1, data: { draft: { text: 'hello' } } });
    expect(await page.client.writeSessionData('count', 2, { baseRevision: 1 })).toBe(2);
    await expect(page.client.writeSessionData('count', 3, { baseRevision: 1 })).rejects.toMatchObject({
      code: 'revision_conflict',
    });
    await expect(page.client.writeSessionData('operation', {})).rejects.toMatchObject({
      code: 'reserved_key',
    });
    await expect(page.client.writeSessionData('big', 'x'.repeat(60_000))).resolves.toBe(3);
    await expect(page.client.writeSessionData('big2', 'x'.repeat(60_000))).resolves.toBe(4);
    await expect(page.client.writeSessionData('big3', 'x'.repeat(60_000))).resolves.toBe(5);
    await expect(page.client.writeSessionData('big4', 'x'.repeat(60_000))).resolves.toBe(6);
    await expect(page.client.writeSessionData('big5', 'x'.repeat(60_000))).rejects.toMatchObject({
      code: 'too_large',
    });
    // The snapshot at ready (revision 0), then one per commit.
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await runtime.sessionData(CONVERSATION, 'notes')).toMatchObject({ revision: 6 });
    const written = (await db.getAll('audit')).filter((entry) => entry.type === 'session_data_written');
    expect(written.map((entry) => entry.detail)).toEqual(['draft', 'count', 'big', 'big2', 'big3', 'big4']);
  });

  it('answers a write or UI action the channel refuses with protocol_invalid and where; nothing is written', async () => {
    const page = await readyPage();
    const audited = await db.count('audit');
    const refusal = (pending: Promise<unknown>) =>
      pending.then(
        () => {
          throw new Error('resolved');
        },
        (error: unknown) =>
          error as { code: string; message: string; issues: { path: string; code: string }[] },
      );
    const badKey = await refusal(page.client.writeSessionData('1st', 1));
    expect(badKey).toMatchObject({ name: 'MiniAppRequestError', code: 'protocol_invalid' });
    expect(badKey.message).toMatch(/^key: /);
    expect(badKey.issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: 'key', code: 'invalid_value' },
    ]);
    const notJSON = await refusal(page.client.writeSessionData('when', new Map([[1, 2]])));
    expect(notJSON).toMatchObject({ code: 'protocol_invalid' });
    expect(notJSON.issues[0]?.path).toBe('value');
    const action = await refusal(page.client.uiAction('notes.highlight', { at: [1] as never }));
    expect(action).toMatchObject({ code: 'protocol_invalid' });
    expect(action.issues[0]?.path).toBe('arguments.at');
    expect(page.rejected).toHaveLength(3);
    expect(uiActions['notes.highlight']).not.toHaveBeenCalled();
    expect(await runtime.sessionData(CONVERSATION, 'notes')).toMatchObject({ revision: 0, data: {} });
    expect(await db.count('audit')).toBe(audited);
  });

  it('ends a call at once as invalid_output when the handler’s result is more than the channel carries', async () => {
    const page = await readyPage();
    await runtime.receive(CONVERSATION, toolCall('c2', 'notes.huge'));
    await vi.waitFor(async () => expect((await answers()).at(-1)).toMatch(/^c2 invalid_output /));
    expect(page.rejected.at(-1)?.message).toMatch(/^result: /);
  });

  it('runs a declared UI action with the page instance, refuses an unknown one, and audits both', async () => {
    const page = await readyPage();
    await page.client.uiAction('highlight', { color: 'yellow' });
    expect(uiActions['notes.highlight']).toHaveBeenCalledWith({
      target: page.connection.target,
      arguments: { color: 'yellow' },
    });
    await expect(page.client.uiAction('delete_everything')).rejects.toMatchObject({ code: 'unknown_action' });
    uiActions['notes.highlight'].mockRejectedValueOnce(new Error('No selection.'));
    await expect(page.client.uiAction('highlight')).rejects.toMatchObject({
      code: 'action_failed',
      message: 'No selection.',
    });
    const actions = (await db.getAll('audit')).filter((entry) => entry.type === 'ui_action');
    expect(actions.map((entry) => entry.detail)).toEqual([
      'highlight ok',
      'delete_everything unknown_action',
      'highlight action_failed',
    ]);
    // A UI action is never a tool call: no call record, no outbox row.
    expect((await db.getAll('tool_calls')).map((record) => record.callId)).toEqual(['c1']);
  });

  it('refuses messages of another instance, of another channel, and malformed ones', async () => {
    const page = await readyPage();
    const before = await db.count('audit');
    await page.postRaw({ namespace: 'lineup.miniapp.v1', type: 'app_ready', instance_id: 'someone-else' });
    await page.postRaw({ namespace: 'lineup.surface.v1', type: 'ready' });
    await page.postRaw('{"type":"app_ready"}');
    await page.postRaw({
      namespace: 'lineup.miniapp.v1',
      type: 'session_data_write',
      instance_id: page.connection.target.instanceId,
      request_id: 'r1',
      key: '__proto__',
      value: 1,
    });
    expect(page.rejected).toHaveLength(4);
    expect(await db.count('audit')).toBe(before);
  });

  it('a page of an ended instance can no longer write', async () => {
    const page = await readyPage();
    await runtime.hostIntent(CONVERSATION, 'notes', 'close');
    await expect(page.client.writeSessionData('draft', 1)).rejects.toMatchObject({ code: 'not_current' });
  });
});
