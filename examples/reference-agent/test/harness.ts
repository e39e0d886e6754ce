/**
 * The real LineUp client against the reference agent: `AgentClient` over `createWebSocketTransport` (sockets
 * from `ws`), the runtime (`AppRegistry`, `ToolRuntime`, `OutboxDelivery`) on fake-indexeddb with Pomodoro
 * installed, and a RuntimeHost that confirms the foreground at once, as a host whose user sees the app would.
 */
import 'fake-indexeddb/auto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentClient,
  AppRegistry,
  createWebSocketTransport,
  OutboxDelivery,
  openRuntimeDatabase,
  ToolRuntime,
} from '@lineup/runtime';
import { type LineUpMessage, parseEnvelopeText, type UIActionAnswerPayload } from '@lineup/shared/protocol';
import { expect, vi } from 'vitest';
import { WebSocket } from 'ws';
import { POMODORO_MANIFEST } from './pomodoro.js';

export const CONVERSATION = 'conv_reference';
let databases = 0;

export async function connectClient(url: string) {
  let now = Date.parse('2026-01-01T10:00:00Z');
  const clock = { now: () => now };
  const db = await openRuntimeDatabase(`reference-agent-${databases++}`);
  const registry = new AppRegistry(db, { clock });
  await registry.install(POMODORO_MANIFEST, { bundleUrl: '/apps/pomodoro/' });
  const outbox = new OutboxDelivery(db, { locks: null });
  const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
  const foreground: string[] = [];
  const runtime: ToolRuntime = new ToolRuntime(db, registry, {
    clock,
    host: {
      // The user sees Pomodoro at once: confirm, then deliver what the runtime wrote to the outbox.
      requestForeground(target) {
        foreground.push(target.appScope);
        queueMicrotask(
          () =>
            void runtime
              .confirmForeground(target.conversationId, target.appScope)
              .then(deliver)
              .catch((error: unknown) => problems.push(error)),
        );
      },
      closeApp() {},
      sessionDataChanged() {},
    },
  });
  const received: LineUpMessage[] = [];
  const sent: LineUpMessage[] = [];
  const replies: string[] = [];
  const problems: unknown[] = [];
  /** The `ui.action_result` answers, as an ActionRunner would receive them to settle its receipts. */
  const answers: UIActionAnswerPayload[] = [];
  const transport = createWebSocketTransport({
    url,
    connect: (address, protocols) => new WebSocket(address, protocols) as never,
  });
  const client: AgentClient = new AgentClient({
    transport,
    clientId: 'web-host',
    inventory: () => registry.inventory(),
    actions: {
      async receiveAnswer(_conversationId, answer) {
        answers.push(answer);
      },
    },
    tools: {
      async receive(conversationId, call) {
        const answer = await runtime.receive(conversationId, call);
        void deliver();
        return answer;
      },
    },
    handlers: {
      received: (message) => void received.push(message),
      sent: (message) => void sent.push(message),
      agentMessage: (message) => void replies.push(message.payload.text),
      problem: (problem) => void problems.push(problem),
    },
    conversations: [CONVERSATION],
    onSessionStart: () => void deliver(),
  });
  client.start();
  await vi.waitFor(() => expect(client.status).toBe('open'));
  return {
    client,
    runtime,
    outbox,
    transport,
    received,
    sent,
    replies,
    problems,
    answers,
    foreground,
    deliver,
    ofType: <T extends LineUpMessage['type']>(type: T) =>
      received.filter((message): message is Extract<LineUpMessage, { type: T }> => message.type === type),
    advance: (milliseconds: number) => {
      now += milliseconds;
    },
    stop: () => client.stop(),
  };
}

/** The document reference of an agent action's click: the `ui.document` example of packages/shared/docs/protocol.md. */
export const ACTION_DOCUMENT = Object.freeze({
  source_call_id: 'call_ui_0007',
  ui_id: 'compact_reader',
  generation: 0,
  revision: 0,
});

/**
 * A bare WebSocket client (no LineUp client) dialling `url` (the device URL, token included): every text frame it
 * receives. `rawEnvelope` and `rawInventory` build its client → agent envelopes.
 */
export function openRawSocket(url: string, protocols: string[] = ['lineup.v1', 'lineup.v1.ack']) {
  const socket = new WebSocket(url, protocols);
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  return new Promise<{ socket: WebSocket; frames: string[] }>((resolve, reject) => {
    socket.once('open', () => resolve({ socket, frames }));
    socket.once('error', reject);
  });
}

export const rawEnvelope = (id: string, type: string, payload: object, conversationId = 'conv_raw') =>
  JSON.stringify({
    v: 1,
    id,
    type,
    conversation_id: conversationId,
    sender: { kind: 'client', id: 'raw' },
    payload,
  });

/**
 * A conversation's inventory (no tools), as a device sends it first: the agent host writes into a conversation only
 * once it got the inventory on the device's connection.
 */
export const rawInventory = (conversationId = 'conv_raw') =>
  rawEnvelope(
    `inv:r1:${conversationId}`,
    'lineup.v1.client.inventory',
    { revision: 'r1', standard_components: [], applications: [], capabilities: [], tools: [] },
    conversationId,
  );

/** The envelopes among raw frames (not the acks), parsed as a client would: an invalid one throws. */
export function envelopesOf(frames: readonly string[]): LineUpMessage[] {
  return frames
    .filter((frame) => !frame.startsWith('{"ack"'))
    .map((frame) => {
      const parsed = parseEnvelopeText(frame, { direction: 'agent_to_client' });
      if (parsed.kind !== 'message') throw new Error(`The agent sent an unsupported envelope: ${frame}`);
      return parsed.message;
    });
}

/** What the fake model gets: the parsed request body. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: {
    role: string;
    content: string | null;
    tool_call_id?: string;
    tool_calls?: unknown[];
  }[];
  readonly tools?: { type: string; function: { name: string; description: string; parameters: object } }[];
}

/**
 * A scripted chat completions server on localhost: each POST /v1/chat/completions is answered by the next
 * entry of `answers` (an assistant message and finish reason, or an HTTP status to fail with).
 */
export async function fakeChatServer(
  answers: readonly ({ message: object; finish_reason: string } | { status: number })[],
) {
  const requests: ChatRequest[] = [];
  const headers: IncomingMessage['headers'][] = [];
  let next = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(body) as ChatRequest);
      headers.push(request.headers);
      const answer = answers[next++];
      if (answer === undefined || 'status' in answer) {
        response.writeHead(answer?.status ?? 500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'scripted failure' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${next}`,
          object: 'chat.completion',
          created: 1_767_261_600,
          model: 'fake-model',
          choices: [{ index: 0, message: answer.message, finish_reason: answer.finish_reason }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
