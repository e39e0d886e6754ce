/** The in-frame bridge, run against a fake window: what a Surface may send, and what it hears. */
import { SURFACE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  installSurfaceBridge,
  type LineUpSurfaceAPI,
  type SurfaceBridge,
  type SurfaceBridgeGlobal,
} from './bridge.js';
import { surfaceContainmentConfig } from './documents.js';

interface FakeWindow extends SurfaceBridgeGlobal {
  LineUpSurface: LineUpSurfaceAPI;
  flush(): void;
  nextFrame(): void;
  advance(ms: number): void;
}

function fakeWindow(): FakeWindow {
  const timers: (() => void)[] = [];
  const frames: (() => void)[] = [];
  let clock = 0;
  const global = {
    TextEncoder,
    performance: { now: () => clock },
    setTimeout: (callback: () => void) => timers.push(callback),
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    flush() {
      for (const timer of timers.splice(0)) timer();
    },
    nextFrame() {
      for (const frame of frames.splice(0)) frame();
    },
    advance(ms: number) {
      clock += ms;
    },
  };
  return global as unknown as FakeWindow;
}

let win: FakeWindow;
let posted: Record<string, unknown>[];
let bridge: SurfaceBridge;
const CONFIG = {
  ...surfaceContainmentConfig('AAAAAAAAAAAAAAAAAAAAAA=='),
  instanceId: 'weather.dashboard.01',
};

beforeEach(() => {
  win = fakeWindow();
  posted = [];
  bridge = installSurfaceBridge(win, CONFIG, (message) => posted.push(message));
});

describe('LineUpSurface bridge', () => {
  it('exposes a frozen, non-replaceable API and sends nothing by itself', () => {
    expect(posted).toEqual([]);
    expect(Object.isFrozen(win.LineUpSurface)).toBe(true);
    expect(() => {
      (win as { LineUpSurface: unknown }).LineUpSurface = {};
    }).toThrow(TypeError);
  });

  it('sends a valid event', () => {
    win.LineUpSurface.event('refresh', { unit: 'c', nested: [1, { ok: true }, null] });
    expect(posted.at(-1)).toEqual({
      namespace: 'lineup.surface.v1',
      type: 'event',
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: { unit: 'c', nested: [1, { ok: true }, null] },
    });
    win.LineUpSurface.event('ping');
    expect(posted.at(-1)).toMatchObject({ event: 'ping', data: {} });
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const deep: Record<string, unknown> = {};
  let cursor = deep;
  for (let level = 0; level < 40; level++) cursor = cursor.next = {} as Record<string, unknown>;

  it.each([
    ['a name that does not start with a letter', '1refresh', {}, /name must match/],
    ['a name with a space', 'do it', {}, /name must match/],
    ['a 65-character name', `a${'b'.repeat(64)}`, {}, /name must match/],
    ['the reserved close', 'close', {}, /reserved for the host/],
    ['an array as data', 'x', [], /plain JSON object/],
    ['a class instance as data', 'x', new Date(0), /plain JSON object/],
    ['NaN', 'x', { n: Number.NaN }, /finite/],
    ['undefined', 'x', { u: undefined }, /undefined is not JSON/],
    ['a function', 'x', { f: () => 1 }, /function is not JSON/],
    ['a cycle', 'x', cyclic, /cycles/],
    ['data nested too deep', 'x', deep, /nest at most/],
    ['16 KiB of data', 'x', { text: 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxEventDataBytes) }, /bytes as JSON/],
  ])('refuses %s at the call and sends nothing', (_, name, data, message) => {
    const before = posted.length;
    expect(() => win.LineUpSurface.event(name as string, data as Record<string, unknown>)).toThrow(message);
    expect(posted).toHaveLength(before);
  });

  it('accepts data of exactly the largest size', () => {
    const text = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxEventDataBytes - '{"text":""}'.length);
    win.LineUpSurface.event('big', { text });
    expect(posted.at(-1)).toMatchObject({ event: 'big' });
  });

  it('hands each state from the host to every listener', () => {
    const listener = vi.fn();
    win.LineUpSurface.onState(listener);
    bridge.deliverState({ city: '北京' });
    expect(listener).toHaveBeenCalledWith({ city: '北京' });
  });

  it('gives a late listener the current state, and stops after unsubscribe', () => {
    bridge.deliverState({ n: 1 });
    const late = vi.fn();
    const unsubscribe = win.LineUpSurface.onState(late);
    expect(late).not.toHaveBeenCalled();
    win.flush();
    expect(late).toHaveBeenCalledWith({ n: 1 });
    unsubscribe();
    bridge.deliverState({ n: 2 });
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('keeps calling other listeners when one throws, and rethrows the error later', () => {
    const failing = vi.fn(() => {
      throw new Error('surface bug');
    });
    const working = vi.fn();
    win.LineUpSurface.onState(failing);
    win.LineUpSurface.onState(working);
    bridge.deliverState({ n: 1 });
    expect(working).toHaveBeenCalledWith({ n: 1 });
    expect(() => win.flush()).toThrow('surface bug');
  });

  it('sends at most one resize per animation frame, the latest height, and refuses bad heights', () => {
    win.LineUpSurface.resize(320);
    win.LineUpSurface.resize(330);
    expect(posted).toEqual([]);
    win.nextFrame();
    expect(posted).toEqual([expect.objectContaining({ type: 'resize', height: 330 })]);
    for (const height of [
      0,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      SURFACE_CHANNEL_LIMITS.maxFrameHeight + 1,
    ])
      expect(() => win.LineUpSurface.resize(height)).toThrow(RangeError);
    expect(() => win.LineUpSurface.onState('nope' as never)).toThrow(TypeError);
  });

  it('refuses events beyond the burst, and allows more as the rate refills', () => {
    for (let index = 0; index < SURFACE_CHANNEL_LIMITS.eventBurst; index++) win.LineUpSurface.event('tick');
    expect(posted).toHaveLength(SURFACE_CHANNEL_LIMITS.eventBurst);
    expect(() => win.LineUpSurface.event('tick')).toThrow(/too many events/);
    expect(posted).toHaveLength(SURFACE_CHANNEL_LIMITS.eventBurst);
    win.advance(1_000 / SURFACE_CHANNEL_LIMITS.eventsPerSecond);
    win.LineUpSurface.event('tick');
    expect(() => win.LineUpSurface.event('tick')).toThrow(RangeError);
    expect(posted).toHaveLength(SURFACE_CHANNEL_LIMITS.eventBurst + 1);
  });
});
