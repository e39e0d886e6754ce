/**
 * The WebSocket binding of the agent connection (@lineup/shared docs/protocol.md "WebSocket binding"): the client dials the
 * agent; one `lineup.v1` envelope per text frame, both ways; on a lost connection it dials again after a capped
 * exponential backoff with full jitter, and the session starts again (inventory first, then every outbox row
 * still pending, with its original envelope id).
 *
 * Delivery. The client offers two subprotocols, `lineup.v1` and `lineup.v1.ack`, and the agent picks one:
 * - `lineup.v1.ack`: the agent answers every envelope it has taken (stored or handled) with a text frame
 *   `{"ack":"<envelope id>"}`. `send` resolves only on that ack, so an outbox row stays pending until the agent
 *   proved it has it; without an ack in time (or if the socket closes first) `send` rejects, the row stays
 *   pending and is sent again, with the same id, after the next connect. Ack frames are not envelopes and never
 *   reach the client.
 *   In this mode the client acknowledges too: `acknowledge(id)` sends `{"ack":"<id>"}` for every agent envelope
 *   the client took or answered, so the agent knows what to send again after a lost connection.
 * - `lineup.v1` (or none): an agent that only speaks plain envelopes. `send` resolves once the frame has left the
 *   browser (`bufferedAmount` back to 0), which proves less: a connection lost right then may lose that frame.
 *
 * Refusals. `refuse(refusal)` closes the connection with the refusal's close code and reason
 * (`LINEUP_CONNECTION_REFUSALS`); so does a binary frame (1003) by itself. Frames that arrive after are not read.
 *
 * Unauthorized. An agent host that authenticates devices closes a connection without a valid device token with
 * 4008 (`unauthorized`): the transport reports it and stops dialling — another attempt with the same URL cannot
 * succeed. The token travels in the agent URL (`?token=…`), as `@lineup/agent` prints it.
 *
 * Backoff. The attempt counter goes back to zero only once a connection was healthy — open for `healthyAfterMs`
 * and, in `lineup.v1.ack`, having acknowledged something — so an agent that accepts and drops every connection, or
 * never acknowledges, is dialled ever more slowly up to the ceiling (a reconnect storm backs off).
 */
import { LINEUP_CONNECTION_REFUSALS } from '@lineup/shared/protocol';
import type { AgentTransport, TransportListener } from './transport.js';

/** The part of a WebSocket the transport uses (the browser's, or `ws` in Node). */
export interface WebSocketLike {
  readonly readyState: number;
  readonly protocol: string;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code?: number; readonly reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;

/**
 * The subprotocols the client offers. Plain `lineup.v1` comes first because servers that pick without looking
 * (the `ws` package's default) take the first: an agent gets acknowledgements only by choosing them.
 */
export const LINEUP_WEBSOCKET_PROTOCOLS = ['lineup.v1', 'lineup.v1.ack'] as const;

export interface BackoffOptions {
  /** The first delay's ceiling (default 500 ms). */
  readonly initialMs?: number;
  /** The largest ceiling (default 30 s). */
  readonly maxMs?: number;
}

export interface WebSocketTransportOptions {
  /** `ws://` or `wss://` URL of the agent. */
  readonly url: string;
  /** Opens a socket (default: the global `WebSocket`). */
  readonly connect?: WebSocketFactory;
  readonly backoff?: BackoffOptions;
  /** How long `send` waits for the agent's ack in `lineup.v1.ack` mode (default 10 s). */
  readonly ackTimeoutMs?: number;
  /** How long a connection must stay open before it resets the backoff (default 10 s). */
  readonly healthyAfterMs?: number;
  /** For tests: randomness of the jitter, and timers. */
  readonly random?: () => number;
  readonly timers?: {
    setTimeout(callback: () => void, delay: number): unknown;
    clearTimeout(handle: unknown): void;
  };
  /** Each reconnect scheduled: the attempt (1, 2, …) and its delay. */
  readonly onRetry?: (attempt: number, delayMs: number) => void;
}

/** The delay before reconnect attempt `attempt` (1-based): full jitter under a capped exponential ceiling. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
) {
  const initial = options.initialMs ?? 500;
  const max = options.maxMs ?? 30_000;
  const ceiling = Math.min(max, initial * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

const OPEN = 1;
const DRAIN_POLL_MS = 10;

export interface WebSocketTransport extends AgentTransport {
  /** The subprotocol the agent picked on the current connection, `''` when none. */
  readonly protocol: string;
}

