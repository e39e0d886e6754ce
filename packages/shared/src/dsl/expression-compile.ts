/**
 * The expression language compiled to closures (seed 002 §3, §9). `compileExpression` turns an `Expr` into a
 * tree of small functions, one per node, that carry out the exact semantics of the 18 operators: no implicit
 * conversions, every arithmetic intermediate finite and within ±1e15, every string (computed ones too) within
 * 4,096 UTF-16 units, and one step of the evaluation's budget per visited node.
 *
 * Compiling does the shape checks once (is it a node, a known operator, the right number of arguments), so
 * evaluating does only what depends on the values. The input is still never trusted: a malformed node compiles
 * to a function that throws the same `UIExpressionError` at the same path as soon as evaluation reaches it, so
 * a bad node in a branch that is never taken is never reported, exactly as an interpreter would behave.
 *
 * Children are compiled on first visit, not up front, so compiling touches only nodes that evaluation visits:
 * an expression that shares subtrees (a DAG that looks like 16^24 nodes) or nests 100,000 levels deep compiles
 * only the few nodes that the depth limit and step budget let evaluation reach.
 *
 * Compiled functions are reused only for immutable input (frozen plain data, what `parseDocument` returns): a
 * mutable object could change between two evaluations, so it is compiled afresh for each.
 *
 * The hot path is `updateState` + `evaluateDerived` on every input event (the issue's goal: 64 derived fields
 * under 50 µs). Besides compiling, two things serve it: a caller that knows the order of the state's keys and
 * of its derived fields (values.ts) hands them over as a `StateSnapshot` and a `DerivedTable`, so that a
 * reference reads an array slot instead of looking a name up in a 64-key object or a map.
 */

