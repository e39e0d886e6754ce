/** A device for tests: a `ws` client speaking the binding, recording every frame and the close. */
import WebSocket from 'ws';

export interface TestDevice {
  readonly socket: WebSocket;
  readonly protocol: string;
  /** Every text frame received, parsed. */
  readonly frames: Record<string, unknown>[];
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(value: unknown): void;
  sendRaw(data: string | Buffer, binary?: boolean): void;
  /** Waits for the first frame (received so far or later) that `match` accepts. */
  next(
    match: (frame: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** The envelopes received (no acks). */
  envelopes(): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function connectDevice(
  url: string,
  options: { token?: string; protocols?: string[]; tokenAs?: 'query' | 'protocol'; autoAck?: boolean } = {},
): Promise<TestDevice> {
  const target = new URL(url);
  const protocols = [...(options.protocols ?? ['lineup.v1', 'lineup.v1.ack'])];
  if (options.token !== undefined) {
    if (options.tokenAs === 'protocol') protocols.push(`lineup.v1.token.${options.token}`);
    else target.searchParams.set('token', options.token);
  }
  const socket = new WebSocket(target, protocols);
  const frames: Record<string, unknown>[] = [];
  const waiters = new Set<{
    match: (frame: Record<string, unknown>) => boolean;
    resolve: (frame: Record<string, unknown>) => void;
  }>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    frames.push(frame);
    // Acknowledges what the agent sent, as the runtime does in lineup.v1.ack.
    if (options.autoAck !== false && socket.protocol === 'lineup.v1.ack' && typeof frame.id === 'string')
      socket.send(JSON.stringify({ ack: frame.id }));
    for (const waiter of [...waiters])
      if (waiter.match(frame)) {
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
  });
  await new Promise<void>((resolve) => {
    socket.once('open', () => resolve());
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
  return {
    socket,
    get protocol() {
      return socket.protocol;
    },
    frames,
    closed,
    send: (value) => socket.send(JSON.stringify(value)),
    sendRaw: (data, binary = false) => socket.send(data, { binary }),
    next(match, timeoutMs = 5_000) {
      const found = frames.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter))
            reject(
              new Error(
                `No matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames).slice(0, 2_000)}`,
              ),
            );
        }, timeoutMs);
      });
    },
    envelopes: () => frames.filter((frame) => !('ack' in frame)),
    async close() {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(1000);
      await closed;
    },
  };
}

let counter = 0;
/** A client envelope. */
export function clientEnvelope(
  conversationId: string,
  type: string,
  payload: unknown,
  options: { id?: string; sender?: string } = {},
) {
  counter += 1;
  return {
    v: 1,
    id: options.id ?? `test:o${counter}`,
    type,
    conversation_id: conversationId,
    sender: { kind: 'client', id: options.sender ?? 'web-host-test' },
    payload,
  };
}

export function inventoryEnvelope(
  conversationId: string,
  revision: string,
  tools: unknown[] = [],
  sender?: string,
) {
  return clientEnvelope(
    conversationId,
    'lineup.v1.client.inventory',
    { revision, standard_components: [], applications: [], capabilities: [], tools },
    { id: `inv:${revision}:${conversationId}`, ...(sender === undefined ? {} : { sender }) },
  );
}
