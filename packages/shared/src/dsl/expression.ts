/**
 * The expression interpreter (seed 002 §3, §8). It evaluates an `Expr` against a state object and derived
 * values with the exact semantics of the 18 operators: no implicit conversions, every arithmetic intermediate
 * finite and within ±1e15, every string (computed ones too) within 4,096 UTF-16 units, and a step budget per
 * evaluation call. A failure throws `UIExpressionError` whose `path` points into the evaluated expression.
 *
 * Expressions are meant to be validated first (`parseDocument`), but the interpreter never trusts that: any
 * input that is not a well-formed expression fails with `UIExpressionError` instead of a `TypeError`, and the
 * depth and step limits keep a hostile expression from exhausting the stack or the CPU.
 *
 * It runs for every state update, so the hot path allocates nothing per node: one small record per call, a
 * `switch` on `op`, and the failure path (`args[1].args[0]`) is rebuilt from an index trail only on error.
 */
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { type ExpressionOperator, UI_OPERATORS } from './catalog.js';
import { formatIssuePath, UIExpressionError } from './errors.js';
import type { Expr, Scalar, UIDerivedValues, UIState } from './types.js';

const MAX_ABS_NUMBER = UI_LIMITS.maxAbsNumber;
const MAX_STRING_LENGTH = UI_LIMITS.maxStringLength;
const MAX_DEPTH = UI_LIMITS.maxExpressionDepth;
const MAX_FRACTION_DIGITS = UI_SCHEMA_LIMITS.maxFractionDigits;
/** `1e15` as people write it in messages. */
const MAX_ABS_TEXT = MAX_ABS_NUMBER.toExponential().replace('e+', 'e');

/**
 * Counts the steps of one evaluation call (seed 002 §9: `maxEvaluationSteps`). Every node visited costs one
 * step, derived references resolved through the same context included, so fan-out through derived values
 * cannot multiply the work without bound.
 */
export class StepBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number = UI_LIMITS.maxEvaluationSteps) {
    this.limit = limit;
  }

  /** Spends one step and returns true, or returns false (spending nothing) when the budget is exhausted. */
  tryStep(): boolean {
    if (this.#used >= this.limit) return false;
    this.#used++;
    return true;
  }

  /** Spends one step; throws `UIExpressionError` when the budget is exhausted. */
  step(): void {
    if (!this.tryStep()) throw new UIExpressionError(budgetMessage(this.limit));
  }

  /** Steps spent so far. */
  get used(): number {
    return this.#used;
  }
}

/** What an evaluation reads: the state, derived values (by name) and the shared step budget. */
export interface EvaluationContext {
  readonly state: UIState;
  /**
   * The value of a derived field. May evaluate it on demand (with this same context, so the budget is shared)
   * and should throw `UIExpressionError` for an unknown, failed or cyclic name.
   */
  resolveDerived(name: string): Scalar;
  readonly budget: StepBudget;
}

/** One evaluation call. `trail[d]` is the argument index taken at depth `d`, read only to build a failure path. */
interface Run {
  readonly context: EvaluationContext;
  readonly state: UIState;
  readonly budget: StepBudget;
  readonly trail: number[];
}

/** Fields an expression object may carry; read without trusting that the input is a valid `Expr`. */
interface ExpressionShape {
  readonly op?: unknown;
  readonly args?: unknown;
  readonly state?: unknown;
  readonly derived?: unknown;
}

/**
 * Evaluates `expr` with the given context. Each visited node costs one step of `context.budget`. Errors
 * thrown by `context.resolveDerived` that are `UIExpressionError`s are rethrown with the same message and
 * the path of the `{ derived }` reference in `expr`; other errors propagate unchanged.
 */
export function evaluateWith(expr: Expr, context: EvaluationContext): Scalar {
  const run: Run = { context, state: context.state, budget: context.budget, trail: [] };
  return evaluateNode(expr, run, 0);
}

/**
 * The public interpreter of seed 002 §8: evaluates `expr` against `state`, reading `{ derived }` references
 * from the already computed `derived` dictionary (own properties only). A fresh step budget per call.
 */