import { UIExpressionError } from '../errors/errors.js';
import { formatIssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { type ExpressionOperator, UI_OPERATORS } from './catalog.js';
import type { EvaluationContext, StepBudget } from './expression.js';
import type { Scalar, UIState } from './types.js';

const MAX_ABS_NUMBER = UI_LIMITS.maxAbsNumber;
const MAX_STRING_LENGTH = UI_LIMITS.maxStringLength;
const MAX_DEPTH = UI_LIMITS.maxExpressionDepth;
const MAX_FRACTION_DIGITS = UI_SCHEMA_LIMITS.maxFractionDigits;
/** `1e15` as people write it in messages. */
const MAX_ABS_TEXT = MAX_ABS_NUMBER.toExponential().replace('e+', 'e');
// Faster than Object.hasOwn on current engines, and equally immune to a shadowing own `hasOwnProperty`.
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What one evaluation call reads. A class, so that every compiled node loads `state` and `budget` from one
 * object shape whatever the caller's context looks like. A caller that makes several top-level calls over the
 * same state may renew `budget` between them instead of allocating another evaluation.
 * @internal
 */
export class Evaluation {
  constructor(
    readonly state: UIState,
    public budget: StepBudget,
    readonly context: EvaluationContext,
    /** The same state read once into an array, when the caller could take one (`snapshotState`). */
    readonly snapshot?: StateSnapshot,
    /** The context's derived values by position, when it has them so. */
    readonly derived?: DerivedTable,
  ) {}
}

/**
 * Derived values by position, for a context that knows the order of its fields (a document's). Reading by
 * position skips a lookup by name per reference. @internal
 */
export interface DerivedTable {
  /** Name to position; the same object for every evaluation over the same fields. */
  readonly positions: ReadonlyMap<string, number>;
  /** The value at `position`: what `context.resolveDerived` returns for the name at that position. */
  at(position: number): Scalar;
}

/** An order of state field names, e.g. a document's declaration order. @internal */
export interface StateLayout {
  readonly names: readonly string[];
  readonly positions: ReadonlyMap<string, number>;
}

/** @internal */
export function createStateLayout(names: readonly string[]): StateLayout {
  return { names, positions: new Map(names.map((name, position) => [name, position])) };
}

/** A state's values in the order of a layout whose every name is an own property of that state. @internal */
export interface StateSnapshot {
  readonly layout: StateLayout;
  readonly values: readonly unknown[];
}

/**
 * Reads a state once, when its own keys are exactly the layout's names in that order (always the case for the
 * frozen states `initialState` and `updateState` return), else undefined. An engine looks a key up in an object
 * of 64 properties at a cost of a few hundred instructions, and a reference needs two lookups (is it an own
 * key, then its value); one pass over all values is far cheaper than 2 × the number of references. Only for a
 * frozen state: its keys cannot change between listing them and reading them. (A state is plain data, seed
 * 002 §4; were a field a getter, it would be read once here rather than once per reference.)
 * @internal
 */
export function snapshotState(state: UIState, layout: StateLayout): StateSnapshot | undefined {
  if (!Object.isFrozen(state)) return undefined;
  const keys = Object.keys(state);
  const names = layout.names;
  if (keys.length !== names.length) return undefined;
  for (let index = 0; index < keys.length; index++) if (keys[index] !== names[index]) return undefined;
  return { layout, values: Object.values(state) };
}

/** A compiled expression node. @internal */
export type Evaluator = (evaluation: Evaluation) => Scalar;

/** Where a node sits in the evaluated expression: its parent and its index in the parent's `args`. */
interface Site {
  readonly parent: Site | undefined;
  readonly index: number;
  /** 0 for the root; seed 002 §9 limits nesting to 24 levels, i.e. depths 0–23. */
  readonly depth: number;
}

const ROOT: Site = { parent: undefined, index: 0, depth: 0 };

/** The failure at `site`, e.g. `args[1].args[0]` (`$` for the root); the path is built only on failure. */
function fail(site: Site, message: string): UIExpressionError {
  const path: (string | number)[] = [];
  for (let at: Site = site; at.parent !== undefined; at = at.parent) path.push(at.index, 'args');
  return new UIExpressionError(message, formatIssuePath(path.reverse()));
}

/** The message of an exhausted step budget (seed 002 §9: `maxEvaluationSteps`). @internal */
export function budgetMessage(limit: number): string {
  return `An evaluation may take at most ${limit} steps; this one needs more.`;
}

/** The arity rule of an operator as one sentence, e.g. "add takes 2 to 16 arguments." @internal */
export function describeArity(op: ExpressionOperator): string {
  const { minArgs, maxArgs } = UI_OPERATORS[op];
  const plural = maxArgs === 1 ? 'argument' : 'arguments';
  if (minArgs === maxArgs) return `${op} takes exactly ${minArgs} ${plural}.`;
  if (maxArgs === minArgs + 1) return `${op} takes ${minArgs} or ${maxArgs} ${plural}.`;
  return `${op} takes ${minArgs} to ${maxArgs} ${plural}.`;
}

const OUT_OF_RANGE = `Numbers must be finite and between -${MAX_ABS_TEXT} and ${MAX_ABS_TEXT}; this value is not.`;
const STRING_TOO_LONG = `Strings are at most ${MAX_STRING_LENGTH} UTF-16 code units long; this one is longer.`;
const TOO_DEEP = `Expressions nest at most ${MAX_DEPTH} levels deep.`;
const NOT_AN_EXPRESSION = 'An expression is a scalar, { state }, { derived } or { op, args }.';
const ARGS_NOT_AN_ARRAY = 'An operator expression has args, an array of expressions.';
const UNKNOWN_OPERATOR = 'op is not one of the 18 operators of the expression language.';
const STATE_NOT_FOUND = 'This expression reads a state field that is not in the state.';
const STATE_NOT_SCALAR = 'State values are numbers, strings or booleans; this one is not.';
const DERIVED_NOT_NAMED = 'A derived reference names a derived field.';
const DERIVED_NOT_SCALAR = 'Derived values are scalars; this one is not.';
const DIVISION_BY_ZERO = 'div cannot divide by zero; the divisor must not be 0.';
const POWER_OUT_OF_RANGE = `pow must give a finite number within ±${MAX_ABS_TEXT}.`;
const BAD_DIGITS = `round takes an integer number of digits from 0 to ${MAX_FRACTION_DIGITS}.`;

/** Compiled roots of immutable expressions. Weak, so a discarded document takes its compiled code with it. */
const compiledRoots = new WeakMap<object, Evaluator>();

/**
 * The compiled form of `expr`, from the cache when `expr` is immutable. Compiling never throws: a malformed node
 * throws when evaluation reaches it. @internal
 */
export function compileExpression(expr: unknown): Evaluator {
  if (typeof expr !== 'object' || expr === null) return compileNode(expr, ROOT, false);
  const known = compiledRoots.get(expr);
  if (known !== undefined) return known;
  const reusable = isImmutableNode(expr);
  const evaluator = compileNode(expr, ROOT, reusable);
  if (reusable) compiledRoots.set(expr, evaluator);
  return evaluator;
}

/**
 * Whether everything the compiled form of `node` reads from it is fixed for good: a scalar, or a frozen plain
 * object whose expression fields are data properties (a getter could answer differently each time), with
 * `args`, when it is an array, frozen the same way. Its children are judged one by one when they are compiled.
 * `parseDocument` returns exactly such objects.
 * @internal
 */
export function isImmutableNode(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return true;
  if (!isFrozenData(node, Object.prototype, EXPRESSION_FIELDS)) return false;
  const args = (node as ExpressionShape).args;
  // Anything but an array compiles to a failure that reads nothing more.
  if (!Array.isArray(args)) return true;
  return isFrozenData(args, Array.prototype, Object.keys(args));
}

const EXPRESSION_FIELDS = ['op', 'args', 'state', 'derived'] as const;

function isFrozenData(object: object, prototype: object, keys: readonly string[]): boolean {
  if (!Object.isFrozen(object)) return false;
  const actual = Object.getPrototypeOf(object);
  if (actual !== prototype && actual !== null) return false;
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor !== undefined && !('value' in descriptor)) return false;
  }
  return true;
}

