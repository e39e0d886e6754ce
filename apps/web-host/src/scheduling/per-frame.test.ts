import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameBatch, type FrameScheduler, FrameSnapshot, nextFrame, spaced } from './per-frame.ts';

/** A scheduler the test runs by hand: `frame()` runs every callback scheduled so far. */
function manualFrames() {
  let pending: (() => void)[] = [];
  const schedule: FrameScheduler = (callback) => {
    pending.push(callback);
    return () => {
      pending = pending.filter((item) => item !== callback);
    };
  };
  return {
    schedule,
    scheduled: () => pending.length,
    frame() {
      const run = pending;
      pending = [];
      for (const callback of run) callback();
    },
  };
}

/** A store that changes on demand and counts its listeners. */
function counterStore() {
  let value = 0;
  const listeners = new Set<() => void>();
  return {
    read: () => value,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    bump() {
      value++;
      for (const listener of listeners) listener();
    },
    listeners: () => listeners.size,
  };
}

describe('FrameSnapshot', () => {
  it('publishes a thousand changes as one, at the next frame', () => {
    const frames = manualFrames();
    const store = counterStore();
    const snapshot = new FrameSnapshot(store.read, store.subscribe, frames.schedule);
    const listener = vi.fn();
    snapshot.subscribe(listener);
    for (let index = 0; index < 1_000; index++) store.bump();
    // Nothing moves between frames: the view renders what its listeners were told of.
    expect(snapshot.getSnapshot()).toBe(0);
    expect(frames.scheduled()).toBe(1);
    frames.frame();
    expect(snapshot.getSnapshot()).toBe(1_000);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not tell listeners of a frame in which nothing changed', () => {
    const frames = manualFrames();
    const store = counterStore();
    const snapshot = new FrameSnapshot(store.read, store.subscribe, frames.schedule);
    const listener = vi.fn();
    snapshot.subscribe(listener);
    frames.frame();
    expect(listener).not.toHaveBeenCalled();
    expect(frames.scheduled()).toBe(0);
  });

  it('flush publishes at once and cancels the pending frame', () => {
    const frames = manualFrames();
    const store = counterStore();
    const snapshot = new FrameSnapshot(store.read, store.subscribe, frames.schedule);
    const listener = vi.fn();
    snapshot.subscribe(listener);
    store.bump();
    snapshot.flush();
    expect(snapshot.getSnapshot()).toBe(1);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(frames.scheduled()).toBe(0);
  });

  it('watches the store only while someone listens, and catches up when a listener comes', () => {
    const frames = manualFrames();
    const store = counterStore();
    const snapshot = new FrameSnapshot(store.read, store.subscribe, frames.schedule);
    expect(store.listeners()).toBe(0);
    store.bump();
    const stop = snapshot.subscribe(() => {});
    expect(store.listeners()).toBe(1);
    expect(snapshot.getSnapshot()).toBe(1);
    store.bump();
    stop();
    expect(store.listeners()).toBe(0);
    expect(frames.scheduled()).toBe(0); // the pending frame went with the last listener
  });
});

describe('FrameBatch', () => {
  it('hands over everything added before a frame, in order, once', () => {
    const frames = manualFrames();
    const deliveries: (readonly number[])[] = [];
    const batch = new FrameBatch<number>((items) => deliveries.push(items), frames.schedule);
    for (let index = 1; index <= 5; index++) batch.add(index);
    frames.frame();
    batch.add(6);
    frames.frame();
    frames.frame();
    expect(deliveries).toEqual([[1, 2, 3, 4, 5], [6]]);
  });

  it('drops what it holds when cancelled', () => {
    const frames = manualFrames();
    const deliver = vi.fn();
    const batch = new FrameBatch<number>(deliver, frames.schedule);
    batch.add(1);
    batch.cancel();
    frames.frame();
    batch.flush();
    expect(deliver).not.toHaveBeenCalled();
  });
});

describe('spaced', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first at the next frame and the next one no sooner than the interval after it', () => {
    const frames = manualFrames();
    let clock = 1_000;
    const schedule = spaced(100, frames.schedule, () => clock);
    const runs: number[] = [];
    schedule(() => runs.push(clock));
    expect(frames.scheduled()).toBe(1); // no wait after a quiet spell
    frames.frame();
    clock += 16;
    schedule(() => runs.push(clock));
    expect(frames.scheduled()).toBe(0); // waits for the interval first
    clock += 84;
    vi.advanceTimersByTime(84);
    expect(frames.scheduled()).toBe(1);
    frames.frame();
    expect(runs).toEqual([1_000, 1_100]);
  });

  it('cancels a run that still waits for its interval', () => {
    const frames = manualFrames();
    let clock = 0;
    const schedule = spaced(100, frames.schedule, () => clock);
    schedule(() => {});
    frames.frame();
    const callback = vi.fn();
    const cancel = schedule(callback);
    cancel();
    clock = 500;
    vi.advanceTimersByTime(500);
    frames.frame();
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('nextFrame', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, also when no animation frame comes (a hidden tab)', () => {
    const callback = vi.fn();
    nextFrame(callback);
    vi.advanceTimersByTime(1_000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('can be cancelled', () => {
    const callback = vi.fn();
    nextFrame(callback)();
    vi.advanceTimersByTime(1_000);
    expect(callback).not.toHaveBeenCalled();
  });
});
