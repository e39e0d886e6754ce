/**
 * One runtime per profile across the tabs of a browser. Every tab of a host opens the same IndexedDB database;
 * two tabs that both ran the runtime would both dial the agent, both deliver the outbox and both settle, at
 * start-up, what the other is still working on. So a tab starts its runtime only while it holds an exclusive Web
 * Lock (`navigator.locks`) named after the database, and every other tab waits in the lock's queue.
 *
 * - **Waiting**: a tab that finds the lock held says so (`onWaiting`) and queues; when the holder's tab closes
 *   (its lock is released with its document), the first tab in the queue gets it and starts by itself.
 * - **Hand-over**: a waiting tab asks the holder to stop (`takeOver`, a message on a `BroadcastChannel` of the
 *   same name). The holder answers at once (`stopping`), stops everything that touches the database and closes it
 *   (`onHandOver`), then says `stopped`; the asking tab then takes the lock with `steal` (so it is that tab, not
 *   whichever was first in the queue, that starts) and the former holder queues again.
 * - **A holder that does not answer** (frozen, in the back/forward cache) within `answerTimeoutMs`, or does not
 *   finish within `handOverTimeoutMs`, has the lock stolen: when it runs again, `onLost` tells it to stop at once.
 * - **Without Web Locks** (an insecure context, an old browser) nothing can keep two tabs apart: the handle is
 *   `unguarded`, `onAcquired` is called at once, and every tab runs as if alone. The host should say so.
 */

/** How long a taking-over tab waits for the holder's first answer before it steals the lock (ms). */
export const RUNTIME_LOCK_ANSWER_TIMEOUT_MS = 1_500;

/** How long a holder that answered may take to stop before the lock is stolen from it (ms). */
export const RUNTIME_LOCK_HAND_OVER_TIMEOUT_MS = 10_000;

/** The part of `navigator.locks` the lock uses (a test passes its own). */
export interface RuntimeLockManager {
  request(
    name: string,
    options: { readonly ifAvailable?: boolean; readonly steal?: boolean; readonly signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown>;
}

/** A message channel between the tabs of one origin (`BroadcastChannel` by default). */
export interface RuntimeLockChannel {
  post(message: unknown): void;
  listen(listener: (message: unknown) => void): void;
  close(): void;
}

/**
 * - `waiting`: another tab holds the lock; this one is queued behind it.
 * - `held`: this tab holds it: its runtime may run.
 * - `taking_over`: this tab asked the holder to hand over and waits for it.
 * - `handing_over`: another tab asked; this tab is stopping (or stopped) and lets go.
 * - `unguarded`: no Web Locks here; this tab runs without exclusion.
 * - `released`: `release()` was called (or the signal aborted); the lock is gone for good.
 */
export type RuntimeLockState = 'waiting' | 'held' | 'taking_over' | 'handing_over' | 'unguarded' | 'released';

export interface RuntimeLockOptions {
  /** This tab holds the lock (or runs unguarded): start the runtime. Called again after every new grant. */
  readonly onAcquired: () => void;
  /**
   * Another tab holds the lock: this tab waits (show "open in another tab"). Called when this tab first queues,
   * not when it queues again after `onHandOver` or `onLost` (it already said why it stopped).
   */
  readonly onWaiting?: () => void;
  /**
   * Another tab asks for the lock: stop everything that touches the database (the agent connection, deliveries,
   * timers, pages, open questions) and close it; resolve when done. The lock is let go after it resolves, or once
   * `handOverTimeoutMs` has passed.
   */
  readonly onHandOver: () => Promise<void> | void;
  /**
   * The lock was taken without a hand-over (this tab did not answer in time): stop at once, closing the database
   * first — another tab is already running. This tab then queues again.
   */
  readonly onLost?: () => void;
  /** Aborting it releases the lock (or leaves the queue) for good, as `release()` does. */
  readonly signal?: AbortSignal;
  /** Default `answerTimeoutMs`: `RUNTIME_LOCK_ANSWER_TIMEOUT_MS`. */
  readonly answerTimeoutMs?: number;
  /** Default `handOverTimeoutMs`: `RUNTIME_LOCK_HAND_OVER_TIMEOUT_MS`. */
  readonly handOverTimeoutMs?: number;
  /** Default `navigator.locks` where it exists; `null` runs unguarded. */
  readonly locks?: RuntimeLockManager | null;
  /** Default a `BroadcastChannel` where it exists; `null` (or none) makes `takeOver` wait out the answer, then steal. */
  readonly channel?: ((name: string) => RuntimeLockChannel) | null;
  /** This tab's id in the hand-over messages (default `crypto.randomUUID()`). */
  readonly tabId?: string;
}

export interface RuntimeLock {
  /** The lock's name (and its channel's): `lineup-runtime:<database name>`. */
  readonly name: string;
  readonly state: RuntimeLockState;
  /** False where there are no Web Locks: this tab runs, and so may every other. */
  readonly guarded: boolean;
  /**
   * Asks the holder to hand over, and takes the lock: with `steal` once the holder said it stopped, or when it did
   * not answer in time. Resolves `true` once this tab holds the lock (at once if it already does or is unguarded),
   * `false` if the lock was released meanwhile.
   */
  takeOver(): Promise<boolean>;
  /** Lets the lock go for good (or leaves the queue); nothing is called any more. */
  release(): void;
}

/** The Web Lock's name for a database: one exclusive lock per profile. */
export function runtimeLockName(databaseName: string): string {
  return `lineup-runtime:${databaseName}`;
}

/** What the tabs say to each other on the channel. */
type LockMessage =
  | { readonly kind: 'hand_over'; readonly from: string; readonly request: string }
  | { readonly kind: 'stopping' | 'stopped'; readonly to: string; readonly request: string };

const ID = /^[\x21-\x7e]{1,128}$/;

/** The channel is same-origin only, but a message is still checked before it is acted on. */
function parseMessage(value: unknown): LockMessage | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, from, to, request } = value as Record<string, unknown>;
  if (typeof request !== 'string' || !ID.test(request)) return null;
  if (kind === 'hand_over' && typeof from === 'string' && ID.test(from)) return { kind, from, request };
  if ((kind === 'stopping' || kind === 'stopped') && typeof to === 'string' && ID.test(to))
    return { kind, to, request };
  return null;
}

