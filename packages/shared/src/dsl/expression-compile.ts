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
 *
 * This module checks shapes, caches and compiles children lazily; `expression-nodes.ts` holds what each node
 * does when it runs (the operators' semantics included), `expression-evaluation.ts` what an evaluation reads.
 */

import { UI_LIMITS } from '../limits/ui-limits.js';
import { type ExpressionOperator, UI_OPERATORS } from './catalog.js';
import type { Evaluator } from './expression-evaluation.js';
import {
  type Arguments,
  add,
  and,
  choose,
  compileDerivedReference,
  compileStateReference,
  concat,
  constant,
  divide,
  equal,
  failing,
  greaterOrEqual,
  greaterThan,
  isInRange,
  lessOrEqual,
  lessThan,
  maximum,
  minimum,
  multiply,
  not,
  OUT_OF_RANGE,
  or,
  power,
  ROOT,
  round,
  type Site,
  STRING_TOO_LONG,
  subtract,
} from './expression-nodes.js';

const MAX_STRING_LENGTH = UI_LIMITS.maxStringLength;
const MAX_DEPTH = UI_LIMITS.maxExpressionDepth;
// Faster than Object.hasOwn on current engines, and equally immune to a shadowing own `hasOwnProperty`.
const hasOwn = Object.prototype.hasOwnProperty;

const TOO_DEEP = `Expressions nest at most ${MAX_DEPTH} levels deep.`;
const NOT_AN_EXPRESSION = 'An expression is a scalar, { state }, { derived } or { op, args }.';
const ARGS_NOT_AN_ARRAY = 'An operator expression has args, an array of expressions.';
const UNKNOWN_OPERATOR = 'op is not one of the 18 operators of the expression language.';

/** The arity rule of an operator as one sentence, e.g. "add takes 2 to 16 arguments." @internal */
export function describeArity(op: ExpressionOperator): string {
  const { minArgs, maxArgs } = UI_OPERATORS[op];
  const plural = maxArgs === 1 ? 'argument' : 'arguments';
  if (minArgs === maxArgs) return `${op} takes exactly ${minArgs} ${plural}.`;
  if (maxArgs === minArgs + 1) return `${op} takes ${minArgs} or ${maxArgs} ${plural}.`;
  return `${op} takes ${minArgs} to ${maxArgs} ${plural}.`;
}

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

function compileOperator(op: unknown, args: unknown, site: Site, reusable: boolean): Evaluator {
  if (!Array.isArray(args)) return failing(site, ARGS_NOT_AN_ARRAY);
  // An own key of the table only: `toString` is not an operator.
  if (typeof op !== 'string' || !hasOwn.call(UI_OPERATORS, op)) return failing(site, UNKNOWN_OPERATOR);
  const operator = op as ExpressionOperator;
  const count = args.length;
  const { minArgs, maxArgs } = UI_OPERATORS[operator];
  // seed 002 §3: the argument count of each operator.
  if (count < minArgs || count > maxArgs) return failing(site, describeArity(operator));
  return compileOperation(operator, compileArguments(args, count, site, reusable), count, site);
}

/** The node of `operator` over its `count` compiled arguments (their number already checked). */
function compileOperation(
  operator: ExpressionOperator,
  compiled: Arguments,
  count: number,
  site: Site,
): Evaluator {
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
