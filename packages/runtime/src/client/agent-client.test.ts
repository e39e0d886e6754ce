/**
 * The client in process with a scripted agent: session start (inventory first), dispatch of every agent →
 * client type, `unsupported` answers, refused frames, dedupe both ways, tool calls through the real runtime and
 * outbox, a dropped connection in the middle, and outgoing envelopes that are always valid.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONVERSATION, type Setup, setUp, summary } from '../../test/agent-client.js';
import { agentEnvelope } from '../../test/envelopes.js';
import { AppRegistry } from '../apps/registry.js';
import { AgentClient, AgentClientError } from './agent-client.js';
import { type AgentTransport, createInProcessTransport } from './transport.js';

let setup: Setup;
beforeEach(async () => {
  setup = await setUp();
});

describe('session start', () => {
  it('sends each open conversation the inventory first, then what the outbox held', async () => {
    const { frames, client } = setup;
    await vi.waitFor(() => expect(client.status).toBe('open'));
    // The inventory once at session start; the install's pending row holds the same revision, so it is not
    // sent again (and counts as delivered).
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    expect(summary(frames)).toEqual(['client.inventory conv_1 inventory-1']);
    expect(frames[0]?.id).toMatch(/^web-host:inv:[0-9a-f]{16}$/);
    expect(client.inventoryRevisionSent(CONVERSATION)).toBe('inventory-1');
    expect(frames.every((frame) => frame.sender.kind === 'client' && frame.sender.id === 'web-host')).toBe(
      true,
    );
  });

  it('refuses a message in a conversation outside the session with a definite answer, creating nothing', async () => {
    const { agent, frames, handlers, db, client } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'Hello **there**' }, 'msg_a', 'conv_2'));
    agent.send(
      agentEnvelope(
        'lineup.v1.tool.call',
        { call_id: 'call_x', inventory_revision: 'inventory-1', tool: 'focus.interrupt', arguments: {} },
        'msg_b',
        'conv_2',
      ),
    );
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(frames.slice(1).map((frame) => [frame.type, frame.conversation_id, frame.payload])).toEqual([
      [
        'lineup.v1.unsupported',
        'conv_2',
        { message_id: 'msg_a', message_type: 'lineup.v1.chat.agent_message', reason: 'unknown_conversation' },
      ],
      [
        'lineup.v1.tool.result',
        'conv_2',
        {
          call_id: 'call_x',
          outcome: 'error',
          error: { code: 'unknown_conversation', message: expect.stringContaining('no client.inventory') },
        },
      ],
    ]);
    expect(handlers.agentMessage).not.toHaveBeenCalled();
    expect(await db.count('tool_calls')).toBe(0);
    expect(client.conversations).toEqual([CONVERSATION]);
    // Once the host opens it, the conversation gets the inventory and the agent may speak there.
    await client.openConversation('conv_2');
    await vi.waitFor(() => expect(summary(frames).at(-1)).toBe('client.inventory conv_2 inventory-1'));
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'Hello' }, 'msg_c', 'conv_2'));
    await vi.waitFor(() => expect(handlers.agentMessage).toHaveBeenCalledTimes(1));
  });
});

describe('dispatch', () => {
  it('hands every agent → client type to its handler, once per envelope id', async () => {
    const { agent, handlers } = setup;
    const doc = {
      version: '1.0',
      id: 'doc1',
      mode: 'structured_ui',
      title: 'Hi',
      state: {},
      derived: {},
      root: { type: 'Text', id: 't', props: { text: 'Hi' } },
    };
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: doc }, 'msg_doc'));
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: doc }, 'msg_doc'));
    agent.send(
      agentEnvelope('lineup.v1.ui.open', {
        instance_id: 'weather.01',
        app: {
          id: 'com.example.weather',
          version: '1.0.0',
          name: 'Weather',
          html: '<p>Hi</p>',
          css: '',
          js: '',
        },
        state: {},
      }),
    );
    agent.send(agentEnvelope('lineup.v1.ui.patch', { instance_id: 'weather.01', state: { t: 1 } }));
    agent.send(agentEnvelope('lineup.v1.ui.close', { instance_id: 'weather.01', reason: 'done' }));
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'Done.' }));
    agent.send(agentEnvelope('lineup.v1.unsupported', { message_id: 'web-host:m1', reason: 'unknown_type' }));
    await vi.waitFor(() => expect(handlers.agentUnsupported).toHaveBeenCalledTimes(1));
    expect(handlers.document).toHaveBeenCalledTimes(1);
    expect(vi.mocked(handlers.document).mock.calls[0]?.[0]).toMatchObject({
      id: 'msg_doc',
      payload: { document: doc },
    });
    expect(handlers.surfaceOpen).toHaveBeenCalledTimes(1);
    expect(handlers.surfacePatch).toHaveBeenCalledTimes(1);
    expect(handlers.surfaceClose).toHaveBeenCalledTimes(1);
    expect(vi.mocked(handlers.agentMessage).mock.calls[0]?.[0].payload).toEqual({ text: 'Done.' });
    expect(handlers.problem).not.toHaveBeenCalled();
  });

  it('answers an unknown type and a later version with a real unsupported envelope, and runs nothing', async () => {
    const { agent, frames, handlers } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.send(agentEnvelope('lineup.v1.ui.frobnicate', { anything: 1 }, 'msg_unknown'));
    agent.send({ ...agentEnvelope('lineup.v1.ui.open', {}, 'msg_v2'), v: 2 });
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(frames.slice(1).map((frame) => frame.payload)).toEqual([
      { message_id: 'msg_unknown', message_type: 'lineup.v1.ui.frobnicate', reason: 'unknown_type' },
      { message_id: 'msg_v2', message_type: 'lineup.v1.ui.open', reason: 'unsupported_version' },
    ]);
    expect(frames.slice(1).every((frame) => frame.type === 'lineup.v1.unsupported')).toBe(true);
    expect(handlers.surfaceOpen).not.toHaveBeenCalled();
  });

  it('answers a ui.open by reference it cannot honour unsupported (unknown_reference, revoked), opening nothing', async () => {
    const { agent, frames, handlers, registry, client } = await setUp({ surfaces: true });
    await vi.waitFor(() => expect(client.status).toBe('open'));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    const open = (id: string, app_id: string, surface_id: string) =>
      agentEnvelope('lineup.v1.ui.open', { instance_id: id, surface: { app_id, surface_id }, state: {} }, id);
    agent.send(open('open_ok', 'com.example.focus', 'card'));
    agent.send(open('open_no_surface', 'com.example.focus', 'canvas'));
    agent.send(open('open_no_app', 'com.example.none', 'card'));
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(handlers.surfaceOpen).toHaveBeenCalledTimes(1);
    expect(vi.mocked(handlers.surfaceOpen).mock.calls[0]?.[0].id).toBe('open_ok');
    await registry.setEnabled('com.example.focus', false);
    agent.send(open('open_disabled', 'com.example.focus', 'card'));
    await vi.waitFor(() => expect(frames).toHaveLength(4));
    await registry.uninstall('com.example.focus');
    agent.send(open('open_removed', 'com.example.focus', 'card'));
    await vi.waitFor(() => expect(frames).toHaveLength(5));
    expect(frames.slice(1).map((frame) => [frame.type, frame.payload])).toEqual(
      [
        ['open_no_surface', 'unknown_reference'],
        ['open_no_app', 'unknown_reference'],
        ['open_disabled', 'revoked'],
        ['open_removed', 'revoked'],
      ].map(([id, reason]) => [
        'lineup.v1.unsupported',
        { message_id: id, message_type: 'lineup.v1.ui.open', reason },
      ]),
    );
    expect(handlers.surfaceOpen).toHaveBeenCalledTimes(1);
  });

  it('without a checker, every reference is unknown_reference', async () => {
    const { agent, frames, handlers } = setup;
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.send(
      agentEnvelope(
        'lineup.v1.ui.open',
        { instance_id: 'x', surface: { app_id: 'com.lineup.focus', surface_id: 'card' }, state: {} },
        'open_x',
      ),
    );
    await vi.waitFor(() => expect(frames).toHaveLength(2));
    expect(frames[1]?.payload).toEqual({
      message_id: 'open_x',
      message_type: 'lineup.v1.ui.open',
      reason: 'unknown_reference',
    });
    expect(handlers.surfaceOpen).not.toHaveBeenCalled();
  });

  it('refuses a frame with nothing to answer in at the connection, and answers the others by id', async () => {
    const { agent, frames, handlers } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.send('not json');
    await vi.waitFor(() => expect(agent.refusals).toEqual(['not_json']));
    // The connection was refused and dialled again: the new session's inventory comes first.
    await vi.waitFor(() =>
      expect(summary(frames)).toEqual(Array(2).fill('client.inventory conv_1 inventory-1')),
    );
    const before = frames.length;
    agent.send(
      agentEnvelope(
        'lineup.v1.tool.result',
        { call_id: 'x', outcome: 'error', error: { code: 'timeout' } },
        'm_dir',
      ),
    );
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: 'nope' }, 'm_doc'));
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: { version: '1.0' } }, 'm_doc2'));
    await vi.waitFor(() => expect(frames).toHaveLength(before + 3));
    expect(frames.slice(before).map((frame) => frame.payload)).toEqual([
      {
        message_id: 'm_dir',
        message_type: 'lineup.v1.tool.result',
        reason: 'invalid_message',
        issues: [expect.objectContaining({ path: 'type', code: 'invalid_value' })],
      },
      {
        message_id: 'm_doc',
        message_type: 'lineup.v1.ui.document',
        reason: 'invalid_message',
        issues: [expect.objectContaining({ path: 'payload.document', code: 'invalid_type' })],
      },
      {
        message_id: 'm_doc2',
        message_type: 'lineup.v1.ui.document',
        reason: 'invalid_message',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: 'payload.document.root', code: 'missing_property' }),
        ]),
      },
    ]);
    expect(handlers.document).not.toHaveBeenCalled();
    // Each refused frame is reported to the host too, and so is the connection the first one closed.
    expect(vi.mocked(handlers.problem).mock.calls.map(([error]) => (error as Error).name)).toEqual([
      'LineUpProtocolError',
      'Error',
      'LineUpProtocolError',
      'LineUpProtocolError',
      'UISchemaError',
    ]);
  });

  it('answers an app.call unsupported when the host declares no capability', async () => {
    const { agent, frames } = setup;
    agent.send(
      agentEnvelope('lineup.v1.app.call', {
        call_id: 'cap_1',
        capability: 'app.open_url',
        reason: 'Open the docs',
        expires_at: '2099-01-01T00:00:00Z',
        arguments: { url: 'https://example.com' },
      }),
    );
    await vi.waitFor(() => expect(frames.map((frame) => frame.type)).toContain('lineup.v1.app.result'));
    expect(frames.find((frame) => frame.type === 'lineup.v1.app.result')?.payload).toEqual({
      call_id: 'cap_1',
      status: 'unsupported',
    });
  });
});

describe('tool calls', () => {
  const start = (call_id: string) =>
    agentEnvelope('lineup.v1.tool.call', {
      call_id,
      inventory_revision: 'inventory-1',
      tool: 'focus.interrupt',
      arguments: {},
    });

  it('go to the runtime; answers leave through the outbox with row ids, a replay is answered directly', async () => {
    const { agent, frames, deliver } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    const call = start('call_1');
    agent.send(call);
    await vi.waitFor(async () => {
      await deliver();
      expect(frames).toHaveLength(3);
    });
    expect(summary(frames.slice(1))).toEqual([
      'tool.progress conv_1 call_1 accepted',
      'tool.result conv_1 call_1 completed',
    ]);
    expect(frames.slice(1).map((frame) => frame.id)).toEqual(['web-host:o2', 'web-host:o3']);
    // The same envelope again, and the same call in a new envelope, are replays: answered from the record, with
    // an answer id derived from the envelope they answer (a copy of the envelope gets a copy of the answer).
    agent.send(call);
    agent.send({ ...call, id: 'msg_again' });
    agent.send(call);
    await vi.waitFor(() => expect(frames).toHaveLength(6));
    expect(summary(frames.slice(3))).toEqual([
      'tool.result conv_1 call_1 completed',
      'tool.result conv_1 call_1 completed',
      'tool.result conv_1 call_1 completed',
    ]);
    expect(frames[3]?.id).not.toBe('web-host:o3');
    expect(frames[4]?.id).not.toBe(frames[3]?.id);
    expect(frames[5]?.id).toBe(frames[3]?.id);
    expect(await setup.db.count('tool_calls')).toBe(1);
  });

  it('a dropped connection leaves rows pending; after it is back they go out again with the same ids', async () => {
    const { agent, frames, client, db, deliver } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.send(start('call_2'));
    await vi.waitFor(async () => expect(await db.count('tool_calls')).toBe(1));
    agent.drop();
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    await deliver();
    expect(frames).toHaveLength(1);
    await expect(client.sendUserMessage(CONVERSATION, 'hello?')).rejects.toMatchObject({
      code: 'not_connected',
    });
    agent.restore();
    await vi.waitFor(() => expect(frames).toHaveLength(4));
    expect(summary(frames.slice(1))).toEqual([
      'client.inventory conv_1 inventory-1',
      'tool.progress conv_1 call_2 accepted',
      'tool.result conv_1 call_2 completed',
    ]);
    // The session-start inventory keeps its id across reconnects: the agent can drop the copy.
    expect(frames[1]?.id).toBe(frames[0]?.id);
    expect((await db.getAllFromIndex('outbox', 'by_pending')).length).toBe(0);
  });
});

describe('outgoing', () => {
  it('sends the user turn as chat.user_message and refuses invalid text without sending anything', async () => {
    const { client, frames } = setup;
    await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    await client.sendUserMessage(CONVERSATION, '现在开始 20 分钟的冥想，帮我计时');
    await vi.waitFor(() => expect(frames).toHaveLength(2));
    expect(frames[1]).toMatchObject({
      type: 'lineup.v1.chat.user_message',
      payload: { text: '现在开始 20 分钟的冥想，帮我计时' },
    });
    const refused = client.sendUserMessage(CONVERSATION, '   ');
    await expect(refused).rejects.toBeInstanceOf(AgentClientError);
    await expect(refused).rejects.toMatchObject({ code: 'invalid_message' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(frames).toHaveLength(2);
  });

  it("sends the views' latest context with the user's turn, and refuses one the protocol does not allow", async () => {
    const { client, frames } = setup;
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    const viewContext = [
      { call_id: 'call_map', tool: 'map.show_map', text: 'Paris, zoom 11', data: { zoom: 11 } },
    ];
    await client.sendUserMessage(CONVERSATION, 'where is this?', { viewContext });
    await client.sendUserMessage(CONVERSATION, 'and now?', { viewContext: [] });
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(frames[1]?.payload).toEqual({ text: 'where is this?', view_context: viewContext });
    // No view said anything since: the turn carries no view_context at all.
    expect(frames[2]?.payload).toEqual({ text: 'and now?' });
    const refused = client.sendUserMessage(CONVERSATION, 'hi', {
      viewContext: [{ call_id: 'call_map', tool: 'map.show_map' }],
    });
    await expect(refused).rejects.toMatchObject({ code: 'invalid_message' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(frames).toHaveLength(3);
  });

  it.each([
    ['a user turn', (client: AgentClient) => client.sendUserMessage('conv_2', 'hello')],
    [
      "a Surface's event",
      (client: AgentClient) =>
        client.sendUIEvent('conv_2', { instance_id: 'weather.01', event: 'refresh', data: {} }),
    ],
  ])(
    '%s in a conversation not announced yet goes after its inventory, and the conversation stays announced',
    async (_name, send) => {
      const { client, frames } = setup;
      await vi.waitFor(async () => expect(await setup.db.countFromIndex('outbox', 'by_pending')).toBe(0));
      await vi.waitFor(() => expect(frames).toHaveLength(1));
      await send(client);
      await vi.waitFor(() => expect(frames).toHaveLength(3));
      expect(frames.slice(1).map((frame) => [frame.type, frame.conversation_id])).toEqual([
        ['lineup.v1.client.inventory', 'conv_2'],
        [expect.stringMatching(/^lineup\.v1\.(chat\.user_message|ui\.event)$/), 'conv_2'],
      ]);
      expect(client.conversations).toContain('conv_2');
    },
  );

  it('refuses a client id that cannot be an envelope sender', () => {
    const { transport } = createInProcessTransport();
    expect(
      () =>
        new AgentClient({
          transport,
          clientId: 'web host',
          inventory: async () => ({ revision: 'r' }) as never,
        }),
    ).toThrow(TypeError);
  });
});

describe('connection problems', () => {
  it('reports a lost connection once per outage, not once per failed retry', async () => {
    let listener: Parameters<AgentTransport['connect']>[0] | null = null;
    const transport: AgentTransport = {
      connect: (next) => {
        listener = next;
      },
      send: () => {},
      close: () => {},
    };
    const problem = vi.fn();
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: async () => ({ revision: 'inventory-1', tools: [] }) as never,
      handlers: { problem },
    });
    client.start();
    const fail = () => listener?.closed(new Error('The agent could not be reached.'));
    fail();
    fail();
    fail();
    expect(problem).toHaveBeenCalledTimes(1);
    listener!.opened();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    fail();
    fail();
    expect(problem).toHaveBeenCalledTimes(2);
    expect(client.status).toBe('closed');
  });
});

describe('inventory rows', () => {
  it('a row of an inventory that a newer revision superseded is never sent, only the current one', async () => {
    const { agent, frames, client, db, deliver } = setup;
    await vi.waitFor(async () => expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    agent.drop();
    await vi.waitFor(() => expect(client.status).toBe('closed'));
    const registry = new AppRegistry(db);
    await registry.setEnabled('com.example.focus', false); // inventory-2
    await registry.setEnabled('com.example.focus', true); // inventory-3
    expect(await db.countFromIndex('outbox', 'by_pending')).toBe(2);
    agent.restore();
    await vi.waitFor(async () => {
      await deliver();
      expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0);
    });
    // A row leaves the outbox when it is sent; the agent's side records it when it arrives.
    const revisions = () =>
      frames
        .slice(1)
        .filter((frame) => frame.type === 'lineup.v1.client.inventory')
        .map((frame) => (frame.payload as { revision: string }).revision);
    await vi.waitFor(() => expect(revisions()).toEqual(['inventory-3']));
  });
});