/** A transport that dials `options.url` and keeps dialling after a lost connection until `close()`. */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const url = new URL(options.url);
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new TypeError(`createWebSocketTransport: ${url.protocol} is not a WebSocket URL (ws: or wss:).`);
  const open: WebSocketFactory =
    options.connect ??
    ((address, protocols) => {
      const Socket = (globalThis as { WebSocket?: new (url: string, protocols: string[]) => WebSocketLike })
        .WebSocket;
      if (Socket === undefined) throw new TypeError('No WebSocket in this environment: pass `connect`.');
      return new Socket(address, protocols);
    });
  const timers = options.timers ?? {
    setTimeout: (callback: () => void, delay: number) => setTimeout(callback, delay),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const random = options.random ?? Math.random;
  const ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
  const healthyAfterMs = options.healthyAfterMs ?? 10_000;

  let listener: TransportListener | null = null;
  let socket: WebSocketLike | null = null;
  let attempt = 0;
  let retry: unknown;
  let stopped = false;
  const refused = new WeakSet<WebSocketLike>();
  const waitingForAck = new Map<string, { resolve(): void; reject(error: Error): void; timer: unknown }>();

  const failAcks = (reason: string) => {
    for (const [id, waiting] of waitingForAck) {
      timers.clearTimeout(waiting.timer);
      waiting.reject(new Error(`No ack for ${id}: ${reason}`));
    }
    waitingForAck.clear();
  };

  const dial = () => {
    if (stopped) return;
    let current: WebSocketLike;
    try {
      current = open(url.href, [...LINEUP_WEBSOCKET_PROTOCOLS]);
    } catch (error) {
      listener?.closed(error);
      schedule();
      return;
    }
    socket = current;
    let wasOpen = false;
    // Healthy: open long enough and, with acknowledgements, one came back (see "Backoff" above).
    let openLongEnough = false;
    let acknowledged = false;
    let healthyTimer: unknown;
    const healthy = () => {
      if (openLongEnough && (acknowledged || current.protocol !== 'lineup.v1.ack')) attempt = 0;
    };
    current.onopen = () => {
      if (socket !== current) return;
      wasOpen = true;
      healthyTimer = timers.setTimeout(() => {
        openLongEnough = true;
        healthy();
      }, healthyAfterMs);
      listener?.opened();
    };
    current.onmessage = (event) => {
      // Nothing is read from a connection once it is refused, whatever is still in flight on it.
      if (socket !== current || refused.has(current)) return;
      if (typeof event.data !== 'string') {
        refuseCurrent(current, 'binary_frame');
        return;
      }
      if (current.protocol === 'lineup.v1.ack' && event.data.startsWith('{"ack"')) {
        const id = ackOf(event.data);
        const waiting = id === undefined ? undefined : waitingForAck.get(id);
        if (id !== undefined && waiting !== undefined) {
          waitingForAck.delete(id);
          timers.clearTimeout(waiting.timer);
          waiting.resolve();
          acknowledged = true;
          healthy();
        }
        if (id !== undefined) return;
      }
      listener?.received(event.data);
    };
    current.onerror = () => {};
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      timers.clearTimeout(healthyTimer);
      failAcks('the connection closed');
      if (stopped) return;
      if (event.code === LINEUP_CONNECTION_REFUSALS.unauthorized.code) {
        // The agent host does not accept this device's token: dialling again cannot change that.
        stopped = true;
        listener?.closed(
          new Error(
            'The agent refused this device: it has no valid device token (4008). Ask the agent’s operator for a token and connect with it; LineUp does not dial this agent again until then.',
          ),
        );
        return;
      }
      listener?.closed(
        new Error(
          wasOpen
            ? `The connection to the agent closed (${event.code ?? 'no code'}).`
            : 'The agent could not be reached.',
        ),
      );
      schedule();
    };
  };

  /** Closes `current` for `refusal`; its close event reports it and schedules the next dial. */
  const refuseCurrent = (current: WebSocketLike, refusal: keyof typeof LINEUP_CONNECTION_REFUSALS) => {
    const { code, reason } = LINEUP_CONNECTION_REFUSALS[refusal];
    refused.add(current);
    if (current.readyState === OPEN) current.close(code, reason);
  };

  const schedule = () => {
    if (stopped) return;
    attempt++;
    const delay = backoffDelay(attempt, options.backoff, random);
    options.onRetry?.(attempt, delay);
    retry = timers.setTimeout(dial, delay);
  };

  return {
    get protocol() {
      return socket?.protocol ?? '';
    },
    connect(next) {
      listener = next;
      if (socket === null && retry === undefined) dial();
    },
    send(text) {
      const current = socket;
      if (current === null || current.readyState !== OPEN)
        throw new Error('The connection to the agent is not open.');
      if (current.protocol === 'lineup.v1.ack') {
        const id = envelopeIdOf(text);
        return new Promise<void>((resolve, reject) => {
          const timer = timers.setTimeout(() => {
            waitingForAck.delete(id);
            reject(new Error(`No ack for ${id} within ${ackTimeoutMs} ms.`));
            // An agent that does not ack is not really there: the connection is dropped, so the client dials
            // again and starts a new session (else a session whose start timed out would stay open, sending
            // nothing).
            if (socket === current) refuseCurrent(current, 'no_ack');
          }, ackTimeoutMs);
          waitingForAck.set(id, { resolve, reject, timer });
          current.send(text);
        });
      }
      current.send(text);
      // Plain agents: the frame has left the browser once the socket's buffer drained.
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (current.bufferedAmount === 0) resolve();
          else if (current.readyState !== OPEN)
            reject(new Error('The connection closed before the frame left.'));
          else timers.setTimeout(check, DRAIN_POLL_MS);
        };
        check();
      });
    },
    acknowledge(id) {
      const current = socket;
      if (current === null || current.readyState !== OPEN || current.protocol !== 'lineup.v1.ack') return;
      current.send(JSON.stringify({ ack: id }));
    },
    refuse(refusal) {
      if (socket !== null) refuseCurrent(socket, refusal);
    },
    close() {
      stopped = true;
      timers.clearTimeout(retry);
      failAcks('the transport was closed');
      const current = socket;
      socket = null;
      current?.close(1000, 'closed by the client');
      listener?.closed();
    },
  };
}

function envelopeIdOf(text: string): string {
  const id = (JSON.parse(text) as { id?: unknown }).id;
  if (typeof id !== 'string') throw new TypeError('A frame without an envelope id cannot be acknowledged.');
  return id;
}

function ackOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const keys = Object.keys(value);
    const ack = (value as { ack?: unknown }).ack;
    return keys.length === 1 && typeof ack === 'string' ? ack : undefined;
  } catch {
    return undefined;
  }
}
