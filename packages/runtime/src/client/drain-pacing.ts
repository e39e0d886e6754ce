/**
 * How the agent client takes a burst of frames without holding the page: at most `DRAIN_BATCH` frames per drain,
 * in slices of about `SLICE_MS` between which the page's other tasks run.
 */

/** Frames one drain takes at most (and so messages one journal transaction records). */
export const DRAIN_BATCH = 256;

/**
 * How long a drain works before it lets the page's other tasks run (typing, painting): a burst is taken in slices
 * of about this many milliseconds, so it never holds the main thread for long.
 */
const SLICE_MS = 8;

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Yields to the event loop: `scheduler.yield` where the browser has it, else a task. */
function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Lets other tasks run once `SLICE_MS` have passed since the slice began. */
export class Slice {
  #start = now();
  async pause(): Promise<void> {
    if (now() - this.#start < SLICE_MS) return;
    await yieldToEventLoop();
    this.#start = now();
  }
}
