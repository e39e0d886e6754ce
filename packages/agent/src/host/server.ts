/**
 * The agent host's WebSocket side: the `lineup.v1` binding (packages/shared/docs/protocol.md, "WebSocket binding")
 * from the agent's end, on a store.
 *
 * - **Authentication first.** A device passes its token as `?token=…` on the URL (what a browser's `new
 *   WebSocket(url)` can do; the host's `?agent=` URL carries it) or as a subprotocol `lineup.v1.token.<token>`
 *   (kept out of URLs and logs; never selected). It is checked before the connection is accepted; without a valid
 *   one the socket is closed at once with 4008 `unauthorized` and nothing it sent is read.
 * - **Every frame answered or refused by the binding's rules**: a binary frame closes with 4003; text that is not
 *   JSON or not an envelope with a readable id and conversation closes with 4007; a frame over the envelope budget
 *   whose header is unreadable closes with 4009; an invalid or unknown message whose id and conversation are readable
 *   is answered `lineup.v1.unsupported` (`invalid_message` with its issues, `unknown_type`, `unsupported_version`);
 *   more frames waiting than `maxWaitingFrames`/`maxWaitingChars` close with 4013 and nothing after is read.
 * - **Taken once.** A message is recorded (de-duplicated by device, conversation, sender and id, in one transaction
 *   with the conversation's log) and then acknowledged with `{"ack":"<id>"}` in `lineup.v1.ack`, before anything it
 *   makes the agent send; a copy is acknowledged again and handled no more. A final `tool.result` is applied once.
 * - **Nothing the agent said is lost.** What the agent sends is logged before it leaves and sent again, same id, at
 *   the conversation's next session start (its `client.inventory` on a connection) until the device acknowledges it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  LINEUP_CONNECTION_REFUSALS,
  LINEUP_WIRE_LIMITS,
  type LineUpConnectionRefusal,
  type LineUpIssue,
  type LineUpMessage,
  type LineUpUnsupportedReason,
  readEnvelopeText,
  wireIssues,
} from '@lineup/shared/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import { Ownership } from '../store/owners.js';
import type { AgentStore, ConversationKey } from '../store/store.js';
import { StreamRecords } from '../store/streams.js';
import type { AgentBrain } from './brain.js';
import { Conversations, type DeviceLink } from './conversations.js';

export const LINEUP_ACK_PROTOCOL = 'lineup.v1.ack';
export const LINEUP_PROTOCOL = 'lineup.v1';
/** The subprotocol prefix that carries a device token (`lineup.v1.token.lat_…`). */
export const TOKEN_PROTOCOL_PREFIX = 'lineup.v1.token.';

export interface AgentHostLimits {
  /** Frames received on one connection and not yet handled (default 1,000). */
  readonly maxWaitingFrames: number;
  /** Their characters together (default 16 Mi). */
  readonly maxWaitingChars: number;
  /** The largest frame the socket reads at all (default 4 MiB; a larger one closes it with 1009). */
  readonly maxFrameBytes: number;
}

export const AGENT_HOST_LIMITS: AgentHostLimits = Object.freeze({
  maxWaitingFrames: 1_000,
  maxWaitingChars: 16 * 1024 * 1024,
  maxFrameBytes: 4 * LINEUP_WIRE_LIMITS.maxEnvelopeBytes,
});

export interface AgentHostOptions {
  readonly store: AgentStore;
  readonly brain: AgentBrain;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `/agent`. */
  readonly path?: string;
  /** `sender.id` of the agent's envelopes (default `lineup-agent`). */
  readonly agentId?: string;
  readonly limits?: Partial<AgentHostLimits>;
  /**
   * How often this worker looks in the database for work that reaches it from other workers (default 250 ms): its
   * conversations' envelopes taken elsewhere, conversations of its devices whose owner ended, and what other
   * workers' brains said to its devices.
   */
  readonly pollMs?: number;
  /**
   * How often this worker checks that the tokens of its open connections are still in force (default 1,000 ms): a
   * connection whose token was revoked or replaced since (by any worker, or `lineup-agent token revoke`) is closed
   * with 4008 `unauthorized`.
   */
  readonly tokenCheckMs?: number;
  /**
   * How long a conversation's brain may sit idle in memory (default 600,000 ms, 10 minutes). A brain that can
   * `restore` and says it is `idle()` (the included ones do) is then dropped, and rebuilt from the log when its
   * conversation next has work: memory follows the conversations in use, not every conversation ever seen.
   */
  readonly brainIdleMs?: number;
  /** Problems worth a log line: refused frames, brain errors, failed sends. Never about a frame's content. */
  readonly onProblem?: (problem: unknown) => void;
}

