/**
 * What each compiled expression node does when evaluation reaches it (seed 002 §3, §9): a literal, a state or
 * derived reference, or one of the 18 operators, each a small closure that spends its step and checks what it
 * reads and computes — no implicit conversions, every number finite and within ±1e15, every string within
 * 4,096 UTF-16 units. A node knows its `Site`, so that a failure names its path in the evaluated expression.
 * `expression-compile.ts` checks each node's shape and builds these closures.
 */

import { UIExpressionError } from '../errors/errors.js';
import { formatIssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { budgetMessage } from './expression-budget.js';
import type { Evaluation, Evaluator, StateLayout } from './expression-evaluation.js';
import type { Scalar, UIState } from './value-types.js';

const MAX_ABS_NUMBER = UI_LIMITS.maxAbsNumber;
const MAX_STRING_LENGTH = UI_LIMITS.maxStringLength;
const MAX_FRACTION_DIGITS = UI_SCHEMA_LIMITS.maxFractionDigits;
/** `1e15` as people write it in messages. */
const MAX_ABS_TEXT = MAX_ABS_NUMBER.toExponential().replace('e+', 'e');
// Faster than Object.hasOwn on current engines, and equally immune to a shadowing own `hasOwnProperty`.
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Where a node sits in the evaluated expression: its parent and its index in the parent's `args`. @internal
 */
export interface Site {
  readonly parent: Site | undefined;
  readonly index: number;
  /** 0 for the root; seed 002 §9 limits nesting to 24 levels, i.e. depths 0–23. */
  readonly depth: number;
}

/** @internal */
export const ROOT: Site = { parent: undefined, index: 0, depth: 0 };

/** The failure at `site`, e.g. `args[1].args[0]` (`$` for the root); the path is built only on failure. */
function fail(site: Site, message: string): UIExpressionError {
  const path: (string | number)[] = [];
  for (let at: Site = site; at.parent !== undefined; at = at.parent) path.push(at.index, 'args');
  return new UIExpressionError(message, formatIssuePath(path.reverse()));
}

/** @internal */
export const OUT_OF_RANGE = `Numbers must be finite and between -${MAX_ABS_TEXT} and ${MAX_ABS_TEXT}; this value is not.`;
/** @internal */
export const STRING_TOO_LONG = `Strings are at most ${MAX_STRING_LENGTH} UTF-16 code units long; this one is longer.`;
const STATE_NOT_FOUND = 'This expression reads a state field that is not in the state.';
const STATE_NOT_SCALAR = 'State values are numbers, strings or booleans; this one is not.';
const DERIVED_NOT_NAMED = 'A derived reference names a derived field.';
const DERIVED_NOT_SCALAR = 'Derived values are scalars; this one is not.';
const DIVISION_BY_ZERO = 'div cannot divide by zero; the divisor must not be 0.';
const POWER_OUT_OF_RANGE = `pow must give a finite number within ±${MAX_ABS_TEXT}.`;
const BAD_DIGITS = `round takes an integer number of digits from 0 to ${MAX_FRACTION_DIGITS}.`;

/** Spends the step of the node at `site` (seed 002 §9: every visited node costs one step). */
function spend(evaluation: Evaluation, site: Site): void {
  const budget = evaluation.budget;
  if (!budget.tryStep()) throw fail(site, budgetMessage(budget.limit));
}

/** A node that fails when reached, after spending its step like any other node. @internal */
export function failing(site: Site, message: string): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    throw fail(site, message);
  };
}

/** A literal. @internal */
export function constant(value: Scalar, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    return value;
  };
}

/** seed 002 §3: finite with |x| ≤ 1e15 (NaN fails both comparisons). @internal */
export function isInRange(value: number): boolean {
  return value >= -MAX_ABS_NUMBER && value <= MAX_ABS_NUMBER;
}

/** seed 002 §3: every number, literal or computed, is finite with |x| ≤ 1e15. */
function checkNumber(value: number, site: Site): number {
  if (value >= -MAX_ABS_NUMBER && value <= MAX_ABS_NUMBER) return value;
  throw fail(site, OUT_OF_RANGE);
}

/** seed 002 §3: every string, literal or computed, has at most 4,096 UTF-16 code units. */
function checkString(value: string, site: Site): string {
  if (value.length <= MAX_STRING_LENGTH) return value;
  throw fail(site, STRING_TOO_LONG);
}

