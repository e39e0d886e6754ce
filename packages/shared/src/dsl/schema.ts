/**
 * zod schemas of the Intelligent UI document (seed 002 §2–§6, §11), built from the catalog and the limits.
 * They describe structure only — closed objects, types, local bounds — and are the source of the exported JSON
 * Schema (`documentJsonSchema`). They are not the trust boundary: `parseDocument` adds the semantic checks
 * (unique ids, references, cycles, static types, shared domains, default evaluation, budgets) that no
 * structural schema can express (seed 002 §9), and is what hosts and clients must call.
 *
 * Each schema is typed against the hand-written shapes of types.ts, so the compiler proves they agree.
 */
import { z } from 'zod';
import { UI_LIMITS, UI_PROTOCOL_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import {
  UI_BADGE_TONES,
  UI_BUTTON_VARIANTS,
  UI_CHART_KINDS,
  UI_COMPONENTS,
  UI_DOCUMENT_MODES,
  UI_EXPRESSION_OPERATORS,
  UI_GAPS,
  UI_GRID_COLUMNS,
  UI_HEADING_LEVELS,
  UI_RESULT_CURRENCIES,
  UI_RESULT_STYLES,
  type UIComponentType,
} from './catalog.js';
import type {
  Expr,
  StateDeclaration,
  UIAction,
  UIActionDefinition,
  UIDocumentV10,
  UIDocumentV11,
  UILocalAction,
  UINode,
  Value,
} from './types.js';

// Dictionaries carry their size limit as JSON Schema `maxProperties` through `.meta()`: zod records cannot
// state it, and parseDocument enforces it.

/** seed 002 §2; the lookahead keeps `prototype` and `constructor` out (`__proto__` fails the first letter). */
export const UIIdentifierSchema = z
  .string()
  .regex(/^(?!(?:prototype|constructor)$)[A-Za-z][A-Za-z0-9_-]{0,63}$/)
  .meta({
    id: 'Identifier',
    description: 'Letters, digits, _ and -; starts with a letter; at most 64 characters.',
  });

const boundedNumber = () => z.number().min(-UI_LIMITS.maxAbsNumber).max(UI_LIMITS.maxAbsNumber);
const scalarString = () => z.string().max(UI_LIMITS.maxStringLength);
const label = () => z.string().min(1).max(UI_LIMITS.maxLabelLength);
const optionalLabel = () => z.string().max(UI_LIMITS.maxLabelLength).exactOptional();
const literals = <T extends readonly (string | number)[]>(values: T) =>
  z.union(
    values.map((value) => z.literal(value)) as unknown as [z.ZodLiteral<T[number]>, z.ZodLiteral<T[number]>],
  );

export const ScalarSchema = z
  .union([scalarString(), boundedNumber(), z.boolean(), z.null()])
  .meta({ id: 'Scalar', description: 'Strings ≤ 4,096 UTF-16 units; finite numbers with |x| ≤ 1e15.' });

export const ExprSchema: z.ZodType<Expr> = z
  .lazy(() =>
    z.union([
      ScalarSchema,
      z.strictObject({ state: UIIdentifierSchema }),
      z.strictObject({ derived: UIIdentifierSchema }),
      z.strictObject({
        op: z.enum(UI_EXPRESSION_OPERATORS as [string, ...string[]]),
        args: z.array(ExprSchema).min(1).max(UI_SCHEMA_LIMITS.maxOperatorArguments),
      }),
    ]),
  )
  .meta({ id: 'Expr' }) as z.ZodType<Expr>;

export const ValueSchema: z.ZodType<Value> = z
  .union([ScalarSchema, z.strictObject({ expr: ExprSchema })])
  .meta({ id: 'Value', description: 'A literal scalar, or an expression wrapped in { "expr": … }.' });

export const StateDeclarationSchema: z.ZodType<StateDeclaration> = z
  .union([
    z.strictObject({
      type: z.literal('number'),
      initial: boundedNumber(),
      min: boundedNumber().exactOptional(),
      max: boundedNumber().exactOptional(),
      step: boundedNumber().positive().exactOptional(),
    }),
    z.strictObject({
      type: z.literal('string'),
      initial: scalarString(),
      maxLength: z
        .int()
        .min(UI_SCHEMA_LIMITS.minStringMaxLength)
        .max(UI_LIMITS.maxStringLength)
        .exactOptional(),
    }),
    z.strictObject({ type: z.literal('boolean'), initial: z.boolean() }),
  ])
  .meta({ id: 'StateDeclaration' });

const resetAction = z.strictObject({ type: z.literal('reset') });
const setAction = z.strictObject({ type: z.literal('set'), key: UIIdentifierSchema, value: ValueSchema });
export const UILocalActionSchema: z.ZodType<UILocalAction> = z
  .union([resetAction, setAction])
  .meta({ id: 'LocalAction' });
export const UIActionSchema: z.ZodType<UIAction> = z
  .union([
    resetAction,
    setAction,
    z.strictObject({ type: z.literal('invoke'), actionId: UIIdentifierSchema }),
  ])
  .meta({ id: 'Action' });

export const ResultFormatSchema = z
  .strictObject({
    style: z.enum(UI_RESULT_STYLES),
    currency: z.enum(UI_RESULT_CURRENCIES).exactOptional(),
    digits: z.int().min(0).max(UI_SCHEMA_LIMITS.maxFractionDigits).exactOptional(),
  })
  .meta({ id: 'ResultFormat' });

/** Properties of every component, given the action schema of the document version. */
function componentProps(action: z.ZodType<UIAction>) {
  const gap = z.enum(UI_GAPS).exactOptional();
  return {
    Text: z.strictObject({ text: ValueSchema }),
    Heading: z.strictObject({ text: ValueSchema, level: literals(UI_HEADING_LEVELS).exactOptional() }),
    Markdown: z.strictObject({ text: z.string().max(UI_LIMITS.maxMarkdownLength) }),
    Row: z.strictObject({ gap }),
    Column: z.strictObject({ gap }),
    Grid: z.strictObject({ gap, columns: literals(UI_GRID_COLUMNS).exactOptional() }),
    Card: z.strictObject({ title: optionalLabel(), gap }),
    Badge: z.strictObject({ text: ValueSchema, tone: z.enum(UI_BADGE_TONES).exactOptional() }),
    Table: z.strictObject({
      columns: z
        .array(z.strictObject({ key: UIIdentifierSchema, label: label() }))
        .min(1)
        .max(UI_LIMITS.maxTableColumns),
      rows: z.array(z.record(UIIdentifierSchema, ScalarSchema)).max(UI_LIMITS.maxTableRows),
    }),
    Progress: z.strictObject({
      value: ValueSchema,
      max: boundedNumber().positive().exactOptional(),
      label: optionalLabel(),
    }),
    Chart: z.strictObject({
      kind: z.enum(UI_CHART_KINDS),
      data: z
        .array(z.strictObject({ id: UIIdentifierSchema, label: label(), value: ValueSchema }))
        .min(1)
        .max(UI_LIMITS.maxChartPoints),
      label: optionalLabel(),
    }),
    Input: z.strictObject({ label: label(), bind: UIIdentifierSchema, placeholder: optionalLabel() }),
    NumberInput: z.strictObject({
      label: label(),
      bind: UIIdentifierSchema,
      min: boundedNumber().exactOptional(),
      max: boundedNumber().exactOptional(),
      step: boundedNumber().positive().exactOptional(),
    }),
    Select: z.strictObject({
      label: label(),
      bind: UIIdentifierSchema,
      options: z
        .array(z.strictObject({ label: label(), value: scalarString() }))
        .min(1)
        .max(UI_LIMITS.maxSelectOptions),
    }),
    Button: z.strictObject({ label: label(), action, variant: z.enum(UI_BUTTON_VARIANTS).exactOptional() }),
    Slider: z.strictObject({
      label: label(),
      bind: UIIdentifierSchema,
      min: boundedNumber().exactOptional(),
      max: boundedNumber().exactOptional(),
      step: boundedNumber().positive().exactOptional(),
    }),
    Checkbox: z.strictObject({ label: label(), bind: UIIdentifierSchema }),
    Form: z.strictObject({ submitLabel: label(), action, gap }),
    Loading: z.strictObject({ label: optionalLabel() }),
    Error: z.strictObject({ message: ValueSchema }),
    Result: z.strictObject({
      label: optionalLabel(),
      value: ValueSchema,
      format: ResultFormatSchema.exactOptional(),
    }),
  } satisfies Record<UIComponentType, z.ZodType>;
}

/** The node union for one document version; only the five layout components carry `children`. */
function nodeSchema(version: '1.0' | '1.1', action: z.ZodType<UIAction>): z.ZodType<UINode> {
  const props = componentProps(action);
  const node: z.ZodType<UINode> = z
    .lazy(() =>
      z.discriminatedUnion(
        'type',
        (Object.keys(UI_COMPONENTS) as UIComponentType[]).map((type) => {
          const shape = { id: UIIdentifierSchema, type: z.literal(type), props: props[type] };
          return type === 'Row' || type === 'Column' || type === 'Grid' || type === 'Card' || type === 'Form'
            ? z.strictObject({ ...shape, children: z.array(node).max(UI_LIMITS.maxComponents - 1) })
            : z.strictObject(shape);
        }) as unknown as [z.ZodObject, ...z.ZodObject[]],
      ),
    )
    .meta({ id: version === '1.0' ? 'NodeV1_0' : 'NodeV1_1' }) as unknown as z.ZodType<UINode>;
  return node;
}

const documentBase = {
  id: UIIdentifierSchema,
  mode: z.enum(UI_DOCUMENT_MODES),
  title: z.string().min(1).max(UI_LIMITS.maxTitleLength),
  state: z
    .record(UIIdentifierSchema, StateDeclarationSchema)
    .meta({ maxProperties: UI_LIMITS.maxStateFields }),
  derived: z.record(UIIdentifierSchema, ExprSchema).meta({ maxProperties: UI_LIMITS.maxDerivedFields }),
};

export const UIActionDefinitionSchema: z.ZodType<UIActionDefinition> = z
  .union([
    z.strictObject({
      kind: z.literal('tool'),
      capabilityId: UIIdentifierSchema,
      arguments: z
        .record(UIIdentifierSchema, ValueSchema)
        .meta({ maxProperties: UI_PROTOCOL_LIMITS.maxActionArguments }),
      resultMap: z
        .record(UIIdentifierSchema, UIIdentifierSchema)
        .meta({ maxProperties: UI_PROTOCOL_LIMITS.maxActionResultFields })
        .exactOptional(),
    }),
    z.strictObject({ kind: z.literal('agent'), prompt: ValueSchema }),
  ])
  .meta({ id: 'ActionDefinition' });

export const UIDocumentV10Schema: z.ZodType<UIDocumentV10> = z
  .strictObject({ version: z.literal('1.0'), ...documentBase, root: nodeSchema('1.0', UILocalActionSchema) })
  .meta({ id: 'DocumentV1_0', description: 'DSL 1.0: local set/reset actions only.' });

export const UIDocumentV11Schema: z.ZodType<UIDocumentV11> = z
  .strictObject({
    version: z.literal('1.1'),
    ...documentBase,
    actions: z
      .record(UIIdentifierSchema, UIActionDefinitionSchema)
      .meta({ maxProperties: UI_PROTOCOL_LIMITS.maxActions }),
    root: nodeSchema('1.1', UIActionSchema),
  })
  .meta({ id: 'DocumentV1_1', description: 'DSL 1.1: adds the actions dictionary and invoke.' });

/** Structure of a 1.0 or 1.1 document. Use `parseDocument` for validation; this schema alone is not enough. */
export const UIDocumentSchema = z.discriminatedUnion('version', [
  UIDocumentV10Schema as unknown as z.ZodObject,
  UIDocumentV11Schema as unknown as z.ZodObject,
]);
