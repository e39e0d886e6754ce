import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A remote agent that an attacker or a broken implementation would be: a real `ws` server on 127.0.0.1 that the
 * built host dials (`?agent=ws://…`), sends whatever frame a test gives it — text that is not JSON, binary, a
 * megabyte, a flood — and records exactly what the client answers: every envelope (copies included), every ack
 * the client sends in `lineup.v1.ack`, how each connection was closed, and when each connection opened.
 */

export interface ClientEnvelope {
  readonly v: number;
  readonly id: string;
  readonly type: string;
  readonly conversation_id: string;
  readonly sender: { readonly kind: string; readonly id: string };
  readonly payload: Record<string, unknown>;
}

export interface HostileAgentOptions {
  /** Select `lineup.v1.ack` and acknowledge every envelope of the client (default true). */
  readonly acks?: boolean;
  /** Close every connection as soon as it opens (a reconnect storm). */
  readonly dropEveryConnection?: boolean;
}

export interface HostileAgent {
  readonly url: string;
  /** Every envelope the client sent, in order, copies included. */
  readonly envelopes: ClientEnvelope[];
  /** The agent envelope ids the client acknowledged, in order. */
  readonly acks: string[];
  /** How each connection ended, by the client: code and reason (in order of connections). */
  readonly closes: { readonly code: number; readonly reason: string }[];
  /** When each connection opened (`Date.now()` of this process). */
  readonly openedAt: number[];
  /** Connections open now. */
  open(): number;
  /** The conversation of the client's first inventory (where an agent speaks). */
  conversation(): string;
  /** Sends a raw frame on the current connection. */
  raw(frame: string | Buffer): void;
  /** Sends an envelope from the agent; returns it. `overrides` replace header fields (or remove: undefined). */
  send(type: string, payload: unknown, overrides?: Record<string, unknown>): Record<string, unknown>;
  /** Whether to acknowledge the client's envelopes from now on. */
  acknowledge(value: boolean): void;
  /** Drops the current connection without a close handshake. */
  kill(): void;
  close(): Promise<void>;
}

let sequence = 0;

/** A fresh envelope id of the agent. */
export const agentId = (prefix = 'msg_h') => `${prefix}_${++sequence}`;

export async function startHostileAgent(options: HostileAgentOptions = {}): Promise<HostileAgent> {
  let acking = options.acks ?? true;
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) => (protocols.has('lineup.v1.ack') ? 'lineup.v1.ack' : false),
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const envelopes: ClientEnvelope[] = [];
  const acks: string[] = [];
  const closes: { code: number; reason: string }[] = [];
  const openedAt: number[] = [];
  let current: WebSocket | null = null;
  server.on('connection', (socket) => {
    openedAt.push(Date.now());
    if (options.dropEveryConnection === true) {
      socket.terminate();
      return;
    }
    current = socket;
    socket.on('close', (code, reason) => closes.push({ code, reason: String(reason) }));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = String(data);
      const value = JSON.parse(text) as { ack?: string } & ClientEnvelope;
      if (typeof value.ack === 'string' && Object.keys(value).length === 1) {
        acks.push(value.ack);
        return;
      }
      envelopes.push(value);
      if (acking) socket.send(JSON.stringify({ ack: value.id }));
    });
  });
  const conversation = () => {
    const inventory = envelopes.find((envelope) => envelope.type === 'lineup.v1.client.inventory');
    if (inventory === undefined) throw new Error('The client has sent no inventory yet.');
    return inventory.conversation_id;
  };
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    envelopes,
    acks,
    closes,
    openedAt,
    open: () => [...server.clients].filter((client) => client.readyState === 1).length,
    conversation,
    raw: (frame) => current?.send(frame),
    send(type, payload, overrides = {}) {
      const envelope: Record<string, unknown> = {
        v: 1,
        id: agentId(),
        type,
        conversation_id: conversation(),
        sender: { kind: 'agent', id: 'agent_hostile' },
        payload,
      };
      for (const [key, value] of Object.entries(overrides)) {
        if (value === undefined) delete envelope[key];
        else envelope[key] = value;
      }
      current?.send(JSON.stringify(envelope));
      return envelope;
    },
    acknowledge: (value) => {
      acking = value;
    },
    kill: () => current?.terminate(),
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The answers the client sent about agent message `id`, or about the call `callId`. */
export function answersTo(agent: HostileAgent, id: string, callId?: string): ClientEnvelope[] {
  return agent.envelopes.filter(
    (envelope) =>
      (envelope.type === 'lineup.v1.unsupported' && envelope.payload.message_id === id) ||
      (callId !== undefined &&
        (envelope.type === 'lineup.v1.tool.result' ||
          envelope.type === 'lineup.v1.tool.progress' ||
          envelope.type === 'lineup.v1.app.result') &&
        envelope.payload.call_id === callId),
  );
}
