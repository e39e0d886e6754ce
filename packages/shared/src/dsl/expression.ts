/**
 * Evaluating expressions (seed 002 §3, §8): the step budget, the evaluation context and the two entry points.
 * `expression-compile.ts` compiles an `Expr` into closures (once for good when the expression is immutable, as
 * a parsed document's are), with the semantics of the 18 operators in `expression-nodes.ts`; this module
 * runs them.
 *
 * Expressions are meant to be validated first (`parseDocument`), but evaluation never trusts that: any input
 * that is not a well-formed expression fails with `UIExpressionError` instead of a `TypeError`, and the depth
 * and step limits keep a hostile expression from exhausting the stack or the CPU. A failure's `path` points
 * into the evaluated expression.
 */

import { UIExpressionError } from '../errors/errors.js';
import { type EvaluationContext, StepBudget } from './expression-budget.js';
import { compileExpression } from './expression-compile.js';
import { Evaluation } from './expression-evaluation.js';
import type { Expr, Scalar, UIDerivedValues, UIState } from './value-types.js';

export { type EvaluationContext, StepBudget } from './expression-budget.js';
export { describeArity } from './expression-compile.js';
export { roundLikeToFixed } from './expression-nodes.js';

/**
 * Evaluates `expr` with the given context. Each visited node costs one step of `context.budget`. Errors
 * thrown by `context.resolveDerived` that are `UIExpressionError`s are rethrown with the same message and
 * the path of the `{ derived }` reference in `expr`; other errors propagate unchanged.
 */
export function evaluateWith(expr: Expr, context: EvaluationContext): Scalar {
  return compileExpression(expr)(new Evaluation(context.state, context.budget, context));
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
