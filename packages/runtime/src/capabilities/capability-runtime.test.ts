/**
 * Capabilities (seed 000 §5.1–§5.3) with an injectable clock: declaring and revoking (new inventory revisions),
 * every `app.call` status, consent by risk (remembered and never-remembered grants), expiry before and during the
 * question, replay and conflict by `call_id`, hostile calls (undeclared, revoked, misspelled, off-schema
 * arguments), handler failures, a restart at each step, and the client answering through the runtime.
 */
import 'fake-indexeddb/auto';
import {
  type AppCallPayload,
  type AppResultPayload,
  type LineUpMessage,
  parseEnvelopeText,
} from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { AppRegistry, type CapabilityDeclaration } from '../apps/registry.js';
import { AgentClient } from '../client/agent-client.js';
import { createInProcessTransport } from '../client/transport.js';
import { OutboxDelivery } from '../outbox/delivery.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import {
  CapabilityError,
  type CapabilityHandler,
  CapabilityRuntime,
  type ConsentDecision,
  type ConsentRequest,
} from './capability-runtime.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const CONVERSATION = 'conv_cap';
let databases = 0;

function clock(start = T0) {
  let now = start;
  return {
    now: () => now,
    set: (value: number) => {
      now = value;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const objectSchema = (properties: object, required: string[] = []) =>
  ({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  }) as CapabilityDeclaration['input_schema'];

const DECLARATIONS: CapabilityDeclaration[] = [
  {
    name: 'app.open_url',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Opens a web page in a new tab.',
    input_schema: objectSchema({ url: { type: 'string', pattern: '^https?://' } }, ['url']),
    output_schema: objectSchema({ opened: { type: 'boolean' } }, ['opened']),
  },
  {
    name: 'status.show',
    version: '1.0',
    risk: 'display_only',
    description: 'Shows a status line.',
    input_schema: objectSchema({ text: { type: 'string' } }, ['text']),
    output_schema: objectSchema({ shown: { type: 'boolean' } }, ['shown']),
  },
  {
    name: 'device.pick_file',
    version: '1.0',
    risk: 'system_permission',
    description: 'Lets you pick a file to read.',
    input_schema: objectSchema({}),
    output_schema: objectSchema({ name: { type: 'string' } }, ['name']),
  },
  {
    name: 'account.delete',
    version: '1.0',
    risk: 'restricted',
    description: 'Deletes the account.',
    input_schema: objectSchema({}),
    output_schema: objectSchema({ deleted: { type: 'boolean' } }, ['deleted']),
  },
];

interface Setup {
  readonly db: RuntimeDatabase;
  readonly registry: AppRegistry;
  readonly time: ReturnType<typeof clock>;
  readonly asked: ConsentRequest[];
  readonly ran: string[];
  answer: (request: ConsentRequest) => Promise<ConsentDecision> | ConsentDecision;
  readonly runtime: CapabilityRuntime;
  readonly handlers: Record<string, CapabilityHandler>;
  /** A new runtime on the same database, like a page reload. */
  reload(): CapabilityRuntime;
}

async function setUp(): Promise<Setup> {
  const db = await openRuntimeDatabase(`capabilities-${databases++}`);
  const time = clock();
  const registry = new AppRegistry(db, { clock: time });
  await registry.declareCapabilities(DECLARATIONS);
  const asked: ConsentRequest[] = [];
  const ran: string[] = [];
  const handlers: Record<string, CapabilityHandler> = {
    'app.open_url': (args) => {
      ran.push(`open ${String(args.url)}`);
      return { opened: true };
    },
    'status.show': (args) => {
      ran.push(`status ${String(args.text)}`);
      return { shown: true };
    },
    'device.pick_file': () => {
      ran.push('pick');
      return { name: 'notes.txt' };
    },
    'account.delete': () => {
      ran.push('delete');
      return { deleted: true };
    },
  };
  const setup: Setup = {
    db,
    registry,
    time,
    asked,
    ran,
    answer: () => ({ decision: 'allow' }),
    handlers,
    runtime: undefined as unknown as CapabilityRuntime,
    reload: () =>
      new CapabilityRuntime(db, {
        handlers,
        clock: time,
        confirm: async (request) => {
          asked.push(request);
          return setup.answer(request);
        },
      }),
  };
  (setup as { runtime: CapabilityRuntime }).runtime = setup.reload();
  return setup;
}

let calls = 0;
function call(capability: string, args: object, overrides: Partial<AppCallPayload> = {}): AppCallPayload {
  return {
    call_id: `call_${++calls}`,
    capability,
    reason: 'Open the deployment docs for you to check',
    expires_at: new Date(T0 + 60_000).toISOString(),
    arguments: args as AppCallPayload['arguments'],
    ...overrides,
  };
}

async function settle(runtime: CapabilityRuntime, payload: AppCallPayload, conversation = CONVERSATION) {
  const received = await runtime.receive(conversation, payload);
  expect(received.disposition).toBe('new');
  return (await received.settled) as AppResultPayload;
}

const pendingResults = async (db: RuntimeDatabase) =>
  (await db.getAllFromIndex('outbox', 'by_pending', 1))
    .filter((row) => row.type === 'lineup.v1.app.result')
    .map((row) => row.payload as AppResultPayload);

describe('declaring capabilities', () => {
  it('publishes them in the inventory; the same again changes nothing; a change or a revocation is a new revision', async () => {
    const { registry } = await setUp();
    const first = await registry.inventory();
    expect(first.capabilities).toEqual([
      { name: 'account.delete', version: '1.0', risk: 'restricted' },
      { name: 'app.open_url', version: '1.0', risk: 'user_confirmation' },
      { name: 'device.pick_file', version: '1.0', risk: 'system_permission' },
      { name: 'status.show', version: '1.0', risk: 'display_only' },
    ]);
    expect(await registry.declareCapabilities(DECLARATIONS)).toBe(false);
    expect((await registry.inventory()).revision).toBe(first.revision);
    const changed = DECLARATIONS.map((item) =>
      item.name === 'status.show' ? { ...item, version: '1.1' } : item,
    );
    expect(await registry.declareCapabilities(changed)).toBe(true);
    const second = await registry.inventory();
    expect(second.revision).not.toBe(first.revision);
    expect(second.capabilities.find((item) => item.name === 'status.show')?.version).toBe('1.1');
    expect(await registry.revokeCapability('app.open_url')).toBe(true);
    expect(await registry.revokeCapability('app.open_url')).toBe(false);
    const third = await registry.inventory();
    expect(third.revision).not.toBe(second.revision);
    expect(third.capabilities.map((item) => item.name)).not.toContain('app.open_url');
    expect((await registry.appList()).capabilities.map((item) => item.name)).toEqual([
      'account.delete',
      'device.pick_file',
      'status.show',
    ]);
    // Declaring it again brings it back, as a new revision.
    expect(await registry.declareCapabilities(changed)).toBe(true);
    expect((await registry.inventory()).capabilities.map((item) => item.name)).toContain('app.open_url');
  });

  it('refuses invalid declarations and writes nothing', async () => {
    const { registry } = await setUp();
    const before = await registry.inventory();
    const open = DECLARATIONS[0] as CapabilityDeclaration;
    await expect(registry.declareCapabilities([{ ...open, risk: 'harmless' as never }])).rejects.toThrow(
      /capability descriptor/,
    );
    await expect(registry.declareCapabilities([{ ...open, description: '' }])).rejects.toThrow(/description/);
    await expect(registry.declareCapabilities([{ ...open, name: 'Open URL!' }])).rejects.toThrow(
      /capability descriptor/,
    );
    await expect(registry.declareCapabilities([open, open])).rejects.toThrow(/declared once/);
    await expect(registry.declareCapabilities([{ ...open, output_schema: [] as never }])).rejects.toThrow(
      /output schema/,
    );
    await expect(registry.revokeCapability('never.declared')).rejects.toThrow(/No capability/);
    expect((await registry.inventory()).revision).toBe(before.revision);
  });
});

describe('app.call', () => {
  it('display_only runs without asking: completed with the result, queued for the agent, audited', async () => {
    const { runtime, asked, ran, db } = await setUp();
    const payload = call('status.show', { text: 'Saved' });
    const result = await settle(runtime, payload);
    expect(result).toEqual({ call_id: payload.call_id, status: 'completed', result: { shown: true } });
    expect(asked).toEqual([]);
    expect(ran).toEqual(['status Saved']);
    expect(await pendingResults(db)).toEqual([result]);
    const audit = (await db.getAll('audit')).filter((entry) => entry.callId === payload.call_id);
    expect(audit.map((entry) => entry.type)).toEqual([
      'capability_call_received',
      'capability_call_decided',
      'capability_call_finished',
    ]);
  });

  it('user_confirmation asks with the capability, the reason and what it does; allow runs it', async () => {
    const { runtime, asked, ran } = await setUp();
    const payload = call('app.open_url', { url: 'https://example.com/docs' });
    const result = await settle(runtime, payload);
    expect(result.status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      conversationId: CONVERSATION,
      callId: payload.call_id,
      capability: {
        name: 'app.open_url',
        risk: 'user_confirmation',
        description: 'Opens a web page in a new tab.',
      },
      reason: payload.reason,
      arguments: { url: 'https://example.com/docs' },
      rememberable: true,
      extraStep: false,
      expiresAt: T0 + 60_000,
    });
    expect(ran).toEqual(['open https://example.com/docs']);
  });

  it('deny is rejected, a dismissed question cancelled; neither runs', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'deny' });
    const denied = await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    expect(denied).toMatchObject({ status: 'rejected', error: { code: 'user_denied' } });
    setup.answer = () => ({ decision: 'dismiss' });
    const dismissed = await settle(setup.runtime, call('app.open_url', { url: 'https://b.example' }));
    expect(dismissed).toMatchObject({ status: 'cancelled', error: { code: 'dismissed' } });
    setup.answer = () => Promise.reject(new Error('the dialog broke'));
    const broken = await settle(setup.runtime, call('app.open_url', { url: 'https://c.example' }));
    expect(broken.status).toBe('cancelled');
    expect(setup.ran).toEqual([]);
    expect('result' in denied || 'result' in dismissed).toBe(false);
  });

  it('a remembered user_confirmation is not asked again in that conversation, but is in another and for a new version', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'allow', remember: true });
    await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    await settle(setup.runtime, call('app.open_url', { url: 'https://b.example' }));
    expect(setup.asked).toHaveLength(1);
    await settle(setup.runtime, call('app.open_url', { url: 'https://c.example' }), 'conv_other');
    expect(setup.asked).toHaveLength(2);
    await setup.registry.declareCapabilities(
      DECLARATIONS.map((item) => (item.name === 'app.open_url' ? { ...item, version: '2.0' } : item)),
    );
    await settle(setup.runtime, call('app.open_url', { url: 'https://d.example' }));
    expect(setup.asked).toHaveLength(3);
    expect(setup.ran).toHaveLength(4);
    const decided = (await setup.db.getAll('capability_calls')).map((record) => record.decision);
    expect(decided).toEqual(['allowed', 'remembered', 'allowed', 'allowed']);
  });

  it('system_permission and restricted always ask and are never remembered; restricted asks for an extra step', async () => {
    const setup = await setUp();
    setup.answer = () => ({ decision: 'allow', remember: true });
    await settle(setup.runtime, call('device.pick_file', {}));
    await settle(setup.runtime, call('device.pick_file', {}));
    await settle(setup.runtime, call('account.delete', {}));
    await settle(setup.runtime, call('account.delete', {}));
    expect(
      setup.asked.map((request) => [request.capability.name, request.rememberable, request.extraStep]),
    ).toEqual([
      ['device.pick_file', false, false],
      ['device.pick_file', false, false],
      ['account.delete', false, true],
      ['account.delete', false, true],
    ]);
    expect(await setup.db.count('grants')).toBe(0);
  });

  it('an expired call is expired and never asked or run', async () => {
    const setup = await setUp();
    const payload = call(
      'app.open_url',
      { url: 'https://a.example' },
      { expires_at: new Date(T0).toISOString() },
    );
    expect(await settle(setup.runtime, payload)).toMatchObject({
      status: 'expired',
      error: { code: 'expired' },
    });
    expect(setup.asked).toEqual([]);
    expect(setup.ran).toEqual([]);
  });

  it('a call that expires while the user is asked is expired, even if the answer is yes; the question is told', async () => {
    const setup = await setUp();
    let signal: AbortSignal | undefined;
    setup.answer = (request) => {
      signal = request.signal;
      setup.time.advance(61_000);
      return { decision: 'allow' };
    };
    const result = await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }));
    expect(result).toMatchObject({ status: 'expired' });
    expect(setup.ran).toEqual([]);
    expect(signal).toBeDefined();
  });

  it('closes an open question when the call expires (real timer) and answers expired', async () => {
    const setup = await setUp();
    const expiresAt = Date.now() + 150;
    setup.time.set(Date.now());
    const realTime = { now: () => Date.now() };
    const runtime = new CapabilityRuntime(setup.db, {
      handlers: setup.handlers,
      clock: realTime,
      confirm: (request) =>
        new Promise((resolve) =>
          request.signal.addEventListener('abort', () => resolve({ decision: 'dismiss' }), { once: true }),
        ),
    });
    const result = await settle(
      runtime,
      call('app.open_url', { url: 'https://a.example' }, { expires_at: new Date(expiresAt).toISOString() }),
    );
    expect(result).toMatchObject({ status: 'expired' });
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });

  it('answers hostile calls without asking or running anything', async () => {
    const setup = await setUp();
    await setup.registry.revokeCapability('status.show');
    const cases: [AppCallPayload, string, string][] = [
      [call('app.delete_everything', {}), 'unsupported', 'unknown_capability'],
      [call('app.open_urls', { url: 'https://a.example' }), 'unsupported', 'unknown_capability'],
      [call('status.show', { text: 'x' }), 'unsupported', 'revoked'],
      [call('app.open_url', { url: 'javascript:alert(1)' }), 'failed', 'invalid_arguments'],
      [call('app.open_url', { url: 'https://a.example', extra: 1 }), 'failed', 'invalid_arguments'],
      [call('app.open_url', {}), 'failed', 'invalid_arguments'],
    ];
    for (const [payload, status, code] of cases)
      expect(await settle(setup.runtime, payload), payload.capability).toMatchObject({
        status,
        error: { code },
      });
    expect(setup.asked).toEqual([]);
    expect(setup.ran).toEqual([]);
  });

  it('a capability declared without a handler is unsupported', async () => {
    const setup = await setUp();
    await setup.registry.declareCapabilities([
      ...DECLARATIONS,
      { ...(DECLARATIONS[1] as CapabilityDeclaration), name: 'status.orphan' },
    ]);
    expect(await settle(setup.runtime, call('status.orphan', { text: 'x' }))).toMatchObject({
      status: 'unsupported',
    });
  });

  it('a capability revoked while the user is asked is unsupported, not run', async () => {
    const setup = await setUp();
    setup.answer = async () => {
      await setup.registry.revokeCapability('app.open_url');
      return { decision: 'allow' };
    };
    expect(await settle(setup.runtime, call('app.open_url', { url: 'https://a.example' }))).toMatchObject({
      status: 'unsupported',
      error: { code: 'revoked' },
    });
    expect(setup.ran).toEqual([]);
  });

  it('the same call_id is answered from its record and never runs twice; other content is a conflict', async () => {
    const setup = await setUp();
    const payload = call('app.open_url', { url: 'https://a.example' });
    const first = await settle(setup.runtime, payload);
    const again = await setup.runtime.receive(CONVERSATION, payload);
    expect(again).toEqual({ disposition: 'replayed', answer: first });
    const conflict = await setup.runtime.receive(CONVERSATION, {
      ...payload,
      arguments: { url: 'https://b.example' },
    });
    expect(conflict.disposition).toBe('conflict');
    expect(conflict.answer).toMatchObject({ status: 'failed', error: { code: 'call_id_conflict' } });
    // The same call_id in another conversation is another call.
    expect((await setup.runtime.receive('conv_other', payload)).disposition).toBe('new');
    expect(setup.ran.filter((line) => line === 'open https://a.example')).toHaveLength(1);
  });

  it('a repeat while the user is still asked waits for the same result', async () => {
    const setup = await setUp();
    let decide: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (decide = resolve));
    const payload = call('app.open_url', { url: 'https://a.example' });
    const first = await setup.runtime.receive(CONVERSATION, payload);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    const repeat = await setup.runtime.receive(CONVERSATION, payload);
    expect(repeat.disposition).toBe('in_flight');
    decide({ decision: 'allow' });
    expect(await repeat.settled).toEqual(await first.settled);
    expect(setup.asked).toHaveLength(1);
    expect(setup.ran).toHaveLength(1);
  });

  it('handler failures reach the agent as stable codes, never as the handler text; off-schema output is failed', async () => {
    const setup = await setUp();
    setup.handlers['status.show'] = () => {
      throw new CapabilityError('permission_denied', 'secret detail /home/user');
    };
    expect(await settle(setup.runtime, call('status.show', { text: 'a' }))).toEqual({
      call_id: expect.any(String),
      status: 'failed',
      error: { code: 'permission_denied', message: 'The capability did not complete.' },
    });
    setup.handlers['status.show'] = () => {
      throw new Error('TypeError at line 3 of secret.js');
    };
    const thrown = await settle(setup.runtime, call('status.show', { text: 'b' }));
    expect(thrown).toMatchObject({ status: 'failed', error: { code: 'execution_failed' } });
    expect(JSON.stringify(thrown)).not.toContain('secret');
    setup.handlers['status.show'] = () => ({ shown: 'yes' });
    expect(await settle(setup.runtime, call('status.show', { text: 'c' }))).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_output' },
    });
  });
});

