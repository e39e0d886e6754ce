/**
 * What the client answers to what a broken or hostile agent sends (docs/protocol.md "What the client answers"):
 * one row per kind of frame, asserting the exact answer the agent gets, and that nothing ran, was recorded or was
 * handed to the host.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { LINEUP_WIRE_LIMITS, type LineUpMessage } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION, setUp } from '../../test/agent-client.js';
import { agentEnvelope } from '../../test/envelopes.js';
import type { ConversationJournal } from '../conversations/conversation-store.js';
import { AgentClient } from './agent-client.js';
import type { AgentTransport, TransportListener } from './transport.js';

const call = (call_id: string, extra: object = {}) => ({
  call_id,
  inventory_revision: 'inventory-1',
  tool: 'focus.interrupt',
  arguments: {},
  ...extra,
});

const appCall = (call_id: string, extra: object = {}) => ({
  call_id,
  capability: 'app.open_url',
  reason: 'Open the docs',
  expires_at: '2099-01-01T00:00:00Z',
  arguments: { url: 'https://example.com' },
  ...extra,
});

const document = (id = 'doc1') => ({
  version: '1.0',
  id,
  mode: 'structured_ui',
  title: 'Hi',
  state: {},
  derived: {},
  root: { type: 'Text', id: 't', props: { text: 'Hi' } },
});

/** A ready client: the session started and the install's inventory row went out. */
async function ready(options: Parameters<typeof setUp>[0] = {}) {
  const setup = await setUp(options);
  await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
  await vi.waitFor(() => expect(setup.frames).toHaveLength(1));
  return setup;
}

/**
 * A transport the test speaks for the agent through: it opens on the next task, and `agent()` is the listener the
 * client gave it (the agent's end). `parts` are the transport's other members.
 */
function agentSide(parts: Omit<AgentTransport, 'connect'>): {
  transport: AgentTransport;
  agent: () => TransportListener;
} {
  let listener: TransportListener | undefined;
  return {
    transport: {
      ...parts,
      connect: (next) => {
        listener = next;
        setTimeout(() => next.opened(), 0);
      },
    },
    agent: () => {
      if (listener === undefined) throw new Error('The client has not connected.');
      return listener;
    },
  };
}

/**
 * A journal of the test's own: `parts` says how it records agent messages (`receivedMany`, `recentlyReceived`);
 * everything else succeeds at once and keeps nothing.
 */
function journalWith(
  parts: Required<Pick<ConversationJournal, 'receivedMany'>> & Partial<ConversationJournal>,
): ConversationJournal {
  return {
    received: () => Promise.resolve(true),
    queued: () => Promise.resolve(),
    delivered: () => Promise.resolve(),
    sent: () => Promise.resolve(),
    pending: () => Promise.resolve([]),
    inventorySent: () => Promise.resolve(),
    ...parts,
  };
}

/** The frames the client sends after `count` others, once there are `expected` of them. */
async function answersAfter(frames: LineUpMessage[], count: number, expected: number) {
  await vi.waitFor(() => expect(frames.length).toBeGreaterThanOrEqual(count + expected));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return frames.slice(count).map((frame) => ({ type: frame.type, payload: frame.payload }));
}