/** Fields an expression object may carry; read without trusting that the input is a valid `Expr`. */
interface ExpressionShape {
  readonly op?: unknown;
  readonly args?: unknown;
  readonly state?: unknown;
  readonly derived?: unknown;
}

/** Spends the step of the node at `site` (seed 002 §9: every visited node costs one step). */
function spend(evaluation: Evaluation, site: Site): void {
  const budget = evaluation.budget;
  if (!budget.tryStep()) throw fail(site, budgetMessage(budget.limit));
}

/** A node that fails when reached, after spending its step like any other node. */
function failing(site: Site, message: string): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    throw fail(site, message);
  };
}

/**
 * Compiles the node at `site`, reading it in the order an interpreter would: depth first, then its kind, then
 * (for an operator) `args`, `op` and the argument count. `reusable` says whether the result may be kept.
 */
function compileNode(node: unknown, site: Site, reusable: boolean): Evaluator {
  // seed 002 §9: one expression nests at most 24 levels (depth 0 is level 1); this also bounds compilation.
  if (site.depth >= MAX_DEPTH) return failing(site, TOO_DEEP);
  if (typeof node === 'object') {
    if (node === null) return constant(null, site);
    const shape = node as ExpressionShape;
    const op = shape.op;
    if (op !== undefined) return compileOperator(op, shape.args, site, reusable);
    const stateName = shape.state;
    if (stateName !== undefined) return compileStateReference(stateName, site);
    const derivedName = shape.derived;
    if (derivedName !== undefined) return compileDerivedReference(derivedName, site);
    return failing(site, NOT_AN_EXPRESSION);
  }
  // seed 002 §3: every literal, like every computed value, is a number within ±1e15 or a string within 4,096.
  if (typeof node === 'number') return isInRange(node) ? constant(node, site) : failing(site, OUT_OF_RANGE);
  if (typeof node === 'string') {
    return node.length <= MAX_STRING_LENGTH ? constant(node, site) : failing(site, STRING_TOO_LONG);
  }
  if (typeof node === 'boolean') return constant(node, site);
  return failing(site, NOT_AN_EXPRESSION);
}

function constant(value: Scalar, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    return value;
  };
}

