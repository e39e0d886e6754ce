/**
 * Conversations in IndexedDB: the store on its own (create, list, pages, view states, bad input), and as the
 * journal of an `AgentClient` with a scripted agent in process — every envelope in and out recorded in order,
 * incoming ids deduplicated across a reload, the user's messages queued while the agent is away and sent after
 * the inventory at the next session (also by a new client after a reload), the inventory revision per
 * conversation.
 */
import 'fake-indexeddb/auto';
import { type LineUpMessage, parseEnvelope, parseEnvelopeText } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { agentEnvelope } from '../../test/envelopes.js';
import { focusManifest } from '../../test/manifests.js';
import { AppRegistry } from '../apps/registry.js';
import { AgentClient } from '../client/agent-client.js';
import {
  type AgentTransport,
  createInProcessTransport,
  type InProcessAgentEnd,
} from '../client/transport.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import { OutboxDelivery } from '../outbox/delivery.js';
import { openRuntimeDatabase, RECENT_RECEIVED_KEPT, type RuntimeDatabase } from '../storage/database.js';
import {
  CONVERSATION_TITLE_LENGTH,
  ConversationStore,
  ConversationStoreError,
} from './conversation-store.js';

let databases = 0;
let ids = 0;
const CONVERSATION = 'conv_1';

function asMessage(envelope: object): LineUpMessage {
  const parsed = parseEnvelope(envelope, { direction: 'agent_to_client' });
  if (parsed.kind !== 'message') throw new Error('not a message');
  return parsed.message;
}

function clockAt(start: number) {
  let now = start;
  return { now: () => now++ };
}

interface Client {
  readonly client: AgentClient;
  readonly agent: InProcessAgentEnd;
  readonly frames: LineUpMessage[];
  readonly agentMessages: string[];
  /** `queued <id>` and `sent <id>` of the user's messages, in the order the handlers ran. */
  readonly userEvents: string[];
  /** Sends what the outbox holds (a host does it as rows are written). */
  readonly deliver: () => Promise<unknown>;
}

/** A client over the given database and store, like a page load: runtime, outbox, in-process agent. */
async function connect(
  db: RuntimeDatabase,
  store: ConversationStore,
  install = true,
  wrap: (transport: AgentTransport, agent: InProcessAgentEnd) => AgentTransport = (transport) => transport,
): Promise<Client> {
  const registry = new AppRegistry(db);
  if (install) await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
  const runtime = new ToolRuntime(db, registry);
  const outbox = new OutboxDelivery(db, { locks: null });
  const { transport, agent } = createInProcessTransport();
  const frames: LineUpMessage[] = [];
  agent.onFrame((text) => {
    const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
    if (parsed.kind !== 'message') throw new Error(`unsupported frame ${text}`);
    frames.push(parsed.message);
  });
  const agentMessages: string[] = [];
  const userEvents: string[] = [];
  const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
  const client: AgentClient = new AgentClient({
    transport: wrap(transport, agent),
    clientId: 'web-host',
    inventory: () => registry.inventory(),
    tools: runtime,
    journal: store,
    conversations: [CONVERSATION],
    onSessionStart: () => void deliver(),
    handlers: {
      agentMessage: (message) => agentMessages.push(message.payload.text),
      queued: (message) => userEvents.push(`queued ${message.id}`),
      sent: (message) => {
        if (message.type === 'lineup.v1.chat.user_message') userEvents.push(`sent ${message.id}`);
      },
    },
    ids: () => `m${++ids}`,
  });
  client.start();
  await vi.waitFor(() => expect(client.status).toBe('open'));
  await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0));
  return { client, agent, frames, agentMessages, userEvents, deliver };
}

async function fresh(): Promise<{ db: RuntimeDatabase; store: ConversationStore }> {
  const db = await openRuntimeDatabase(`conversations-${databases++}`);
  return { db, store: new ConversationStore(db, { clock: clockAt(1_000) }) };
}

const types = (records: readonly { direction: string; type: string }[]) =>
  records.map((record) => `${record.direction} ${record.type.replace('lineup.v1.', '')}`);