describe('calls whose message is invalid', () => {
  it('a tool.call with a readable call_id is answered with its own result, invalid_message, and never recorded', async () => {
    const { agent, frames, db, deliver } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1', { inventory_revision: undefined }), 'm1'));
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_2', { arguments: [] }), 'm2'));
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_3', { extra: true }), 'm3'));
    expect(await answersAfter(frames, 1, 3)).toEqual(
      [
        ['call_1', 'payload.inventory_revision', 'missing_property'],
        ['call_2', 'payload.arguments', 'invalid_type'],
        ['call_3', 'payload', 'unknown_property'],
      ].map(([callId, path, code]) => ({
        type: 'lineup.v1.tool.result',
        payload: {
          call_id: callId,
          outcome: 'error',
          error: {
            code: 'invalid_message',
            message: 'The call message is invalid: it was not recorded and did not run.',
            issues: [expect.objectContaining({ path, code })],
          },
        },
      })),
    );
    expect(await db.count('tool_calls')).toBe(0);
    // The call_id is not taken: the corrected call runs.
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1'), 'm4'));
    await vi.waitFor(async () => {
      await deliver();
      expect(frames.at(-1)?.payload).toMatchObject({ call_id: 'call_1', outcome: 'completed' });
    });
    expect(await db.count('tool_calls')).toBe(1);
  });

  it('an invalid message under a call_id already recorded is call_id_conflict, and the recorded call is untouched', async () => {
    const { agent, frames, db, deliver } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1'), 'm1'));
    await vi.waitFor(async () => {
      await deliver();
      expect(frames).toHaveLength(3);
    });
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1', { tool: 'Not A Tool' }), 'm2'));
    expect(await answersAfter(frames, 3, 1)).toEqual([
      {
        type: 'lineup.v1.tool.result',
        payload: {
          call_id: 'call_1',
          outcome: 'error',
          error: { code: 'call_id_conflict', message: 'This call_id was already used for a different call.' },
        },
      },
    ]);
    expect((await db.getAll('tool_calls')).map((record) => record.status)).toEqual(['accepted']);
  });

  it('an app.call is answered with its own app.result, failed invalid_message', async () => {
    const { agent, frames } = await ready();
    agent.send(agentEnvelope('lineup.v1.app.call', appCall('cap_1', { expires_at: 'tomorrow' }), 'm1'));
    agent.send(agentEnvelope('lineup.v1.app.call', appCall('cap_2', { reason: undefined }), 'm2'));
    expect(await answersAfter(frames, 1, 2)).toEqual([
      {
        type: 'lineup.v1.app.result',
        payload: {
          call_id: 'cap_1',
          status: 'failed',
          error: expect.objectContaining({
            code: 'invalid_message',
            issues: [expect.objectContaining({ path: 'payload.expires_at' })],
          }),
        },
      },
      {
        type: 'lineup.v1.app.result',
        payload: {
          call_id: 'cap_2',
          status: 'failed',
          error: expect.objectContaining({
            code: 'invalid_message',
            issues: [expect.objectContaining({ path: 'payload.reason', code: 'missing_property' })],
          }),
        },
      },
    ]);
  });

  it('a call_id outside the id pattern cannot be answered by call: the envelope is, by id', async () => {
    const { agent, frames } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('has space'), 'm1'));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'm1',
          message_type: 'lineup.v1.tool.call',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.call_id', code: 'invalid_value' })],
        },
      },
    ]);
  });

  it('a call without an envelope id is still answered by its call_id', async () => {
    const { agent, frames } = await ready();
    const envelope: Record<string, unknown> = agentEnvelope('lineup.v1.tool.call', call('call_9'));
    delete envelope.id;
    agent.send(envelope);
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.tool.result',
        payload: expect.objectContaining({
          call_id: 'call_9',
          error: expect.objectContaining({ code: 'invalid_message' }),
        }),
      },
    ]);
  });
});

describe('frames with nothing to answer in', () => {
  it.each([
    ['not JSON', () => '{"v":1,', 'not_json'],
    ['JSON that is not an object', () => '[]', 'not_an_envelope'],
    [
      'an envelope without conversation_id',
      () => JSON.stringify({ ...agentEnvelope('x.y', {}), conversation_id: 7 }),
      'not_an_envelope',
    ],
    [
      'a message without id that is no call',
      () => JSON.stringify({ ...agentEnvelope('lineup.v1.chat.agent_message', { text: 'x' }), id: '' }),
      'not_an_envelope',
    ],
    [
      'a frame over the budget whose header comes last',
      () =>
        `{"payload":{"t":"${'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes)}"},"id":"m","conversation_id":"conv_1"}`,
      'too_large',
    ],
    [
      'nesting past the budget before any header',
      () => `{"payload":${'['.repeat(200)}${']'.repeat(200)},"id":"m","conversation_id":"conv_1"}`,
      'too_large',
    ],
  ])(
    '%s: the connection is refused (%s), nothing is answered or handed on',
    async (_name, frame, refusal) => {
      const { agent, frames, handlers } = await ready();
      agent.send(frame());
      await vi.waitFor(() => expect(agent.refusals).toEqual([refusal]));
      // The session starts again: the inventory, and nothing else.
      await vi.waitFor(() => expect(frames).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(frames.map((entry) => entry.type)).toEqual([
        'lineup.v1.client.inventory',
        'lineup.v1.client.inventory',
      ]);
      expect(handlers.agentMessage).not.toHaveBeenCalled();
      expect(handlers.problem).toHaveBeenCalled();
    },
  );

  it('a frame over the budget whose header comes first is answered by id', async () => {
    const { agent, frames } = await ready();
    const text = JSON.stringify(
      agentEnvelope(
        'lineup.v1.chat.agent_message',
        { text: 'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes) },
        'm_big',
      ),
    );
    agent.send(text);
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'm_big',
          message_type: 'lineup.v1.chat.agent_message',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: '$', code: 'too_large' })],
        },
      },
    ]);
    expect(agent.refusals).toEqual([]);
  });
});

