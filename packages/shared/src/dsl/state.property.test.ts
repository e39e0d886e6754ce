/**
 * Properties of local state as a state machine (seed 002 §4, §8): random sequences of `updateState` on the
 * form-controls and compound-interest fixtures, with values of every kind (numbers on and off the grid, out of
 * range and non-finite; short and long strings; booleans, null, objects). Every returned state is frozen and
 * valid, every rejection is a `UIStateError` that leaves the previous state as it was, each decision agrees
 * with an independent model of the field's domain, and `Object.prototype` is never written. `restoreState` of
 * anything never throws and always returns a valid state, keeping exactly the fields `updateState` would accept.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import { clone } from '../../test/utils.js';
import { UIStateError } from '../errors/errors.js';
import { parseDocument } from './document.js';
import { assertValidState, initialState, restoreState, updateState } from './state.js';
import type { StateDeclaration, UIDocument, UIState } from './types.js';

interface Machine {
  readonly name: string;
  readonly document: UIDocument;
  /** Select option sets, from the fixture (the model does not read the implementation's index). */
  readonly options: Readonly<Record<string, readonly string[]>>;
}

const MACHINES: readonly Machine[] = [
  {
    name: 'form-controls',
    document: parseDocument(clone(formControls)),
    options: { plan: ['basic', 'standard', 'premium'] },
  },
  { name: 'compound-interest', document: parseDocument(clone(compoundInterest)), options: {} },
];

const FOREIGN_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'missing', ''];

/** The model's verdict on one value: clearly allowed, clearly rejected, or too close to a grid point to say. */
type Verdict = 'allowed' | 'rejected' | 'unclear';

/** seed 002 §4, written independently of domain.ts. */
function verdict(
  declaration: StateDeclaration,
  options: readonly string[] | undefined,
  value: unknown,
): Verdict {
  switch (declaration.type) {
    case 'boolean':
      return typeof value === 'boolean' ? 'allowed' : 'rejected';
    case 'string': {
      if (typeof value !== 'string') return 'rejected';
      if (value.length > (declaration.maxLength ?? 4096)) return 'rejected';
      if (options && !options.includes(value)) return 'rejected';
      return 'allowed';
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 1e15) return 'rejected';
      if (declaration.min !== undefined && value < declaration.min) return 'rejected';
      if (declaration.max !== undefined && value > declaration.max) return 'rejected';
      if (declaration.step === undefined) return 'allowed';
      const units = (value - (declaration.min ?? 0)) / declaration.step;
      const miss = Math.abs(units - Math.round(units));
      if (miss < 1e-12) return 'allowed';
      if (miss > 1e-6) return 'rejected';
      return 'unclear';
    }
  }
}

/** A payload that would pollute `Object.prototype` if merged carelessly. */
const POLLUTER = (): unknown =>
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');

const valueArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(), // NaN, ±Infinity and -0 included
  fc.integer({ min: -20, max: 120 }),
  fc.integer({ min: -10, max: 60 }).map((units) => units * 0.5),
  fc.integer({ min: -50, max: 250 }).map((units) => units * 0.1), // off a 0.5 grid, with float error
  fc.constantFrom(1e15, -1e15, 1e15 + 0.125, 1e8, 1e8 + 1, 99_999_999.5, 0.1 + 0.2, 0.7 + 0.1, 10.5),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    'a'.repeat(64),
    'a'.repeat(65),
    'e'.repeat(254),
    'e'.repeat(255),
    'x'.repeat(4096),
    'x'.repeat(4097),
  ),
  fc.constantFrom('basic', 'standard', 'premium', 'enterprise', 'Premium', ''),
  fc.boolean(),
  fc.constantFrom(null, undefined),
  fc.object({ maxDepth: 2 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.constant(null).map(POLLUTER),
);

function keyArbitrary(document: UIDocument): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...Object.keys(document.state)) },
    { weight: 1, arbitrary: fc.constantFrom(...FOREIGN_KEYS) },
  );
}

let prototypeNames: string[] = [];
beforeEach(() => {
  prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
});
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

