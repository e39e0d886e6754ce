/** The README's examples: shown verbatim, and run here against the runtime's real AgentClient. */
import type { AddressInfo } from 'node:net';
import {
  AgentClient,
  type AgentTransport,
  createInProcessTransport,
  createWebSocketTransport,
  type WebSocketLike,
} from '@lineup/runtime';
import type { ClientInventoryPayload, LineUpMessage } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import inPageSource from '../examples/in-page.ts?raw';
import websocketServerSource from '../examples/websocket-server.ts?raw';
import readme from '../README.md?raw';
import { POMODORO_INVENTORY_TOOLS } from '../test/pomodoro.js';
import { SCRIPTED_AGENT_PHRASES } from './conversation/intents.js';
import { LANGUAGES } from './conversation/language.js';

const INVENTORY = {
  revision: 'inventory-1',
  standard_components: [{ id: 'intelligent_ui', version: '1.1' }],
  applications: [],
  capabilities: [],
  tools: POMODORO_INVENTORY_TOOLS,
} as ClientInventoryPayload;

/** A client with no runtime: tool calls are answered with `unsupported` errors, which the agent explains. */
function connect(transport: AgentTransport) {
  const received: LineUpMessage[] = [];
  const client = new AgentClient({
    transport,
    clientId: 'readme-host',
    inventory: async () => INVENTORY,
    handlers: { received: (message) => void received.push(message) },
    conversations: ['conv_1'],
  });
  client.start();
  const replies = () =>
    received.flatMap((message) =>
      message.type === 'lineup.v1.chat.agent_message' ? [message.payload.text] : [],
    );
  return { client, received, replies };
}

describe('README', () => {
  it('shows the examples verbatim', () => {
    expect(readme).toContain(inPageSource.trimEnd());
    expect(readme).toContain(websocketServerSource.trimEnd());
  });

  it('lists every phrase the agent understands', () => {
    for (const { examples } of Object.values(SCRIPTED_AGENT_PHRASES))
      for (const language of LANGUAGES)
        for (const phrase of examples[language]) expect(readme).toContain(`_${phrase}_`);
  });
});

describe('README example: the demo agent in the page', () => {
  it('answers the host through an in-process transport, and detaches', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const { transport, agent } = createInProcessTransport();
      const { attachDemoAgent } = await import('../examples/in-page.js');
      const detach = attachDemoAgent(agent);
      const { client, received, replies } = connect(transport);
      await vi.waitFor(async () => {
        await vi.advanceTimersByTimeAsync(0);
        expect(client.status).toBe('open');
      });
      await client.sendUserMessage('conv_1', 'stream an interface');
      // The frames arrive paced: one at once, then one per STREAM_FRAME_DELAY_MS.
      await vi.advanceTimersByTimeAsync(10);
      expect(received.filter((message) => message.type === 'lineup.v1.ui.checkpoint')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(4 * 400);
      expect(received.filter((message) => message.type === 'lineup.v1.ui.checkpoint')).toHaveLength(5);
      expect(replies()[0]).toContain('savings projection');
      detach();
      await client.sendUserMessage('conv_1', 'help');
      await vi.advanceTimersByTimeAsync(10);
      expect(replies()).toHaveLength(1);
      client.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('README example: the reference agent server', () => {
  it('serves the runtime’s WebSocket transport, and the same agent after a reconnect', async () => {
    const { serveDemoAgent } = await import('../examples/websocket-server.js');
    const server = serveDemoAgent(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const sockets: WebSocket[] = [];
    const { client, replies } = connect(
      createWebSocketTransport({
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        connect: (url, protocols) => {
          const socket = new WebSocket(url, protocols);
          sockets.push(socket);
          return socket as unknown as WebSocketLike;
        },
        backoff: { initialMs: 1, maxMs: 5 },
      }),
    );
    await vi.waitFor(() => expect(client.status).toBe('open'));
    expect(sockets[0]?.protocol).toBe('lineup.v1');
    await client.sendUserMessage('conv_1', 'start a 20 minute focus');
    await vi.waitFor(() => expect(replies()).toHaveLength(2));
    expect(replies()).toEqual([
      'Opening **Pomodoro** for a 20-minute focus session. The timer starts once you see it.',
      // This client has no runtime: it answers every tool call `unsupported`.
      '`pomodoro.start` did not work: this client does not offer that tool to me (`unsupported`).',
    ]);
    // A lost connection: the client dials again and sends the inventory first; the agent is the same one.
    sockets[0]?.terminate();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    await vi.waitFor(() => expect(client.status).toBe('open'));
    await client.sendUserMessage('conv_1', '你能做什么？');
    await vi.waitFor(() => expect(replies()).toHaveLength(3));
    expect(replies()[2]).toContain('演示 Agent');
    client.stop();
    for (const socket of server.clients) socket.terminate();
    await new Promise((resolve) => server.close(resolve));
  });
});