export function evaluateExpression(
  expr: Expr,
  state: UIState,
  derived: UIDerivedValues = NO_DERIVED,
): Scalar {
  return evaluateWith(expr, new DictionaryContext(state, derived, new StepBudget()));
}

const NO_DERIVED: UIDerivedValues = Object.freeze({});
// Faster than Object.hasOwn on current engines, and equally immune to a shadowing own `hasOwnProperty`.
const hasOwn = Object.prototype.hasOwnProperty;

/** A context over precomputed derived values; a class so that no closure is created per call. */
class DictionaryContext implements EvaluationContext {
  constructor(
    readonly state: UIState,
    private readonly derived: UIDerivedValues,
    readonly budget: StepBudget,
  ) {}

  resolveDerived(name: string): Scalar {
    // seed 002 §3: references name declared keys only; never a prototype property such as `toString`.
    if (!hasOwn.call(this.derived, name)) {
      throw new UIExpressionError(
        'This expression reads a derived value that is not among the computed ones.',
      );
    }
    return this.derived[name] as Scalar;
  }
}

/** The arity rule of an operator as one sentence, e.g. "add takes 2 to 16 arguments." @internal */
export function describeArity(op: ExpressionOperator): string {
  const { minArgs, maxArgs } = UI_OPERATORS[op];
  const plural = maxArgs === 1 ? 'argument' : 'arguments';
  if (minArgs === maxArgs) return `${op} takes exactly ${minArgs} ${plural}.`;
  if (maxArgs === minArgs + 1) return `${op} takes ${minArgs} or ${maxArgs} ${plural}.`;
  return `${op} takes ${minArgs} to ${maxArgs} ${plural}.`;
}

function budgetMessage(limit: number): string {
  return `An evaluation may take at most ${limit} steps; this one needs more.`;
}

const OUT_OF_RANGE = `Numbers must be finite and between -${MAX_ABS_TEXT} and ${MAX_ABS_TEXT}; this value is not.`;
const STRING_TOO_LONG = `Strings are at most ${MAX_STRING_LENGTH} UTF-16 code units long; this one is longer.`;
const TOO_DEEP = `Expressions nest at most ${MAX_DEPTH} levels deep.`;
const NOT_AN_EXPRESSION = 'An expression is a scalar, { state }, { derived } or { op, args }.';

/** The failure at the node reached by `trail[0..depth)`, e.g. `args[1].args[0]` (`$` for the root). */
function fail(run: Run, depth: number, message: string): UIExpressionError {
  const path: (string | number)[] = [];
  for (let index = 0; index < depth; index++) path.push('args', run.trail[index] ?? 0);
  return new UIExpressionError(message, formatIssuePath(path));
}

function describeValue(value: Scalar): string {
  if (value === null) return 'null';
  return typeof value === 'number' ? 'a number' : typeof value === 'string' ? 'a string' : 'a boolean';
}

function evaluateNode(node: unknown, run: Run, depth: number): Scalar {
  if (!run.budget.tryStep()) throw fail(run, depth, budgetMessage(run.budget.limit));
  // seed 002 §9: one expression nests at most 24 levels (depth 0 here is level 1); this also bounds the stack.
  if (depth >= MAX_DEPTH) throw fail(run, depth, TOO_DEEP);
  if (typeof node === 'object') {
    if (node === null) return null;
    const shape = node as ExpressionShape;
    const op = shape.op;
    if (op !== undefined) return evaluateOperator(op, shape.args, run, depth);
    const stateName = shape.state;
    if (stateName !== undefined) return readState(stateName, run, depth);
    const derivedName = shape.derived;
    if (derivedName !== undefined) return readDerived(derivedName, run, depth);
    throw fail(run, depth, NOT_AN_EXPRESSION);
  }
  if (typeof node === 'number') return checkNumber(node, run, depth);
  if (typeof node === 'string') return checkString(node, run, depth);
  if (typeof node === 'boolean') return node;
  throw fail(run, depth, NOT_AN_EXPRESSION);
}

