/**
 * The value shapes of an Intelligent UI document that the component table itself needs: scalars, expressions,
 * state declarations and actions (seed 002 §3, §4, §6, §11). They sit below `components.ts` so that the table and
 * the document types (`types.ts`, which re-exports these) never import each other.
 */
import type { ExpressionOperator } from './catalog.js';

export type Scalar = string | number | boolean | null;

export type StateExpr = { readonly state: string };
export type DerivedExpr = { readonly derived: string };
export type OperatorExpr = { readonly op: ExpressionOperator; readonly args: readonly Expr[] };
export type Expr = Scalar | StateExpr | DerivedExpr | OperatorExpr;

/** A dynamic component property: a literal, or an expression wrapped in `expr`. */
export type Value = Scalar | { readonly expr: Expr };

export type StateValue = number | string | boolean;

export type NumberStateDeclaration = {
  readonly type: 'number';
  readonly initial: number;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
};
export type StringStateDeclaration = {
  readonly type: 'string';
  readonly initial: string;
  readonly maxLength?: number;
};
export type BooleanStateDeclaration = { readonly type: 'boolean'; readonly initial: boolean };
export type StateDeclaration = NumberStateDeclaration | StringStateDeclaration | BooleanStateDeclaration;

/** A document's state values, keyed by declared state name. */
export type UIState = Readonly<Record<string, StateValue>>;
/** Computed derived values, keyed by derived name. */
export type UIDerivedValues = Readonly<Record<string, Scalar>>;

export type ResetAction = { readonly type: 'reset' };
export type SetAction = { readonly type: 'set'; readonly key: string; readonly value: Value };
export type InvokeAction = { readonly type: 'invoke'; readonly actionId: string };
/** Local actions (1.0 and 1.1). */
export type UILocalAction = ResetAction | SetAction;
/** What a Button or Form dispatches; `invoke` only in 1.1 documents. */
export type UIAction = UILocalAction | InvokeAction;

export type UIToolActionDefinition = {
  readonly kind: 'tool';
  readonly capabilityId: string;
  readonly arguments: Readonly<Record<string, Value>>;
  readonly resultMap?: Readonly<Record<string, string>>;
};
export type UIAgentActionDefinition = { readonly kind: 'agent'; readonly prompt: Value };
/** A 1.1 host operation or agent callback (seed 002 §11). */
export type UIActionDefinition = UIToolActionDefinition | UIAgentActionDefinition;