export interface AgentHost {
  /** `ws://host:port/path`: add `?token=<device token>` for a device. */
  readonly url: string;
  readonly port: number;
  /** What this worker holds now: open device connections, and conversation brains in memory. */
  stats(): { readonly connections: number; readonly brains: number };
  /**
   * Stops accepting, closes every socket, cancels what brains scheduled and ends this run for the other workers (its
   * conversations may move at once). The store stays open.
   */
  close(): Promise<void>;
}

/** A `{"ack":"<id>"}` frame of the binding: exactly one string member named ack. */
function ackOf(text: string): string | undefined {
  if (!text.startsWith('{"ack"')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Object.keys(value).length !== 1) return undefined;
    const ack = (value as { ack?: unknown }).ack;
    return typeof ack === 'string' ? ack : undefined;
  } catch {
    return undefined;
  }
}

function tokenOf(request: IncomingMessage, url: URL): string | undefined {
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null) return fromUrl;
  const offered = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((value) => value.trim());
  return offered
    .find((value) => value.startsWith(TOKEN_PROTOCOL_PREFIX))
    ?.slice(TOKEN_PROTOCOL_PREFIX.length);
}

function refusalFor(code: string | undefined): LineUpConnectionRefusal {
  if (code === 'too_large' || code === 'too_deep' || code === 'too_many') return 'too_large';
  return code === 'invalid_json' ? 'not_json' : 'not_an_envelope';
}

