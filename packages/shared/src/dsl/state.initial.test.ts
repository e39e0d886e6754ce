/**
 * The initial state of a validated document (seed 002 §4, §8): `initialState` holds every declared field at
 * its initial value and nothing else, frozen, and passes the full check.
 */
import { describe, expect, it } from 'vitest';
import { BUDGET, COMPOUND, DOMAINS, FORM } from '../../test/dsl-state.js';
import { clone } from '../../test/utils.js';
import { assertValidState, initialState } from './state.js';
import type { UIDocument, UIState } from './types.js';

describe('initialState (seed 002 §4, §8)', () => {
  const rows: [string, UIDocument, UIState][] = [
    ['compound interest', COMPOUND, { principal: 10000, rate: 5, years: 10 }],
    [
      'form controls',
      FORM,
      {
        name: '',
        email: '',
        seats: 2,
        plan: 'standard',
        experience: 3,
        newsletter: true,
        submitted: false,
      },
    ],
  ];
  it.each(rows)('%s: every declared field at its initial value, nothing else', (_, document, expected) => {
    expect(initialState(document)).toStrictEqual(expected);
  });

  it('is frozen: a write throws (ES modules are strict) and changes nothing', () => {
    const state = initialState(COMPOUND);
    expect(Object.isFrozen(state)).toBe(true);
    expect(() => {
      (state as Record<string, unknown>).principal = 1;
    }).toThrow(TypeError);
    expect(state.principal).toBe(10000);
  });

  it('returns a fresh object each time, equal to the last', () => {
    const first = initialState(COMPOUND);
    const second = initialState(COMPOUND);
    expect(second).toStrictEqual(first);
  });

  it('passes its own check', () => {
    for (const document of [COMPOUND, FORM, DOMAINS, BUDGET]) {
      expect(() => assertValidState(document, clone(initialState(document)))).not.toThrow();
    }
  });
});
