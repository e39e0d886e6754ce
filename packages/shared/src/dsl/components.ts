/**
 * The component table: every one of the DSL's components (seed 002 §5) in one entry, keyed by its `type`.
 * Everything else is derived from it — the TypeScript props types (`UIComponentProps`), the zod node schema and
 * so the JSON Schema (`documentJsonSchema`), the catalog (`UI_COMPONENTS`, `UI_LAYOUT_COMPONENTS`,
 * `UI_INPUT_COMPONENTS`), the agent's prompt section, and the checks `parseDocument` runs on a node's props.
 * Adding a component is one entry here plus its renderer view (CONTRIBUTING.md walks through it).
 *
 * An entry holds:
 * - `props`: the closed zod object of its props, given the document version's action schema (1.0 documents
 *   have local actions only). Required and optional names come from it.
 * - `children`: `'required'` for layouts (an array, possibly empty), `'none'` for every other component.
 * - `input`: whether it takes user input; `structured_ui` documents may not use it.
 * - `note`: what it is for, one sentence of the agent's prompt section.
 * - `check`: the trust-boundary checks of its props, beyond the closed key list (which the validator checks
 *   first): types, bounds, and the references, static types and domains no structural schema can express.
 */
import { z } from 'zod';
import { UI_LIMITS } from '../limits/ui-limits.js';
import {
  UI_BADGE_TONES,
  UI_BUTTON_VARIANTS,
  UI_CHART_KINDS,
  UI_DEFAULT_PROGRESS_MAX,
  UI_GAPS,
  UI_GRID_COLUMNS,
  UI_HEADING_LEVELS,
  UI_MARKDOWN_ALLOWED_ELEMENTS,
} from './catalog.js';
import {
  boundedNumber,
  label,
  literals,
  optionalLabel,
  ResultFormatSchema,
  ScalarSchema,
  scalarString,
  UIIdentifierSchema,
  ValueSchema,
} from './schema-parts.js';
import type { PropsChecker } from './validate-structure.js';
import type { UIAction } from './value-types.js';

/** What the props of a component may depend on: the action schema of the document's version. */
export interface PropsKit {
  readonly action: z.ZodType<UIAction>;
}

/** A JSON object as the validator sees it (not yet validated). */
export type JSONObject = { readonly [key: string]: unknown };

/** One entry of the component table. */
export interface ComponentSpec {
  readonly props: (kit: PropsKit) => z.ZodObject;
  readonly children: 'required' | 'none';
  readonly input: boolean;
  readonly note: string;
  readonly check: (props: JSONObject, v: PropsChecker) => void;
}

const gap = () => z.enum(UI_GAPS).exactOptional();
const has = (object: JSONObject, key: string) => Object.hasOwn(object, key);
const labelled = (props: JSONObject, v: PropsChecker) =>
  v.checkString(props, 'label', 1, UI_LIMITS.maxLabelLength, 'a label');
const numberRange = () => ({
  min: boundedNumber().exactOptional(),
  max: boundedNumber().exactOptional(),
  step: boundedNumber().positive().exactOptional(),
});

