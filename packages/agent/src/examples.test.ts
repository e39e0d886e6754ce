/** The README's examples: shown verbatim in the README, and run here against real sockets and databases. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LINEUP_CONNECTION_REFUSALS } from '@lineup/shared/protocol';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { POMODORO_INVENTORY_TOOLS } from '../../scripted-agent/test/pomodoro.js';
import * as actionLedger from '../examples/action-ledger.js';
import { serveWithAiSdk } from '../examples/ai-sdk-brain.js';
import * as echo from '../examples/echo-brain.js';
import { serve } from '../examples/serve.js';
import * as streamRecords from '../examples/stream-records.js';
import { POSTGRES_URL } from '../test/databases.js';
import { connectDevice, inventoryEnvelope, type TestDevice } from '../test/device.js';
import { type AgentBrain, type AgentHost, AgentStore, startAgentHost } from './index.js';
import { openPGlite } from './store/pglite.js';

const EXAMPLES = ['serve.ts', 'echo-brain.ts', 'ai-sdk-brain.ts', 'stream-records.ts', 'action-ledger.ts'];
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** Pomodoro's `pomodoro.start` as a client lists it (from the app's committed manifest). */
const POMODORO_START = POMODORO_INVENTORY_TOOLS.find(
  (tool) => tool.name === 'pomodoro.start',
) as (typeof POMODORO_INVENTORY_TOOLS)[number];

const userMessage = (conversationId: string, id: string, text: string) => ({
  v: 1,
  id,
  type: 'lineup.v1.chat.user_message',
  conversation_id: conversationId,
  sender: { kind: 'client', id: 'examples-test' },
  payload: { text },
});

describe('README', () => {
  it.each(EXAMPLES)('shows examples/%s verbatim', (name) => {
    expect(read('../README.md')).toContain(read(`../examples/${name}`).trimEnd());
  });
});

describe('examples/serve.ts', () => {
  const devices: TestDevice[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const device of devices.splice(0)) await device.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    vi.restoreAllMocks();
  });

  it('prints a device URL with a token; the scripted brain answers on it, and a device without one gets 4008', async () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    const server = await serve({ port: 0 });
    cleanups.push(server.close);
    expect(server.deviceUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/agent\?token=lat_[A-Za-z0-9_-]{43}$/);
    expect(printed).toHaveBeenCalledWith(`device URL: ${server.deviceUrl}`);

    const device = await connectDevice(server.deviceUrl);
    devices.push(device);
    expect(device.protocol).toBe('lineup.v1.ack');
    device.send(inventoryEnvelope('conv-1', 'r1'));
    device.send(userMessage('conv-1', 'u1', 'help'));
    await device.next((frame) => frame.ack === 'u1');
    const reply = await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    expect(reply).toMatchObject({ conversation_id: 'conv-1', sender: { kind: 'agent', id: 'lineup-agent' } });

    const url = new URL(server.deviceUrl);
    url.search = '';
    const stranger = await connectDevice(url.toString());
    devices.push(stranger);
    stranger.send(inventoryEnvelope('conv-1', 'r1'));
    expect(await stranger.closed).toEqual(LINEUP_CONNECTION_REFUSALS.unauthorized);
    expect(stranger.frames).toEqual([]);
  });

  // CI sets LINEUP_TEST_POSTGRES_URL: the same example on a PostgreSQL server, in a database of its own.
  it.runIf(POSTGRES_URL)('serves on a postgres:// store too', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    const name = `lineup_examples_${process.pid}_${Date.now()}`;
    await admin(`CREATE DATABASE ${name}`);
    cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(POSTGRES_URL as string);
    url.pathname = `/${name}`;
    const server = await serve({ store: url.toString(), port: 0 });
    cleanups.unshift(server.close);
    const device = await connectDevice(server.deviceUrl);
    devices.push(device);
    device.send(inventoryEnvelope('conv-1', 'r1'));
    device.send(userMessage('conv-1', 'u1', 'help'));
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
  });

  it('with llm, the chat completions brain asks the endpoint and says its answer', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const requests: { authorization: string | undefined; body: { model: string; messages: unknown[] } }[] =
      [];
    const endpoint = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        requests.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            choices: [
              { message: { role: 'assistant', content: 'Hello from the model' }, finish_reason: 'stop' },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => endpoint.close(() => resolve())));
    const { port } = endpoint.address() as AddressInfo;

    const server = await serve({
      port: 0,
      llm: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-test', model: 'test-model' },
    });
    cleanups.unshift(server.close);
    const device = await connectDevice(server.deviceUrl);
    devices.push(device);
    device.send(inventoryEnvelope('conv-1', 'r1'));
    device.send(userMessage('conv-1', 'u1', 'Hi there'));
    const reply = await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    expect(reply.payload).toEqual({ text: 'Hello from the model' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.authorization).toBe('Bearer sk-test');
    expect(requests[0]?.body.model).toBe('test-model');
    expect(requests[0]?.body.messages.at(-1)).toEqual({ role: 'user', content: 'Hi there' });
  });
});