/** seed 002 §3: every number, literal or computed, is finite with |x| ≤ 1e15 (NaN fails both comparisons). */
function checkNumber(value: number, run: Run, depth: number): number {
  if (value >= -MAX_ABS_NUMBER && value <= MAX_ABS_NUMBER) return value;
  throw fail(run, depth, OUT_OF_RANGE);
}

/** seed 002 §3: every string, literal or computed, has at most 4,096 UTF-16 code units. */
function checkString(value: string, run: Run, depth: number): string {
  if (value.length <= MAX_STRING_LENGTH) return value;
  throw fail(run, depth, STRING_TOO_LONG);
}

/** A state or derived value: a scalar within the limits (`null` only where `allowNull`). */
function checkScalar(value: unknown, allowNull: boolean, run: Run, depth: number, message: string): Scalar {
  if (typeof value === 'number') return checkNumber(value, run, depth);
  if (typeof value === 'string') return checkString(value, run, depth);
  if (typeof value === 'boolean') return value;
  if (value === null && allowNull) return null;
  throw fail(run, depth, message);
}

function readState(name: unknown, run: Run, depth: number): Scalar {
  // seed 002 §3: a reference reads an own, declared key, never the prototype (`{ state: "toString" }`).
  if (typeof name !== 'string' || !hasOwn.call(run.state, name)) {
    throw fail(run, depth, 'This expression reads a state field that is not in the state.');
  }
  // seed 002 §4: state values are numbers, strings or booleans only.
  return checkScalar(
    run.state[name],
    false,
    run,
    depth,
    'State values are numbers, strings or booleans; this one is not.',
  );
}

function readDerived(name: unknown, run: Run, depth: number): Scalar {
  if (typeof name !== 'string') throw fail(run, depth, 'A derived reference names a derived field.');
  let value: unknown;
  try {
    value = run.context.resolveDerived(name);
  } catch (error) {
    // The resolver's path is relative to the derived field's own expression; report it at this reference.
    if (error instanceof UIExpressionError) throw fail(run, depth, error.message);
    throw error;
  }
  return checkScalar(value, true, run, depth, 'Derived values are scalars; this one is not.');
}

/** Evaluates argument `index` of the node at `depth`; `trail[depth]` keeps naming it until the next argument. */
function argument(args: readonly unknown[], index: number, run: Run, depth: number): Scalar {
  run.trail[depth] = index;
  return evaluateNode(args[index], run, depth + 1);
}

function numberArgument(
  args: readonly unknown[],
  index: number,
  op: string,
  run: Run,
  depth: number,
): number {
  run.trail[depth] = index;
  const value = evaluateNode(args[index], run, depth + 1);
  if (typeof value === 'number') return value;
  // seed 002 §3: no implicit conversion between numbers, strings and booleans.
  throw fail(run, depth + 1, `${op} takes numbers; this argument is ${describeValue(value)}.`);
}

function booleanArgument(
  args: readonly unknown[],
  index: number,
  op: string,
  run: Run,
  depth: number,
): boolean {
  run.trail[depth] = index;
  const value = evaluateNode(args[index], run, depth + 1);
  if (typeof value === 'boolean') return value;
  throw fail(run, depth + 1, `${op} takes booleans; this argument is ${describeValue(value)}.`);
}

/** seed 002 §3: `concat` turns scalars into text; `null` is the empty string. */
function toText(value: Scalar): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return String(value);
}

/** seed 002 §3: the argument count of each operator. */
function checkArity(
  count: number,
  spec: OperatorSpec,
  op: ExpressionOperator,
  run: Run,
  depth: number,
): void {
  if (count < spec.minArgs || count > spec.maxArgs) throw fail(run, depth, describeArity(op));
}

