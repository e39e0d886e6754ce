/**
 * The WebSocket binding against a real `ws` server on a local port: both subprotocols, acks that keep outbox rows
 * pending until the agent has them, a connection killed in the middle (rows sent again with the same ids, the
 * agent drops the copies, nothing runs twice), reconnects after a capped, jittered backoff.
 */
import 'fake-indexeddb/auto';
import type { AddressInfo } from 'node:net';
import { type LineUpMessage, parseEnvelopeText } from '@lineup/shared/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { focusManifest } from '../../test/manifests.js';
import { AppRegistry } from '../apps/registry.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import { OutboxDelivery } from '../outbox/delivery.js';
import { openRuntimeDatabase } from '../storage/database.js';
import { AgentClient } from './agent-client.js';
import {
  backoffDelay,
  createWebSocketTransport,
  type WebSocketFactory,
  type WebSocketLike,
} from './websocket-transport.js';

const nodeSocket: WebSocketFactory = (url, protocols) =>
  new WebSocket(url, protocols) as unknown as WebSocketLike;

interface TestAgent {
  readonly url: string;
  /** Every envelope received, in order, copies included. */
  readonly frames: LineUpMessage[];
  /** Envelopes by id, copies dropped (what a deduplicating agent keeps). */
  readonly unique: Map<string, LineUpMessage>;
  /** The ids the client acknowledged, in order (`lineup.v1.ack`). */
  readonly acks: string[];
  /** How each connection was closed by the client: code and reason. */
  readonly closes: { code: number; reason: string }[];
  /** Sends a raw frame, text or binary. */
  raw(frame: string | Buffer): void;
  readonly connections: number;
  send(envelope: object): void;
  /** Kills the current connection without a close handshake. */
  kill(): void;
  close(): Promise<void>;
}

let agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents) await agent.close();
  agents = [];
});

/**
 * `ack` acknowledges every envelope; `no-row-acks` acknowledges only envelopes that are not outbox rows (as an
 * agent that fails to store them would); `plain` speaks plain envelopes.
 */
async function startAgent(options: { mode: 'ack' | 'plain' | 'no-row-acks' }): Promise<TestAgent> {
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) =>
      options.mode === 'plain' ? 'lineup.v1' : protocols.has('lineup.v1.ack') ? 'lineup.v1.ack' : false,
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const frames: LineUpMessage[] = [];
  const unique = new Map<string, LineUpMessage>();
  const acks: string[] = [];
  const closes: { code: number; reason: string }[] = [];
  let current: WebSocket | null = null;
  let connections = 0;
  server.on('connection', (socket) => {
    current = socket;
    connections++;
    socket.on('close', (code, reason) => closes.push({ code, reason: String(reason) }));
    socket.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('{"ack"')) {
        acks.push((JSON.parse(text) as { ack: string }).ack);
        return;
      }
      const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
      if (parsed.kind !== 'message') throw new Error('The client sent an unsupported frame.');
      frames.push(parsed.message);
      if (!unique.has(parsed.message.id)) unique.set(parsed.message.id, parsed.message);
      const isRow = /:o\d+/.test(parsed.message.id);
      if (options.mode === 'ack' || (options.mode === 'no-row-acks' && !isRow))
        socket.send(JSON.stringify({ ack: parsed.message.id }));
    });
  });
  const agent: TestAgent = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    frames,
    unique,
    acks,
    closes,
    raw: (frame) => current?.send(frame),
    get connections() {
      return connections;
    },
    send: (envelope) => current?.send(JSON.stringify(envelope)),
    kill: () => current?.terminate(),
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
  agents.push(agent);
  return agent;
}

