/**
 * The zod schemas the component table and the document schema are built from (seed 002 §2–§6, §11): identifiers,
 * scalars, expressions, values, state declarations, actions and the result format, and the small builders the
 * component table uses for its props.
 */
import { z } from 'zod';
import { UI_LIMITS, UI_PROTOCOL_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { UI_EXPRESSION_OPERATORS, UI_RESULT_CURRENCIES, UI_RESULT_STYLES } from './catalog.js';
import { boundedNumber, ScalarSchema, scalarString, UIIdentifierSchema } from './scalars.js';
import type {
  Expr,
  StateDeclaration,
  UIAction,
  UIActionDefinition,
  UILocalAction,
  Value,
} from './value-types.js';

export { boundedNumber, ScalarSchema, scalarString, UIIdentifierSchema } from './scalars.js';

// Dictionaries carry their size limit as JSON Schema `maxProperties` through `.meta()`: zod records cannot
// state it, and parseDocument enforces it.

export const label = () => z.string().min(1).max(UI_LIMITS.maxLabelLength);
export const optionalLabel = () => z.string().max(UI_LIMITS.maxLabelLength).exactOptional();
export const literals = <T extends readonly (string | number)[]>(values: T) =>
  z.union(
    values.map((value) => z.literal(value)) as unknown as [z.ZodLiteral<T[number]>, z.ZodLiteral<T[number]>],
  );

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