describe('examples/echo-brain.ts', () => {
  it('main() gets the echo back over a real WebSocket, the token as a subprotocol', async () => {
    expect(await echo.main()).toBe('echo: hello');
  });

  it('the store logs both envelopes, and the acknowledged echo is not sent again', async () => {
    const store = await AgentStore.open(await openPGlite('memory'));
    const host = await startAgentHost({ store, brain: echo.echoBrain, port: 0 });
    try {
      const token = await store.issueDeviceToken('laptop');
      expect(await echo.say(host.url, token, 'hi')).toBe('echo: hi');
      const key = { deviceId: 'laptop', conversationId: 'conv-1' };
      await expect.poll(async () => (await store.undelivered(key)).length).toBe(0);
      const log = await store.log(key);
      expect(log.map((entry) => [entry.direction, entry.type])).toEqual([
        ['in', 'lineup.v1.client.inventory'],
        ['in', 'lineup.v1.chat.user_message'],
        ['out', 'lineup.v1.chat.agent_message'],
      ]);
      // The device says the same again (same ids, as after a reconnect): a copy, acknowledged and not handled.
      const device = await connectDevice(`${host.url}?token=${token}`);
      device.send({ ...inventoryEnvelope('conv-1', 'r1', [], 'example-device'), id: 'inv:r1:conv-1' });
      device.send({
        ...userMessage('conv-1', 'msg-1', 'hi'),
        sender: { kind: 'client', id: 'example-device' },
      });
      await device.next((frame) => frame.ack === 'msg-1');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(device.envelopes()).toEqual([]);
      await device.close();
      expect(await store.log(key)).toHaveLength(3);
    } finally {
      await host.close();
      await store.close();
    }
  });
});

describe('examples/ai-sdk-brain.ts', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    vi.restoreAllMocks();
  });

  it('an AI SDK provider model plays the Pomodoro story: the tool call reaches the device, the result the model', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const bodies: {
      authorization: string | undefined;
      body: { messages: { role: string }[]; tools?: unknown[] };
    }[] = [];
    const answers: object[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'pomodoro__start', arguments: '{"minutes":20}' },
          },
        ],
      },
      { role: 'assistant', content: 'Focus started: 20 minutes.' },
    ];
    const endpoint = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        bodies.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
        const message = answers.shift();
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `r${bodies.length}`,
            object: 'chat.completion',
            created: 0,
            model: 'test-model',
            choices: [
              { index: 0, message, finish_reason: 'tool_calls' in (message ?? {}) ? 'tool_calls' : 'stop' },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => endpoint.close(() => resolve())));
    const { port } = endpoint.address() as AddressInfo;
    const server = await serveWithAiSdk({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'sk-test',
      model: 'test-model',
      port: 0,
    });
    cleanups.unshift(server.close);
    const device = await connectDevice(server.deviceUrl);
    cleanups.unshift(() => device.close());
    device.send(inventoryEnvelope('conv-1', 'r1', [POMODORO_START]));
    device.send(userMessage('conv-1', 'u1', 'start a 20 minute focus'));
    const call = await device.next((frame) => frame.type === 'lineup.v1.tool.call');
    expect(call.payload).toEqual({
      call_id: 'call_1',
      inventory_revision: 'r1',
      tool: 'pomodoro.start',
      arguments: { minutes: 20 },
    });
    device.send({
      ...userMessage('conv-1', 'res-1', ''),
      type: 'lineup.v1.tool.result',
      payload: { call_id: 'call_1', outcome: 'completed', result: { status: 'started' } },
    });
    const reply = await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    expect(reply.payload).toEqual({ text: 'Focus started: 20 minutes.' });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.authorization).toBe('Bearer sk-test');
    expect(bodies[0]?.body.tools).toContainEqual(
      expect.objectContaining({ function: expect.objectContaining({ name: 'pomodoro__start' }) }),
    );
    expect(bodies[1]?.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: JSON.stringify({ outcome: 'completed', result: { status: 'started' } }),
    });
  });
});

describe('examples/stream-records.ts', () => {
  it('refuses the old stream after a restart with stream_epoch_ended, and opens generation 2 from its snapshot', async () => {
    const result = await streamRecords.main();
    expect(result.epochs[1]).toBeGreaterThan(result.epochs[0] as number);
    expect(result.refusal).toBe('stream_epoch_ended');
    expect(result.reopened).toEqual({ uiId: 'trip_plan', generation: 2, revision: 0 });
    expect(result.records).toEqual([
      { sourceCallId: 'call-open-1', generation: 1, status: 'streaming', revision: 1, live: false },
      { sourceCallId: 'call-open-2', generation: 2, status: 'streaming', revision: 0, live: true },
    ]);
  });
});