export const UI_COMPONENT_TABLE = {
  Text: {
    props: () => z.strictObject({ text: ValueSchema }),
    children: 'none',
    input: false,
    note: 'Plain text; never HTML. `null` shows as empty.',
    check(props, v) {
      if (has(props, 'text')) v.displayValue(props, 'text', 'scalar');
    },
  },
  Heading: {
    props: () => z.strictObject({ text: ValueSchema, level: literals(UI_HEADING_LEVELS).exactOptional() }),
    children: 'none',
    input: false,
    note: 'A section heading.',
    check(props, v) {
      if (has(props, 'text')) v.displayValue(props, 'text', 'scalar');
      if (has(props, 'level')) v.checkEnum(props, 'level', UI_HEADING_LEVELS);
    },
  },
  Markdown: {
    props: () => z.strictObject({ text: z.string().max(UI_LIMITS.maxMarkdownLength) }),
    children: 'none',
    input: false,
    note: `Static text in a safe Markdown subset (${UI_MARKDOWN_ALLOWED_ELEMENTS.join(' ')}); no raw HTML, clickable links, images or expressions.`,
    check(props, v) {
      // seed 002 §5: static text only, no expressions.
      if (has(props, 'text')) v.checkString(props, 'text', 0, UI_LIMITS.maxMarkdownLength, 'Markdown text');
    },
  },
  Row: {
    props: () => z.strictObject({ gap: gap() }),
    children: 'required',
    input: false,
    note: 'Horizontal layout.',
    check() {},
  },
  Column: {
    props: () => z.strictObject({ gap: gap() }),
    children: 'required',
    input: false,
    note: 'Vertical layout.',
    check() {},
  },
  Grid: {
    props: () => z.strictObject({ gap: gap(), columns: literals(UI_GRID_COLUMNS).exactOptional() }),
    children: 'required',
    input: false,
    note: 'Responsive grid layout.',
    check(props, v) {
      if (has(props, 'columns')) v.checkEnum(props, 'columns', UI_GRID_COLUMNS);
    },
  },
  Card: {
    props: () => z.strictObject({ title: optionalLabel(), gap: gap() }),
    children: 'required',
    input: false,
    note: 'A card with an optional title.',
    check(props, v) {
      v.checkOptionalString(props, 'title', UI_LIMITS.maxLabelLength);
    },
  },
  Badge: {
    props: () => z.strictObject({ text: ValueSchema, tone: z.enum(UI_BADGE_TONES).exactOptional() }),
    children: 'none',
    input: false,
    note: 'A short status label.',
    check(props, v) {
      if (has(props, 'text')) v.displayValue(props, 'text', 'scalar');
      if (has(props, 'tone')) v.checkEnum(props, 'tone', UI_BADGE_TONES);
    },
  },
  Table: {
    props: () =>
      z.strictObject({
        columns: z
          .array(z.strictObject({ key: UIIdentifierSchema, label: label() }))
          .min(1)
          .max(UI_LIMITS.maxTableColumns),
        rows: z.array(z.record(UIIdentifierSchema, ScalarSchema)).max(UI_LIMITS.maxTableRows),
      }),
    children: 'none',
    input: false,
    note: 'Static cells only (no expressions or components); every row has exactly the declared column keys. Column keys are unique.',
    check(props, v) {
      v.validateTable(props);
    },
  },
  Progress: {
    props: () =>
      z.strictObject({
        value: ValueSchema,
        max: boundedNumber().positive().exactOptional(),
        label: optionalLabel(),
      }),
    children: 'none',
    input: false,
    note: `\`value\` must always be a number; \`max\` defaults to ${UI_DEFAULT_PROGRESS_MAX}, and the initial value must lie in [0, max].`,
    check(props, v) {
      let max: number = UI_DEFAULT_PROGRESS_MAX;
      if (has(props, 'max')) {
        const value = v.checkNumber(props, 'max');
        if (value !== undefined && value <= 0)
          v.report('number_out_of_range', 'max must be greater than 0.', 'max');
        else if (value !== undefined) max = value;
      }
      v.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
      if (has(props, 'value')) v.displayValue(props, 'value', 'progress', max);
    },
  },
  Chart: {
    props: () =>
      z.strictObject({
        kind: z.enum(UI_CHART_KINDS),
        data: z
          .array(z.strictObject({ id: UIIdentifierSchema, label: label(), value: ValueSchema }))
          .min(1)
          .max(UI_LIMITS.maxChartPoints),
        label: optionalLabel(),
      }),
    children: 'none',
    input: false,
    note: 'Each point `value` must always be a number (negative allowed). Point ids are unique within the chart.',
    check(props, v) {
      if (has(props, 'kind')) v.checkEnum(props, 'kind', UI_CHART_KINDS);
      v.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
      if (has(props, 'data')) v.validateChartData(props);
    },
  },
  Input: {
    props: () => z.strictObject({ label: label(), bind: UIIdentifierSchema, placeholder: optionalLabel() }),
    children: 'none',
    input: true,
    note: 'Binds a string state field.',
    check(props, v) {
      labelled(props, v);
      v.checkOptionalString(props, 'placeholder', UI_LIMITS.maxLabelLength);
      v.control('Input', props);
    },
  },
  NumberInput: {
    props: () => z.strictObject({ label: label(), bind: UIIdentifierSchema, ...numberRange() }),
    children: 'none',
    input: true,
    note: 'Binds a number state field. `min`/`max`/`step` may only repeat the state declaration.',
    check(props, v) {
      labelled(props, v);
      for (const key of ['min', 'max', 'step']) if (has(props, key)) v.checkNumber(props, key);
      v.control('NumberInput', props);
    },
  },
  Select: {
    props: () =>
      z.strictObject({
        label: label(),
        bind: UIIdentifierSchema,
        options: z
          .array(z.strictObject({ label: label(), value: scalarString() }))
          .min(1)
          .max(UI_LIMITS.maxSelectOptions),
      }),
    children: 'none',
    input: true,
    note: 'Binds a string state field; its option values become that field’s whole domain. Option values are unique.',
    check(props, v) {
      labelled(props, v);
      v.control('Select', props);
    },
  },
  Button: {
    props: ({ action }) =>
      z.strictObject({ label: label(), action, variant: z.enum(UI_BUTTON_VARIANTS).exactOptional() }),
    children: 'none',
    input: true,
    note: 'Runs its action when clicked.',
    check(props, v) {
      labelled(props, v);
      if (has(props, 'variant')) v.checkEnum(props, 'variant', UI_BUTTON_VARIANTS);
      if (has(props, 'action')) v.validateAction(props);
    },
  },
  Slider: {
    props: () => z.strictObject({ label: label(), bind: UIIdentifierSchema, ...numberRange() }),
    children: 'none',
    input: true,
    note: 'Binds a number state field whose declaration has `min` < `max`. `min`/`max`/`step` may only repeat the state declaration.',
    check(props, v) {
      labelled(props, v);
      for (const key of ['min', 'max', 'step']) if (has(props, key)) v.checkNumber(props, key);
      v.control('Slider', props);
    },
  },
  Checkbox: {
    props: () => z.strictObject({ label: label(), bind: UIIdentifierSchema }),
    children: 'none',
    input: true,
    note: 'Binds a boolean state field.',
    check(props, v) {
      labelled(props, v);
      v.control('Checkbox', props);
    },
  },
  Form: {
    props: ({ action }) => z.strictObject({ submitLabel: label(), action, gap: gap() }),
    children: 'required',
    input: true,
    note: 'Groups inputs; its submit button runs its one action. Inputs inside update state immediately, as anywhere else.',
    check(props, v) {
      v.checkString(props, 'submitLabel', 1, UI_LIMITS.maxLabelLength, 'a submit label');
      if (has(props, 'action')) v.validateAction(props);
    },
  },
  Loading: {
    props: () => z.strictObject({ label: optionalLabel() }),
    children: 'none',
    input: false,
    note: 'A loading indicator; it starts nothing.',
    check(props, v) {
      v.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
    },
  },
  Error: {
    props: () => z.strictObject({ message: ValueSchema }),
    children: 'none',
    input: false,
    note: 'Shows an error message; it changes nothing.',
    check(props, v) {
      if (has(props, 'message')) v.displayValue(props, 'message', 'scalar');
    },
  },
  Result: {
    props: () =>
      z.strictObject({
        label: optionalLabel(),
        value: ValueSchema,
        format: ResultFormatSchema.exactOptional(),
      }),
    children: 'none',
    input: false,
    note: 'A labelled result. With `format`, `value` must always be a number.',
    check(props, v) {
      v.checkOptionalString(props, 'label', UI_LIMITS.maxLabelLength);
      if (has(props, 'format')) {
        const formatted = v.validateResultFormat(props);
        if (has(props, 'value')) v.displayValue(props, 'value', formatted ? 'number' : 'scalar');
      } else if (has(props, 'value')) v.displayValue(props, 'value', 'scalar');
    },
  },
} as const satisfies Record<string, ComponentSpec>;

