import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DeepReadonly, deepFreeze } from './freeze.js';

function everyContainer(value: unknown, visit: (container: object) => void): void {
  if (typeof value !== 'object' || value === null) return;
  visit(value);
  for (const item of Object.values(value)) everyContainer(item, visit);
}

describe('deepFreeze', () => {
  it('freezes every object and array and returns the same value', () => {
    const value = { a: [1, { b: 'x' }], c: { d: [[]] } };
    expect(deepFreeze(value)).toBe(value);
    everyContainer(value, (container) => expect(Object.isFrozen(container)).toBe(true));
    expect(() => {
      (value.a[1] as { b: string }).b = 'y';
    }).toThrow(TypeError);
  });

  it('returns primitives unchanged', () => {
    for (const value of [null, 0, -0, 'x', true]) expect(deepFreeze(value)).toBe(value);
  });

  it('freezes below a container that was already frozen', () => {
    const inner = { b: 1 };
    const value = Object.freeze({ a: inner });
    deepFreeze(value);
    expect(Object.isFrozen(inner)).toBe(true);
  });

  it('handles shared references, cycles and great depth without recursion', () => {
    const shared = { s: 1 };
    const cyclic: Record<string, unknown> = { shared, list: [shared] };
    cyclic.self = cyclic;
    deepFreeze(cyclic);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(Object.isFrozen(cyclic.list)).toBe(true);

    let deep: unknown = {};
    const leaf = deep;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    deepFreeze(deep);
    expect(Object.isFrozen(leaf)).toBe(true);
  });

  it('freezes null-prototype objects', () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: { b: 1 } });
    deepFreeze(value);
    expect(Object.isFrozen(value.a)).toBe(true);
  });

  it('freezes every container of arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        deepFreeze(value);
        everyContainer(value, (container) => expect(Object.isFrozen(container)).toBe(true));
      }),
      { numRuns: 200 },
    );
  });

  it('types nested properties as read-only', () => {
    const value: DeepReadonly<{ a: { b: number[] } }> = deepFreeze({ a: { b: [1] } });
    // @ts-expect-error nested properties are read-only
    const write = () => (value.a.b = []);
    // @ts-expect-error nested arrays are read-only
    const push = () => value.a.b.push(2);
    expect([typeof write, typeof push]).toEqual(['function', 'function']);
  });
});