describe('ConversationStore', () => {
  it('creates conversations with fresh ids, returns an existing one as it is, and lists the latest first', async () => {
    const { store } = await fresh();
    const a = await store.create();
    const b = await store.create('conv_b');
    expect(a.id).toMatch(/^conv_[0-9a-f-]{36}$/);
    expect(await store.create('conv_b')).toEqual(b);
    await store.sent({
      v: 1,
      id: 'x1',
      type: 'lineup.v1.chat.user_message',
      conversation_id: a.id,
      sender: { kind: 'client', id: 'web-host' },
      payload: { text: '  Start   a focus\nplease ' },
    });
    const listed = await store.list();
    expect(listed.map((record) => record.id)).toEqual([a.id, 'conv_b']);
    expect(listed[0]).toMatchObject({ title: 'Start a focus please', messageCount: 1 });
    expect((await store.list({ limit: 1 })).map((record) => record.id)).toEqual([a.id]);
  });

  it('titles a conversation by its first user message, shortened on a character boundary', async () => {
    const { store } = await fresh();
    const text = '专注'.repeat(100);
    await store.sent({
      v: 1,
      id: 'x1',
      type: 'lineup.v1.chat.user_message',
      conversation_id: 'conv_t',
      sender: { kind: 'client', id: 'web-host' },
      payload: { text },
    });
    const title = (await store.get('conv_t'))?.title ?? '';
    expect([...title]).toHaveLength(CONVERSATION_TITLE_LENGTH);
    expect(title.endsWith('…')).toBe(true);
    expect(title.startsWith('专注专注')).toBe(true);
  });

  it('pages through messages in order', async () => {
    const { store } = await fresh();
    for (let i = 0; i < 7; i++)
      await store.received(
        asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: `t${i}` }, `p${i}`)),
      );
    const first = await store.messages(CONVERSATION, { limit: 3 });
    expect(first.messages.map((record) => record.id)).toEqual(['p0', 'p1', 'p2']);
    const second = await store.messages(CONVERSATION, { after: first.next, limit: 3 });
    expect(second.messages.map((record) => record.id)).toEqual(['p3', 'p4', 'p5']);
    const last = await store.messages(CONVERSATION, { after: second.next, limit: 3 });
    expect(last.messages.map((record) => record.id)).toEqual(['p6']);
    expect(last.next).toBeUndefined();
    expect((await store.allMessages(CONVERSATION)).map((record) => record.id)).toHaveLength(7);
    expect((await store.messages('conv_other')).messages).toEqual([]);
  });

  it('records a batch of agent envelopes in one transaction, in order, each id once', async () => {
    const { store } = await fresh();
    const message = (id: string, conversation = CONVERSATION) =>
      asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: id }, id, conversation));
    await store.received(message('b0'));
    expect(
      await store.receivedMany([
        message('b0'),
        message('b1'),
        message('b2'),
        message('b1'),
        message('b3', 'conv_2'),
      ]),
    ).toEqual([false, true, true, false, true]);
    expect((await store.allMessages(CONVERSATION)).map((record) => record.id)).toEqual(['b0', 'b1', 'b2']);
    expect((await store.allMessages('conv_2')).map((record) => record.id)).toEqual(['b3']);
    expect((await store.get(CONVERSATION))?.messageCount).toBe(3);
    expect((await store.get('conv_2'))?.messageCount).toBe(1);
    expect(await store.receivedMany([])).toEqual([]);
  });

  it('tells which envelopes of a batch are new before its transaction has committed, once', async () => {
    const { store } = await fresh();
    const message = (id: string) =>
      asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: id }, id, CONVERSATION));
    await store.received(message('k0'));
    const told: { fresh: readonly boolean[]; settled: boolean }[] = [];
    let settled = false;
    const recording = store
      .receivedMany([message('k0'), message('k1'), message('k1')], {
        known: (fresh) => told.push({ fresh, settled }),
      })
      .then((fresh) => {
        settled = true;
        return fresh;
      });
    expect(await recording).toEqual([false, true, false]);
    // Told before the batch's promise settled, with the same list.
    expect(told).toEqual([{ fresh: [false, true, false], settled: false }]);
    expect(told).toHaveLength(1);
    expect((await store.allMessages(CONVERSATION)).map((record) => record.id)).toEqual(['k0', 'k1']);
    // A batch with nothing to record says so too.
    const none: (readonly boolean[])[] = [];
    expect(await store.receivedMany([message('k1')], { known: (fresh) => none.push(fresh) })).toEqual([
      false,
    ]);
    expect(none).toEqual([[false]]);
  });

  it('keeps an agent envelope given with its text as that text, and reads it back as the message', async () => {
    const { db, store } = await fresh();
    const envelope = agentEnvelope('lineup.v1.chat.agent_message', { text: 'as sent' }, 't1', CONVERSATION);
    const text = JSON.stringify(envelope);
    const message = asMessage(envelope);
    const old = asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: 'object' }, 't0'));
    expect(await store.receivedMany([old, message], { texts: [undefined, text] })).toEqual([true, true]);
    const stored = await db.getAll('messages');
    // The text is what is kept; a message given without one is kept as the message.
    expect(stored.map((record) => [record.id, record.text, record.message?.id])).toEqual([
      ['t0', undefined, 't0'],
      ['t1', text, undefined],
    ]);
    const read = await store.allMessages(CONVERSATION);
    expect(read.map((record) => record.message)).toEqual([old, message]);
    expect(read.every((record) => !('text' in record))).toBe(true);
    expect(
      (await store.messages(CONVERSATION, { limit: 1, after: read[0]?.seq })).messages[0]?.message,
    ).toEqual(message);
    // A repeat of it is known by its id, whichever form it was kept in.
    expect(await store.recentlyReceived(10)).toEqual(['t1', 't0']);
    expect(await store.receivedMany([message], { texts: [text] })).toEqual([false]);
  });

  it('tells which envelopes are new at once when the caller knows, and checks it before anything is kept', async () => {
    const { store } = await fresh();
    const message = (id: string) =>
      asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: id }, id, CONVERSATION));
    // Known and right: told at once (before any read of the database comes back), recorded once.
    let told: (readonly boolean[])[] = [];
    const recording = store.receivedMany([message('e1'), message('e1')], {
      known: (fresh) => told.push(fresh),
      recorded: [false, false],
    });
    expect(told).toEqual([[true, false]]);
    expect(await recording).toEqual([true, false]);
    // Known, but recorded by someone else before the batch: told what the caller knew, and the transaction that
    // would have kept a second copy keeps nothing; the batch is recorded from what the database holds.
    await store.received(message('e2'));
    told = [];
    expect(
      await store.receivedMany([message('e2'), message('e3')], {
        known: (fresh) => told.push(fresh),
        recorded: [false, false],
      }),
    ).toEqual([false, true]);
    expect(told).toEqual([[true, true]]);
    expect((await store.allMessages(CONVERSATION)).map((record) => record.id)).toEqual(['e1', 'e2', 'e3']);
    expect((await store.get(CONVERSATION))?.messageCount).toBe(3);
    // One not known: the transaction's own reads decide, before anything is told.
    told = [];
    const waiting = store.receivedMany([message('e3'), message('e4')], {
      known: (fresh) => told.push(fresh),
      recorded: [undefined, false],
    });
    expect(told).toEqual([]);
    expect(await waiting).toEqual([false, true]);
    expect(told).toEqual([[false, true]]);
    expect((await store.allMessages(CONVERSATION)).map((record) => record.id)).toEqual([
      'e1',
      'e2',
      'e3',
      'e4',
    ]);
    expect(await store.recentlyReceived(3)).toEqual(['e4', 'e3', 'e2']);
  });

  it('keeps the ids of the envelopes received last, and only those', async () => {
    const { db, store } = await fresh();
    const message = (id: string, type = 'lineup.v1.chat.agent_message') =>
      asMessage(agentEnvelope(type, { text: id }, id, CONVERSATION));
    const many = Array.from({ length: RECENT_RECEIVED_KEPT + 6 }, (_, index) => message(`r${index}`));
    await store.receivedMany(many);
    await store.sent(asMessage(agentEnvelope('lineup.v1.chat.agent_message', { text: 'x' }, 'out1')));
    await store.received(message('single'));
    // The newest first; 'out1' went the other way. The ids of the records older than the last
    // RECENT_RECEIVED_KEPT are let go.
    expect(await store.recentlyReceived(3)).toEqual([
      'single',
      `r${RECENT_RECEIVED_KEPT + 5}`,
      `r${RECENT_RECEIVED_KEPT + 4}`,
    ]);
    expect(await db.count('received_recent')).toBe(RECENT_RECEIVED_KEPT - 1);
    expect((await store.recentlyReceived(RECENT_RECEIVED_KEPT)).at(-1)).toBe('r8');
    for (const limit of [0, 1.5, RECENT_RECEIVED_KEPT + 1])
      await expect(store.recentlyReceived(limit)).rejects.toThrow(ConversationStoreError);
  });

  it('keeps view states per conversation and key, the last one winning', async () => {
    const { store } = await fresh();
    await store.saveViewState('conv_a', 'doc-1', { years: 5 });
    await store.saveViewState('conv_a', 'doc-1', { years: 10 });
    await store.saveViewState('conv_a', 'doc-2', { name: 'x' });
    await store.saveViewState('conv_b', 'doc-1', { years: 1 });
    expect(Object.fromEntries(await store.viewStates('conv_a'))).toEqual({
      'doc-1': { years: 10 },
      'doc-2': { name: 'x' },
    });
    expect(Object.fromEntries(await store.viewStates('conv_b'))).toEqual({ 'doc-1': { years: 1 } });
  });

  it('refuses bad input with a clear error and writes nothing', async () => {
    const { db, store } = await fresh();
    await expect(store.create('has space')).rejects.toThrow(ConversationStoreError);
    await expect(store.create('x'.repeat(129))).rejects.toThrow(/1–128 printable ASCII/);
    await expect(store.list({ limit: 0 })).rejects.toThrow(/limit/);
    await expect(store.messages(CONVERSATION, { limit: 5_001 })).rejects.toThrow(/limit/);
    await expect(store.saveViewState('conv_a', '', {})).rejects.toThrow(/key/);
    await expect(store.saveViewState('conv_a', 'k', undefined)).rejects.toThrow(/JSON/);
    await expect(store.saveViewState('conv_a', 'k', { big: 'x'.repeat(1_048_577) })).rejects.toThrow(
      /at most/,
    );
    expect(await db.count('conversations')).toBe(0);
    expect(await db.count('view_states')).toBe(0);
  });
});