type Table = typeof UI_COMPONENT_TABLE;
export type UIComponentType = keyof Table;

/** One level of `readonly` on the items of an array prop and on an object prop; values are readonly already. */
type ReadonlyItem<U> = U extends object ? { readonly [K in keyof U]: U[K] } : U;
type ReadonlyProp<F> = F extends readonly (infer U)[]
  ? readonly ReadonlyItem<U>[]
  : F extends object
    ? ReadonlyItem<F>
    : F;

/** Properties of each component, as `parseDocument` returns them (deep-frozen, hence `readonly`). */
export type UIComponentProps = {
  readonly [T in UIComponentType]: {
    readonly [K in keyof z.output<ReturnType<Table[T]['props']>>]: ReadonlyProp<
      z.output<ReturnType<Table[T]['props']>>[K]
    >;
  };
};

/** The layout components: the only ones with `children`. */
export type UILayoutType = {
  [T in UIComponentType]: Table[T]['children'] extends 'required' ? T : never;
}[UIComponentType];

/** Every component type, in the table's order. */
export const UI_COMPONENT_TYPES = Object.keys(UI_COMPONENT_TABLE) as UIComponentType[];

const ANY_ACTION: PropsKit = {
  // The names are the same for both versions; only the action's schema differs.
  action: z.custom<UIAction>(),
};

function propertyNames(type: UIComponentType) {
  const shape = UI_COMPONENT_TABLE[type].props(ANY_ACTION).shape as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  const optional = names.filter((name) => shape[name]?._zod.optin === 'optional');
  return Object.freeze({
    required: Object.freeze(names.filter((name) => !optional.includes(name))),
    optional: Object.freeze(optional),
  });
}

/** The closed property lists of each component: `required` and `optional` names, from the table. */
export const UI_COMPONENTS: Readonly<
  Record<UIComponentType, { readonly required: readonly string[]; readonly optional: readonly string[] }>
> = Object.freeze(
  Object.fromEntries(UI_COMPONENT_TYPES.map((type) => [type, propertyNames(type)])) as Record<
    UIComponentType,
    ReturnType<typeof propertyNames>
  >,
);

/** The only components that carry `children` (required, may be empty). */
export const UI_LAYOUT_COMPONENTS: readonly UILayoutType[] = Object.freeze(
  UI_COMPONENT_TYPES.filter((type) => UI_COMPONENT_TABLE[type].children === 'required') as UILayoutType[],
);

/** Components `structured_ui` documents may not use (seed 002 §2). */
export const UI_INPUT_COMPONENTS: readonly UIComponentType[] = Object.freeze(
  UI_COMPONENT_TYPES.filter((type) => UI_COMPONENT_TABLE[type].input),
);

/** Whether `type` names a component of the table (an own key: `toString` is not a component). */
export function isUIComponentType(type: unknown): type is UIComponentType {
  return typeof type === 'string' && Object.hasOwn(UI_COMPONENT_TABLE, type);
}
