/**
 * An in-memory Web Locks manager and tab channel for the runtime lock's tests (Node 20 has neither
 * `navigator.locks` nor tabs). It follows the Web Locks rules the lock relies on: one exclusive holder, a FIFO
 * queue, `ifAvailable` answered with `null`, `steal` rejecting the holder's request with an `AbortError`, an
 * aborted signal leaving the queue, a closed tab's locks released. Callbacks and messages run on later tasks.
 */
import type { RuntimeLockChannel, RuntimeLockManager } from '../src/storage/runtime-lock.js';

interface LockRequest {
  readonly tab: string;
  readonly callback: (lock: unknown) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

const abortError = () => Object.assign(new Error('The lock request was aborted.'), { name: 'AbortError' });

/** One browser's lock manager and channels, with the tabs named by the caller. */
export class Browser {
  holder: LockRequest | null = null;
  readonly queue: LockRequest[] = [];
  readonly listeners = new Map<string, Set<(message: unknown) => void>>();
  /** Tabs whose channel hears nothing (frozen: they do not run). */
  readonly deaf = new Set<string>();
  readonly log: string[] = [];

  locks(tab: string): RuntimeLockManager {
    return {
      request: (_name, options, callback) =>
        new Promise((resolve, reject) => {
          const request: LockRequest = { tab, callback, resolve, reject };
          if (options.steal === true) {
            const stolen = this.holder;
            this.holder = null;
            stolen?.reject(abortError());
            this.#grant(request);
            return;
          }
          if (options.ifAvailable === true && (this.holder !== null || this.queue.length > 0)) {
            setTimeout(() => Promise.resolve(callback(null)).then(resolve, reject));
            return;
          }
          if (options.signal?.aborted) {
            reject(abortError());
            return;
          }
          options.signal?.addEventListener('abort', () => {
            const index = this.queue.indexOf(request);
            if (index === -1) return;
            this.queue.splice(index, 1);
            reject(abortError());
          });
          this.queue.push(request);
          this.#next();
        }),
    };
  }

  channel(tab: string) {
    return (name: string): RuntimeLockChannel => {
      const key = `${name}\n${tab}`;
      return {
        post: (message) => {
          for (const [other, listeners] of this.listeners)
            if (other.startsWith(`${name}\n`) && other !== key && !this.deaf.has(other.split('\n')[1] ?? ''))
              for (const listener of listeners) setTimeout(() => listener(structuredClone(message)));
        },
        listen: (listener) => {
          const listeners = this.listeners.get(key) ?? new Set();
          listeners.add(listener);
          this.listeners.set(key, listeners);
        },
        close: () => this.listeners.delete(key),
      };
    };
  }

  /** The tab's document goes away: its locks are released, its queued requests dropped, its channel closed. */
  close(tab: string): void {
    for (let index = this.queue.length - 1; index >= 0; index--)
      if (this.queue[index]?.tab === tab) this.queue.splice(index, 1);
    for (const key of [...this.listeners.keys()]) if (key.endsWith(`\n${tab}`)) this.listeners.delete(key);
    if (this.holder?.tab === tab) {
      this.holder = null;
      this.#next();
    }
  }

  #next(): void {
    if (this.holder !== null) return;
    const request = this.queue.shift();
    if (request !== undefined) this.#grant(request);
  }

  #grant(request: LockRequest): void {
    this.holder = request;
    this.log.push(`granted ${request.tab}`);
    setTimeout(() => {
      Promise.resolve(request.callback({ name: 'lock' })).then(
        (value) => {
          if (this.holder !== request) return;
          this.holder = null;
          request.resolve(value);
          this.#next();
        },
        (error: unknown) => {
          if (this.holder !== request) return;
          this.holder = null;
          request.reject(error);
          this.#next();
        },
      );
    });
  }
}