describe('content the envelope cannot judge', () => {
  it('a document that parseDocument refuses is answered with its issues, and neither recorded nor handed on', async () => {
    const { agent, frames, handlers, store } = await ready({ journal: true });
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: { ...document(), mode: 'chat' } }, 'd1'));
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: document() }, 'd2'));
    await vi.waitFor(() => expect(handlers.document).toHaveBeenCalledTimes(1));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'd1',
          message_type: 'lineup.v1.ui.document',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.document.mode', code: 'invalid_value' })],
        },
      },
    ]);
    expect(vi.mocked(handlers.document).mock.calls[0]?.[0].id).toBe('d2');
    const recorded = (await store!.allMessages(CONVERSATION)).filter((record) => record.direction === 'in');
    expect(recorded.map((record) => record.id)).toEqual(['d2']);
    // The document handed on is parseDocument's own frozen copy.
    expect(Object.isFrozen(vi.mocked(handlers.document).mock.calls[0]?.[0].payload.document)).toBe(true);
  });

  it("the host's check refuses a message with its issues below payload", async () => {
    const { agent, frames, handlers } = await ready({
      client: {
        handlers: {
          check: (message) => {
            if (message.type === 'lineup.v1.chat.agent_message' && message.payload.text.includes('<iframe'))
              throw new LineUpProtocolError([
                { path: 'text', code: 'invalid_value', message: 'No frames here.' },
              ]);
          },
          agentMessage: vi.fn(),
        },
      },
    });
    void handlers;
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'look <iframe>' }, 'c1'));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'c1',
          message_type: 'lineup.v1.chat.agent_message',
          reason: 'invalid_message',
          issues: [{ path: 'payload.text', code: 'invalid_value', message: 'No frames here.' }],
        },
      },
    ]);
  });
});

describe('component streams', () => {
  const frame = (
    seq: number,
    revision: number,
    type: string,
    title: string,
    baseRevision: number | null,
  ) => ({
    protocol: 'dsh.intelligent-ui.stream',
    version: '1.0',
    sourceCallId: 'call_stream',
    uiId: 'doc1',
    generation: 1,
    seq,
    baseRevision,
    revision,
    type,
    snapshot: { ...document(), title },
  });

  it('a conflict or a frame after the end is answered with its stream issue; a stale frame changes nothing', async () => {
    const { agent, frames, handlers } = await ready({ journal: true });
    const send = (id: string, checkpoint: object) =>
      agent.send(agentEnvelope('lineup.v1.ui.checkpoint', { checkpoint }, id));
    send('f1', frame(1, 0, 'snapshot', 'A', null));
    send('f3', frame(3, 1, 'update', 'C', 0));
    send('f2', frame(2, 1, 'update', 'B', 0)); // stale: seq 2 was skipped by the gap
    send('f3x', frame(3, 1, 'update', 'X', 0)); // seq 3 again, other content
    send('f4', frame(4, 1, 'complete', 'C', 1));
    send('f5', frame(5, 2, 'update', 'D', 1)); // after complete
    await vi.waitFor(() => expect(handlers.checkpoint).toHaveBeenCalledTimes(4));
    expect(vi.mocked(handlers.checkpoint).mock.calls.map(([message]) => message.id)).toEqual([
      'f1',
      'f3',
      'f2',
      'f4',
    ]);
    const answers = await answersAfter(frames, 1, 2);
    expect(answers).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: expect.objectContaining({
          message_id: 'f3x',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'duplicate_id' })],
        }),
      },
      {
        type: 'lineup.v1.unsupported',
        payload: expect.objectContaining({
          message_id: 'f5',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'invalid_value' })],
        }),
      },
    ]);
  });

  it('after a reload the stream is judged against what the journal recorded', async () => {
    const first = await ready({ journal: true });
    const send = (agent: typeof first.agent, id: string, checkpoint: object) =>
      agent.send(agentEnvelope('lineup.v1.ui.checkpoint', { checkpoint }, id));
    send(first.agent, 'f1', frame(1, 0, 'snapshot', 'A', null));
    send(first.agent, 'f2', frame(2, 1, 'update', 'B', 0));
    await vi.waitFor(() => expect(first.handlers.checkpoint).toHaveBeenCalledTimes(2));
    first.client.stop();
    // A new client on the same database: its receivers are empty, the journal is not.
    const second = await setUp({ client: { journal: first.store! } });
    await vi.waitFor(() => expect(second.frames).toHaveLength(1));
    send(second.agent, 'f2x', frame(2, 1, 'update', 'Other', 0));
    send(second.agent, 'f3', frame(3, 2, 'update', 'C', 1));
    await vi.waitFor(() => expect(second.handlers.checkpoint).toHaveBeenCalledTimes(1));
    expect(vi.mocked(second.handlers.checkpoint).mock.calls[0]?.[0].id).toBe('f3');
    expect((await answersAfter(second.frames, 1, 1))[0]?.payload).toMatchObject({
      message_id: 'f2x',
      reason: 'invalid_message',
      issues: [expect.objectContaining({ code: 'duplicate_id' })],
    });
  });
});

