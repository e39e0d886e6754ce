/**
 * The words for a value a JSON Schema refused, said the same way wherever it is checked — by the SDK in a
 * MiniApp's test or page (`AgentTools.handle`), and by the runtime for the agent and its console: each refused
 * place as its path, its stable code and what the schema wants there, read from the schema (never from the
 * value, which may be the user's data):
 *
 *     count: missing_property (expected integer); total: unknown_property (not in the schema, which has: count)
 *
 * Zod-free and small: a MiniApp page carries it.
 */
import type { UIIssueCode } from './issues.js';

/** A refused place of a value: a path under it (`count`, `items[2].text`, `$` for the value itself), a code. */
export interface RefusedPlace {
  readonly path: string;
  readonly code: UIIssueCode;
}

/** How many places a description names; the rest are counted. */
export const MAX_DESCRIBED_PLACES = 3;

/** A path's segments: names, indexes, and `null` for a key that is not a name (`[*]`, `[?]`, `["a b"]`). */
function segmentsOf(path: string): (string | number | null)[] | undefined {
  if (path === '$' || path === '') return [];
  const segments: (string | number | null)[] = [];
  const pattern = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[(\*|\?|"(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(path);
    if (match === null) return undefined;
    segments.push(match[1] ?? (match[2] === undefined ? null : Number(match[2])));
    at = pattern.lastIndex;
  }
  return segments;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `node` with a local `$ref` (`#/$defs/x`, `#/definitions/x`) followed, a few deep. */
function resolved(root: unknown, node: unknown): Node | undefined {
  let current = node;
  for (let hops = 0; hops < 8 && isNode(current) && typeof current.$ref === 'string'; hops++) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(current.$ref);
    if (match === null || !isNode(root)) return undefined;
    const table = root[match[1] as string];
    current = isNode(table)
      ? table[
          decodeURIComponent(match[2] as string)
            .replace(/~1/g, '/')
            .replace(/~0/g, '~')
        ]
      : undefined;
  }
  return isNode(current) ? current : undefined;
}

/** The schema at `segments` under `schema`, when one schema says what goes there. */
function nodeAt(schema: unknown, segments: readonly (string | number | null)[]): Node | undefined {
  let node = resolved(schema, schema);
  for (const segment of segments) {
    if (node === undefined) return undefined;
    let next: unknown;
    if (typeof segment === 'number') {
      const prefix = node.prefixItems;
      next = Array.isArray(prefix) && segment < prefix.length ? prefix[segment] : node.items;
    } else if (
      typeof segment === 'string' &&
      isNode(node.properties) &&
      Object.hasOwn(node.properties, segment)
    )
      next = node.properties[segment];
    else next = node.additionalProperties;
    node = resolved(schema, next);
  }
  return node;
}

const bounded = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const valueText = (value: unknown) => bounded(JSON.stringify(value) ?? String(value), 40);

function listed(values: readonly string[], max: number): string {
  const shown = values.slice(0, max).join(', ');
  return values.length > max ? `${shown} and ${values.length - max} more` : shown;
}

/** What a schema node takes, in a few words (`integer`, `string or null`, `one of "a", "b"`). */
function typeWords(schema: unknown, node: Node, depth = 0): string | undefined {
  if (node.const !== undefined) return valueText(node.const);
  if (Array.isArray(node.enum)) return `one of ${listed(node.enum.map(valueText), 6)}`;
  if (typeof node.type === 'string') return node.type;
  if (Array.isArray(node.type) && node.type.every((type) => typeof type === 'string'))
    return node.type.join(' or ');
  const options = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (options !== undefined && depth < 3) {
    const words = options.map((option) => {
      const inner = resolved(schema, option);
      return inner === undefined ? undefined : typeWords(schema, inner, depth + 1);
    });
    if (words.every((word): word is string => word !== undefined)) return [...new Set(words)].join(' or ');
  }
  return undefined;
}

/** A bound, unless it only says "a safe integer" (zod's `z.int()` writes ±2^53 − 1). */
const numberOf = (value: unknown) =>
  typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

function range(low: number | undefined, high: number | undefined, unit: string): string | undefined {
  if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
  if (low !== undefined) return `at least ${low}${unit}`;
  if (high !== undefined) return `at most ${high}${unit}`;
  return undefined;
}

/**
 * What `schema` wants at a refused place, in a few words (`expected integer`, `at least 1 characters`,
 * `not in the schema, which has: count`), or `undefined` when the schema does not say it simply.
 */
export function schemaWants(schema: unknown, place: RefusedPlace): string | undefined {
  const segments = segmentsOf(place.path);
  if (segments === undefined) return undefined;
  if (place.code === 'unknown_property') {
    const parent = nodeAt(schema, segments.slice(0, -1));
    const names = isNode(parent?.properties) ? Object.keys(parent.properties) : [];
    return names.length === 0
      ? 'not in the schema'
      : `not in the schema, which has: ${listed(
          names.map((name) => bounded(name, 64)),
          8,
        )}`;
  }
  const node = nodeAt(schema, segments);
  if (node === undefined) return undefined;
  switch (place.code) {
    case 'missing_property':
    case 'invalid_type': {
      const words = typeWords(schema, node);
      return words === undefined ? undefined : `expected ${words}`;
    }
    case 'not_integer':
      return 'expected integer';
    case 'string_too_short':
    case 'string_too_long':
      return range(numberOf(node.minLength), numberOf(node.maxLength), ' characters');
    case 'number_out_of_range': {
      const above = numberOf(node.exclusiveMinimum);
      const below = numberOf(node.exclusiveMaximum);
      const low = above === undefined ? numberOf(node.minimum) : undefined;
      const high = below === undefined ? numberOf(node.maximum) : undefined;
      const bounds = [
        above === undefined ? (low === undefined ? undefined : `at least ${low}`) : `above ${above}`,
        below === undefined ? (high === undefined ? undefined : `at most ${high}`) : `below ${below}`,
      ].filter((bound) => bound !== undefined);
      return bounds.length === 0 ? undefined : bounds.join(' and ');
    }
    case 'too_few':
    case 'too_many':
      return node.type === 'object' || isNode(node.properties)
        ? range(numberOf(node.minProperties), numberOf(node.maxProperties), ' properties')
        : range(numberOf(node.minItems), numberOf(node.maxItems), ' items');
    case 'invalid_value': {
      if (node.const !== undefined || Array.isArray(node.enum)) return `expected ${typeWords(schema, node)}`;
      if (typeof node.pattern === 'string') return `matching ${bounded(node.pattern, 64)}`;
      if (typeof node.format === 'string') return `a valid ${bounded(node.format, 32)}`;
      if (typeof node.multipleOf === 'number') return `a multiple of ${node.multipleOf}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The wire sentence of one refused place (`Required: expected integer.`), from its code and what is wanted. */
export function refusedPlaceSentence(code: UIIssueCode, wants: string | undefined): string {
  if (code === 'unknown_property')
    return wants === undefined ? 'Not in the schema.' : `${wants.charAt(0).toUpperCase()}${wants.slice(1)}.`;
  const base = PLACE_SENTENCES[code] ?? 'Not allowed by the schema';
  return wants === undefined ? `${base}.` : `${base}: ${wants}.`;
}

const PLACE_SENTENCES: Partial<Record<UIIssueCode, string>> = {
  missing_property: 'Required',
  invalid_type: 'Not of the type the schema wants',
  string_too_short: 'Too short',
  string_too_long: 'Too long',
  number_out_of_range: 'Out of range',
  not_integer: 'Not an integer',
  too_few: 'Too few',
  too_many: 'Too many',
  invalid_value: 'Not a value the schema allows',
};

/**
 * The refused places of one value as one line: `count: missing_property (expected integer); total:
 * unknown_property (not in the schema, which has: count)`; `root` names the value itself (`(result)`). At most
 * `MAX_DESCRIBED_PLACES` are named; `more` more are counted (`… (and 2 more)`).
 */
export function describeRefusedPlaces(
  schema: unknown,
  places: readonly RefusedPlace[],
  root: string,
  more = 0,
): string {
  const named = places.slice(0, MAX_DESCRIBED_PLACES).map((place) => {
    const wants = schemaWants(schema, place);
    const where = place.path === '$' || place.path === '' ? root : bounded(place.path, 128);
    return `${where}: ${place.code}${wants === undefined ? '' : ` (${wants})`}`;
  });
  const rest = places.length - named.length + more;
  return `${named.join('; ')}${rest > 0 ? ` (and ${rest} more)` : ''}`;
}
