/**
 * What one evaluation of a compiled expression reads (seed 002 §3, §9): the `Evaluation` of a call — its
 * state, step budget and context — and, for a caller that knows the order of the state's keys and of its
 * derived fields (values.ts), the same values by position: a `StateSnapshot` and a `DerivedTable`, so that a
 * reference reads an array slot instead of looking a name up in a 64-key object or a map.
 */

import type { EvaluationContext, StepBudget } from './expression-budget.js';
import type { Scalar, UIState } from './value-types.js';

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
