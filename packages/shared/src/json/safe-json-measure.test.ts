/**
 * The measure the envelope's safe-JSON copy notes of the JSON data it copies (`copySafeJSONMeasured`): exactly
 * what `measureSafeJSON` would find in the copy, so that `parseDocument` may trust it instead of walking again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IssueCollector } from '../errors/issues.js';
import { measureSafeJSON, type SafeJSONBudget } from './safe-json.js';
import {
  copySafeJSON,
  copySafeJSONMeasured,
  NOT_SAFE_JSON,
  safeJSONCopyState,
  safeJSONMeasureOf,
} from './safe-json-copy.js';

const BUDGET: SafeJSONBudget = { maxBytes: 1_000_000, maxDepth: 64, maxValues: 100_000 };

/** Nested containers, as `SafeJSONBudget.maxDepth` counts them (`{}` is 1, a primitive 0). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function hasNegativeZero(value: unknown): boolean {
  if (typeof value === 'number') return Object.is(value, -0);
  if (typeof value !== 'object' || value === null) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(hasNegativeZero);
}

const container = fc.oneof(
  fc.dictionary(fc.string(), fc.jsonValue()),
  fc.array(fc.jsonValue()),
  fc.dictionary(fc.string(), fc.oneof(fc.constant(-0), fc.double({ noNaN: true, noDefaultInfinity: true }))),
);

describe('copySafeJSONMeasured', () => {
  it('notes of every container it copies what measureSafeJSON measures, and a -0 where there is one', () => {
    fc.assert(
      fc.property(container, fc.integer({ min: 0, max: 3 }), (value, depth) => {
        const state = safeJSONCopyState(BUDGET);
        const copy = copySafeJSONMeasured(value, state, depth);
        if (copy === NOT_SAFE_JSON) return;
        const measure = safeJSONMeasureOf(copy);
        expect(measure).toEqual({
          bytes: measureSafeJSON(value, BUDGET, new IssueCollector()),
          values: state.values,
          depth: depthOf(value),
          negativeZero: hasNegativeZero(value),
        });
        expect(Object.isFrozen(copy)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('freezes a value that is its own JSON.parse result where it is, with the same measure as a copy', () => {
    fc.assert(
      fc.property(container, fc.integer({ min: 0, max: 3 }), (value, depth) => {
        const text = JSON.stringify(value);
        const copyState = safeJSONCopyState(BUDGET);
        const copy = copySafeJSONMeasured(JSON.parse(text), copyState, depth);
        const owned = JSON.parse(text);
        const ownedState = { ...safeJSONCopyState(BUDGET), owned: true };
        const adopted = copySafeJSONMeasured(owned, ownedState, depth);
        expect(adopted === NOT_SAFE_JSON).toBe(copy === NOT_SAFE_JSON);
        if (adopted === NOT_SAFE_JSON) return;
        expect(adopted).toBe(owned);
        expect(adopted).toEqual(copy);
        expect(Object.isFrozen(adopted)).toBe(true);
        expect(safeJSONMeasureOf(adopted)).toEqual(safeJSONMeasureOf(copy));
        expect([ownedState.bytes, ownedState.values]).toEqual([copyState.bytes, copyState.values]);
      }),
      { numRuns: 300 },
    );
    // An own `__proto__` key (JSON.parse makes one) is declined either way.
    const proto = JSON.parse('{"a":{"__proto__":{"x":1}}}');
    expect(copySafeJSONMeasured(proto, { ...safeJSONCopyState(BUDGET), owned: true }, 0)).toBe(NOT_SAFE_JSON);
  });

  it('leaves the totals of what encloses it as copySafeJSON does, and notes nothing else', () => {
    const inner = { a: [1, -0, { b: 'x' }], c: null };
    const plain = safeJSONCopyState(BUDGET);
    plain.bytes = 7;
    plain.values = 2;
    copySafeJSON(inner, plain, 2);
    const measured = safeJSONCopyState(BUDGET);
    measured.bytes = 7;
    measured.values = 2;
    measured.deepest = 1;
    const copy = copySafeJSONMeasured(inner, measured, 2);
    expect([measured.bytes, measured.values]).toEqual([plain.bytes, plain.values]);
    expect(measured.deepest).toBe(plain.deepest);
    expect(measured.negativeZero).toBe(true);
    expect(safeJSONMeasureOf(copy)).toMatchObject({ depth: 3, negativeZero: true });
    // Only the copy it returned: not the input, nor a copy made otherwise, nor the parts inside.
    expect(safeJSONMeasureOf(inner)).toBeUndefined();
    expect(safeJSONMeasureOf(copySafeJSON(inner, safeJSONCopyState(BUDGET), 0))).toBeUndefined();
    expect(safeJSONMeasureOf((copy as typeof inner).a)).toBeUndefined();
    expect(safeJSONMeasureOf('text')).toBeUndefined();
  });

  it('notes nothing for a value it declines', () => {
    const getter = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true });
    expect(copySafeJSONMeasured({ a: getter }, safeJSONCopyState(BUDGET), 0)).toBe(NOT_SAFE_JSON);
  });
});
