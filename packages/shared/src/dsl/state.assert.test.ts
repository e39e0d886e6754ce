/**
 * The full check of a local state (seed 002 §8): `assertValidState` accepts exactly the declared fields, each
 * valid, within the 262,144-byte budget, and never invokes a getter. Every rejected row asserts the error
 * class, the issue `code` and its exact `path` (PATHS.md).
 */
import { describe, expect, it } from 'vitest';
import { BUDGET, COMPOUND, expectStateError, FIELD_NAMES, FORM, stateBytes } from '../../test/dsl-state.js';
import { clone } from '../../test/utils.js';
import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { assertValidState, initialState } from './state.js';

describe('assertValidState: exactly the declared fields, each valid, within budget (seed 002 §8)', () => {
  const valid = (): Record<string, unknown> => clone(initialState(COMPOUND));
  class SavedState {
    principal = 10000;
    rate = 5;
    years = 10;
  }
  const rows: [string, () => unknown, UIIssueCode, string][] = [
    ['a number', () => 42, 'invalid_type', '$'],
    ['a string', () => 'state', 'invalid_type', '$'],
    ['null', () => null, 'invalid_type', '$'],
    ['an array', () => [], 'invalid_type', '$'],
    ['undefined (not JSON)', () => undefined, 'invalid_json', '$'],
    ['a class instance with the right fields', () => new SavedState(), 'invalid_json', '$'],
    [
      'a getter for a declared field',
      () =>
        Object.defineProperty(valid(), 'principal', {
          get: () => 10000,
          enumerable: true,
          configurable: true,
        }),
      'invalid_json',
      'principal',
    ],
    ['an extra field', () => ({ ...valid(), extra: 1 }), 'unknown_property', '$'],
    [
      'an extra __proto__ own field',
      () => JSON.parse('{"principal":10000,"rate":5,"years":10,"__proto__":{}}'),
      'unknown_property',
      '$',
    ],
    [
      'a missing field',
      () => {
        const state = valid();
        delete state.years;
        return state;
      },
      'missing_property',
      'years',
    ],
    ['a field of the wrong type', () => ({ ...valid(), rate: '5' }), 'type_mismatch', 'rate'],
    [
      'a null field (state values are never null)',
      () => ({ ...valid(), rate: null }),
      'type_mismatch',
      'rate',
    ],
    ['a field out of range', () => ({ ...valid(), principal: -1 }), 'number_out_of_range', 'principal'],
    ['a field off the step grid', () => ({ ...valid(), years: 2.5 }), 'step_mismatch', 'years'],
  ];
  it.each(rows)('rejects %s', (_, build, code, path) => {
    const input = build();
    expectStateError(() => assertValidState(COMPOUND, input), code, path);
  });

  it('rejects a value outside a Select domain', () => {
    const state = { ...clone(initialState(FORM)), plan: 'enterprise' };
    expectStateError(() => assertValidState(FORM, state), 'select_domain_conflict', 'plan');
  });

  it('rejects a state over 262,144 bytes, even when every field is valid', () => {
    const state: Record<string, string> = {};
    for (const name of FIELD_NAMES) state[name] = 'a'.repeat(UI_LIMITS.maxStringLength);
    expect(stateBytes(state)).toBeGreaterThan(UI_LIMITS.maxStateBytes);
    expectStateError(() => assertValidState(BUDGET, state), 'too_large', '$');
  });

  it('never invokes a getter', () => {
    let calls = 0;
    const state = Object.defineProperty(valid(), 'rate', {
      get: () => {
        calls++;
        return 5;
      },
      enumerable: true,
      configurable: true,
    });
    expectStateError(() => assertValidState(COMPOUND, state), 'invalid_json', 'rate');
    expect(calls).toBe(0);
  });

  it('accepts valid plain states it did not produce, with or without a prototype', () => {
    expect(() => assertValidState(COMPOUND, valid())).not.toThrow();
    expect(() => assertValidState(COMPOUND, Object.assign(Object.create(null), valid()))).not.toThrow();
  });
});
