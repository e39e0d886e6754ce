/**
 * View updates at most once per animation frame. A burst of thousands of envelopes changes the conversation and
 * the console's log thousands of times a second; the screen shows one state per frame, so the views render once
 * per frame with the latest one instead of once per envelope.
 */

/** Runs `callback` once, later; returns a function that cancels it. */
export type FrameScheduler = (callback: () => void) => () => void;

/** A hidden tab draws no frames: a change shows after at most this long there (timers run, throttled). */
export const HIDDEN_TAB_FLUSH_MS = 250;

/** The next animation frame, or `HIDDEN_TAB_FLUSH_MS` when no frame comes first. */
export const nextFrame: FrameScheduler = (callback) => {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    callback();
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  const timer = setTimeout(run, HIDDEN_TAB_FLUSH_MS);
  const cancel = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
  return () => {
    done = true;
    cancel();
  };
};

/**
 * `schedule`, but each run at least `intervalMs` after the previous one: the first change after a quiet spell
 * still shows at the next frame, while a sustained burst shows `1000 / intervalMs` times a second instead of every
 * frame, so the time a frame spends on layout and paint goes to taking the burst in.
 */
export function spaced(
  intervalMs: number,
  schedule: FrameScheduler = nextFrame,
  now: () => number = () => performance.now(),
): FrameScheduler {
  let last = Number.NEGATIVE_INFINITY;
  return (callback) => {
    let cancelRun: (() => void) | null = null;
    const run = () => {
      cancelRun = schedule(() => {
        last = now();
        callback();
      });
    };
    const wait = last + intervalMs - now();
    if (wait <= 0) {
      run();
      return () => cancelRun?.();
    }
    const timer = setTimeout(run, wait);
    return () => {
      clearTimeout(timer);
      cancelRun?.();
    };
  };
}

/**
 * A store's snapshot as a view sees it: read again at most once per frame, however often the store changes. It
 * stays the same between frames, so React never renders a state its listeners were not told of (a
 * `useSyncExternalStore` whose snapshot moved under a background render would render again at once).
 */
export class FrameSnapshot<T> {
  readonly #read: () => T;
  readonly #subscribeToSource: (listener: () => void) => () => void;
  readonly #schedule: FrameScheduler;
  #published: T;
  readonly #listeners = new Set<() => void>();
  #unsubscribe: (() => void) | null = null;
  #cancel: (() => void) | null = null;

  constructor(
    read: () => T,
    subscribe: (listener: () => void) => () => void,
    schedule: FrameScheduler = nextFrame,
  ) {
    this.#read = read;
    this.#subscribeToSource = subscribe;
    this.#schedule = schedule;
    this.#published = read();
  }

  /** The snapshot published last (for `useSyncExternalStore`). */
  readonly getSnapshot = (): T => this.#published;

  /** Listens for published snapshots; the source is watched while anyone listens. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (this.#unsubscribe === null) {
      this.#unsubscribe = this.#subscribeToSource(() => this.#changed());
      // What changed while nobody listened shows now: React compares the snapshot again after subscribing.
      this.#published = this.#read();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      this.#unsubscribe?.();
      this.#unsubscribe = null;
      this.#cancel?.();
      this.#cancel = null;
    };
  };

  /** Publishes the source's state now, without waiting for the frame (a conversation just read back). */
  flush(): void {
    this.#cancel?.();
    this.#cancel = null;
    const next = this.#read();
    if (Object.is(next, this.#published)) return;
    this.#published = next;
    for (const listener of [...this.#listeners]) listener();
  }

  #changed(): void {
    if (this.#cancel === null) this.#cancel = this.#schedule(() => this.flush());
  }
}

/** Collects items (the console's log entries) and hands them over together, at most once per frame. */
export class FrameBatch<T> {
  readonly #deliver: (items: readonly T[]) => void;
  readonly #schedule: FrameScheduler;
  #items: T[] = [];
  #cancel: (() => void) | null = null;

  constructor(deliver: (items: readonly T[]) => void, schedule: FrameScheduler = nextFrame) {
    this.#deliver = deliver;
    this.#schedule = schedule;
  }

  add(item: T): void {
    this.#items.push(item);
    this.#cancel ??= this.#schedule(() => this.flush());
  }

  /** Hands over what was collected now. */
  flush(): void {
    this.#cancel?.();
    this.#cancel = null;
    const items = this.#items;
    if (items.length === 0) return;
    this.#items = [];
    this.#deliver(items);
  }

  /** Drops what was collected and stops (the view went away). */
  cancel(): void {
    this.#cancel?.();
    this.#cancel = null;
    this.#items = [];
  }
}
