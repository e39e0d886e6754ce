/**
 * Computing what a validated document shows (seed 002 §3, §8): all derived fields at once, one component value
 * from already computed derived values, or one value computing only the derived fields it uses, so that one
 * failing derived field does not block the others.
 *
 * This runs after every state update, so what does not depend on the state is prepared once per document: the
 * derived fields' positions and compiled expressions. One evaluation then keeps its values in an array indexed
 * by position.
 */

import { UIExpressionError } from '../errors/errors.js';
import { documentIndex } from './document.js';
import { type EvaluationContext, evaluateExpression, StepBudget } from './expression.js';
import { compileExpression, isImmutableNode } from './expression-compile.js';
import {
  createStateLayout,
  type DerivedTable,
  Evaluation,
  type Evaluator,
  type StateLayout,
  snapshotState,
} from './expression-evaluation.js';
import type { Expr, Scalar, UIDerivedValues, UIDocument, UIState, Value } from './types.js';

/** Marks a derived field not computed yet (a value is always a scalar, so no field can hold this). */
const PENDING: unique symbol = Symbol('pending');

/** The derived fields of one document, by position in declaration order (`Object.keys(document.derived)`). */
interface DerivedProgram {
  readonly names: readonly string[];
  readonly positions: ReadonlyMap<string, number>;
  readonly expressions: readonly unknown[];
  /** The compiled expression at each position; undefined where it is mutable and so compiled per evaluation. */
  readonly evaluators: readonly (Evaluator | undefined)[];
  /** The declared state fields in declaration order: the key order of every state `state.ts` returns. */
  readonly stateLayout: StateLayout;
  /** One `PENDING` per field: copied to start an evaluation. */
  readonly pending: readonly (Scalar | typeof PENDING)[];
}

/** Programs of frozen documents (all those `parseDocument` returns); weak, so they go with their document. */
const programs = new WeakMap<UIDocument, DerivedProgram>();

function programOf(document: UIDocument): DerivedProgram {
  const known = programs.get(document);
  if (known !== undefined) return known;
  const derived = document.derived;
  const names = Object.keys(derived);
  const expressions = names.map((name) => derived[name]);
  const program: DerivedProgram = {
    names,
    positions: new Map(names.map((name, position) => [name, position])),
    expressions,
    evaluators: expressions.map((expr) => (isImmutableNode(expr) ? compileExpression(expr) : undefined)),
    stateLayout: createStateLayout(Object.keys(document.state)),
    pending: names.map(() => PENDING),
  };
  // A mutable document could gain or lose derived fields between two calls, so only a frozen one is kept.
  if (Object.isFrozen(document) && Object.isFrozen(derived) && Object.isFrozen(document.state)) {
    programs.set(document, program);
  }
  return program;
}

/**
 * One state's derived values, each computed at most once, on first use. Each top-level call (`value`,
 * `evaluate`) gets a fresh step budget, shared by the derived fields it pulls in (seed 002 §9).
 */
class DerivedValues implements EvaluationContext, DerivedTable {
  readonly #program: DerivedProgram;
  readonly #values: (Scalar | typeof PENDING)[];
  /** What the compiled expressions read; its budget is renewed per top-level call. */
  readonly #evaluation: Evaluation;

  constructor(
    program: DerivedProgram,
    readonly state: UIState,
  ) {
    this.#program = program;
    this.#values = program.pending.slice();
    const snapshot = snapshotState(state, program.stateLayout);
    this.#evaluation = new Evaluation(state, new StepBudget(), this, snapshot, this);
  }

  get positions(): ReadonlyMap<string, number> {
    return this.#program.positions;
  }

  get budget(): StepBudget {
    return this.#evaluation.budget;
  }

  /** Starts a top-level call: a fresh step budget (seed 002 §9: per evaluation, not per state). */
  renewBudget(): void {
    this.#evaluation.budget = new StepBudget();
  }

  resolveDerived(name: string): Scalar {
    const position = this.#program.positions.get(name);
    if (position === undefined) throw new UIExpressionError('This derived field is not declared.');
    return this.at(position);
  }

  /** The value of the field at `position`, computed within the current budget if not known yet. */
  at(position: number): Scalar {
    const known = this.#values[position]!;
    if (known !== PENDING) return known;
    const program = this.#program;
    const evaluator = program.evaluators[position] ?? compileExpression(program.expressions[position]);
    const value = evaluator(this.#evaluation);
    this.#values[position] = value;
    return value;
  }

  /** The value of the field at `position` as a top-level call. */
  value(position: number): Scalar {
    const known = this.#values[position]!;
    if (known !== PENDING) return known;
    this.renewBudget();
    return this.at(position);
  }

  /** Evaluates `expr` as a top-level call. */
  evaluate(expr: Expr): Scalar {
    this.renewBudget();
    return compileExpression(expr)(this.#evaluation);
  }
}

/**
 * A lazy evaluation context: each derived field is computed at most once, on first use, sharing one step
 * budget per top-level evaluation.
 */
export function createDerivedResolver(
  document: UIDocument,
  state: UIState,
): { evaluate(expr: Expr): Scalar; derived(name: string): Scalar } {
  const values = new DerivedValues(programOf(document), state);
  return {
    /** Evaluates `expr` with a fresh step budget. */
    evaluate: (expr) => values.evaluate(expr),
    derived(name) {
      values.renewBudget();
      return values.resolveDerived(name);
    },
  };
}

/**
 * Computes every derived field of the document in the given state; each is computed once per call even when
 * several others reference it. Throws `UIExpressionError` (its path prefixed with `derived.<name>`) on the first
 * field that fails; use `resolveDocumentValue` to isolate failures.
 */
export function evaluateDerived(document: UIDocument, state: UIState): UIDerivedValues {
  const { document: valid } = documentIndex(document);
  const program = programOf(valid);
  const values = new DerivedValues(program, state);
  const names = program.names;
  const result: Record<string, Scalar> = {};
  let position = 0;
  try {
    for (; position < names.length; position++) result[names[position]!] = values.value(position);
  } catch (error) {
    if (error instanceof UIExpressionError) {
      throw new UIExpressionError(
        error.message,
        `derived.${names[position]}${error.path === '$' ? '' : `.${error.path}`}`,
      );
    }
    throw error;
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
