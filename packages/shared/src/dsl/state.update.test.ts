/**
 * Updating local state (seed 002 §4, §9): the atomic `updateState`, one row per accepted and rejected value;
 * every rejected row asserts the error class, the issue `code` and its exact `path` (PATHS.md), and that the
 * caller's state is untouched. Also an invalid current state, and the whole state's 262,144-byte budget.
 */
import { describe, expect, it } from 'vitest';
import {
  BUDGET,
  COMPOUND,
  DOMAINS,
  expectStateError,
  FIELD_COUNT,
  FIELD_NAMES,
  FORM,
  stateBytes,
} from '../../test/dsl-state.js';
import { clone } from '../../test/utils.js';
import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { assertValidState, initialState, updateState } from './state.js';
import type { UIState } from './types.js';

it('the budget document really can outgrow the state budget with every field at its maxLength', () => {
  // 64 × 4096 characters are exactly 262,144; keys, quotes and commas of the JSON text push it over.
  const full: Record<string, string> = {};
  for (const name of FIELD_NAMES) full[name] = 'a'.repeat(UI_LIMITS.maxStringLength);
  expect(stateBytes(full)).toBeGreaterThan(UI_LIMITS.maxStateBytes);
});

describe('updateState: accepted values (seed 002 §4)', () => {
  const rows: [string, string, unknown][] = [
    ['a number without bounds up to 1e15', 'free', 1e15],
    ['a number without bounds down to -1e15', 'free', -1e15],
    ['a number without a step is continuous', 'free', 123.456],
    ['the minimum is included', 'bounded', 0],
    ['the maximum is included', 'bounded', 10],
    ['step 1 without min: origin 0', 'whole', 10],
    ['step 1 without min: negative grid points', 'whole', -3],
    ['step 0.1: 0.1 + 0.2 is not rejected for its float error', 'tenth', 0.1 + 0.2],
    ['step 0.1: 0.7 + 0.1 is not rejected for its float error', 'tenth', 0.7 + 0.1],
    ['step 0.1: 0.3', 'tenth', 0.3],
    ['step 0.1: 9.9', 'tenth', 9.9],
    ['step 0.1: the maximum 10', 'tenth', 10],
    ['step 1 with min 0.5: origin is the min, so 1.5', 'offset', 1.5],
    ['step 1 with min 0.5: 99.5', 'offset', 99.5],
    ['step 0.5 without min: -1.5', 'half', -1.5],
    ['step 1 near a large maximum: 999999999', 'large', 999_999_999],
    ['step 1: the maximum 1e9', 'large', 1_000_000_000],
    ['a string of exactly the default maxLength 4096', 'text', 'a'.repeat(4096)],
    ['maxLength counts UTF-16 units: 2048 emoji are 4096 units', 'text', '😀'.repeat(2048)],
    ['an empty string', 'text', ''],
    ['a string of exactly maxLength 3', 'short', 'abc'],
    ['a real boolean', 'flag', true],
    ['one of the Select options', 'choice', 'c'],
  ];
  it.each(rows)('%s', (_, key, value) => {
    const before = initialState(DOMAINS);
    const snapshot = clone(before);
    const next = updateState(DOMAINS, before, key, value);
    expect(next[key]).toBe(value);
    expect(next).toStrictEqual({ ...snapshot, [key]: value });
    expect(next).not.toBe(before);
    expect(Object.isFrozen(next)).toBe(true);
    expect(before).toStrictEqual(snapshot);
    expect(() => assertValidState(DOMAINS, clone(next))).not.toThrow();
  });
});

