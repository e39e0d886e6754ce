/**
 * TypeScript shapes of a validated Intelligent UI document (seed 002 §2–§6, §11). `parseDocument` returns
 * them deep-frozen, hence `readonly` throughout. The zod schemas of schema-parts.ts are typed against these, so
 * the compiler proves the two agree; each component's props type comes from its entry in the component table.
 */
import type { ExpressionOperator, UI_GAPS, UIDocumentMode } from './catalog.js';
import type { UIComponentProps, UILayoutType } from './components.js';

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

export type Gap = (typeof UI_GAPS)[number];

/** The parts of some components' props, named for the renderers (from the component table). */
export type ResultFormat = NonNullable<UIComponentProps['Result']['format']>;
export type TableColumn = UIComponentProps['Table']['columns'][number];
export type ChartPoint = UIComponentProps['Chart']['data'][number];
export type SelectOption = UIComponentProps['Select']['options'][number];

export type { UIComponentProps, UILayoutType } from './components.js';

/** A node of the component tree; only the five layout components have (required) `children`. */
export type UINode = {
  [T in keyof UIComponentProps]: T extends UILayoutType
    ? {
        readonly id: string;
        readonly type: T;
        readonly props: UIComponentProps[T];
        readonly children: readonly UINode[];
      }
    : { readonly id: string; readonly type: T; readonly props: UIComponentProps[T] };
}[keyof UIComponentProps];

/** A node of a given component type. */
export type UINodeOf<T extends keyof UIComponentProps> = Extract<UINode, { type: T }>;

interface UIDocumentBase {
  readonly id: string;
  readonly mode: UIDocumentMode;
  readonly title: string;
  readonly state: Readonly<Record<string, StateDeclaration>>;
  readonly derived: Readonly<Record<string, Expr>>;
  readonly root: UINode;
}

/** A 1.0 document: local actions only, no `actions` dictionary, no `invoke`. */
export interface UIDocumentV10 extends UIDocumentBase {
  readonly version: '1.0';
}

/** A 1.1 document: adds the required `actions` dictionary and `invoke` (seed 002 §11). */
export interface UIDocumentV11 extends UIDocumentBase {
  readonly version: '1.1';
  readonly actions: Readonly<Record<string, UIActionDefinition>>;
}

export type UIDocument = UIDocumentV10 | UIDocumentV11;
