/**
 * The in-app client against a fake window: the runtime's messages in, messages out (copied as `postMessage`
 * copies them); a refused one answered as the runtime answers it, with the runtime's own parser.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { answerRefusedMiniAppMessage, parseMiniAppMessageFromFrame } from '@lineup/shared/bridge';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createMiniAppClient,
  instanceIdFromHash,
  type MiniAppClientWindow,
  MiniAppRequestError,
} from './client.js';
import { defineAgentTools } from './define.js';

const NS = 'lineup.miniapp.v1';
const ID = 'notes.1';

function fakeWindow(hash = `#lineup-instance=${ID}`) {
  const posted: Record<string, unknown>[] = [];
  const listeners = new Set<(event: { source: unknown; data: unknown }) => void>();
  const timers = new Map<number, () => void>();
  let nextTimer = 1;
  // structuredClone throws a DataCloneError for what postMessage cannot copy (a function, a symbol).
  const parent = {
    postMessage: (message: Record<string, unknown>) => posted.push(structuredClone(message)),
  };
  const view: MiniAppClientWindow = {
    parent,
    location: { hash },
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    setTimeout: (callback) => {
      const id = nextTimer++;
      timers.set(id, callback);
      return id;
    },
    clearTimeout: (id) => timers.delete(id as number),
  };
  return {
    view,
    posted,
    fromRuntime: (data: object, source: unknown = parent) => {
      for (const listener of [...listeners])
        listener({ source, data: { namespace: NS, instance_id: ID, ...data } });
    },
    runTimers: () => {
      for (const [id, callback] of [...timers]) {
        timers.delete(id);
        callback();
      }
    },
    listenerCount: () => listeners.size,
    /** Answers the last posted message as the runtime does when its parser refuses it (fails if it accepts it). */
    refuseLast: () => {
      const sent = posted.at(-1);
      let error: LineUpProtocolError | undefined;
      try {
        parseMiniAppMessageFromFrame(sent, ID);
      } catch (caught) {
        if (caught instanceof LineUpProtocolError) error = caught;
        else throw caught;
      }
      if (error === undefined) throw new Error('the runtime would accept this message');
      const answer = answerRefusedMiniAppMessage(sent, ID, error);
      if (answer?.kind !== 'request') throw new Error('the runtime would not answer this message');
      for (const listener of [...listeners]) listener({ source: parent, data: answer.message });
    },
  };
}

let seenSignal: AbortSignal | undefined;
let release: () => void = () => {};
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
      handler: ({ text }) => ({ count: text.length }),
    },
    big: {
      contractVersion: '1.0',
      description: 'Returns a lot.',
      input: z.strictObject({}),
      output: z.strictObject({ text: z.string() }),
      callModel: 'query',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: () => ({ text: 'x'.repeat(70_000) }),
    },
    uncopyable: {
      contractVersion: '1.0',
      description: 'Returns a function.',
      input: z.strictObject({}),
      output: z.strictObject({ value: z.any() }),
      callModel: 'query',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: () => ({ value: () => 1 }),
    },
    wait: {
      contractVersion: '1.0',
      description: 'Waits.',
      input: z.strictObject({}),
      output: z.strictObject({}),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: (_input, context) =>
        new Promise((resolve) => {
          seenSignal = context.signal;
          release = () => resolve({});
        }),
    },
  },
});

type Client = ReturnType<typeof createMiniAppClient>;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let win: ReturnType<typeof fakeWindow>;
beforeEach(() => {
  win = fakeWindow();
});

