/**
 * The pieces the planning guidance (guidance.ts) is written with: readers of the generated document JSON
 * Schema, formatting helpers, what each operator is for, and the example document.
 */ import { type ExpressionOperator, UI_OPERATORS } from '../dsl/catalog.js';
import { UI_COMPONENTS, type UIComponentType } from '../dsl/components.js';
import { documentJsonSchema } from '../dsl/json-schema.js';
import type { UIDocumentV10 } from '../dsl/types.js';
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import type { JSONSchemaNode } from './schema-notation.js';

// ---------------------------------------------------------------------------------------------------------
// Reading the generated schema

export const definitions = documentJsonSchema.$defs as Readonly<Record<string, JSONSchemaNode>>;

export function definition(name: string): JSONSchemaNode {
  const found = definitions[name];
  if (found === undefined) throw new Error(`documentJsonSchema has no $defs.${name}.`);
  return found;
}

export function variants(node: JSONSchemaNode): readonly JSONSchemaNode[] {
  const list = node.oneOf ?? node.anyOf;
  if (!Array.isArray(list)) throw new Error('Expected a union in documentJsonSchema.');
  return list as JSONSchemaNode[];
}

export function propertiesOf(node: JSONSchemaNode): Readonly<Record<string, JSONSchemaNode>> {
  return (node.properties ?? {}) as Record<string, JSONSchemaNode>;
}

/** The `props` schema of one component, checked against the catalog so the two cannot disagree. */
export function propsSchema(nodeDefinition: string, type: UIComponentType): JSONSchemaNode {
  const variant = variants(definition(nodeDefinition)).find(
    (candidate) => propertiesOf(candidate).type?.const === type,
  );
  const props = variant === undefined ? undefined : propertiesOf(variant).props;
  if (props === undefined) throw new Error(`documentJsonSchema has no ${type} node.`);
  const { required, optional } = UI_COMPONENTS[type];
  const names = Object.keys(propertiesOf(props));
  const requiredNames = (props.required ?? []) as string[];
  if (
    names.length !== required.length + optional.length ||
    !required.every((name) => requiredNames.includes(name)) ||
    !optional.every((name) => names.includes(name) && !requiredNames.includes(name))
  ) {
    throw new Error(`The ${type} props of documentJsonSchema disagree with UI_COMPONENTS.`);
  }
  return props;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting helpers

/** `262144` → `262,144`; powers of ten from 1e9 as `1e15`. Locale-independent on purpose. */
export function count(value: number): string {
  if (value >= 1e9 && Number.isInteger(Math.log10(value))) return `1e${Math.log10(value)}`;
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Line width up to which the example keeps an object or array on one line. */
export const EXAMPLE_LINE_WIDTH = 100;

export const code = (text: string) => `\`${text}\``;
export const names = (list: readonly string[]) => list.map(code).join(', ');

/** JSON on one line with a space after `:` and `,`: `{ "type": "reset" }`. */
export function inlineJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJSON).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inlineJSON(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** Pretty JSON that keeps short objects and arrays on one line, so an example stays readable and short. */
export function formatJSON(value: unknown, indent = ''): string {
  const inline = inlineJSON(value);
  if (typeof value !== 'object' || value === null || indent.length + inline.length <= EXAMPLE_LINE_WIDTH) {
    return inline;
  }
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${formatJSON(item, inner)}`)
    : Object.entries(value).map(
        ([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJSON(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join(',\n')}\n${indent}${close}`;
}

export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------
// What each operator is for (the props and arity come from the schema and the catalog; what each component is
// for is its `note` in the component table)

export const OPERATOR_NOTES: Readonly<Record<ExpressionOperator, string>> = {
  add: 'sum',
  sub: 'first minus second',
  mul: 'product',
  div: 'first divided by second; dividing by 0 fails',
  pow: 'first to the power of second; a non-finite or out-of-range result fails',
  min: 'smallest',
  max: 'largest',
  round: `optional second argument: decimal places, an integer 0–${UI_SCHEMA_LIMITS.maxFractionDigits} (default 0)`,
  eq: 'strict equality: `1` and `"1"` differ',
  lt: 'first < second',
  lte: 'first ≤ second',
  gt: 'first > second',
  gte: 'first ≥ second',
  and: 'logical and, left to right, short-circuit',
  or: 'logical or, left to right, short-circuit',
  not: 'logical not',
  if: 'condition, then, else: only the chosen branch is evaluated; both must be valid',
  concat: 'joins the arguments as text; `null` becomes ""',
};

export function arity(operator: ExpressionOperator): string {
  const { minArgs, maxArgs } = UI_OPERATORS[operator];
  return minArgs === maxArgs ? `${minArgs}` : `${minArgs}–${maxArgs}`;
}

export function argumentTypes(operator: ExpressionOperator): string {
  const { args, maxArgs } = UI_OPERATORS[operator];
  if (args.length === 1 && maxArgs > 1) return args[0] === 'any' ? 'any scalars' : `all ${args[0]}s`;
  return args.map((type) => (type === 'any' ? 'any scalar' : type)).join(', ');
}

export function returnType(operator: ExpressionOperator): string {
  const { returns } = UI_OPERATORS[operator];
  return returns === 'any' ? 'type of the chosen branch' : returns;
}

// ---------------------------------------------------------------------------------------------------------
// The example: a complete, valid document (the tests prove parseDocument accepts it)

/** A small complete 1.0 document the guidance shows as a model answer. */
export const INTELLIGENT_UI_PROMPT_EXAMPLE: UIDocumentV10 = {
  version: '1.0',
  id: 'tip-calculator',
  mode: 'interactive_ui',
  title: 'Tip calculator',
  state: {
    bill: { type: 'number', initial: 80, min: 0, max: 100000, step: 0.01 },
    tipPercent: { type: 'number', initial: 15, min: 0, max: 30, step: 1 },
  },
  derived: {
    tip: {
      op: 'round',
      args: [
        { op: 'mul', args: [{ state: 'bill' }, { op: 'div', args: [{ state: 'tipPercent' }, 100] }] },
        2,
      ],
    },
    total: { op: 'add', args: [{ state: 'bill' }, { derived: 'tip' }] },
  },
  root: {
    id: 'calculator',
    type: 'Card',
    props: { title: 'Split the bill', gap: 'md' },
    children: [
      { id: 'bill-input', type: 'NumberInput', props: { label: 'Bill (USD)', bind: 'bill' } },
      { id: 'tip-slider', type: 'Slider', props: { label: 'Tip (%)', bind: 'tipPercent' } },
      {
        id: 'total-result',
        type: 'Result',
        props: {
          label: 'Total with tip',
          value: { expr: { derived: 'total' } },
          format: { style: 'currency', currency: 'USD', digits: 2 },
        },
      },
      {
        id: 'reset-button',
        type: 'Button',
        props: { label: 'Reset', action: { type: 'reset' }, variant: 'secondary' },
      },
    ],
  },
};