describe('a restart', () => {
  it('settles a call left waiting for consent as cancelled and one left running as failed, and runs neither again', async () => {
    const setup = await setUp();
    setup.answer = () => new Promise(() => {}); // the page goes away before the user answers
    const waiting = call('app.open_url', { url: 'https://a.example' });
    await setup.runtime.receive(CONVERSATION, waiting);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    setup.handlers['status.show'] = () => new Promise(() => {}); // …and while this one runs
    const running = call('status.show', { text: 'x' });
    await setup.runtime.receive(CONVERSATION, running);
    await vi.waitFor(async () =>
      expect((await setup.db.get('capability_calls', `${CONVERSATION}\n${running.call_id}`))?.stage).toBe(
        'running',
      ),
    );
    const done = call('status.show', { text: 'y' }, {});
    setup.handlers['status.show'] = (args) => {
      setup.ran.push(`status ${String(args.text)}`);
      return { shown: true };
    };
    const finished = await settle(setup.runtime, done);
    // The page dies here (no dispose): a new page opens the same database.

    const after = setup.reload();
    expect(await after.recover()).toBe(2);
    const results = await pendingResults(setup.db);
    expect(results.find((result) => result.call_id === waiting.call_id)).toMatchObject({
      status: 'cancelled',
      error: { code: 'interrupted' },
    });
    expect(results.find((result) => result.call_id === running.call_id)).toMatchObject({
      status: 'failed',
      error: { code: 'outcome_unknown' },
    });
    expect(results.filter((result) => result.call_id === done.call_id)).toEqual([finished]);
    expect(await after.recover()).toBe(0);
    // The agent asks again about the call that was running: the recorded answer, no second run.
    expect((await after.receive(CONVERSATION, running)).answer).toMatchObject({ status: 'failed' });
    expect(setup.ran).toEqual(['status y']);
  });
});

