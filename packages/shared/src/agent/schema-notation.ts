/**
 * Renders the generated JSON Schema of the DSL in the compact, TypeScript-like notation the planning guidance
 * shows a model: `{ label: string(1–512), bind: Identifier, step?: number(>0) }`. Rendering from the schema
 * (not from a hand-written table) keeps the prompt equal to what the validator's structure accepts.
 */
import { UI_LIMITS } from '../limits/ui-limits.js';

export type JSONSchemaNode = { readonly [key: string]: unknown };

/** Names shown for `$defs` entries; version variants of one concept share one name. */
const DEFINITION_NAMES: Readonly<Record<string, string>> = {
  NodeV1_0: 'Node',
  NodeV1_1: 'Node',
  LocalAction: 'Action',
  DocumentV1_0: 'Document',
  DocumentV1_1: 'Document',
};

const REF_PREFIX = '#/$defs/';

function isNode(value: unknown): value is JSONSchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberOr(node: JSONSchemaNode, key: string): number | undefined {
  const value = node[key];
  return typeof value === 'number' ? value : undefined;
}

/** The name a `$ref` is shown as. */
export function definitionName(ref: string): string {
  const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
  // zod names definitions without an id `__schema0`, `__schema1`, …; the only one in our schemas is `z.json()`.
  if (name.startsWith('__schema')) return 'JSON';
  return DEFINITION_NAMES[name] ?? name;
}

/** `1–32`, `≤500`, `≥1` or `` for a pair of bounds. */
function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `${min}` : `${min}–${max}`;
  if (max !== undefined) return `≤${max}`;
  if (min !== undefined) return `≥${min}`;
  return '';
}

function numberBounds(node: JSONSchemaNode): string {
  // The global number bound applies to every number and is stated once in the guidance.
  const minimum = numberOr(node, 'minimum');
  const maximum = numberOr(node, 'maximum');
  const min = minimum === -UI_LIMITS.maxAbsNumber ? undefined : minimum;
  const max = maximum === UI_LIMITS.maxAbsNumber ? undefined : maximum;
  const exclusiveMin = numberOr(node, 'exclusiveMinimum');
  if (exclusiveMin !== undefined) return max === undefined ? `>${exclusiveMin}` : `>${exclusiveMin}, ≤${max}`;
  return range(min, max);
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function needsParentheses(text: string): boolean {
  let depth = 0;
  for (const character of text) {
    if (character === '{' || character === '(' || character === '<' || character === '[') depth++;
    else if (character === '}' || character === ')' || character === '>' || character === ']') depth--;
    else if (character === '|' && depth === 0) return true;
  }
  return false;
}

/** The notation of one schema node. */
export function describeSchema(node: unknown): string {
  if (!isNode(node)) return 'unknown';
  if (typeof node.$ref === 'string') return definitionName(node.$ref);
  if ('const' in node) return literal(node.const);
  if (Array.isArray(node.enum)) return node.enum.map(literal).join(' | ');
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union) return union.map(describeSchema).join(' | ');
  switch (node.type) {
    case 'string': {
      const bounds = range(numberOr(node, 'minLength'), numberOr(node, 'maxLength'));
      return bounds ? `string(${bounds})` : 'string';
    }
    case 'number':
    case 'integer': {
      const bounds = numberBounds(node);
      return bounds ? `${node.type}(${bounds})` : node.type;
    }
    case 'boolean':
    case 'null':
      return node.type;
    case 'array': {
      const item = describeSchema(node.items);
      const bounds = range(numberOr(node, 'minItems'), numberOr(node, 'maxItems'));
      return `${needsParentheses(item) ? `(${item})` : item}[${bounds}]`;
    }
    case 'object':
      return describeObject(node);
    default:
      return 'unknown';
  }
}

/** `{ a: T, b?: T }` for closed objects, `Record<K, V>(≤n)` for dictionaries. */
export function describeObject(node: JSONSchemaNode, order?: readonly string[]): string {
  if (isNode(node.additionalProperties)) {
    const key = node.propertyNames === undefined ? 'string' : describeSchema(node.propertyNames);
    const bounds = range(undefined, numberOr(node, 'maxProperties'));
    return `Record<${key}, ${describeSchema(node.additionalProperties)}>${bounds ? `(${bounds})` : ''}`;
  }
  const entries = describeProperties(node, order);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/** `name: T` / `name?: T` for each property, in `order` when given, else in schema order. */
export function describeProperties(node: JSONSchemaNode, order?: readonly string[]): string[] {
  const properties = isNode(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? (node.required as unknown[]) : []);
  const names = order ?? Object.keys(properties);
  return names.map((name) => `${name}${required.has(name) ? '' : '?'}: ${describeSchema(properties[name])}`);
}