describe('examples/action-ledger.ts', () => {
  it('runs an operation once; after a restart a queued one fails as host_restarted and a running one is unknown', async () => {
    const result = await actionLedger.main();
    expect(result).toMatchObject({
      again: 'existing',
      conflict: 'operation_conflict',
      claimed: 'claimed',
      claimedTwice: { outcome: 'not_claimed', status: 'running' },
      queued: { outcome: 'not_claimed', status: 'failed' },
      settledLate: false,
      book: { operationId: 'op-book', status: 'succeeded', receipt: { ticket: 'T-1' } },
      queuedRecord: { status: 'failed', receipt: { code: 'host_restarted' } },
      running: { status: 'unknown' },
    });
  });
});

describe('README: the rules of the binding this file pins', () => {
  let store: AgentStore;
  let host: AgentHost;
  let token: string;
  const handed: { type: string; id: string }[] = [];
  const devices: TestDevice[] = [];
  /** Echoes user messages; on "call" it sends a tool call instead. Records what it is handed. */
  const brain: AgentBrain = (context) => ({
    receive(message) {
      handed.push({ type: message.type, id: message.id });
      if (message.type !== 'lineup.v1.chat.user_message') return;
      const envelope = (type: string, payload: object) =>
        JSON.stringify({
          v: 1,
          id: crypto.randomUUID(),
          type,
          conversation_id: context.key.conversationId,
          sender: { kind: 'agent', id: context.agentId },
          payload,
        });
      context.send(
        message.payload.text === 'call'
          ? envelope('lineup.v1.tool.call', {
              call_id: 'call-1',
              inventory_revision: 'r1',
              tool: 'pomodoro.start',
              arguments: { minutes: 25 },
            })
          : envelope('lineup.v1.chat.agent_message', { text: `echo: ${message.payload.text}` }),
      );
    },
  });
  const device = async (options: Parameters<typeof connectDevice>[1] = { token }) => {
    const connected = await connectDevice(host.url, options);
    devices.push(connected);
    return connected;
  };
  const isEcho = (text: string) => (frame: Record<string, unknown>) =>
    frame.type === 'lineup.v1.chat.agent_message' &&
    (frame.payload as { text: string }).text === `echo: ${text}`;
  const quiet = () => new Promise((resolve) => setTimeout(resolve, 300));

  beforeAll(async () => {
    store = await AgentStore.open(await openPGlite('memory'));
    token = await store.issueDeviceToken('device-r');
    host = await startAgentHost({ store, brain, port: 0 });
  });
  afterEach(async () => {
    for (const connected of devices.splice(0)) await connected.close();
    handed.length = 0;
  });
  afterAll(async () => {
    await host.close();
    await store.close();
  });

  it('plain HTTP is answered 426; an upgrade to another path 404', async () => {
    const response = await fetch(host.url.replace('ws://', 'http://'));
    expect(response.status).toBe(426);
    expect(await response.text()).toContain('This is a LineUp agent host');
    const error = await new Promise<Error>((resolve) => {
      const socket = new WebSocket(`${host.url.replace(/\/agent$/, '/other')}?token=${token}`, ['lineup.v1']);
      socket.on('error', resolve);
    });
    expect(error.message).toContain('404');
  });

  it('without lineup.v1.ack: lineup.v1 or no subprotocol, no acks, and an envelope counts as delivered once written', async () => {
    for (const [protocols, selected] of [
      [['lineup.v1'], 'lineup.v1'],
      [[], ''],
    ] as const) {
      const conversationId = `conv-plain-${selected || 'none'}`;
      const plain = await device({ token, protocols: [...protocols] });
      expect(plain.protocol).toBe(selected);
      plain.send(inventoryEnvelope(conversationId, 'r1'));
      plain.send(userMessage(conversationId, `${conversationId}-u1`, 'plain'));
      await plain.next(isEcho('plain'));
      const key = { deviceId: 'device-r', conversationId };
      await expect.poll(async () => (await store.undelivered(key)).length).toBe(0);
      expect(plain.frames.some((frame) => 'ack' in frame)).toBe(false);
      await plain.close();
      const again = await device({ token, protocols: [...protocols] });
      again.send(inventoryEnvelope(conversationId, 'r1'));
      await quiet();
      expect(again.envelopes()).toEqual([]);
    }
  });

  it('the URL’s token is used when both are given', async () => {
    const badProtocol = await device({
      token,
      protocols: ['lineup.v1.ack', `lineup.v1.token.lat_${'A'.repeat(43)}`],
    });
    expect(badProtocol.protocol).toBe('lineup.v1.ack');
    const badUrl = await device({
      token: 'lat_nope',
      protocols: ['lineup.v1.ack', `lineup.v1.token.${token}`],
    });
    expect(await badUrl.closed).toEqual(LINEUP_CONNECTION_REFUSALS.unauthorized);
  });

  it('a message of a later protocol version is answered unsupported_version, and acknowledged', async () => {
    const connected = await device();
    connected.send(inventoryEnvelope('conv-v2', 'r1'));
    connected.send({ ...userMessage('conv-v2', 'v2-1', 'from the future'), v: 2 });
    const answer = await connected.next((frame) => frame.type === 'lineup.v1.unsupported');
    expect(answer.payload).toMatchObject({ message_id: 'v2-1', reason: 'unsupported_version' });
    await connected.next((frame) => frame.ack === 'v2-1');
    expect(handed.some((entry) => entry.id === 'v2-1')).toBe(false);
    // A copy gets the same answer, same id; neither the message nor the answer is in the log.
    connected.send({ ...userMessage('conv-v2', 'v2-1', 'from the future'), v: 2 });
    await expect
      .poll(() => connected.envelopes().filter((frame) => frame.type === 'lineup.v1.unsupported'))
      .toHaveLength(2);
    const answers = connected.envelopes().filter((frame) => frame.type === 'lineup.v1.unsupported');
    expect(answers[1]?.id).toBe(answer.id);
    const log = await store.log({ deviceId: 'device-r', conversationId: 'conv-v2' });
    expect(log.map((entry) => entry.type)).toEqual(['lineup.v1.client.inventory']);
  });

  it('the agent writes only into a conversation in session: what it said goes out when the inventory comes', async () => {
    const connected = await device();
    connected.send(userMessage('conv-late', 'late-1', 'before the inventory'));
    await connected.next((frame) => frame.ack === 'late-1');
    await quiet();
    expect(connected.envelopes()).toEqual([]);
    connected.send(inventoryEnvelope('conv-late', 'r1'));
    await connected.next(isEcho('before the inventory'));
  });

  it('a final tool.result reaches the brain once per call_id, also under another envelope id', async () => {
    const connected = await device();
    connected.send(inventoryEnvelope('conv-call', 'r1'));
    connected.send(userMessage('conv-call', 'call-u1', 'call'));
    await connected.next((frame) => frame.type === 'lineup.v1.tool.call');
    const result = (id: string) => ({
      ...userMessage('conv-call', id, ''),
      type: 'lineup.v1.tool.result',
      payload: { call_id: 'call-1', outcome: 'completed', result: { minutes: 25 } },
    });
    connected.send(result('result-1'));
    connected.send(result('result-2'));
    await connected.next((frame) => frame.ack === 'result-2');
    await quiet();
    expect(handed.filter((entry) => entry.type === 'lineup.v1.tool.result')).toEqual([
      { type: 'lineup.v1.tool.result', id: 'result-1' },
    ]);
    expect(await store.call({ deviceId: 'device-r', conversationId: 'conv-call' }, 'call-1')).toMatchObject({
      status: 'final',
      result: { outcome: 'completed' },
    });
  });

  it('a frame over maxFrameBytes closes the socket with 1009', async () => {
    const small = await startAgentHost({ store, brain, port: 0, limits: { maxFrameBytes: 1_024 } });
    try {
      const connected = await connectDevice(small.url, { token });
      connected.send(inventoryEnvelope('conv-big', 'r1'));
      connected.send(userMessage('conv-big', 'big-1', 'x'.repeat(2_000)));
      expect((await connected.closed).code).toBe(1009);
    } finally {
      await small.close();
    }
  });

  it('at most 1,000 unacknowledged envelopes go out per session start, oldest first', async () => {
    const key = { deviceId: 'device-r', conversationId: 'conv-many' };
    for (let index = 0; index <= 1_000; index += 1)
      await store.logOutgoing(key, {
        v: 1,
        id: `many-${index}`,
        type: 'lineup.v1.chat.agent_message',
        conversation_id: key.conversationId,
        sender: { kind: 'agent', id: 'lineup-agent' },
        payload: { text: `${index}` },
      } as { id: string; type: string });
    const connected = await device({ token, autoAck: false });
    connected.send(inventoryEnvelope(key.conversationId, 'r1'));
    await connected.next((frame) => frame.id === 'many-999', 10_000);
    await quiet();
    const ids = connected.envelopes().map((frame) => frame.id);
    expect(ids).toHaveLength(1_000);
    expect(ids[0]).toBe('many-0');
    expect(ids).not.toContain('many-1000');
  });
});
