/**
 * What the client does with copies, sessions and floods from the agent (docs/protocol.md "What the client
 * answers"): a copy is handed on once and its answer is a copy, an answer waiting for its ack holds up nothing, the
 * journal decides which messages are new and when they are acknowledged, and a flood past the waiting bound refuses
 * the connection once.
 */
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION } from '../../test/agent-client.js';
import { appCall, ready } from '../../test/agent-client-answers.js';
import { agentEnvelope } from '../../test/envelopes.js';
import type { ConversationJournal } from '../conversations/conversation-store.js';
import { AgentClient } from './agent-client.js';
import type { AgentTransport, TransportListener } from './transport.js';

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
