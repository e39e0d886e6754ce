/**
 * Restoring a saved state (seed 002 §4, §10): the conservative `restoreState` keeps valid declared fields and
 * ignores the rest one by one, and falls back to the initial state for input it cannot check safely or a
 * result over 262,144 bytes. It never throws and never invokes a getter.
 */
import { describe, expect, it } from 'vitest';
import {
  budgetDocument,
  COMPOUND,
  FIELD_COUNT,
  FIELD_NAMES,
  FORM,
  stateBytes,
} from '../../test/dsl-state.js';
import { clone } from '../../test/utils.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { assertValidState, initialState, restoreState } from './state.js';
import type { UIDocument, UIState } from './types.js';

describe('restoreState: keeps valid declared fields, ignores the rest one by one (seed 002 §4, §10)', () => {
  const rows: [string, UIDocument, () => unknown, UIState][] = [
    [
      'every field valid',
      COMPOUND,
      () => ({ principal: 20000, rate: 7.5, years: 30 }),
      { principal: 20000, rate: 7.5, years: 30 },
    ],
    [
      'unknown fields are ignored',
      COMPOUND,
      () => ({ principal: 20000, unknown: 1, other: { nested: [1, 2] } }),
      { principal: 20000, rate: 5, years: 10 },
    ],
    [
      'each invalid field falls back to its own initial value',
      COMPOUND,
      () => ({ principal: -5, rate: 7.5, years: 2.5 }),
      { principal: 10000, rate: 7.5, years: 10 },
    ],
    [
      'wrong types and nulls are ignored',
      COMPOUND,
      () => ({ principal: '20000', rate: null, years: 30 }),
      { principal: 10000, rate: 5, years: 30 },
    ],
    [
      'missing fields keep their initial values',
      COMPOUND,
      () => ({}),
      { principal: 10000, rate: 5, years: 10 },
    ],
    [
      'a Select-bound field restores only an option',
      FORM,
      () => ({ plan: 'enterprise', seats: 4, name: 'Ada', newsletter: 'yes' }),
      {
        name: 'Ada',
        email: '',
        seats: 4,
        plan: 'standard',
        experience: 3,
        newsletter: true,
        submitted: false,
      },
    ],
    [
      'a Select option is restored',
      FORM,
      () => ({ plan: 'premium' }),
      { ...initialState(FORM), plan: 'premium' },
    ],
    [
      'a string over maxLength is ignored',
      FORM,
      () => ({ name: 'n'.repeat(65), email: 'e@example.com' }),
      { ...initialState(FORM), email: 'e@example.com' },
    ],
    [
      'a field carried by an own __proto__ key is not restored',
      COMPOUND,
      () => JSON.parse('{"__proto__":{"principal":20000},"years":30}'),
      { principal: 10000, rate: 5, years: 30 },
    ],
    [
      'a null-prototype object is plain JSON',
      COMPOUND,
      () => Object.assign(Object.create(null), { principal: 20000 }),
      { principal: 20000, rate: 5, years: 10 },
    ],
  ];
  it.each(rows)('%s', (_, document, build, expected) => {
    const restored = restoreState(document, build());
    expect(restored).toStrictEqual(expected);
    expect(Object.isFrozen(restored)).toBe(true);
    expect(() => assertValidState(document, clone(restored))).not.toThrow();
  });
});

describe('restoreState: input that cannot be checked safely falls back to the initial state (seed 002 §4)', () => {
  class SavedState {
    principal = 20000;
  }
  const rows: [string, () => unknown][] = [
    ['undefined', () => undefined],
    ['null', () => null],
    ['a number', () => 42],
    ['a string', () => '{"principal":20000}'],
    ['a boolean', () => true],
    ['a function', () => () => ({ principal: 20000 })],
    ['an array', () => [{ principal: 20000 }]],
    ['a class instance', () => new SavedState()],
    ['a Date', () => new Date(0)],
    ['a Map', () => new Map([['principal', 20000]])],
    [
      'a cycle',
      () => {
        const saved: Record<string, unknown> = { principal: 20000 };
        saved.self = saved;
        return saved;
      },
    ],
    ['a nested class instance in an unknown field', () => ({ principal: 20000, extra: new SavedState() })],
    ['a NaN in an unknown field', () => ({ principal: 20000, extra: Number.NaN })],
    ['a symbol-keyed property', () => ({ principal: 20000, [Symbol('x')]: 1 })],
  ];
  it.each(rows)('%s', (_, build) => {
    let restored: UIState | undefined;
    expect(() => {
      restored = restoreState(COMPOUND, build());
    }).not.toThrow();
    expect(restored).toStrictEqual({ principal: 10000, rate: 5, years: 10 });
    expect(Object.isFrozen(restored)).toBe(true);
  });

  it('a getter falls back to the initial state and is never invoked', () => {
    let calls = 0;
    const valid = { principal: 20000, rate: 7.5 };
    const saved = Object.defineProperty(valid, 'years', {
      get: () => {
        calls++;
        return 30;
      },
      enumerable: true,
      configurable: true,
    });
    expect(restoreState(COMPOUND, saved)).toStrictEqual({ principal: 10000, rate: 5, years: 10 });
    expect(calls).toBe(0);
  });

  it('a nested getter in an unknown field is never invoked either', () => {
    let calls = 0;
    const nested = Object.defineProperty({}, 'x', {
      get: () => {
        calls++;
        return 1;
      },
      enumerable: true,
    });
    expect(restoreState(COMPOUND, { principal: 20000, extra: nested })).toStrictEqual({
      principal: 10000,
      rate: 5,
      years: 10,
    });
    expect(calls).toBe(0);
  });
});

describe('restoreState: a result over 262,144 bytes falls back to the initial state (seed 002 §4)', () => {
  // Half of the fields start full, so a saved input well under the budget can still overflow the result.
  const HALF_FULL = budgetDocument(FIELD_COUNT / 2);
  const savedHalf = (count: number): Record<string, string> => {
    const saved: Record<string, string> = {};
    for (const name of FIELD_NAMES.slice(FIELD_COUNT / 2, FIELD_COUNT / 2 + count)) {
      saved[name] = 'a'.repeat(UI_LIMITS.maxStringLength);
    }
    return saved;
  };

  it('the whole saved half (32 full fields) overflows the result: initial state', () => {
    const saved = savedHalf(FIELD_COUNT / 2);
    expect(stateBytes(saved)).toBeLessThan(UI_LIMITS.maxStateBytes);
    expect(stateBytes({ ...initialState(HALF_FULL), ...saved })).toBeGreaterThan(UI_LIMITS.maxStateBytes);
    expect(restoreState(HALF_FULL, saved)).toStrictEqual(initialState(HALF_FULL));
  });

  it('31 of them fit: they are restored', () => {
    const saved = savedHalf(FIELD_COUNT / 2 - 1);
    const expected = { ...initialState(HALF_FULL), ...saved };
    expect(stateBytes(expected)).toBeLessThanOrEqual(UI_LIMITS.maxStateBytes);
    const restored = restoreState(HALF_FULL, saved);
    expect(restored).toStrictEqual(expected);
    expect(() => assertValidState(HALF_FULL, clone(restored))).not.toThrow();
  });
});