describe('copies, sessions and floods', () => {
  it('a copy of a message that is no call is handed on once; an answer to a copy is a copy', async () => {
    const { agent, frames, handlers } = await ready();
    const message = agentEnvelope('lineup.v1.chat.agent_message', { text: 'Hi' }, 'c1');
    agent.send(message);
    agent.send(message);
    agent.send(agentEnvelope('lineup.v1.ui.frobnicate', {}, 'u1'));
    agent.send(agentEnvelope('lineup.v1.ui.frobnicate', {}, 'u1'));
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(handlers.agentMessage).toHaveBeenCalledTimes(1);
    expect(frames[1]?.id).toBe(frames[2]?.id);
  });

  it('an outbox row for a conversation outside the session announces it first', async () => {
    const { client, frames } = await ready();
    await client.sendOutboxMessage({
      id: 99,
      conversationId: 'conv_other',
      type: 'lineup.v1.tool.result',
      payload: { call_id: 'c', outcome: 'error', error: { code: 'timeout' } },
    } as never);
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(frames.slice(1).map((frame) => `${frame.type} ${frame.conversation_id}`)).toEqual([
      'lineup.v1.client.inventory conv_other',
      'lineup.v1.tool.result conv_other',
    ]);
  });

  it('an answer waiting for its ack holds up nothing; what it answers is acknowledged once it is delivered', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const written: string[] = [];
    const acknowledged: string[] = [];
    const deliveries: { resolve(): void; reject(error: Error): void }[] = [];
    const { transport, agent } = agentSide({
      // The agent acknowledges the inventory; every answer's send stays pending until the test settles it.
      send: (text) => {
        written.push(text);
        if (text.includes('"lineup.v1.client.inventory"')) return Promise.resolve();
        return new Promise<void>((resolve, reject) => deliveries.push({ resolve, reject }));
      },
      acknowledge: (id) => acknowledged.push(id),
      close: () => {},
    });
    const agentMessage = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      handlers: { agentMessage },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    await vi.waitFor(() => expect(written).toHaveLength(1));
    for (const [index, type] of ['lineup.v1.ui.frobnicate', 'lineup.v1.app.call'].entries())
      agent().received(
        JSON.stringify(agentEnvelope(type, type.endsWith('app.call') ? appCall('call_a') : {}, `r${index}`)),
      );
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'next' }, 'n1')));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(1));
    // Both answers went out, in order, before the next frame was handed on, which was acknowledged at once; the
    // two it answered wait for their answers' delivery.
    expect(written.slice(1).map((text) => JSON.parse(text).type)).toEqual([
      'lineup.v1.unsupported',
      'lineup.v1.app.result',
    ]);
    expect(acknowledged).toEqual(['n1']);
    // The second answer is delivered, the first is lost (its ack never came): only the second envelope is
    // acknowledged, so the agent sends the first again.
    deliveries[1]?.resolve();
    deliveries[0]?.reject(new Error('No ack within 10 s.'));
    await vi.waitFor(() => expect(acknowledged).toEqual(['n1', 'r1']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acknowledged).toEqual(['n1', 'r1']);
  });

  it('a message is handed on once the journal knows it is new, and acknowledged only once it is on disk', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const acknowledged: string[] = [];
    const { transport, agent } = agentSide({
      send: () => Promise.resolve(),
      acknowledge: (id) => acknowledged.push(id),
      close: () => {},
    });
    // A journal whose writes reach the disk only when the test says so; the first write fails.
    const commits: { resolve(): void; reject(error: Error): void }[] = [];
    const journal = journalWith({
      receivedMany: (messages, options) => {
        options?.known?.(messages.map((message) => message.id !== 'seen'));
        return new Promise((resolve, reject) =>
          commits.push({
            resolve: () => resolve(messages.map((message) => message.id !== 'seen')),
            reject,
          }),
        );
      },
    });
    const agentMessage = vi.fn();
    const problem = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      journal,
      handlers: { agentMessage, problem },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'one' }, 'm1')));
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'old' }, 'seen')));
    // Shown while its write is still on its way; the one recorded before a reload is not shown again.
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(1));
    expect(commits).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acknowledged).toEqual([]);
    commits[0]?.resolve();
    await vi.waitFor(() => expect(acknowledged).toEqual(['m1', 'seen']));
    expect(agentMessage).toHaveBeenCalledTimes(1);
    expect(problem).not.toHaveBeenCalled();
    // A write that fails after the hand-on: the message stays shown, the host is told, and it is acknowledged as
    // before (a reload will not bring it back).
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'two' }, 'm2')));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(2));
    expect(acknowledged).toEqual(['m1', 'seen']);
    commits[1]?.reject(new Error('The disk is full.'));
    await vi.waitFor(() => expect(acknowledged).toEqual(['m1', 'seen', 'm2']));
    expect(problem).toHaveBeenCalledTimes(1);
    client.stop();
  });

  it('knows a message is new from the ids recorded last, and records it as the text it came in', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const acknowledged: string[] = [];
    const { transport, agent } = agentSide({
      send: () => Promise.resolve(),
      acknowledge: (id) => acknowledged.push(id),
      close: () => {},
    });
    const given: { ids: string[]; texts: readonly (string | undefined)[]; recorded: unknown[] }[] = [];
    const journal = journalWith({
      receivedMany: (messages, options) => {
        given.push({
          ids: messages.map((message) => message.id),
          texts: options?.texts ?? [],
          recorded: messages.map((_, index) => options?.recorded?.[index]),
        });
        options?.known?.(messages.map(() => true));
        return Promise.resolve(messages.map(() => true));
      },
      recentlyReceived: (limit) => {
        expect(limit).toBeGreaterThanOrEqual(512);
        return Promise.resolve(['before', 'older']);
      },
    });
    const agentMessage = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      journal,
      handlers: { agentMessage },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    const frame = (id: string) =>
      JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: id }, id));
    // Recorded before the reload: dropped as a copy and acknowledged, never handed to the journal or the host.
    agent().received(frame('before'));
    agent().received(frame('new'));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(acknowledged).toEqual(['before', 'new']));
    expect(agentMessage.mock.calls[0]?.[0].id).toBe('new');
    // A call is left to the journal to look up.
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.app.call', appCall('call_k'), 'call1')));
    await vi.waitFor(() => expect(given).toHaveLength(2));
    expect(given).toEqual([
      { ids: ['new'], texts: [frame('new')], recorded: [false] },
      { ids: ['call1'], texts: [expect.stringContaining('"call_k"')], recorded: [undefined] },
    ]);
    client.stop();
  });

  it('with a dedupe window smaller than the ids recorded last, the journal decides which messages are new', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const { transport, agent } = agentSide({ send: () => Promise.resolve(), close: () => {} });
    const recorded: unknown[] = [];
    const journal = journalWith({
      receivedMany: (messages, options) => {
        recorded.push(...messages.map((_, index) => options?.recorded?.[index]));
        options?.known?.(messages.map(() => true));
        return Promise.resolve(messages.map(() => true));
      },
      recentlyReceived: () => Promise.resolve(['a', 'b', 'c']),
    });
    const agentMessage = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      journal,
      dedupeWindow: 2,
      handlers: { agentMessage },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'n' }, 'n1')));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(1));
    expect(recorded).toEqual([undefined]);
    client.stop();
  });

  it('without the ids recorded last, the journal decides which messages are new', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const { transport, agent } = agentSide({ send: () => Promise.resolve(), close: () => {} });
    const recorded: unknown[] = [];
    const journal = journalWith({
      receivedMany: (messages, options) => {
        recorded.push(...messages.map((_, index) => options?.recorded?.[index]));
        options?.known?.(messages.map((message) => message.id !== 'old'));
        return Promise.resolve(messages.map((message) => message.id !== 'old'));
      },
      recentlyReceived: () => Promise.reject(new Error('The database is gone.')),
    });
    const agentMessage = vi.fn();
    const problem = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      journal,
      handlers: { agentMessage, problem },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    expect(problem).toHaveBeenCalledWith(expect.objectContaining({ message: 'The database is gone.' }));
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'a' }, 'old')));
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'b' }, 'm2')));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(1));
    expect(agentMessage.mock.calls[0]?.[0].id).toBe('m2');
    expect(recorded.every((value) => value === undefined)).toBe(true);
    client.stop();
  });

  it('a flood past the waiting bound refuses the connection once; what was taken is handled, in order', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const refusals: string[] = [];
    const { transport, agent } = agentSide({
      send: () => {},
      close: () => {},
      refuse: (refusal) => refusals.push(refusal),
    });
    const agentMessage = vi.fn();
    const problem = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      limits: { maxWaitingFrames: 5 },
      handlers: { agentMessage, problem },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    // Fifty frames in one task, as a socket's burst: five are taken, the connection is refused once, and
    // nothing after is read.
    for (let index = 0; index < 50; index++)
      agent().received(
        JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: `turn ${index}` }, `t${index}`)),
      );
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(5));
    expect(refusals).toEqual(['overloaded']);
    expect(agentMessage.mock.calls.map(([message]) => message.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(problem.mock.calls.map(([error]) => (error as { code?: string }).code)).toEqual(['overloaded']);
    // A new connection takes frames again.
    agent().opened();
    agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: 'again' }, 't50')));
    await vi.waitFor(() => expect(agentMessage).toHaveBeenCalledTimes(6));
  });

  it('after an overload the new session starts once the backlog of the refused connection is taken in', async () => {
    const { registry, client: other } = await ready();
    other.stop();
    const events: string[] = [];
    const { transport, agent } = agentSide({
      send: (text) => void events.push(`sent ${JSON.parse(text).type}`),
      close: () => {},
      refuse: (refusal) => void events.push(`refused ${refusal}`),
    });
    // The first turn's handler holds the drain until the test lets it go, so the backlog is still waiting when
    // the client dials again.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      conversations: [CONVERSATION],
      limits: { maxWaitingFrames: 600 },
      handlers: {
        agentMessage: async (message) => {
          events.push(`took ${message.id}`);
          if (message.id === 't0') await held;
        },
      },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    events.length = 0;
    const turn = (id: string) =>
      agent().received(JSON.stringify(agentEnvelope('lineup.v1.chat.agent_message', { text: id }, id)));
    // More than two drains' worth (256 frames each), and past the bound: 600 are taken, the rest refused.
    for (let index = 0; index < 700; index++) turn(`t${index}`);
    await vi.waitFor(() => expect(events).toEqual(['refused overloaded', 'took t0']));
    // The refused connection closes and a new one opens while 599 frames wait; the agent speaks at once.
    agent().closed(new Error('refused'));
    agent().opened();
    turn('again');
    expect(client.status).toBe('connecting');
    release();
    await vi.waitFor(() => expect(events).toContain('took again'), { timeout: 5_000 });
    // The backlog first, then the session (inventory first, status open), then what came on the new connection.
    expect(events).toEqual([
      'refused overloaded',
      ...Array.from({ length: 600 }, (_, index) => `took t${index}`),
      'sent lineup.v1.client.inventory',
      'took again',
    ]);
    expect(client.status).toBe('open');
  });
});