type OperatorSpec = { readonly minArgs: number; readonly maxArgs: number };
// Read once, so that the hot path loads two fields of a known object instead of looking up the table by name.
const ADD: OperatorSpec = UI_OPERATORS.add;
const SUB: OperatorSpec = UI_OPERATORS.sub;
const MUL: OperatorSpec = UI_OPERATORS.mul;
const DIV: OperatorSpec = UI_OPERATORS.div;
const POW: OperatorSpec = UI_OPERATORS.pow;
const MIN: OperatorSpec = UI_OPERATORS.min;
const MAX: OperatorSpec = UI_OPERATORS.max;
const ROUND: OperatorSpec = UI_OPERATORS.round;
const EQ: OperatorSpec = UI_OPERATORS.eq;
// lt, lte, gt and gte have the same arity in UI_OPERATORS.
const COMPARE: OperatorSpec = UI_OPERATORS.lt;
const AND: OperatorSpec = UI_OPERATORS.and;
const OR: OperatorSpec = UI_OPERATORS.or;
const NOT: OperatorSpec = UI_OPERATORS.not;
const IF: OperatorSpec = UI_OPERATORS.if;
const CONCAT: OperatorSpec = UI_OPERATORS.concat;

/**
 * Dispatches on `op`. Each operator is its own small function so that the engine can inline the argument
 * helpers into it; `args` is checked to be an array once, here.
 */
function evaluateOperator(op: unknown, args: unknown, run: Run, depth: number): Scalar {
  if (!Array.isArray(args))
    throw fail(run, depth, 'An operator expression has args, an array of expressions.');
  switch (op) {
    case 'add':
      return add(args, run, depth);
    case 'sub':
      return subtract(args, run, depth);
    case 'mul':
      return multiply(args, run, depth);
    case 'div':
      return divide(args, run, depth);
    case 'pow':
      return power(args, run, depth);
    case 'min':
      return minimum(args, run, depth);
    case 'max':
      return maximum(args, run, depth);
    case 'round':
      return round(args, run, depth);
    case 'eq':
      return equal(args, run, depth);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return compare(op, args, run, depth);
    case 'and':
      return and(args, run, depth);
    case 'or':
      return or(args, run, depth);
    case 'not':
      return not(args, run, depth);
    case 'if':
      return choose(args, run, depth);
    case 'concat':
      return concat(args, run, depth);
    default:
      throw fail(run, depth, 'op is not one of the 18 operators of the expression language.');
  }
}

function add(args: readonly unknown[], run: Run, depth: number): number {
  const count = args.length;
  checkArity(count, ADD, 'add', run, depth);
  let sum = numberArgument(args, 0, 'add', run, depth);
  // seed 002 §3: every arithmetic intermediate is checked, not only the final sum.
  for (let index = 1; index < count; index++) {
    sum = checkNumber(sum + numberArgument(args, index, 'add', run, depth), run, depth);
  }
  return sum;
}

function subtract(args: readonly unknown[], run: Run, depth: number): number {
  checkArity(args.length, SUB, 'sub', run, depth);
  const left = numberArgument(args, 0, 'sub', run, depth);
  return checkNumber(left - numberArgument(args, 1, 'sub', run, depth), run, depth);
}

function multiply(args: readonly unknown[], run: Run, depth: number): number {
  const count = args.length;
  checkArity(count, MUL, 'mul', run, depth);
  let product = numberArgument(args, 0, 'mul', run, depth);
  for (let index = 1; index < count; index++) {
    product = checkNumber(product * numberArgument(args, index, 'mul', run, depth), run, depth);
  }
  return product;
}

function divide(args: readonly unknown[], run: Run, depth: number): number {
  checkArity(args.length, DIV, 'div', run, depth);
  const dividend = numberArgument(args, 0, 'div', run, depth);
  const divisor = numberArgument(args, 1, 'div', run, depth);
  // seed 002 §3: division by zero fails (reported at the divisor, args[1]).
  if (divisor === 0) throw fail(run, depth + 1, 'div cannot divide by zero; the divisor must not be 0.');
  return checkNumber(dividend / divisor, run, depth);
}