export async function startAgentHost(options: AgentHostOptions): Promise<AgentHost> {
  const { store } = options;
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/agent';
  const agentId = options.agentId ?? 'lineup-agent';
  const limits = { ...AGENT_HOST_LIMITS, ...options.limits };
  let closed = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const report = (problem: unknown) => {
    if (closed) return;
    try {
      options.onProblem?.(problem);
    } catch {
      // a problem handler never breaks the host
    }
  };
  /** Each device's latest connection. */
  const links = new Map<string, DeviceLink & { readonly socket: WebSocket }>();
  /** Every open connection, with the token it was opened with (to close it once the token is no longer in force). */
  const tokens = new Map<WebSocket, string>();
  const conversations = new Conversations({
    store,
    ownership: new Ownership(store),
    devices: () => [...links.keys()],
    streams: new StreamRecords(store),
    brain: options.brain,
    agentId,
    report,
    linkOf: (deviceId) => links.get(deviceId),
    ...(options.brainIdleMs === undefined ? {} : { brainIdleMs: options.brainIdleMs }),
    schedule: (callback, delayMs) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!closed) callback();
      }, delayMs);
      timers.add(timer);
    },
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxFrameBytes,
    handleProtocols: (offered) =>
      offered.has(LINEUP_ACK_PROTOCOL)
        ? LINEUP_ACK_PROTOCOL
        : offered.has(LINEUP_PROTOCOL)
          ? LINEUP_PROTOCOL
          : false,
  });
  const http = createServer((_request, response) => {
    response
      .writeHead(426, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`This is a LineUp agent host: connect a LineUp client with a WebSocket to ${path}.\n`);
  });

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const url = new URL(request.url ?? '/', 'ws://agent-host');
    if (url.pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const token = tokenOf(request, url);
    store.authenticate(token).then(
      (deviceId) =>
        wss.handleUpgrade(request, socket, head, (ws) => {
          if (deviceId === null || closed) {
            const { code, reason } = LINEUP_CONNECTION_REFUSALS.unauthorized;
            ws.close(code, reason);
            return;
          }
          tokens.set(ws, token as string);
          ws.once('close', () => tokens.delete(ws));
          accept(ws, deviceId);
        }),
      (error: unknown) => {
        report(error);
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      },
    );
  });

  function accept(socket: WebSocket, deviceId: string): void {
    const acking = socket.protocol === LINEUP_ACK_PROTOCOL;
    const session = new Set<string>();
    let refused = false;
    let waitingFrames = 0;
    let waitingChars = 0;
    let queue = Promise.resolve();
    const link: DeviceLink & { readonly socket: WebSocket } = {
      socket,
      acking,
      sent: new Set(),
      inSession: (conversationId) => session.has(conversationId),
      sendFrame: (text) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN) return reject(new Error('The device is not connected.'));
          socket.send(text, (error) => (error ? reject(error) : resolve()));
        }),
    };
    links.set(deviceId, link);
    socket.on('close', () => {
      if (links.get(deviceId) === link) links.delete(deviceId);
    });
    socket.on('error', report);

    const refuse = (refusal: LineUpConnectionRefusal) => {
      if (refused) return;
      refused = true;
      const { code, reason } = LINEUP_CONNECTION_REFUSALS[refusal];
      socket.close(code, reason);
    };
    const sendAck = async (id: string) => {
      if (acking) await link.sendFrame(JSON.stringify({ ack: id })).catch(() => {});
    };
    /** The host's own answer to a message it refuses: derived from the answered id, so a copy gets a copy. */
    const answer = async (
      conversationId: string,
      messageId: string,
      reason: LineUpUnsupportedReason,
      messageType: string | undefined,
      issues?: LineUpIssue[],
    ) => {
      const id = `${agentId}:a:${createHash('sha256').update(`${conversationId}\n${messageId}`).digest('hex').slice(0, 24)}`;
      const envelope = {
        v: 1,
        id,
        type: 'lineup.v1.unsupported',
        conversation_id: conversationId,
        sender: { kind: 'agent', id: agentId },
        payload: {
          message_id: messageId,
          ...(messageType === undefined ? {} : { message_type: messageType }),
          reason,
          ...(issues === undefined ? {} : { issues }),
        },
      };
      await link.sendFrame(JSON.stringify(envelope)).catch(() => {});
    };

    const handle = async (text: string): Promise<void> => {
      const ack = acking ? ackOf(text) : undefined;
      if (ack !== undefined) {
        await store.markDelivered(deviceId, ack);
        link.sent.delete(ack);
        return;
      }
      const read = readEnvelopeText(text, { direction: 'client_to_agent' });
      if (read.kind === 'invalid') {
        const { id, conversation_id: conversationId, type } = read.header;
        report(read.error);
        if (id === undefined || conversationId === undefined)
          return refuse(refusalFor(read.error.issues[0]?.code));
        await answer(conversationId, id, 'invalid_message', type, wireIssues(read.error.issues));
        return sendAck(id);
      }
      if (read.kind === 'unsupported') {
        if (read.id === undefined || read.conversation_id === undefined) return refuse('not_an_envelope');
        await answer(read.conversation_id, read.id, read.reason, read.type);
        return sendAck(read.id);
      }
      const message: LineUpMessage = read.message;
      const key: ConversationKey = { deviceId, conversationId: message.conversation_id };
      const outcome = await store.takeEnvelope(key, message);
      await sendAck(message.id);
      if (message.type === 'lineup.v1.client.inventory') {
        if (outcome === 'new') await store.saveInventory(key, message.payload.revision, message.payload);
        if (!session.has(key.conversationId)) {
          session.add(key.conversationId);
          void conversations.resume(key, link);
        }
      }
      // Its brain gets it where the conversation is handled: here, or on the worker that owns it. A session start
      // pokes too, even with an inventory seen before: a conversation with a past gets its brain back at once.
      if (outcome === 'new' || message.type === 'lineup.v1.client.inventory') void conversations.poke(key);
    };

    socket.on('message', (data, isBinary) => {
      // Once refused, nothing more is read; what arrived before the refusal is still handled, in order.
      if (refused || closed) return;
      if (isBinary) return refuse('binary_frame');
      const text = String(data);
      if (waitingFrames + 1 > limits.maxWaitingFrames || waitingChars + text.length > limits.maxWaitingChars)
        return refuse('overloaded');
      waitingFrames += 1;
      waitingChars += text.length;
      queue = queue
        .then(() => handle(text))
        .catch(report)
        .finally(() => {
          waitingFrames -= 1;
          waitingChars -= text.length;
        });
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8787, host, () => {
      http.off('error', reject);
      http.on('error', report);
      resolve();
    });
  });
  // The worker's heartbeat (its conversations stay its own while it beats) and its poll of the database.
  const heartbeat = setInterval(
    () => {
      store.heartbeat().catch(report);
    },
    Math.max(50, store.leaseMs / 4),
  );
  let polling: ReturnType<typeof setTimeout> | undefined;
  const poll = () => {
    polling = setTimeout(() => {
      conversations
        .poll()
        .catch(report)
        .finally(() => {
          if (!closed) poll();
        });
    }, options.pollMs ?? 250);
  };
  poll();
  const idleMs = options.brainIdleMs ?? 600_000;
  const eviction = setInterval(() => conversations.evictIdle(), Math.max(100, Math.min(idleMs / 4, 60_000)));
  // Tokens revoked or replaced while their connections are open: those connections end.
  const tokenCheck = setInterval(() => {
    const open = [...tokens];
    store
      .tokensInForce(open.map(([, token]) => token))
      .then((inForce) => {
        open.forEach(([ws], index) => {
          if (inForce[index] || !tokens.has(ws)) return;
          tokens.delete(ws);
          const { code, reason } = LINEUP_CONNECTION_REFUSALS.unauthorized;
          ws.close(code, reason);
        });
      })
      .catch(report);
  }, options.tokenCheckMs ?? 1_000);
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `ws://${shownHost}:${port}${path}`,
    port,
    stats: () => ({ connections: tokens.size, brains: conversations.brains }),
    close: () =>
      new Promise<void>((done) => {
        closed = true;
        clearInterval(heartbeat);
        clearInterval(tokenCheck);
        clearInterval(eviction);
        clearTimeout(polling);
        // The others may take this worker's conversations at once.
        store.retire().catch(() => {});
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.close(() => done());
        http.closeAllConnections();
      }),
  };
}
