import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A remote agent for the e2e specs: a real `ws` server the page dials (`?agent=ws://…`). It speaks the
 * `lineup.v1.ack` subprotocol and acknowledges every envelope, so the host keeps a row pending until the agent has
 * it; copies (the same id, resent after a reconnect) are acknowledged again but recorded once.
 */

export interface Envelope {
  readonly id: string;
  readonly type: string;
  readonly conversation_id: string;
  readonly payload: Record<string, unknown>;
}

export interface TestAgent {
  readonly url: string;
  /** Envelopes received, copies (same id) dropped. */
  readonly received: Envelope[];
  /** Every envelope as it arrived, copies included (to count what was sent twice). */
  readonly frames: Envelope[];
  /** Connections accepted since the agent started. */
  readonly connections: () => number;
  /** Connections open now (accepted and not closed yet). */
  readonly openConnections: () => number;
  /** The most connections that were open at one moment since the agent started. */
  readonly peakConnections: () => number;
  /** Sends an envelope; unless told otherwise, into the conversation its first inventory came from. */
  send(type: string, payload: object, conversation?: string): void;
  /** Drops the current connection. */
  kill(): void;
  /** While true, every new connection is dropped at once: the agent is away. */
  refuse(value: boolean): void;
  close(): Promise<void>;
}

let sequence = 0;

export async function startAgent(): Promise<TestAgent> {
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) => (protocols.has('lineup.v1.ack') ? 'lineup.v1.ack' : false),
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const received: Envelope[] = [];
  const frames: Envelope[] = [];
  const seen = new Set<string>();
  let current: WebSocket | null = null;
  let connections = 0;
  let open = 0;
  let peak = 0;
  let refusing = false;
  server.on('connection', (socket) => {
    if (refusing) {
      socket.terminate();
      return;
    }
    current = socket;
    connections++;
    open++;
    peak = Math.max(peak, open);
    socket.on('close', () => {
      open--;
    });
    socket.on('message', (data) => {
      const text = String(data);
      // The client acknowledges what it took from the agent: not an envelope.
      if (text.startsWith('{"ack"')) return;
      const envelope = JSON.parse(text) as Envelope;
      socket.send(JSON.stringify({ ack: envelope.id }));
      frames.push(envelope);
      if (seen.has(envelope.id)) return;
      seen.add(envelope.id);
      received.push(envelope);
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    received,
    frames,
    connections: () => connections,
    openConnections: () => open,
    peakConnections: () => peak,
    send(type, payload, conversation = received[0]?.conversation_id ?? 'conv_unknown') {
      current?.send(
        JSON.stringify({
          v: 1,
          id: `msg_ws_${++sequence}`,
          type,
          conversation_id: conversation,
          sender: { kind: 'agent', id: 'agent_ws' },
          payload,
        }),
      );
    },
    kill: () => current?.terminate(),
    refuse: (value) => {
      refusing = value;
    },
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