/** A `{ state: name }` node. @internal */
export function compileStateReference(name: unknown, site: Site): Evaluator {
  if (typeof name !== 'string') return failing(site, STATE_NOT_FOUND);
  // Where `name` sits in the last layout seen; a document's expressions only ever see its own layout.
  let layout: StateLayout | undefined;
  let position = -1;
  return (evaluation) => {
    spend(evaluation, site);
    const snapshot = evaluation.snapshot;
    let value: unknown;
    if (snapshot !== undefined) {
      if (snapshot.layout !== layout) {
        layout = snapshot.layout;
        position = layout.positions.get(name) ?? -1;
      }
      value = position >= 0 ? snapshot.values[position] : readOwn(evaluation.state, name, site);
    } else {
      value = readOwn(evaluation.state, name, site);
    }
    // seed 002 §4: state values are numbers, strings or booleans only.
    if (typeof value === 'number') return checkNumber(value, site);
    if (typeof value === 'string') return checkString(value, site);
    if (typeof value === 'boolean') return value;
    throw fail(site, STATE_NOT_SCALAR);
  };
}

/** seed 002 §3: a reference reads an own, declared key, never the prototype (`{ state: "toString" }`). */
function readOwn(state: UIState, name: string, site: Site): unknown {
  if (!hasOwn.call(state, name)) throw fail(site, STATE_NOT_FOUND);
  return state[name];
}

/** A `{ derived: name }` node. @internal */
export function compileDerivedReference(name: unknown, site: Site): Evaluator {
  if (typeof name !== 'string') return failing(site, DERIVED_NOT_NAMED);
  // Where `name` sits in the last table seen, as for state references.
  let positions: ReadonlyMap<string, number> | undefined;
  let position = -1;
  return (evaluation) => {
    spend(evaluation, site);
    const table = evaluation.derived;
    let value: unknown;
    try {
      if (table !== undefined) {
        if (table.positions !== positions) {
          positions = table.positions;
          position = positions.get(name) ?? -1;
        }
        value = position >= 0 ? table.at(position) : evaluation.context.resolveDerived(name);
      } else {
        value = evaluation.context.resolveDerived(name);
      }
    } catch (error) {
      // The resolver's path is relative to the derived field's own expression; report it at this reference.
      if (error instanceof UIExpressionError) throw fail(site, error.message);
      throw error;
    }
    if (typeof value === 'number') return checkNumber(value, site);
    if (typeof value === 'string') return checkString(value, site);
    if (typeof value === 'boolean' || value === null) return value;
    throw fail(site, DERIVED_NOT_SCALAR);
  };
}

/**
 * The compiled arguments of an operator node. `slots[i]` starts as a stub that compiles argument `i` on its
 * first visit and, when the compiled form may be kept, puts it in its own place. @internal
 */
export interface Arguments {
  readonly slots: Evaluator[];
  readonly sites: readonly Site[];
}

function describeValue(value: Scalar): string {
  if (value === null) return 'null';
  return typeof value === 'number' ? 'a number' : typeof value === 'string' ? 'a string' : 'a boolean';
}

/** seed 002 §3: no implicit conversion between numbers, strings and booleans; reported at the argument. */
function numberArgument(value: Scalar, op: string, site: Site): number {
  if (typeof value === 'number') return value;
  throw fail(site, `${op} takes numbers; this argument is ${describeValue(value)}.`);
}

function booleanArgument(value: Scalar, op: string, site: Site): boolean {
  if (typeof value === 'boolean') return value;
  throw fail(site, `${op} takes booleans; this argument is ${describeValue(value)}.`);
}

/** seed 002 §3: `concat` turns scalars into text; `null` is the empty string. */
function toText(value: Scalar): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return String(value);
}

// Each operator is its own closure factory, so that each compiled node runs a small, type-stable function;
// `expression-compile.ts` picks the factory of an operator node (internal, like everything here). Arguments are
// evaluated left to right, each checked as soon as it is computed (seed 002 §3).

export function add({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let sum = numberArgument(slots[0]!(evaluation), 'add', sites[0]!);
    // seed 002 §3: every arithmetic intermediate is checked, not only the final sum.
    for (let index = 1; index < count; index++) {
      sum = checkNumber(sum + numberArgument(slots[index]!(evaluation), 'add', sites[index]!), site);
    }
    return sum;
  };
}

export function subtract({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'sub', sites[0]!);
    return checkNumber(left - numberArgument(slots[1]!(evaluation), 'sub', sites[1]!), site);
  };
}

export function multiply({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let product = numberArgument(slots[0]!(evaluation), 'mul', sites[0]!);
    for (let index = 1; index < count; index++) {
      product = checkNumber(product * numberArgument(slots[index]!(evaluation), 'mul', sites[index]!), site);
    }
    return product;
  };
}

export function divide({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const dividend = numberArgument(slots[0]!(evaluation), 'div', sites[0]!);
    const divisor = numberArgument(slots[1]!(evaluation), 'div', sites[1]!);
    // seed 002 §3: division by zero fails (reported at the divisor, args[1]).
    if (divisor === 0) throw fail(sites[1]!, DIVISION_BY_ZERO);
    return checkNumber(dividend / divisor, site);
  };
}

