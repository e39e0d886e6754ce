import { describe, expect, it } from 'vitest';
import { installViewStorage } from './containment-storage.js';

/** A window with a timer the test runs by hand, and the stand-in installed on it. */
function install(initial: unknown, bounds = { maxLength: 64, maxItems: 4 }) {
  const timers: (() => void)[] = [];
  const sent: [string, string][][] = [];
  const global = {
    setTimeout: (callback: () => void) => {
      timers.push(callback);
      return timers.length;
    },
    DOMException: class extends Error {
      constructor(message?: string, name?: string) {
        super(message);
        this.name = name ?? 'Error';
      }
    },
  } as unknown as Parameters<typeof installViewStorage>[0] & { localStorage: Storage };
  expect(
    installViewStorage(global, {
      initial,
      ...bounds,
      flushDelay: 100,
      send: (entries) => sent.push(entries),
    }),
  ).toBe(true);
  const flush = () => {
    for (const timer of timers.splice(0)) timer();
  };
  return { storage: global.localStorage, sent, flush, timers };
}

describe('installViewStorage', () => {
  it('starts with the kept pairs, leaving out what is not a pair of strings, a repeated key and what is past the bound', () => {
    const { storage } = install([
      ['a', '1'],
      ['a', 'again'],
      ['b', 2],
      'c',
      ['d', '4', 'extra'],
      ['e', 'x'.repeat(40)],
      ['f', 'y'.repeat(40)],
      ['g', '7'],
    ]);
    expect(Object.keys(storage)).toEqual(['a', 'e']);
    expect(storage.getItem('a')).toBe('1');
    expect(storage.length).toBe(2);
    expect(install({ a: '1' }).storage.length).toBe(0);
  });

  it('sends one snapshot per burst of changes, and none for a write that changes nothing', () => {
    const { storage, sent, flush, timers } = install([['a', '1']]);
    storage.setItem('a', '1');
    storage.removeItem('missing');
    expect(timers).toHaveLength(0);
    storage.setItem('b', 2 as unknown as string);
    storage.c = 'three';
    storage.removeItem('a');
    expect(timers).toHaveLength(1);
    flush();
    expect(sent).toEqual([
      [
        ['b', '2'],
        ['c', 'three'],
      ],
    ]);
    storage.clear();
    flush();
    expect(sent.at(-1)).toEqual([]);
  });

  it('refuses a write past its bounds with a QuotaExceededError and keeps what it had', () => {
    const { storage, timers } = install([['a', '1']]);
    expect(() => storage.setItem('big', 'x'.repeat(64))).toThrow(
      expect.objectContaining({ name: 'QuotaExceededError' }),
    );
    for (const key of ['b', 'c', 'd']) storage.setItem(key, key);
    expect(() => storage.setItem('e', 'e')).toThrow(expect.objectContaining({ name: 'QuotaExceededError' }));
    // Replacing a value counts only the difference; a fifth key is still one too many.
    storage.setItem('a', 'x'.repeat(50));
    expect(storage.getItem('a')).toHaveLength(50);
    expect([storage.getItem('big'), storage.getItem('e'), storage.length]).toEqual([null, null, 4]);
    expect(timers).toHaveLength(1);
  });

  it('behaves as Storage: key(), named properties that never hide its methods, in and delete', () => {
    const { storage } = install([
      ['getItem', 'shadowed'],
      ['x', '1'],
    ]);
    expect(typeof storage.getItem).toBe('function');
    expect(storage.getItem('getItem')).toBe('shadowed');
    expect([storage.key(0), storage.key(1), storage.key(2), storage.key(-1)]).toEqual([
      'getItem',
      'x',
      null,
      null,
    ]);
    expect(storage.x).toBe('1');
    expect('x' in storage).toBe(true);
    delete storage.x;
    expect('x' in storage).toBe(false);
    expect(Object.prototype.toString.call(storage)).toBe('[object Storage]');
    expect(Object.getOwnPropertyDescriptor(storage, 'getItem')).toMatchObject({ value: 'shadowed' });
    expect(() => Object.setPrototypeOf(storage, null)).toThrow(TypeError);
  });
});