/** seed 002 §3: finite with |x| ≤ 1e15 (NaN fails both comparisons). */
function isInRange(value: number): boolean {
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

function compileStateReference(name: unknown, site: Site): Evaluator {
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

function compileDerivedReference(name: unknown, site: Site): Evaluator {
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
 * first visit and, when the compiled form may be kept, puts it in its own place.
 */
interface Arguments {
  readonly slots: Evaluator[];
  readonly sites: readonly Site[];
}

function compileArguments(
  args: readonly unknown[],
  count: number,
  parent: Site,
  reusable: boolean,
): Arguments {
  const slots: Evaluator[] = new Array(count);
  const sites: Site[] = new Array(count);
  const depth = parent.depth + 1;
  for (let index = 0; index < count; index++) {
    const site: Site = { parent, index, depth };
    sites[index] = site;
    slots[index] = (evaluation) => {
      const node = args[index];
      const keep = reusable && isImmutableNode(node);
      const evaluator = compileNode(node, site, keep);
      if (keep) slots[index] = evaluator;
      return evaluator(evaluation);
    };
  }
  return { slots, sites };
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

function compileOperator(op: unknown, args: unknown, site: Site, reusable: boolean): Evaluator {
  if (!Array.isArray(args)) return failing(site, ARGS_NOT_AN_ARRAY);
  // An own key of the table only: `toString` is not an operator.
  if (typeof op !== 'string' || !hasOwn.call(UI_OPERATORS, op)) return failing(site, UNKNOWN_OPERATOR);
  const operator = op as ExpressionOperator;
  const count = args.length;
  const { minArgs, maxArgs } = UI_OPERATORS[operator];
  // seed 002 §3: the argument count of each operator.
  if (count < minArgs || count > maxArgs) return failing(site, describeArity(operator));
  const compiled = compileArguments(args, count, site, reusable);
  switch (operator) {
    case 'add':
      return add(compiled, count, site);
    case 'sub':
      return subtract(compiled, site);
    case 'mul':
      return multiply(compiled, count, site);
    case 'div':
      return divide(compiled, site);
    case 'pow':
      return power(compiled, site);
    case 'min':
      return minimum(compiled, count, site);
    case 'max':
      return maximum(compiled, count, site);
    case 'round':
      return round(compiled, count, site);
    case 'eq':
      return equal(compiled, site);
    case 'lt':
      return lessThan(compiled, site);
    case 'lte':
      return lessOrEqual(compiled, site);
    case 'gt':
      return greaterThan(compiled, site);
    case 'gte':
      return greaterOrEqual(compiled, site);
    case 'and':
      return and(compiled, count, site);
    case 'or':
      return or(compiled, count, site);
    case 'not':
      return not(compiled, site);
    case 'if':
      return choose(compiled, site);
    case 'concat':
      return concat(compiled, count, site);
  }
}

// Each operator is its own closure factory, so that each compiled node runs a small, type-stable function.
// Arguments are evaluated left to right, each checked as soon as it is computed (seed 002 §3).

function add({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
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

function subtract({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'sub', sites[0]!);
    return checkNumber(left - numberArgument(slots[1]!(evaluation), 'sub', sites[1]!), site);
  };
}

function multiply({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let product = numberArgument(slots[0]!(evaluation), 'mul', sites[0]!);
    for (let index = 1; index < count; index++) {
      product = checkNumber(product * numberArgument(slots[index]!(evaluation), 'mul', sites[index]!), site);
    }
    return product;
  };
}

function divide({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const dividend = numberArgument(slots[0]!(evaluation), 'div', sites[0]!);
    const divisor = numberArgument(slots[1]!(evaluation), 'div', sites[1]!);
    // seed 002 §3: division by zero fails (reported at the divisor, args[1]).
    if (divisor === 0) throw fail(sites[1]!, DIVISION_BY_ZERO);
    return checkNumber(dividend / divisor, site);
  };
}

function power({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const base = numberArgument(slots[0]!(evaluation), 'pow', sites[0]!);
    const result = base ** numberArgument(slots[1]!(evaluation), 'pow', sites[1]!);
    // seed 002 §3: a non-finite or out-of-range power fails.
    if (isInRange(result)) return result;
    throw fail(site, POWER_OUT_OF_RANGE);
  };
}

function minimum({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let least = numberArgument(slots[0]!(evaluation), 'min', sites[0]!);
    for (let index = 1; index < count; index++) {
      least = Math.min(least, numberArgument(slots[index]!(evaluation), 'min', sites[index]!));
    }
    return least;
  };
}

function maximum({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    let most = numberArgument(slots[0]!(evaluation), 'max', sites[0]!);
    for (let index = 1; index < count; index++) {
      most = Math.max(most, numberArgument(slots[index]!(evaluation), 'max', sites[index]!));
    }
    return most;
  };
}

function round({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
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

function equal({ slots }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = slots[0]!(evaluation);
    // seed 002 §3: strict equality, so 1 and "1" differ.
    return left === slots[1]!(evaluation);
  };
}

function lessThan({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'lt', sites[0]!);
    return left < numberArgument(slots[1]!(evaluation), 'lt', sites[1]!);
  };
}

function lessOrEqual({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'lte', sites[0]!);
    return left <= numberArgument(slots[1]!(evaluation), 'lte', sites[1]!);
  };
}

function greaterThan({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'gt', sites[0]!);
    return left > numberArgument(slots[1]!(evaluation), 'gt', sites[1]!);
  };
}

function greaterOrEqual({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    const left = numberArgument(slots[0]!(evaluation), 'gte', sites[0]!);
    return left >= numberArgument(slots[1]!(evaluation), 'gte', sites[1]!);
  };
}

function and({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    // seed 002 §3: evaluated in order, stopping at the first false.
    for (let index = 0; index < count; index++) {
      if (!booleanArgument(slots[index]!(evaluation), 'and', sites[index]!)) return false;
    }
    return true;
  };
}

function or({ slots, sites }: Arguments, count: number, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    for (let index = 0; index < count; index++) {
      if (booleanArgument(slots[index]!(evaluation), 'or', sites[index]!)) return true;
    }
    return false;
  };
}

function not({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    return !booleanArgument(slots[0]!(evaluation), 'not', sites[0]!);
  };
}

function choose({ slots, sites }: Arguments, site: Site): Evaluator {
  return (evaluation) => {
    spend(evaluation, site);
    // seed 002 §3: only the chosen branch is evaluated.
    return booleanArgument(slots[0]!(evaluation), 'if', sites[0]!)
      ? slots[1]!(evaluation)
      : slots[2]!(evaluation);
  };
}

function concat({ slots }: Arguments, count: number, site: Site): Evaluator {
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