export function power({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const base = numberArgument(slots[0]!(evaluation), 'pow', sites[0]!);
    const result = base ** numberArgument(slots[1]!(evaluation), 'pow', sites[1]!);
    // seed 002 §3: a non-finite or out-of-range power fails.
    if (isInRange(result)) return result;
    throw fail(site, POWER_OUT_OF_RANGE);
  };
}

export function minimum({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let least = numberArgument(slots[0]!(evaluation), 'min', sites[0]!);
    for (let index = 1; index < count; index++) {
      least = Math.min(least, numberArgument(slots[index]!(evaluation), 'min', sites[index]!));
    }
    return least;
  };
}

export function maximum({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let most = numberArgument(slots[0]!(evaluation), 'max', sites[0]!);
    for (let index = 1; index < count; index++) {
      most = Math.max(most, numberArgument(slots[index]!(evaluation), 'max', sites[index]!));
    }
    return most;
  };
}

export function round({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const value = numberArgument(slots[0]!(evaluation), 'round', sites[0]!);
    const digits = count === 2 ? numberArgument(slots[1]!(evaluation), 'round', sites[1]!) : 0;
    // seed 002 §3: digits is an integer 0–6 (default 0), applied with JavaScript toFixed.
    if (!Number.isInteger(digits) || digits < 0 || digits > MAX_FRACTION_DIGITS) {
      throw fail(sites[1]!, BAD_DIGITS);
    }
    return checkNumber(roundLikeToFixed(value, digits), site);
  };
}

/** 10^0 … 10^6: exact doubles. */
const POWERS_OF_TEN: readonly number[] = Array.from(
  { length: MAX_FRACTION_DIGITS + 1 },
  (_, digits) => 10 ** digits,
);
/** Below this, the scaled value's rounding error is far under 0.5, so the fast path below can decide safely. */
const FAST_ROUND_LIMIT = 2 ** 50;

/**
 * Exactly `Number(value.toFixed(digits))` (seed 002 §3), without the string round trip where that is provably
 * the same: toFixed rounds the exact binary value half away from zero, and parsing its text gives the double
 * nearest to n / 10^digits, which is what the (correctly rounded) division n / 10^digits gives for an integer
 * n < 2^50. The only doubt is a scaled value within its rounding error of a half; that case, and very large
 * values, take toFixed itself. `expression.test.ts` compares both on random and adversarial inputs.
 */
export function roundLikeToFixed(value: number, digits: number): number {
  const scale = POWERS_OF_TEN[digits] ?? 1;
  const magnitude = Math.abs(value);
  const scaled = magnitude * scale;
  if (scaled < FAST_ROUND_LIMIT) {
    const whole = Math.floor(scaled);
    const fraction = scaled - whole;
    // At least twice the error of the product magnitude * scale (half an ulp of the result).
    const error = scaled * 2 ** -51;
    if (Math.abs(fraction - 0.5) > error) {
      const rounded = (fraction > 0.5 ? whole + 1 : whole) / scale;
      return value < 0 ? -rounded : rounded;
    }
  }
  return Number(value.toFixed(digits));
}

export function equal({ slots }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = slots[0]!(evaluation);
    // seed 002 §3: strict equality, so 1 and "1" differ.
    return left === slots[1]!(evaluation);
  };
}

export function lessThan({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'lt', sites[0]!);
    return left < numberArgument(slots[1]!(evaluation), 'lt', sites[1]!);
  };
}

export function lessOrEqual({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'lte', sites[0]!);
    return left <= numberArgument(slots[1]!(evaluation), 'lte', sites[1]!);
  };
}

export function greaterThan({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'gt', sites[0]!);
    return left > numberArgument(slots[1]!(evaluation), 'gt', sites[1]!);
  };
}

export function greaterOrEqual({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'gte', sites[0]!);
    return left >= numberArgument(slots[1]!(evaluation), 'gte', sites[1]!);
  };
}

export function and({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    // seed 002 §3: evaluated in order, stopping at the first false.
    for (let index = 0; index < count; index++) {
      if (!booleanArgument(slots[index]!(evaluation), 'and', sites[index]!)) return false;
    }
    return true;
  };
}

export function or({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    for (let index = 0; index < count; index++) {
      if (booleanArgument(slots[index]!(evaluation), 'or', sites[index]!)) return true;
    }
    return false;
  };
}

export function not({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    return !booleanArgument(slots[0]!(evaluation), 'not', sites[0]!);
  };
}

export function choose({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    // seed 002 §3: only the chosen branch is evaluated.
    return booleanArgument(slots[0]!(evaluation), 'if', sites[0]!)
      ? slots[1]!(evaluation)
      : slots[2]!(evaluation);
  };
}

export function concat({ slots }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let text = '';
    // seed 002 §3: every intermediate string stays within the scalar string limit.
    for (let index = 0; index < count; index++) {
      text = checkString(text + toText(slots[index]!(evaluation)), site);
    }
    return text;
  };
}
