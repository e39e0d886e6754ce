/**
 * The WebSocket side of the reference agent (packages/shared/docs/protocol.md, "WebSocket binding"): a `ws` server on `path`
 * that selects `lineup.v1.ack` when the client offers it (else plain `lineup.v1`), acknowledges every envelope
 * it takes with `{"ack":"<id>"}`, drops envelopes it has seen — by sender, conversation and id (delivery is at
 * least once; two devices may use the same ids) — and hands
 * each one to the agent of its conversation: one agent per `conversation_id`, created on its first envelope,
 * answering through whichever socket spoke for that conversation last, so it survives a reconnect.
 */
import type { AddressInfo } from 'node:net';
import { type ChatModel, createLLMAgent, RecentIds } from '@lineup/agent';
import { createScriptedAgent } from '@lineup/scripted-agent';
import { type WebSocket, WebSocketServer } from 'ws';

export type AgentMode = 'scripted' | 'llm';

export interface ReferenceAgentOptions {
  readonly mode: AgentMode;
  /** Required in `llm` mode. */
  readonly model?: ChatModel;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `/agent`. */
  readonly path?: string;
  /** Problems worth a log line: invalid frames, model errors, failed sends. */
  readonly onProblem?: (problem: unknown) => void;
}

export interface ReferenceAgentServer {
  /** `ws://host:port/path`, for `?agent=`. */
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server: closes its sockets, cancels the frames its agents had scheduled, and reports nothing more
   * to `onProblem`.
   */
  close(): Promise<void>;
}

/** The part of an agent the server drives: one frame at a time, never throwing. */
interface ConversationAgent {
  receive(text: string): void;
}

export const LINEUP_ACK_PROTOCOL = 'lineup.v1.ack';
export const LINEUP_PROTOCOL = 'lineup.v1';

/** The envelope id and conversation of a frame, read without validating it (the agent validates). */
function headerOf(text: string): { id?: string; conversationId?: string; senderId?: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    const { id, conversation_id: conversationId, sender } = value as Record<string, unknown>;
    const senderId =
      typeof sender === 'object' && sender !== null ? (sender as Record<string, unknown>).id : undefined;
    return {
      ...(typeof id === 'string' ? { id } : {}),
      ...(typeof conversationId === 'string' ? { conversationId } : {}),
      ...(typeof senderId === 'string' ? { senderId } : {}),
    };
  } catch {
    return {};
  }
}

export function startReferenceAgent(options: ReferenceAgentOptions): Promise<ReferenceAgentServer> {
  if (options.mode === 'llm' && options.model === undefined)
    throw new TypeError('startReferenceAgent: llm mode needs a model.');
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/agent';
  // Once closed, the server says and reports nothing more: the frames its agents had scheduled (the rest of a
  // component stream) are cancelled, and a late model answer is dropped without a problem.
  let closed = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const schedule = (callback: () => void, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) callback();
    }, delayMs);
    timers.add(timer);
  };
  const report = (problem: unknown) => {
    if (!closed) options.onProblem?.(problem);
  };
  const seen = new RecentIds(4_096);
  const conversations = new Map<string, { agent: ConversationAgent; socket: WebSocket }>();

  function createAgent(conversationId: string): ConversationAgent {
    const send = (text: string) => {
      if (closed) return;
      const socket = conversations.get(conversationId)?.socket;
      if (socket === undefined || socket.readyState !== socket.OPEN)
        throw new Error(`No client is connected for ${conversationId}.`);
      socket.send(text);
    };
    if (options.mode === 'scripted') {
      return createScriptedAgent({
        agentId: 'lineup-reference-agent',
        send,
        schedule,
        onProblem: report,
      });
    }
    return createLLMAgent({ model: options.model as ChatModel, send, onProblem: report });
  }

  const server = new WebSocketServer({
    host,
    port: options.port ?? 8787,
    path,
    handleProtocols: (offered) =>
      offered.has(LINEUP_ACK_PROTOCOL)
        ? LINEUP_ACK_PROTOCOL
        : offered.has(LINEUP_PROTOCOL)
          ? LINEUP_PROTOCOL
          : false,
  });

  server.on('connection', (socket) => {
    const acking = socket.protocol === LINEUP_ACK_PROTOCOL;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return; // the binding carries text frames only
      const text = String(data);
      // In lineup.v1.ack the client acknowledges what it took too; this agent keeps no outbox to settle with it.
      if (acking && isAck(text)) return;
      const { id, conversationId, senderId } = headerOf(text);
      // The ack says "taken": it goes before anything the envelope makes the agent say, so the client never sees
      // an answer to a message it still thinks is in flight.
      if (acking && id !== undefined) socket.send(JSON.stringify({ ack: id }));
      if (id !== undefined && conversationId !== undefined) {
        let entry = conversations.get(conversationId);
        if (entry === undefined) {
          entry = { agent: createAgent(conversationId), socket };
          conversations.set(conversationId, entry);
        }
        entry.socket = socket; // answers go where this conversation spoke last
        // A repeated id is acknowledged again (the client resends until it has an ack) but not handled twice. An id
        // is the sender's within a conversation: two devices (or conversations) may use the same one, and each is
        // handled.
        if (seen.add(JSON.stringify([senderId ?? '', conversationId, id]))) entry.agent.receive(text);
      } else {
        report(new Error('A frame without an envelope id or conversation_id was ignored.'));
      }
    });
    socket.on('error', report);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      server.on('error', report);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `ws://${host}:${port}${path}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            closed = true;
            for (const timer of timers) clearTimeout(timer);
            timers.clear();
            for (const client of server.clients) client.terminate();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A `{"ack":"<id>"}` frame of the binding: exactly one string member named ack. */
function isAck(text: string): boolean {
  if (!text.startsWith('{"ack"')) return false;
  try {
    const value = JSON.parse(text) as unknown;
    return (
      typeof value === 'object' &&
      value !== null &&
      Object.keys(value).length === 1 &&
      typeof (value as { ack?: unknown }).ack === 'string'
    );
  } catch {
    return false;
  }
}