describe('updateState: rejected values throw UIStateError and leave the state untouched (seed 002 §4)', () => {
  const rows: [string, unknown, unknown, UIIssueCode, string][] = [
    ['an undeclared field', 'missing', 1, 'unknown_reference', '$'],
    ['__proto__ is not a field', '__proto__', {}, 'unknown_reference', '$'],
    ['a prototype property is not a field', 'toString', 'x', 'unknown_reference', '$'],
    ['constructor is not a field', 'constructor', 1, 'unknown_reference', '$'],
    ['a non-string key', 42, 1, 'unknown_reference', '$'],
    ['a string for a number field', 'free', '1', 'type_mismatch', 'free'],
    ['null for a number field', 'free', null, 'type_mismatch', 'free'],
    ['undefined for a number field', 'free', undefined, 'type_mismatch', 'free'],
    ['a boolean for a number field', 'free', true, 'type_mismatch', 'free'],
    ['an object for a number field', 'free', { value: 1 }, 'type_mismatch', 'free'],
    ['an array for a number field', 'free', [1], 'type_mismatch', 'free'],
    ['a number for a string field', 'text', 5, 'type_mismatch', 'text'],
    ['a string for a boolean field', 'flag', 'true', 'type_mismatch', 'flag'],
    ['0 for a boolean field', 'flag', 0, 'type_mismatch', 'flag'],
    ['a number for a Select-bound field', 'choice', 1, 'type_mismatch', 'choice'],
    ['NaN', 'free', Number.NaN, 'number_out_of_range', 'free'],
    ['Infinity', 'free', Number.POSITIVE_INFINITY, 'number_out_of_range', 'free'],
    ['-Infinity', 'free', Number.NEGATIVE_INFINITY, 'number_out_of_range', 'free'],
    ['a number above 1e15 without declared bounds', 'free', 1e15 + 0.125, 'number_out_of_range', 'free'],
    ['a number below -1e15 without declared bounds', 'free', -1e15 - 0.125, 'number_out_of_range', 'free'],
    ['below the minimum', 'bounded', -0.001, 'number_out_of_range', 'bounded'],
    ['above the maximum', 'bounded', 10.000001, 'number_out_of_range', 'bounded'],
    ['step 1 rejects 10.5', 'whole', 10.5, 'step_mismatch', 'whole'],
    ['step 0.1 rejects 0.15', 'tenth', 0.15, 'step_mismatch', 'tenth'],
    ['step 0.1 rejects 0.05', 'tenth', 0.05, 'step_mismatch', 'tenth'],
    ['step 1 with min 0.5: 1 is off the grid', 'offset', 1, 'step_mismatch', 'offset'],
    ['step 0.5 without min: 0.25 is off the grid', 'half', 0.25, 'step_mismatch', 'half'],
    ['step 0.5 without min: -0.75 is off the grid', 'half', -0.75, 'step_mismatch', 'half'],
    // 999999999.5 and 100000000.05 are exact doubles: no float-representation tolerance covers them.
    ['step 1 rejects a half near a large maximum', 'large', 999_999_999.5, 'step_mismatch', 'large'],
    ['step 1 rejects 500000000.5', 'large', 500_000_000.5, 'step_mismatch', 'large'],
    ['step 1 rejects 100000000.05', 'large', 100_000_000.05, 'step_mismatch', 'large'],
    ['a string over the default maxLength 4096', 'text', 'a'.repeat(4097), 'string_too_long', 'text'],
    [
      'maxLength counts UTF-16 units: 2048 emoji and one more unit',
      'text',
      `${'😀'.repeat(2048)}a`,
      'string_too_long',
      'text',
    ],
    ['a string over its declared maxLength', 'short', 'abcd', 'string_too_long', 'short'],
    ['a value that is not a Select option', 'choice', 'd', 'select_domain_conflict', 'choice'],
    ['the empty string is not a Select option here', 'choice', '', 'select_domain_conflict', 'choice'],
    ['Select options are case-sensitive', 'choice', 'A', 'select_domain_conflict', 'choice'],
  ];
  it.each(rows)('%s', (_, key, value, code, path) => {
    const before = initialState(DOMAINS);
    const snapshot = clone(before);
    expectStateError(() => updateState(DOMAINS, before, key as string, value), code, path);
    expect(before).toStrictEqual(snapshot);
    expect(Object.isFrozen(before)).toBe(true);
  });

  it('a Select-bound field of a fixture accepts only its options (form-controls plan)', () => {
    const before = initialState(FORM);
    expect(updateState(FORM, before, 'plan', 'premium').plan).toBe('premium');
    expectStateError(() => updateState(FORM, before, 'plan', 'enterprise'), 'select_domain_conflict', 'plan');
    expect(before.plan).toBe('standard');
  });
});

describe('updateState: atomic and non-mutating (seed 002 §4 原子更新)', () => {
  it('returns a new frozen object and keeps the old one as it was', () => {
    const first = initialState(COMPOUND);
    const second = updateState(COMPOUND, first, 'rate', 5.5);
    const third = updateState(COMPOUND, second, 'years', 20);
    expect(first).toStrictEqual({ principal: 10000, rate: 5, years: 10 });
    expect(second).toStrictEqual({ principal: 10000, rate: 5.5, years: 10 });
    expect(third).toStrictEqual({ principal: 10000, rate: 5.5, years: 20 });
    for (const state of [first, second, third]) expect(Object.isFrozen(state)).toBe(true);
  });

  it('accepts a valid state it did not produce (a JSON copy) and neither mutates nor freezes it', () => {
    const handMade = clone(initialState(COMPOUND)) as Record<string, number>;
    const next = updateState(COMPOUND, handMade, 'principal', 20000);
    expect(next).toStrictEqual({ principal: 20000, rate: 5, years: 10 });
    expect(Object.isFrozen(next)).toBe(true);
    expect(handMade).toStrictEqual({ principal: 10000, rate: 5, years: 10 });
    expect(Object.isFrozen(handMade)).toBe(false);
  });

  it('a failure does not clear the other filled fields', () => {
    let state = initialState(FORM);
    state = updateState(FORM, state, 'name', 'Ada');
    state = updateState(FORM, state, 'email', 'ada@example.com');
    const snapshot = clone(state);
    expectStateError(() => updateState(FORM, state, 'seats', 11), 'number_out_of_range', 'seats');
    expect(state).toStrictEqual(snapshot);
  });
});

