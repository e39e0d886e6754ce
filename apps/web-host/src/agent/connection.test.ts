import type { AppRegistry, ConversationStore } from '@lineup/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRuntime } from '../workspace/host-runtime.ts';
import { AgentConnection, type AgentEndpoint } from './connection.ts';

/** Every WebSocket the connection creates: a held or absent agent must create none. */
const dialled: FakeSocket[] = [];

class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = FakeSocket.CONNECTING;
  readonly protocol = '';
  readonly bufferedAmount = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly #closeListeners: (() => void)[] = [];
  constructor(readonly url: string) {
    dialled.push(this);
  }
  send(): void {
    throw new Error('Nothing may be sent in these tests.');
  }
  close(): void {
    this.readyState = FakeSocket.CLOSED;
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
  addEventListener(type: string, listener: () => void): void {
    if (type === 'close') this.#closeListeners.push(listener);
  }
}

const original = (globalThis as { WebSocket?: unknown }).WebSocket;
beforeEach(() => {
  dialled.length = 0;
  (globalThis as { WebSocket?: unknown }).WebSocket = FakeSocket;
});
afterEach(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket = original;
});

const URL_OF_AGENT = 'ws://127.0.0.1:8787/agent';

/** A connection whose runtime parts are never reached while nothing is dialled (the journal reads nothing). */
function connectionTo(endpoint: AgentEndpoint): AgentConnection {
  const host = { setAgentSink: () => {} } as unknown as HostRuntime;
  const registry = { inventory: async () => ({}) } as unknown as AppRegistry;
  const store = {} as unknown as ConversationStore;
  return new AgentConnection(host, registry, store, 'conv_test', endpoint);
}

describe('AgentConnection', () => {
  it('dials a held agent only once released, and only with a view attached', async () => {
    const connection = connectionTo({ kind: 'remote', url: URL_OF_AGENT, held: true });
    expect(connection.held).toBe(true);
    expect(connection.remoteUrl).toBe(URL_OF_AGENT);
    connection.attach({});
    expect(dialled).toHaveLength(0);
    expect(connection.status).toBe('idle');
    connection.release();
    expect(connection.held).toBe(false);
    expect(dialled.map((socket) => socket.url)).toEqual([URL_OF_AGENT]);
    expect(connection.status).toBe('connecting');
    await connection.stop(0);
  });

  it('released before the view attaches, dials when it does', async () => {
    const connection = connectionTo({ kind: 'remote', url: URL_OF_AGENT, held: true });
    connection.release();
    expect(dialled).toHaveLength(0);
    connection.attach({});
    expect(dialled).toHaveLength(1);
    await connection.stop(0);
  });

  it('never dials a declined agent, and then has none', async () => {
    const connection = connectionTo({ kind: 'remote', url: URL_OF_AGENT, held: true });
    let heard = 0;
    connection.onStatus(() => heard++);
    connection.decline();
    expect(heard).toBe(1);
    expect(connection.remoteUrl).toBeNull();
    expect(connection.agent).toBeNull();
    connection.attach({});
    connection.release();
    expect(dialled).toHaveLength(0);
    expect(connection.status).toBe('idle');
    await connection.stop(0);
  });

  it('with no agent, dials nothing and stays not connected', async () => {
    const connection = connectionTo({ kind: 'none' });
    connection.attach({});
    expect(dialled).toHaveLength(0);
    expect(connection.status).toBe('idle');
    expect(connection.remoteUrl).toBeNull();
    expect(connection.agent).toBeNull();
    await connection.stop(0);
  });

  it('dials an agent that is not held as soon as the view attaches', async () => {
    const connection = connectionTo({ kind: 'remote', url: URL_OF_AGENT, held: false });
    expect(dialled).toHaveLength(0);
    connection.attach({});
    expect(dialled).toHaveLength(1);
    await connection.stop(0);
  });
});