let databases = 0;
async function connectClient(url: string, options: { ackTimeoutMs?: number } = {}) {
  const db = await openRuntimeDatabase(`websocket-${databases++}`);
  const registry = new AppRegistry(db);
  await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
  const runtime = new ToolRuntime(db, registry);
  const outbox = new OutboxDelivery(db, { locks: null });
  const retries: number[] = [];
  const transport = createWebSocketTransport({
    url,
    connect: nodeSocket,
    backoff: { initialMs: 20, maxMs: 200 },
    ...options,
    onRetry: (_attempt, delay) => retries.push(delay),
  });
  let client: AgentClient;
  const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
  client = new AgentClient({
    transport,
    clientId: 'web-host',
    inventory: () => registry.inventory(),
    tools: {
      receive: async (conversationId, call) => {
        const received = await runtime.receive(conversationId, call);
        void deliver();
        return received;
      },
    },
    conversations: ['conv_1'],
    onSessionStart: () => void deliver(),
  });
  client.start();
  return { db, client, transport, retries, deliver, stop: () => client.stop() };
}

const toolCall = (id: string, call_id: string) => ({
  v: 1,
  id,
  type: 'lineup.v1.tool.call',
  conversation_id: 'conv_1',
  sender: { kind: 'agent', id: 'agent_ws' },
  payload: { call_id, inventory_revision: 'inventory-1', tool: 'focus.interrupt', arguments: {} },
});

const types = (messages: Iterable<LineUpMessage>) =>
  [...messages].map((message) => message.type.replace('lineup.v1.', ''));

describe('backoffDelay', () => {
  it('draws below a doubling ceiling that stops at the cap', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffDelay(attempt, {}, top))).toEqual([
      499, 999, 1_999, 3_999, 7_999, 15_999, 29_999, 29_999,
    ]);
    expect(backoffDelay(3, {}, () => 0)).toBe(0);
    expect(backoffDelay(40, { initialMs: 100, maxMs: 1_000 }, () => 0.5)).toBe(500);
  });
});