describe('createMiniAppClient', () => {
  it('reads its instance from the URL fragment and announces app_ready', () => {
    const client = createMiniAppClient({ tools, window: win.view });
    expect(client.instanceId).toBe(ID);
    expect(win.posted).toEqual([{ namespace: NS, instance_id: ID, type: 'app_ready' }]);
    expect(instanceIdFromHash('#a=1&lineup-instance=x.2')).toBe('x.2');
    expect(() => createMiniAppClient({ tools, window: fakeWindow('').view })).toThrow(/no instance id/);
  });

  it('runs tool invocations from the parent only, and returns each outcome', async () => {
    createMiniAppClient({ tools, window: win.view });
    const invoke = (invocation_id: string, method: string, args: object, app_scope = 'notes') =>
      win.fromRuntime({ type: 'tool_invocation', invocation_id, app_scope, method, arguments: args });
    invoke('i1', 'add', { text: 'hello' });
    win.fromRuntime(
      {
        type: 'tool_invocation',
        invocation_id: 'forged',
        app_scope: 'notes',
        method: 'add',
        arguments: { text: 'x' },
      },
      {},
    );
    invoke('i2', 'add', { text: '' });
    invoke('i3', 'nope', {});
    invoke('i4', 'add', { text: 'x' }, 'other_app');
    invoke('i5', 'big', {});
    invoke('i6', 'uncopyable', {});
    await flush();
    // Handlers run concurrently: compare the returns by invocation.
    const returns = win.posted
      .filter((message) => message.type === 'tool_return')
      .sort((a, b) => String(a.invocation_id).localeCompare(String(b.invocation_id)));
    expect(returns).toEqual([
      {
        namespace: NS,
        instance_id: ID,
        type: 'tool_return',
        invocation_id: 'i1',
        status: 'ok',
        result: { count: 5 },
      },
      expect.objectContaining({
        invocation_id: 'i2',
        status: 'error',
        error: expect.objectContaining({ code: 'invalid_arguments' }),
      }),
      expect.objectContaining({
        invocation_id: 'i3',
        status: 'error',
        error: expect.objectContaining({ code: 'unknown_method' }),
      }),
      expect.objectContaining({
        invocation_id: 'i4',
        status: 'error',
        error: expect.objectContaining({ code: 'unknown_method' }),
      }),
      // Sent as it is: the runtime refuses a result over 64 KiB and fails the invocation itself.
      expect.objectContaining({ invocation_id: 'i5', status: 'ok', result: { text: 'x'.repeat(70_000) } }),
      // What postMessage cannot copy is an invalid result, never silence.
      expect.objectContaining({
        invocation_id: 'i6',
        status: 'error',
        error: { code: 'invalid_output', message: 'The result could not be copied to the runtime.' },
      }),
    ]);
  });

  it('keeps the committed session data and tells listeners, a late one at once', () => {
    const client = createMiniAppClient({ tools, window: win.view });
    const first = vi.fn();
    client.onSessionData(first);
    win.fromRuntime({ type: 'session_data', revision: 3, data: { focus: { minutes: 20 } } });
    expect(client.sessionData).toEqual({ revision: 3, data: { focus: { minutes: 20 } } });
    expect(first).toHaveBeenCalledWith({ revision: 3, data: { focus: { minutes: 20 } } });
    const late = vi.fn();
    client.onSessionData(late);
    expect(late).not.toHaveBeenCalled();
    win.runTimers();
    expect(late).toHaveBeenCalledWith(client.sessionData);
    // Only the parent's messages of this channel and instance are read.
    win.fromRuntime({ type: 'session_data', revision: 9, data: {} }, {});
    win.fromRuntime({ type: 'session_data', revision: 9, data: {}, instance_id: 'notes.2' });
    win.fromRuntime({ type: 'session_data', revision: 9, data: {}, namespace: 'lineup.surface.v1' });
    expect(client.sessionData?.revision).toBe(3);
    // The snapshot is frozen all the way down: a listener cannot change what the next one sees.
    expect(Object.isFrozen(client.sessionData?.data.focus)).toBe(true);
  });

  it('writes one key and resolves with the committed revision, or rejects with the runtime’s code', async () => {
    const client = createMiniAppClient({ tools, window: win.view });
    const write = client.writeSessionData('draft', { text: 'hi' }, { baseRevision: 3 });
    const sent = win.posted.at(-1)!;
    expect(sent).toMatchObject({
      type: 'session_data_write',
      key: 'draft',
      value: { text: 'hi' },
      base_revision: 3,
    });
    win.fromRuntime({ type: 'request_result', request_id: sent.request_id, status: 'ok', revision: 4 });
    await expect(write).resolves.toBe(4);

    const refused = client.writeSessionData('draft', 1, { baseRevision: 3 });
    win.fromRuntime({
      type: 'request_result',
      request_id: win.posted.at(-1)!.request_id,
      status: 'error',
      error: { code: 'revision_conflict', message: 'The data changed.' },
    });
    await expect(refused).rejects.toMatchObject({ name: 'MiniAppRequestError', code: 'revision_conflict' });

    // An answer whose issues are not a list (no runtime sends one) still rejects, with none.
    const odd = client.writeSessionData('draft', 2);
    win.fromRuntime({
      type: 'request_result',
      request_id: win.posted.at(-1)!.request_id,
      status: 'error',
      error: { code: 'protocol_invalid', message: 'key: Not an allowed name.', issues: 'key' },
    });
    await expect(odd).rejects.toMatchObject({ code: 'protocol_invalid', issues: [] });
  });

  it.each([
    ['a key the channel refuses', (client: Client) => client.writeSessionData('1bad key', 1), 'key'],
    [
      'a value over 64 KiB',
      (client: Client) => client.writeSessionData('draft', 'x'.repeat(66_000)),
      'value',
    ],
    ['a value that is not JSON', (client: Client) => client.writeSessionData('when', new Date(0)), 'value'],
    ['a UI action name', (client: Client) => client.uiAction('focus start'), 'action'],
    [
      'UI action arguments that are not scalars',
      (client: Client) => client.uiAction('focus.start', { at: { x: 1 } as never }),
      'arguments.at',
    ],
  ])('rejects %s with the runtime’s protocol_invalid and where it is', async (_name, call, path) => {
    const client = createMiniAppClient({ tools, window: win.view });
    const refused = call(client);
    win.refuseLast();
    const error = await refused.then(
      () => {
        throw new Error('resolved');
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MiniAppRequestError);
    expect(error).toMatchObject({ code: 'protocol_invalid' });
    expect((error as MiniAppRequestError).message).toMatch(new RegExp(`^${path.replace('.', '\\.')}: `));
    expect((error as MiniAppRequestError).issues[0]).toMatchObject({ path });
  });

  it('rejects a value postMessage cannot copy at the call, sending nothing', async () => {
    const client = createMiniAppClient({ tools, window: win.view });
    const before = win.posted.length;
    await expect(client.writeSessionData('draft', () => 1)).rejects.toMatchObject({
      name: 'MiniAppRequestError',
      code: 'not_sendable',
    });
    expect(win.posted).toHaveLength(before);
  });

  it('times out a request the runtime never answers', async () => {
    const client = createMiniAppClient({ tools, window: win.view, requestTimeoutMs: 50 });
    const action = client.uiAction('focus.start', { minutes: 20 });
    expect(win.posted.at(-1)).toMatchObject({
      type: 'ui_action',
      action: 'focus.start',
      arguments: { minutes: 20 },
    });
    win.runTimers();
    await expect(action).rejects.toEqual(
      new MiniAppRequestError({ code: 'timeout', message: 'The runtime did not answer in time.' }),
    );
  });

  it('aborts running handlers on a close notice and on close(), and rejects pending requests', async () => {
    const client = createMiniAppClient({ tools, window: win.view });
    const phases = vi.fn();
    client.onLifecycle(phases);
    win.fromRuntime({
      type: 'tool_invocation',
      invocation_id: 'w1',
      app_scope: 'notes',
      method: 'wait',
      arguments: {},
    });
    await flush();
    expect(seenSignal?.aborted).toBe(false);
    win.fromRuntime({ type: 'lifecycle', phase: 'close' });
    expect(phases).toHaveBeenCalledWith('close');
    expect(seenSignal?.aborted).toBe(true);
    release();
    const pendingWrite = client.writeSessionData('k', 1);
    client.close();
    await expect(pendingWrite).rejects.toMatchObject({ code: 'closed' });
    expect(win.listenerCount()).toBe(0);
  });

  it('aborts only the cancelled invocation on tool_invocation_cancel', async () => {
    createMiniAppClient({ tools, window: win.view });
    win.fromRuntime({
      type: 'tool_invocation',
      invocation_id: 'w2',
      app_scope: 'notes',
      method: 'wait',
      arguments: {},
    });
    await flush();
    const signal = seenSignal;
    win.fromRuntime({ type: 'tool_invocation_cancel', invocation_id: 'other' });
    expect(signal?.aborted).toBe(false);
    win.fromRuntime({ type: 'tool_invocation_cancel', invocation_id: 'w2' });
    expect(signal?.aborted).toBe(true);
    release();
  });

  it('reports a failed start', () => {
    const client = createMiniAppClient({ tools, window: win.view });
    client.fail('missing_audio', 'No audio output.');
    expect(win.posted.at(-1)).toEqual({
      namespace: NS,
      instance_id: ID,
      type: 'app_failed',
      error: { code: 'missing_audio', message: 'No audio output.' },
    });
    const before = win.posted.length;
    expect(() => client.fail('Not A Code')).toThrow(LineUpProtocolError);
    expect(() => client.fail(`a${'b'.repeat(64)}`)).toThrow(LineUpProtocolError);
    expect(() => client.fail('no_audio', '😀'.repeat(513))).toThrow(LineUpProtocolError);
    expect(win.posted).toHaveLength(before);
    // 512 characters, counted as the runtime counts them (code points).
    client.fail('no_audio', '😀'.repeat(512));
    expect(win.posted).toHaveLength(before + 1);
  });
});