describe('updateState: an invalid current state is rejected, and left as it was (seed 002 §4)', () => {
  const valid = (): Record<string, unknown> => clone(initialState(COMPOUND));
  const rows: [string, () => Record<string, unknown>, UIIssueCode, string][] = [
    [
      'a missing field',
      () => {
        const state = valid();
        delete state.rate;
        return state;
      },
      'missing_property',
      'rate',
    ],
    ['an extra field', () => ({ ...valid(), extra: 1 }), 'unknown_property', '$'],
    ['a field of the wrong type', () => ({ ...valid(), years: '10' }), 'type_mismatch', 'years'],
    ['a field out of range', () => ({ ...valid(), years: 41 }), 'number_out_of_range', 'years'],
    ['a field off the step grid', () => ({ ...valid(), rate: 5.25 }), 'step_mismatch', 'rate'],
  ];
  it.each(rows)('%s', (_, build, code, path) => {
    const state = build();
    const snapshot = clone(state);
    // The update itself (principal 20000) would be valid: only the current state is wrong.
    expectStateError(() => updateState(COMPOUND, state as UIState, 'principal', 20000), code, path);
    expect(state).toStrictEqual(snapshot);
  });
});

describe('updateState: the whole state stays within 262,144 bytes (seed 002 §4, §9)', () => {
  it('fills 63 fields, then accepts the 64th exactly at the budget and rejects one unit more', () => {
    let state = initialState(BUDGET);
    const full = 'a'.repeat(UI_LIMITS.maxStringLength);
    for (const name of FIELD_NAMES.slice(0, -1)) state = updateState(BUDGET, state, name, full);
    const last = FIELD_NAMES[FIELD_COUNT - 1]!;
    const room = UI_LIMITS.maxStateBytes - stateBytes(state);
    // The budget, not maxLength, is what binds the last field.
    expect(room).toBeGreaterThan(0);
    expect(room).toBeLessThan(UI_LIMITS.maxStringLength);

    const snapshot = clone(state);
    expectStateError(() => updateState(BUDGET, state, last, 'a'.repeat(room + 1)), 'too_large', '$');
    expect(state).toStrictEqual(snapshot);

    const exact = updateState(BUDGET, state, last, 'a'.repeat(room));
    expect(stateBytes(exact)).toBe(UI_LIMITS.maxStateBytes);
    expect(() => assertValidState(BUDGET, clone(exact))).not.toThrow();
  });

  it('counts UTF-8 bytes, not UTF-16 units: 3-byte characters exhaust it in fewer fields', () => {
    let state = initialState(BUDGET);
    const full = '中'.repeat(UI_LIMITS.maxStringLength);
    let filled = 0;
    for (const name of FIELD_NAMES) {
      const candidate = { ...state, [name]: full };
      if (stateBytes(candidate) > UI_LIMITS.maxStateBytes) {
        const snapshot = clone(state);
        expectStateError(() => updateState(BUDGET, state, name, full), 'too_large', '$');
        expect(state).toStrictEqual(snapshot);
        break;
      }
      state = updateState(BUDGET, state, name, full);
      filled++;
    }
    // 4,096 UTF-16 units per field would allow all 64; 12,288 UTF-8 bytes per field allow only 21.
    expect(filled).toBe(21);
  });

  it('measures a state it did not produce too (a JSON copy of a nearly full state)', () => {
    let state = initialState(BUDGET);
    const full = 'a'.repeat(UI_LIMITS.maxStringLength);
    for (const name of FIELD_NAMES.slice(0, -1)) state = updateState(BUDGET, state, name, full);
    const handMade = clone(state);
    const last = FIELD_NAMES[FIELD_COUNT - 1]!;
    expectStateError(() => updateState(BUDGET, handMade, last, full), 'too_large', '$');
    expect(handMade).toStrictEqual(clone(state));
  });

  it('shrinking a field of a full state is always possible', () => {
    let state = initialState(BUDGET);
    const full = 'a'.repeat(UI_LIMITS.maxStringLength);
    for (const name of FIELD_NAMES.slice(0, -1)) state = updateState(BUDGET, state, name, full);
    const next = updateState(BUDGET, state, FIELD_NAMES[0]!, '');
    expect(next[FIELD_NAMES[0]!]).toBe('');
  });
});