function expectPrototypeClean(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe.each(MACHINES)('updateState as a state machine: $name', ({ document, options }) => {
  it('valid frozen states out, UIStateError with the previous state untouched otherwise, as the model says', () => {
    const step = fc.tuple(keyArbitrary(document), valueArbitrary);
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        let current = initialState(document);
        for (const [key, value] of steps) {
          const snapshot = clone(current);
          const isDeclared = Object.hasOwn(document.state, key);
          const expected = isDeclared ? verdict(document.state[key]!, options[key], value) : 'rejected';
          let next: UIState | undefined;
          let failure: unknown;
          try {
            next = updateState(document, current, key, value);
          } catch (error) {
            failure = error;
          }
          // The previous state never changes, whatever happened.
          expect(current).toStrictEqual(snapshot);
          expect(Object.isFrozen(current)).toBe(true);
          if (next === undefined) {
            expect(failure).toBeInstanceOf(UIStateError);
            expect(expected).not.toBe('allowed');
            continue;
          }
          expect(expected).not.toBe('rejected');
          expect(Object.isFrozen(next)).toBe(true);
          // -0 is stored as 0: state is JSON data, where -0 does not exist.
          expect(Object.is(next[key], Object.is(value, -0) ? 0 : value)).toBe(true);
          expect({ ...next, [key]: snapshot[key] }).toStrictEqual(snapshot);
          // A JSON copy is a state the module never saw: it gets the full check.
          expect(() => assertValidState(document, clone(next))).not.toThrow();
          expect(() => assertValidState(document, next)).not.toThrow();
          current = next;
        }
        expectPrototypeClean();
      }),
      { numRuns: 300 },
    );
  });
});

/** Saved state as a client might store it: declared and foreign keys with values of every kind. */
function savedArbitrary(document: UIDocument): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .array(
      fc.tuple(
        keyArbitrary(document).filter((key) => key !== '__proto__'),
        valueArbitrary,
      ),
      { maxLength: 10 },
    )
    .map((entries) => {
      const saved: Record<string, unknown> = {};
      for (const [key, value] of entries) {
        Object.defineProperty(saved, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return saved;
    });
}

/** Whether `value` is JSON data restoreState can inspect: plain objects and arrays, finite numbers, no undefined. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && value.every(isPlainJson);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every(isPlainJson);
}

let getterCalls = 0;
/** Hostile shapes: a getter on a declared field, a cycle, a class instance around a valid saved state. */
function hostileArbitrary(document: UIDocument): fc.Arbitrary<unknown> {
  const [first] = Object.keys(document.state);
  return fc.oneof(
    savedArbitrary(document).map((saved) =>
      Object.defineProperty(saved, first!, {
        get: () => {
          getterCalls++;
          return initialState(document)[first!];
        },
        enumerable: true,
        configurable: true,
      }),
    ),
    savedArbitrary(document).map((saved) => {
      saved.self = saved;
      return saved;
    }),
    savedArbitrary(document).map((saved) => Object.assign(new (class Saved {})(), saved)),
  );
}

const ANYTHING = fc.anything({
  maxDepth: 3,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withObjectString: true,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withUnicodeString: true,
});

describe.each(MACHINES)('restoreState of arbitrary input: $name', ({ document }) => {
  const initial = initialState(document);

  it('never throws and always returns a frozen, valid state', () => {
    getterCalls = 0;
    fc.assert(
      fc.property(fc.oneof(ANYTHING, savedArbitrary(document), hostileArbitrary(document)), (input) => {
        let restored: UIState | undefined;
        expect(() => {
          restored = restoreState(document, input);
        }).not.toThrow();
        expect(Object.isFrozen(restored)).toBe(true);
        expect(() => assertValidState(document, clone(restored))).not.toThrow();
        expectPrototypeClean();
      }),
      { numRuns: 400 },
    );
    expect(getterCalls).toBe(0);
  });

  it('keeps exactly the saved fields updateState would accept, each on its own (seed 002 §4)', () => {
    fc.assert(
      fc.property(savedArbitrary(document), (saved) => {
        const restored = restoreState(document, saved);
        if (!isPlainJson(saved)) {
          expect(restored).toStrictEqual(initial);
          return;
        }
        for (const key of Object.keys(initial)) {
          let accepted = false;
          if (Object.hasOwn(saved, key)) {
            try {
              updateState(document, initial, key, saved[key]);
              accepted = true;
            } catch (error) {
              expect(error).toBeInstanceOf(UIStateError);
            }
          }
          expect(Object.is(restored[key], accepted ? saved[key] : initial[key])).toBe(true);
        }
        expect(Object.keys(restored).sort()).toEqual(Object.keys(initial).sort());
      }),
      { numRuns: 400 },
    );
  });
});