describe('ConversationStore as the AgentClient journal', () => {
  it('records every envelope in and out, in order, per conversation, and the inventory revision sent', async () => {
    const { db, store } = await fresh();
    const { client, agent, frames, deliver } = await connect(db, store);
    await client.sendUserMessage(CONVERSATION, 'start a focus');
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'Starting.' }));
    agent.send(
      agentEnvelope('lineup.v1.tool.call', {
        call_id: 'call_1',
        tool: 'focus.interrupt',
        inventory_revision: 'inventory-1',
        arguments: {},
      }),
    );
    await vi.waitFor(async () => {
      await deliver();
      expect(frames.some((frame) => frame.type === 'lineup.v1.tool.result')).toBe(true);
    });
    const records = await store.allMessages(CONVERSATION);
    expect(types(records)).toEqual([
      'out client.inventory',
      'out chat.user_message',
      'in chat.agent_message',
      'in tool.call',
      'out tool.progress',
      'out tool.result',
    ]);
    // What the agent got is what was recorded, id for id.
    expect(records.filter((record) => record.direction === 'out').map((record) => record.id)).toEqual(
      frames.map((frame) => frame.id),
    );
    expect(records.every((record) => record.pending === undefined)).toBe(true);
    expect(await store.get(CONVERSATION)).toMatchObject({
      inventoryRevision: 'inventory-1',
      title: 'start a focus',
      messageCount: 6,
    });
  });

  it('drops an agent envelope already recorded before a reload, but lets a repeated tool call be answered again', async () => {
    const { db, store } = await fresh();
    const first = await connect(db, store);
    const call = agentEnvelope(
      'lineup.v1.tool.call',
      { call_id: 'call_r', tool: 'focus.interrupt', inventory_revision: 'inventory-1', arguments: {} },
      'msg_call',
    );
    first.agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'once' }, 'msg_once'));
    first.agent.send(call);
    await vi.waitFor(async () => {
      await first.deliver();
      expect(first.frames.some((frame) => frame.type === 'lineup.v1.tool.result')).toBe(true);
    });
    first.client.stop();
    // The page reloads: a new client, the same database; the agent sends both envelopes again.
    const second = await connect(db, store, false);
    const before = second.frames.length;
    second.agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'once' }, 'msg_once'));
    second.agent.send(call);
    await vi.waitFor(() => expect(second.frames.length).toBeGreaterThan(before));
    expect(second.agentMessages).toEqual([]);
    // The runtime answered the repeated call from its records (a replay), and ran nothing twice.
    const answers = second.frames.slice(before).filter((frame) => frame.type.startsWith('lineup.v1.tool.'));
    expect(answers.map((frame) => (frame.payload as { call_id: string }).call_id)).toEqual(['call_r']);
    expect(await db.count('tool_calls')).toBe(1);
    expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0);
    const incoming = (await store.allMessages(CONVERSATION)).filter((record) => record.direction === 'in');
    expect(incoming.map((record) => record.id)).toEqual(['msg_once', 'msg_call']);
  });

  it('queues what the user says while the agent is away and sends it after the inventory, in order, with its ids', async () => {
    const { db, store } = await fresh();
    const { client, agent, frames } = await connect(db, store);
    await vi.waitFor(async () => expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0));
    agent.drop();
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    const before = frames.length;
    const one = await client.sendUserMessage(CONVERSATION, 'first');
    const event = await client.sendUIEvent(CONVERSATION, {
      instance_id: 'weather.01',
      event: 'refresh',
      data: { city: 'Oslo' },
    });
    const two = await client.sendUserMessage(CONVERSATION, 'second');
    expect([one.delivery, event.delivery, two.delivery]).toEqual(['queued', 'queued', 'queued']);
    expect(frames).toHaveLength(before);
    expect((await store.pending()).map((message) => message.id)).toEqual([
      one.message.id,
      event.message.id,
      two.message.id,
    ]);
    agent.restore();
    await vi.waitFor(() => expect(frames.length).toBe(before + 4));
    const after = frames.slice(before);
    expect(after.map((frame) => frame.type)).toEqual([
      'lineup.v1.client.inventory',
      'lineup.v1.chat.user_message',
      'lineup.v1.ui.event',
      'lineup.v1.chat.user_message',
    ]);
    expect(after.slice(1).map((frame) => frame.id)).toEqual([
      one.message.id,
      event.message.id,
      two.message.id,
    ]);
    await vi.waitFor(async () => expect(await store.pending()).toEqual([]));
    const sent = (await store.allMessages(CONVERSATION)).filter((record) => record.id === one.message.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.sentAt).toEqual(expect.any(Number));
  });

  it('a message queued before a reload is sent by the next page, once', async () => {
    const { db, store } = await fresh();
    const first = await connect(db, store);
    first.agent.drop();
    await vi.waitFor(() => expect(first.client.status).toBe('closed'));
    const queued = await first.client.sendUserMessage(CONVERSATION, 'are you there?');
    expect(queued.delivery).toBe('queued');
    first.client.stop();
    const second = await connect(db, store, false);
    await vi.waitFor(() =>
      expect(second.frames.filter((frame) => frame.id === queued.message.id)).toHaveLength(1),
    );
    expect(second.frames[0]?.type).toBe('lineup.v1.client.inventory');
    await vi.waitFor(async () => expect(await store.pending()).toEqual([]));
  });

  it('a send that fails mid-way keeps that message and the rest pending for the next session', async () => {
    const { db, store } = await fresh();
    // The transport breaks on the first user message "a": the send throws and the connection drops.
    let broken = true;
    const { client, agent, frames } = await connect(db, store, true, (transport, end) => ({
      ...transport,
      send(text) {
        if (broken && text.includes('"text":"a"')) {
          broken = false;
          end.drop();
          throw new Error('The socket is gone.');
        }
        return transport.send(text);
      },
    }));
    agent.drop();
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    await client.sendUserMessage(CONVERSATION, 'a');
    await client.sendUserMessage(CONVERSATION, 'b');
    const before = frames.length;
    agent.restore();
    await vi.waitFor(() => expect(broken).toBe(false));
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    expect((await store.pending()).map((message) => (message.payload as { text: string }).text)).toEqual([
      'a',
      'b',
    ]);
    agent.restore();
    await vi.waitFor(async () => expect(await store.pending()).toEqual([]));
    const texts = frames
      .slice(before)
      .filter((frame) => frame.type === 'lineup.v1.chat.user_message')
      .map((frame) => (frame.payload as { text: string }).text);
    expect(texts).toEqual(['a', 'b']);
  });

  it('refuses an invalid user message before recording anything', async () => {
    const { db, store } = await fresh();
    const { client } = await connect(db, store);
    const count = await db.count('messages');
    await expect(client.sendUserMessage(CONVERSATION, 'x'.repeat(16_385))).rejects.toMatchObject({
      code: 'invalid_message',
    });
    expect(await db.count('messages')).toBe(count);
  });

  it('announces a user message as queued before it is sent, and only queued while the agent is away', async () => {
    const { db, store } = await fresh();
    const { client, agent, userEvents } = await connect(db, store);
    const now = await client.sendUserMessage(CONVERSATION, 'now');
    expect(userEvents).toEqual([`queued ${now.message.id}`, `sent ${now.message.id}`]);
    agent.drop();
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    const later = await client.sendUserMessage(CONVERSATION, 'later');
    expect(userEvents.slice(2)).toEqual([`queued ${later.message.id}`]);
    agent.restore();
    await vi.waitFor(() =>
      expect(userEvents.slice(2)).toEqual([`queued ${later.message.id}`, `sent ${later.message.id}`]),
    );
  });
});
