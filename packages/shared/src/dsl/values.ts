/**
 * Computing what a validated document shows (seed 002 §3, §8): all derived fields at once, one component value
 * from already computed derived values, or one value computing only the derived fields it uses, so that one
 * failing derived field does not block the others.
 */
import { documentIndex } from './document.js';
import { UIExpressionError } from './errors.js';
import { type EvaluationContext, evaluateExpression, evaluateWith, StepBudget } from './expression.js';
import type { Expr, Scalar, UIDerivedValues, UIDocument, UIState, Value } from './types.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A lazy evaluation context: each derived field is computed at most once, on first use, sharing one step
 * budget per top-level evaluation.
 */
export function createDerivedResolver(document: UIDocument, state: UIState) {
  const values = new Map<string, Scalar>();
  const context: EvaluationContext & { budget: StepBudget } = {
    state,
    budget: new StepBudget(),
    resolveDerived(name: string): Scalar {
      if (values.has(name)) return values.get(name) as Scalar;
      if (!hasOwn.call(document.derived, name))
        throw new UIExpressionError('This derived field is not declared.');
      const value = evaluateWith(document.derived[name] as Expr, context);
      values.set(name, value);
      return value;
    },
  };
  return {
    /** Evaluates `expr` with a fresh step budget. */
    evaluate(expr: Expr): Scalar {
      context.budget = new StepBudget();
      return evaluateWith(expr, context);
    },
    derived(name: string): Scalar {
      context.budget = new StepBudget();
      return context.resolveDerived(name);
    },
  };
}

/**
 * Computes every derived field of the document in the given state; each is computed once per call even when
 * several others reference it. Throws `UIExpressionError` (its path prefixed with `derived.<name>`) on the first
 * field that fails; use `resolveDocumentValue` to isolate failures.
 */
export function evaluateDerived(document: UIDocument, state: UIState): UIDerivedValues {
  const { document: valid, index } = documentIndex(document);
  const resolver = createDerivedResolver(valid, state);
  const result: Record<string, Scalar> = {};
  for (const name of index.derivedNames) {
    try {
      result[name] = resolver.derived(name);
    } catch (error) {
      if (error instanceof UIExpressionError) {
        throw new UIExpressionError(
          error.message,
          `derived.${name}${error.path === '$' ? '' : `.${error.path}`}`,
        );
      }
      throw error;
    }
  }
  return Object.freeze(result);
}

/** Resolves a component value with derived values computed beforehand (by `evaluateDerived`). */
export function resolveValue(value: Value, state: UIState, derived: UIDerivedValues): Scalar {
  if (typeof value === 'object' && value !== null) return evaluateExpression(value.expr, state, derived);
  return value;
}

/**
 * Resolves a component value of the document, computing only the derived fields it actually uses (seed 002 §6):
 * an unrelated failing derived field does not affect it.
 */
export function resolveDocumentValue(document: UIDocument, state: UIState, value: Value): Scalar {
  if (typeof value !== 'object' || value === null) return value;
  const { document: valid } = documentIndex(document);
  return createDerivedResolver(valid, state).evaluate(value.expr);
}