function defaultLocks(): RuntimeLockManager | null {
  const locks = (globalThis as { navigator?: { locks?: RuntimeLockManager } }).navigator?.locks;
  return locks ?? null;
}

function broadcastChannel(name: string): RuntimeLockChannel {
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen: (listener) => channel.addEventListener('message', (event) => listener(event.data)),
    close: () => channel.close(),
  };
}

function defaultChannel(): ((name: string) => RuntimeLockChannel) | null {
  return typeof BroadcastChannel === 'function' ? broadcastChannel : null;
}

const isAbort = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';

/** One request to the lock manager: wanted until this tab gives it up; `end` lets a grant go. */
interface Grant {
  wanted: boolean;
  held: boolean;
  end: () => void;
  /** Aborts a queued request (never used for a steal, which may not carry a signal). */
  readonly abort: AbortController | null;
}

/**
 * Holds the runtime lock of `databaseName` for this tab, or queues for it: see the module comment. `onAcquired`
 * runs on a later task, never inside this call.
 */
export function holdRuntimeLock(databaseName: string, options: RuntimeLockOptions): RuntimeLock {
  const name = runtimeLockName(databaseName);
  const locks = options.locks === undefined ? defaultLocks() : options.locks;
  const answerTimeoutMs = options.answerTimeoutMs ?? RUNTIME_LOCK_ANSWER_TIMEOUT_MS;
  const handOverTimeoutMs = options.handOverTimeoutMs ?? RUNTIME_LOCK_HAND_OVER_TIMEOUT_MS;
  const tabId = options.tabId ?? crypto.randomUUID();
  let state: RuntimeLockState = locks === null ? 'unguarded' : 'waiting';
  /** The grant this tab holds or waits for; a superseded one (given up for a steal) is let go when it comes. */
  let current: Grant | null = null;
  let requests = 0;
  /** The hand-over this tab asked for: the holder's answers name it. */
  let takingOver: { readonly request: string } | null = null;
  let answerTimer: ReturnType<typeof setTimeout> | undefined;
  let handOverTimer: ReturnType<typeof setTimeout> | undefined;
  /** The `takeOver` calls waiting: `true` once this tab holds the lock, `false` once it is released. */
  const waiters = new Set<(held: boolean) => void>();

  const channelOf = options.channel === undefined ? defaultChannel() : options.channel;
  const channel = locks === null || channelOf === null ? null : channelOf(name);

  const settleWaiters = (held: boolean) => {
    for (const waiter of [...waiters]) waiter(held);
    waiters.clear();
  };

  const acquired = (grant: Grant) => {
    clearTimeout(answerTimer);
    clearTimeout(handOverTimer);
    takingOver = null;
    current = grant;
    grant.held = true;
    state = 'held';
    settleWaiters(true);
    options.onAcquired();
  };

  /** Asks the lock manager; the callback holds the lock until `grant.end()` (or a steal ends it). */
  const request = (mode: 'look' | 'queue' | 'steal'): Grant => {
    const abort = mode === 'queue' ? new AbortController() : null;
    let end = () => {};
    const grant: Grant = { wanted: true, held: false, end: () => end(), abort };
    const held = new Promise<void>((resolve) => {
      end = resolve;
    });
    const lockOptions =
      mode === 'look'
        ? { ifAvailable: true }
        : mode === 'steal'
          ? { steal: true }
          : { signal: (abort as AbortController).signal };
    (locks as RuntimeLockManager)
      .request(name, lockOptions, (lock) => {
        if (lock === null) {
          // `ifAvailable` and the lock is held elsewhere: queue behind it.
          if (grant.wanted && state === 'waiting') {
            options.onWaiting?.();
            current = request('queue');
          }
          return undefined;
        }
        if (!grant.wanted || state === 'released') return undefined;
        acquired(grant);
        return held;
      })
      .then(
        () => ended(grant, false),
        (error: unknown) => ended(grant, isAbort(error)),
      );
    return grant;
  };

  /** A grant ended: released by this tab, or (`taken`) stolen by another. */
  const ended = (grant: Grant, taken: boolean) => {
    if (!grant.held || grant !== current || state === 'released') return;
    grant.held = false;
    current = null;
    const wasHolding = state === 'held';
    clearTimeout(handOverTimer);
    state = 'waiting';
    // Another tab runs now: if this one did not hand over, it must stop at once.
    if (taken && wasHolding) options.onLost?.();
    if (state === 'waiting') current = request('queue');
  };

  const giveUp = (grant: Grant | null) => {
    if (grant === null) return;
    grant.wanted = false;
    grant.abort?.abort();
  };

  const steal = () => {
    if (state !== 'taking_over') return;
    clearTimeout(answerTimer);
    clearTimeout(handOverTimer);
    // The queued request is given up first: were it granted meanwhile, its callback lets it go at once.
    giveUp(current);
    current = request('steal');
  };

  const handOver = async (message: Extract<LockMessage, { kind: 'hand_over' }>) => {
    const grant = current;
    if (state !== 'held' || grant === null) return;
    state = 'handing_over';
    channel?.post({ kind: 'stopping', to: message.from, request: message.request });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(() => options.onHandOver()),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, handOverTimeoutMs);
        }),
      ]);
    } catch {
      // Stopping failed part-way: it is as stopped as it will get, and the other tab is waiting.
    } finally {
      clearTimeout(timer);
    }
    if (state !== 'handing_over' || current !== grant) return;
    channel?.post({ kind: 'stopped', to: message.from, request: message.request });
    // The asking tab steals the lock now; should it be gone (closed meanwhile), let go for the next in line.
    handOverTimer = setTimeout(() => grant.end(), handOverTimeoutMs);
  };

  channel?.listen((data) => {
    const message = parseMessage(data);
    if (message === null || state === 'released') return;
    if (message.kind === 'hand_over') {
      if (message.from !== tabId) void handOver(message);
      return;
    }
    if (message.to !== tabId || takingOver?.request !== message.request) return;
    if (message.kind === 'stopped') {
      steal();
      return;
    }
    // The holder is alive and stopping: give it the longer wait.
    clearTimeout(answerTimer);
    clearTimeout(handOverTimer);
    handOverTimer = setTimeout(steal, handOverTimeoutMs);
  });

  const release = () => {
    if (state === 'released') return;
    state = 'released';
    clearTimeout(answerTimer);
    clearTimeout(handOverTimer);
    const grant = current;
    current = null;
    giveUp(grant);
    grant?.end();
    takingOver = null;
    settleWaiters(false);
    channel?.close();
  };

  if (options.signal?.aborted) release();
  options.signal?.addEventListener('abort', release, { once: true });
  if (state === 'unguarded') queueMicrotask(() => state === 'unguarded' && options.onAcquired());
  else if (state === 'waiting') current = request('look');

  return {
    name,
    get state() {
      return state;
    },
    guarded: locks !== null,
    takeOver() {
      if (state === 'released') return Promise.resolve(false);
      if (state === 'held' || state === 'unguarded') return Promise.resolve(true);
      const done = new Promise<boolean>((resolve) => waiters.add(resolve));
      if (state === 'waiting') {
        state = 'taking_over';
        const requestId = `${tabId}:${++requests}`;
        takingOver = { request: requestId };
        channel?.post({ kind: 'hand_over', from: tabId, request: requestId });
        answerTimer = setTimeout(steal, answerTimeoutMs);
      }
      return done;
    },
    release,
  };
}
