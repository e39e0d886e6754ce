/**
 * TypeScript shapes of a validated Intelligent UI document (seed 002 §2–§6, §11). `parseDocument` returns
 * them deep-frozen, hence `readonly` throughout. The zod schemas of schema-parts.ts are typed against these, so
 * the compiler proves the two agree; each component's props type comes from its entry in the component table.
 */
import type { UI_GAPS, UIDocumentMode } from './catalog.js';
import type { UIComponentProps, UILayoutType } from './components.js';
import type { Expr, StateDeclaration, UIActionDefinition } from './value-types.js';

export type * from './value-types.js';

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
