/** The in-frame bridge, run against a fake window: what a Surface may send, and what it hears. */
import { SURFACE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installSurfaceBridge, type LineUpSurfaceAPI, type SurfaceBridgeGlobal } from './bridge.js';
import { surfaceBridgeConfig } from './srcdoc.js';

interface FakeWindow extends SurfaceBridgeGlobal {
  LineUpSurface: LineUpSurfaceAPI;
  posted: unknown[];
  deliver(source: unknown, data: unknown): void;
  flush(): void;
}

function fakeWindow(): FakeWindow {
  const posted: unknown[] = [];
  const listeners: ((event: { source: unknown; data: unknown }) => void)[] = [];
  const timers: (() => void)[] = [];
  const parent = { postMessage: (message: unknown) => posted.push(message) };
  const global = {
    parent,
    posted,
    TextEncoder,
    addEventListener: (_type: 'message', listener: (event: { source: unknown; data: unknown }) => void) =>
      listeners.push(listener),
    setTimeout: (callback: () => void) => timers.push(callback),
    deliver(source: unknown, data: unknown) {
      for (const listener of listeners) listener({ source, data });
    },
    flush() {
      for (const timer of timers.splice(0)) timer();
    },
  };
  return global as unknown as FakeWindow;
}

let win: FakeWindow;
const CONFIG = surfaceBridgeConfig('weather.dashboard.01');
const state = (value: object, overrides: object = {}) => ({
  namespace: 'lineup.surface.v1',
  type: 'state',
  instance_id: 'weather.dashboard.01',
  state: value,
  ...overrides,
});

beforeEach(() => {
  win = fakeWindow();
  installSurfaceBridge(win, CONFIG);
});

describe('LineUpSurface bridge', () => {
  it('announces ready and exposes a frozen, non-replaceable API', () => {
    expect(win.posted).toEqual([
      { namespace: 'lineup.surface.v1', type: 'ready', instance_id: 'weather.dashboard.01' },
    ]);
    expect(Object.isFrozen(win.LineUpSurface)).toBe(true);
    expect(() => {
      (win as { LineUpSurface: unknown }).LineUpSurface = {};
    }).toThrow(TypeError);
  });

  it('sends a valid event', () => {
    win.LineUpSurface.event('refresh', { unit: 'c', nested: [1, { ok: true }, null] });
    expect(win.posted.at(-1)).toEqual({
      namespace: 'lineup.surface.v1',
      type: 'event',
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: { unit: 'c', nested: [1, { ok: true }, null] },
    });
    win.LineUpSurface.event('ping');
    expect(win.posted.at(-1)).toMatchObject({ event: 'ping', data: {} });
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
    const before = win.posted.length;
    expect(() => win.LineUpSurface.event(name as string, data as Record<string, unknown>)).toThrow(message);
    expect(win.posted).toHaveLength(before);
  });

  it('accepts data of exactly the largest size', () => {
    const text = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxEventDataBytes - '{"text":""}'.length);
    win.LineUpSurface.event('big', { text });
    expect(win.posted.at(-1)).toMatchObject({ event: 'big' });
  });

  it('delivers state from the host only, for this instance only', () => {
    const listener = vi.fn();
    win.LineUpSurface.onState(listener);
    win.deliver({}, state({ city: 'forged' }));
    win.deliver(win.parent, state({ city: 'other' }, { instance_id: 'other.instance' }));
    win.deliver(win.parent, state({ city: 'ns' }, { namespace: 'lineup.miniapp.v1' }));
    win.deliver(win.parent, state([1, 2]));
    win.deliver(win.parent, { ...state({}), type: 'event' });
    expect(listener).not.toHaveBeenCalled();
    win.deliver(win.parent, state({ city: '北京' }));
    expect(listener).toHaveBeenCalledWith({ city: '北京' });
  });

  it('gives a late listener the current state, and stops after unsubscribe', () => {
    win.deliver(win.parent, state({ n: 1 }));
    const late = vi.fn();
    const unsubscribe = win.LineUpSurface.onState(late);
    expect(late).not.toHaveBeenCalled();
    win.flush();
    expect(late).toHaveBeenCalledWith({ n: 1 });
    unsubscribe();
    win.deliver(win.parent, state({ n: 2 }));
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('keeps calling other listeners when one throws, and rethrows the error later', () => {
    const failing = vi.fn(() => {
      throw new Error('surface bug');
    });
    const working = vi.fn();
    win.LineUpSurface.onState(failing);
    win.LineUpSurface.onState(working);
    win.deliver(win.parent, state({ n: 1 }));
    expect(working).toHaveBeenCalledWith({ n: 1 });
    expect(() => win.flush()).toThrow('surface bug');
  });

  it('sends resize within bounds and refuses anything else', () => {
    win.LineUpSurface.resize(320);
    expect(win.posted.at(-1)).toMatchObject({ type: 'resize', height: 320 });
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

  it('cannot be redirected by replacing postMessage after install', () => {
    const stolen: unknown[] = [];
    win.parent.postMessage = (message: unknown) => stolen.push(message);
    win.LineUpSurface.event('refresh', {});
    expect(stolen).toEqual([]);
    expect(win.posted.at(-1)).toMatchObject({ event: 'refresh' });
  });
});