function power(args: readonly unknown[], run: Run, depth: number): number {
  checkArity(args.length, POW, 'pow', run, depth);
  const base = numberArgument(args, 0, 'pow', run, depth);
  const result = base ** numberArgument(args, 1, 'pow', run, depth);
  // seed 002 §3: a non-finite or out-of-range power fails.
  if (result >= -MAX_ABS_NUMBER && result <= MAX_ABS_NUMBER) return result;
  throw fail(run, depth, `pow must give a finite number within ±${MAX_ABS_TEXT}.`);
}

function minimum(args: readonly unknown[], run: Run, depth: number): number {
  const count = args.length;
  checkArity(count, MIN, 'min', run, depth);
  let least = numberArgument(args, 0, 'min', run, depth);
  for (let index = 1; index < count; index++)
    least = Math.min(least, numberArgument(args, index, 'min', run, depth));
  return least;
}

function maximum(args: readonly unknown[], run: Run, depth: number): number {
  const count = args.length;
  checkArity(count, MAX, 'max', run, depth);
  let most = numberArgument(args, 0, 'max', run, depth);
  for (let index = 1; index < count; index++)
    most = Math.max(most, numberArgument(args, index, 'max', run, depth));
  return most;
}

function round(args: readonly unknown[], run: Run, depth: number): number {
  const count = args.length;
  checkArity(count, ROUND, 'round', run, depth);
  const value = numberArgument(args, 0, 'round', run, depth);
  const digits = count === 2 ? numberArgument(args, 1, 'round', run, depth) : 0;
  // seed 002 §3: digits is an integer 0–6 (default 0), applied with JavaScript toFixed.
  if (!Number.isInteger(digits) || digits < 0 || digits > MAX_FRACTION_DIGITS) {
    throw fail(run, depth + 1, `round takes an integer number of digits from 0 to ${MAX_FRACTION_DIGITS}.`);
  }
  return checkNumber(roundLikeToFixed(value, digits), run, depth);
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

function equal(args: readonly unknown[], run: Run, depth: number): boolean {
  checkArity(args.length, EQ, 'eq', run, depth);
  const left = argument(args, 0, run, depth);
  // seed 002 §3: strict equality, so 1 and "1" differ.
  return left === argument(args, 1, run, depth);
}

function compare(
  op: 'lt' | 'lte' | 'gt' | 'gte',
  args: readonly unknown[],
  run: Run,
  depth: number,
): boolean {
  checkArity(args.length, COMPARE, op, run, depth);
  const left = numberArgument(args, 0, op, run, depth);
  const right = numberArgument(args, 1, op, run, depth);
  if (op === 'lt') return left < right;
  if (op === 'lte') return left <= right;
  if (op === 'gt') return left > right;
  return left >= right;
}

function and(args: readonly unknown[], run: Run, depth: number): boolean {
  const count = args.length;
  checkArity(count, AND, 'and', run, depth);
  // seed 002 §3: evaluated in order, stopping at the first false.
  for (let index = 0; index < count; index++)
    if (!booleanArgument(args, index, 'and', run, depth)) return false;
  return true;
}

function or(args: readonly unknown[], run: Run, depth: number): boolean {
  const count = args.length;
  checkArity(count, OR, 'or', run, depth);
  for (let index = 0; index < count; index++) if (booleanArgument(args, index, 'or', run, depth)) return true;
  return false;
}

function not(args: readonly unknown[], run: Run, depth: number): boolean {
  checkArity(args.length, NOT, 'not', run, depth);
  return !booleanArgument(args, 0, 'not', run, depth);
}

function choose(args: readonly unknown[], run: Run, depth: number): Scalar {
  checkArity(args.length, IF, 'if', run, depth);
  // seed 002 §3: only the chosen branch is evaluated.
  return argument(args, booleanArgument(args, 0, 'if', run, depth) ? 1 : 2, run, depth);
}

function concat(args: readonly unknown[], run: Run, depth: number): string {
  const count = args.length;
  checkArity(count, CONCAT, 'concat', run, depth);
  let text = '';
  // seed 002 §3: every intermediate string stays within the scalar string limit.
  for (let index = 0; index < count; index++) {
    text = checkString(text + toText(argument(args, index, run, depth)), run, depth);
  }
  return text;
}