describe('the WebSocket binding', () => {
  it('refuses a URL that is not ws: or wss:', () => {
    expect(() => createWebSocketTransport({ url: 'http://127.0.0.1/agent' })).toThrow(TypeError);
  });

  it('with acks: the inventory first, a tool call round-trips, every row is delivered once acked', async () => {
    const agent = await startAgent({ mode: 'ack' });
    const { db, client, transport, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    expect(transport.protocol).toBe('lineup.v1.ack');
    agent.send(toolCall('msg_1', 'call_1'));
    await vi.waitFor(() => expect(types(agent.unique.values())).toContain('tool.result'));
    expect(types(agent.frames)[0]).toBe('client.inventory');
    await vi.waitFor(async () => expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0));
    stop();
  });

  it('plain agents work too: frames count as sent once they left the socket', async () => {
    const agent = await startAgent({ mode: 'plain' });
    const { db, client, transport, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    expect(transport.protocol).toBe('lineup.v1');
    await client.sendUserMessage('conv_1', 'start a 20 minute focus');
    agent.send(toolCall('msg_1', 'call_1'));
    await vi.waitFor(() => expect(types(agent.unique.values())).toContain('tool.result'));
    expect(types(agent.unique.values())).toContain('chat.user_message');
    await vi.waitFor(async () => expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0));
    stop();
  });

  it('without an ack a row stays pending, the connection is dropped, and the row goes out again with the same id', async () => {
    const agent = await startAgent({ mode: 'no-row-acks' });
    const { db, client, stop, retries } = await connectClient(agent.url, { ackTimeoutMs: 100 });
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.send(toolCall('msg_1', 'call_1'));
    await vi.waitFor(async () => expect(await db.count('tool_calls')).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 250));
    // No ack came: the first pending row (accepted) was sent, timed out, and is still pending, and the row
    // after it waits behind it, in order.
    const pending = await db.getAllFromIndex('outbox', 'by_pending');
    expect(pending.map((row) => row.type)).toEqual(['lineup.v1.tool.progress', 'lineup.v1.tool.result']);
    const rowFrames = () => agent.frames.filter((frame) => /:o\d+/.test(frame.id)).map((frame) => frame.id);
    expect(new Set(rowFrames()).size).toBe(1);
    // The ack timeout dropped the connection: the client dialled again by itself.
    await vi.waitFor(() => expect(agent.connections).toBeGreaterThanOrEqual(2));
    // After the reconnect the same row goes out again, with the same envelope id.
    await vi.waitFor(() => expect(rowFrames().length).toBeGreaterThan(1));
    expect(new Set(rowFrames()).size).toBe(1);
    expect(retries[0]).toBeLessThan(20);
    // The call ran once: one record, one final result row.
    expect(await db.count('tool_calls')).toBe(1);
    expect((await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result')).toHaveLength(1);
    stop();
  });

  it('a connection killed in the middle of a story loses nothing and runs nothing twice', async () => {
    const agent = await startAgent({ mode: 'ack' });
    const { db, client, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.send(toolCall('msg_1', 'call_1'));
    await vi.waitFor(() => expect(types(agent.unique.values())).toContain('tool.result'));
    agent.kill();
    await vi.waitFor(() => expect(agent.connections).toBe(2));
    await vi.waitFor(() => expect(client.status).toBe('open'));
    // The agent sends the next call, and the first one again (it could not know it had arrived).
    agent.send(toolCall('msg_2', 'call_2'));
    agent.send(toolCall('msg_1b', 'call_1'));
    await vi.waitFor(() =>
      expect(
        [...agent.unique.values()].filter((message) => message.type === 'lineup.v1.tool.result'),
      ).toHaveLength(3),
    );
    const results = [...agent.unique.values()]
      .filter((message) => message.type === 'lineup.v1.tool.result')
      .map((message) => (message.payload as { call_id: string }).call_id);
    // call_1's result from the outbox, call_2's, and the replay answer for call_1.
    expect(results.sort()).toEqual(['call_1', 'call_1', 'call_2']);
    expect(await db.count('tool_calls')).toBe(2);
    await vi.waitFor(async () => expect(await db.countFromIndex('outbox', 'by_pending')).toBe(0));
    stop();
  });

  it('acknowledges every agent envelope it took or answered, copies included, and nothing that was not one', async () => {
    const agent = await startAgent({ mode: 'ack' });
    const { client, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.send(toolCall('msg_1', 'call_1'));
    agent.send(toolCall('msg_1', 'call_1'));
    agent.send({ ...toolCall('msg_2', 'call_2'), type: 'lineup.v1.ui.frobnicate' });
    agent.send({ ...toolCall('msg_3', 'call_3'), payload: { call_id: 'call_3' } });
    await vi.waitFor(() => expect(agent.acks).toEqual(['msg_1', 'msg_1', 'msg_2', 'msg_3']));
    stop();
  });

  it('a plain agent gets no acknowledgements', async () => {
    const agent = await startAgent({ mode: 'plain' });
    const { client, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.send(toolCall('msg_1', 'call_1'));
    await vi.waitFor(() => expect(types(agent.unique.values())).toContain('tool.result'));
    expect(agent.acks).toEqual([]);
    stop();
  });

  it.each([
    ['a binary frame', () => Buffer.from([1, 2, 3]), 4003],
    ['text that is not JSON', () => 'hello', 4007],
    ['JSON that is no envelope', () => '{"hello":"agent"}', 4007],
    ['a frame over the budget with no header to read', () => `"${'x'.repeat(1_048_577)}"`, 4009],
  ])('refuses %s by closing the connection with its code, then dials again', async (_name, frame, code) => {
    const agent = await startAgent({ mode: 'ack' });
    const { client, stop } = await connectClient(agent.url);
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.raw(frame());
    await vi.waitFor(() => expect(agent.closes.map((close) => close.code)).toEqual([code]));
    expect(agent.closes[0]?.reason).toMatch(/^lineup: /);
    expect(Buffer.byteLength(agent.closes[0]?.reason ?? '')).toBeLessThanOrEqual(123);
    await vi.waitFor(() => expect(agent.connections).toBe(2));
    stop();
  });

  it('backs off from an agent that drops every connection as soon as it opens (a reconnect storm)', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    let connections = 0;
    server.on('connection', (socket) => {
      connections++;
      socket.terminate();
    });
    const retries: number[] = [];
    const transport = createWebSocketTransport({
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
      connect: nodeSocket,
      backoff: { initialMs: 10, maxMs: 80 },
      random: () => 0.999,
      onRetry: (_attempt, delay) => retries.push(delay),
    });
    transport.connect({ opened: () => {}, received: () => {}, closed: () => {} });
    await vi.waitFor(() => expect(retries.length).toBeGreaterThanOrEqual(5), { timeout: 3_000 });
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Every connection opened and was dropped at once: none was healthy, so the delays grow to the ceiling.
    expect(connections).toBeGreaterThanOrEqual(4);
    expect(retries.slice(0, 5)).toEqual([9, 19, 39, 79, 79]);
  });

  it.each([
    [4008, 'stops: an agent host that refuses the device token (4008) is not dialled again', 1],
    [4013, 'dials again after any other refusal (4013)', 2],
  ])('closed with %i: %s', async (code, _title, expectedConnections) => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    let connections = 0;
    server.on('connection', (socket) => {
      connections++;
      socket.close(code, 'refused');
    });
    const problems: unknown[] = [];
    const transport = createWebSocketTransport({
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent?token=lat_x`,
      connect: nodeSocket,
      backoff: { initialMs: 10, maxMs: 20 },
    });
    transport.connect({
      opened: () => {},
      received: () => {},
      closed: (error) => {
        if (error !== undefined) problems.push(error);
      },
    });
    await vi.waitFor(() => expect(problems.length).toBeGreaterThanOrEqual(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (expectedConnections === 1) {
      expect(connections).toBe(1);
      expect(problems).toHaveLength(1);
      expect(String(problems[0])).toMatch(/refused this device: it has no valid device token \(4008\)/);
    } else expect(connections).toBeGreaterThanOrEqual(expectedConnections);
  });

  it('a connection that stayed open and was acknowledged resets the backoff', async () => {
    const agent = await startAgent({ mode: 'ack' });
    const retries: number[] = [];
    const transport = createWebSocketTransport({
      url: agent.url,
      connect: nodeSocket,
      backoff: { initialMs: 10, maxMs: 80 },
      random: () => 0.999,
      healthyAfterMs: 50,
      onRetry: (_attempt, delay) => retries.push(delay),
    });
    let opened = 0;
    transport.connect({
      opened: () => {
        opened++;
        const turn = {
          v: 1,
          id: `msg_open_${opened}`,
          type: 'lineup.v1.chat.user_message',
          conversation_id: 'conv_1',
          sender: { kind: 'client', id: 'web-host' },
          payload: { text: 'hello' },
        };
        Promise.resolve(transport.send(JSON.stringify(turn))).catch(() => {});
      },
      received: () => {},
      closed: () => {},
    });
    await vi.waitFor(() => expect(opened).toBe(1));
    agent.kill();
    await vi.waitFor(() => expect(opened).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 120));
    agent.kill();
    await vi.waitFor(() => expect(opened).toBe(3));
    transport.close();
    // The first connection was dropped before it was healthy: the second retry would be 19; it was healthy by
    // then (open 120 ms, acknowledged), so the count started again.
    expect(retries).toEqual([9, 9]);
  });

  it('keeps dialling an agent that is not there yet, with growing jittered delays', async () => {
    const retries: number[] = [];
    const transport = createWebSocketTransport({
      url: 'ws://127.0.0.1:9/nothing',
      connect: nodeSocket,
      backoff: { initialMs: 10, maxMs: 40 },
      random: () => 0.999,
      onRetry: (_attempt, delay) => retries.push(delay),
    });
    const closed: unknown[] = [];
    transport.connect({ opened: () => {}, received: () => {}, closed: (error) => closed.push(error) });
    await vi.waitFor(() => expect(retries.length).toBeGreaterThanOrEqual(4), { timeout: 3_000 });
    transport.close();
    expect(retries.slice(0, 4)).toEqual([9, 19, 39, 39]);
    expect(closed.length).toBeGreaterThanOrEqual(4);
  });
});