describe('a page that stops with a question open', () => {
  it('closing the database first (the tab handed over): the question ends without a write or an unhandled rejection, and the next page settles it once', async () => {
    const setup = await setUp();
    let answer: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (answer = resolve));
    const open = call('app.open_url', { url: 'https://a.example' });
    const received = await setup.runtime.receive(CONVERSATION, open);
    await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
    // The order a tab that hands over uses: its connection is closed, then its questions are dismissed.
    setup.db.close();
    answer({ decision: 'dismiss' });
    setup.runtime.dispose();
    // `settled` says the result was not persisted; nobody has to observe it (the agent client does not).
    await expect(received.settled).rejects.toThrow();
    const db = await openRuntimeDatabase(setup.db.name);
    const next = new CapabilityRuntime(db, {
      handlers: setup.handlers,
      confirm: () => new Promise(() => {}),
    });
    expect(await next.recover()).toBe(1);
    expect(await next.recover()).toBe(0);
    expect(await pendingResults(db)).toEqual([
      {
        call_id: open.call_id,
        status: 'cancelled',
        error: { code: 'interrupted', message: expect.any(String) },
      },
    ]);
    db.close();
  });

  it('a result the stopped page could not write is not an unhandled rejection', async () => {
    const setup = await setUp();
    let answer: (decision: ConsentDecision) => void = () => {};
    setup.answer = () => new Promise((resolve) => (answer = resolve));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await setup.runtime.receive(CONVERSATION, call('app.open_url', { url: 'https://b.example' }));
      await vi.waitFor(() => expect(setup.asked).toHaveLength(1));
      setup.db.close();
      answer({ decision: 'allow' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('through the agent client', () => {
  it('a new call is answered through the outbox; the same call again directly from its record', async () => {
    const setup = await setUp();
    const outbox = new OutboxDelivery(setup.db, { locks: null });
    const { transport, agent } = createInProcessTransport();
    const frames: LineUpMessage[] = [];
    agent.onFrame((text) => {
      const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
      if (parsed.kind === 'message') frames.push(parsed.message);
    });
    const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
    const runtime = new CapabilityRuntime(setup.db, {
      handlers: setup.handlers,
      clock: setup.time,
      confirm: async () => ({ decision: 'allow' }),
      onResult: () => void deliver(),
    });
    const client: AgentClient = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => setup.registry.inventory(),
      capabilities: runtime,
      conversations: [CONVERSATION],
      onSessionStart: () => void deliver(),
    });
    client.start();
    const payload = call('app.open_url', { url: 'https://example.com/docs' });
    const envelope = {
      v: 1,
      id: 'msg_call',
      type: 'lineup.v1.app.call',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload,
    };
    agent.send(envelope);
    await vi.waitFor(() =>
      expect(frames.filter((frame) => frame.type === 'lineup.v1.app.result')).toHaveLength(1),
    );
    agent.send({ ...envelope, id: 'msg_call_again' });
    await vi.waitFor(() =>
      expect(frames.filter((frame) => frame.type === 'lineup.v1.app.result')).toHaveLength(2),
    );
    const results = frames
      .filter((frame) => frame.type === 'lineup.v1.app.result')
      .map((frame) => frame.payload);
    expect(results[0]).toEqual({ call_id: payload.call_id, status: 'completed', result: { opened: true } });
    expect(results[1]).toEqual(results[0]);
    expect(setup.ran).toEqual(['open https://example.com/docs']);
    const [inventory] = frames;
    expect(inventory?.type).toBe('lineup.v1.client.inventory');
    expect((inventory as LineUpMessage).payload).toMatchObject({ capabilities: expect.any(Array) });
    expect(((inventory as LineUpMessage).payload as { capabilities: unknown[] }).capabilities).toHaveLength(
      4,
    );
    client.stop();
  });
});
