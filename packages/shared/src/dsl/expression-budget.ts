/**
 * What bounds and feeds one evaluation (seed 002 §9): the step budget and the evaluation context. Below the
 * interpreter's modules (`expression-evaluation.ts`, `expression-nodes.ts`, `expression.ts`), which all read them;
 * `expression.ts` re-exports both.
 */

import { UIExpressionError } from '../errors/errors.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import type { Scalar, UIState } from './value-types.js';

/** The message of an exhausted step budget (seed 002 §9: `maxEvaluationSteps`). @internal */
export function budgetMessage(limit: number): string {
  return `An evaluation may take at most ${limit} steps; this one needs more.`;
}

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
