/**
 * Checks tool arguments and results, and capability arguments and outputs, against the JSON Schemas the
 * inventory published (seed 003 §4.2 steps 2 and 8). The schemas are interpreted (`@cfworker/json-schema`): no
 * code is generated, so a host whose Content Security Policy forbids `'unsafe-eval'` validates as any other.
 *
 * Every schema is readied once (schema-check.ts): a schema the validator cannot use is refused where it enters
 * the runtime (`assertUsableSchema`: install, capability declaration, DSL binding), and — if one was stored
 * before this check existed — accepts nothing afterwards. A schema read from IndexedDB is a new object on every
 * read, so readied schemas are kept by their JSON text, a bounded number of them. No value is echoed: a failure
 * is one stable code at the caller, with at most a few located issues (`schemaIssues`) that say where and what the
 * schema wants, never what was sent.
 */
import { validate } from '@cfworker/json-schema';
import { describeRefusedPlaces, refusedPlaceSentence, schemaWants, type UIIssueCode } from '@lineup/shared';
import {
  type PreparedSchema,
  prepareSchema,
  type SchemaOwner,
  SchemaRefusal,
  SchemaUnusableError,
} from './schema-check.js';

/** Distinct schemas kept readied; the least recently used one goes first beyond this. */
const MAX_PREPARED = 512;

type Entry = PreparedSchema | SchemaRefusal;
const prepared = new Map<string, Entry>();
/** How many times a schema was readied since the module loaded (for tests: readied once, not per copy). */
let preparations = 0;

/** The readied schema for `schema`, or why it cannot be used (kept either way). */
function entryFor(schema: object | boolean): Entry {
  const key = JSON.stringify(schema);
  let entry = prepared.get(key);
  if (entry === undefined) {
    preparations++;
    try {
      entry = prepareSchema(key);
    } catch (error) {
      // Anything else the interpreter's preparation throws is a refusal too, never an accepted schema.
      entry = error instanceof SchemaRefusal ? error : new SchemaRefusal('invalid_schema', '');
    }
    if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value as string);
  } else prepared.delete(key);
  prepared.set(key, entry);
  return entry;
}

/**
 * Throws `SchemaUnusableError` (naming `owner` and the JSON pointer of the keyword at fault) when the runtime
 * cannot validate with `schema`; returns otherwise.
 */
export function assertUsableSchema(schema: object | boolean, owner?: SchemaOwner): void {
  const entry = entryFor(schema);
  if (entry instanceof SchemaRefusal) throw new SchemaUnusableError(entry.reason, entry.pointer, owner);
}

/** Whether `value` satisfies `schema`; a schema the validator cannot use accepts nothing. */
export function matchesSchema(schema: object | boolean, value: unknown): boolean {
  const entry = entryFor(schema);
  if (entry instanceof SchemaRefusal) return false;
  try {
    return validate(value, entry.schema, entry.draft, entry.lookup, true).valid;
  } catch {
    // A value that is not JSON (undefined, a function), or a stack the value's depth exhausted.
    return false;
  }
}

/** How many schemas are kept readied (for tests). */
export function preparedSchemaCount(): number {
  return prepared.size;
}

/** How many times a schema was readied since the module loaded (for tests). */
export function schemaPreparationCount(): number {
  return preparations;
}

/** A located issue of a refused value: a path under its root (`arguments.items[2].text`), a code, a sentence. */
export interface SchemaIssue {
  readonly path: string;
  readonly code: UIIssueCode;
  readonly message: string;
}

/** A key as a path segment: `.name` for an identifier, `[2]` for an index; any other key is not echoed. */
function segmentText(segment: string): string {
  if (/^(0|[1-9][0-9]{0,8})$/.test(segment)) return `[${segment}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/.test(segment) ? `.${segment}` : '[?]';
}

/** `#/items/2/text` under `root` as `root.items[2].text`. */
function pathOf(root: string, pointer: string, last?: string): string {
  const segments = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
  if (last !== undefined) segments.push(last);
  return `${root}${segments.map(segmentText).join('')}`.slice(0, 512);
}

/** The schema value at a keyword location (`#/properties/text/minLength`), if it is a number. */
function numberAt(schema: unknown, pointer: string): number | undefined {
  let node = schema;
  for (const segment of pointer.replace(/^#\/?/, '').split('/')) {
    if (segment === '') continue;
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[
      decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')
    ];
  }
  return typeof node === 'number' ? node : undefined;
}

const LIMIT_KEYWORDS: Readonly<Record<string, readonly [UIIssueCode, string]>> = {
  minLength: ['string_too_short', 'Shorter than the schema allows: at least {} characters.'],
  maxLength: ['string_too_long', 'Longer than the schema allows: at most {} characters.'],
  minimum: ['number_out_of_range', 'Below the minimum of {}.'],
  exclusiveMinimum: ['number_out_of_range', 'Not above {}.'],
  maximum: ['number_out_of_range', 'Above the maximum of {}.'],
  exclusiveMaximum: ['number_out_of_range', 'Not below {}.'],
  minItems: ['too_few', 'Fewer items than the schema allows: at least {}.'],
  maxItems: ['too_many', 'More items than the schema allows: at most {}.'],
  minProperties: ['too_few', 'Fewer properties than the schema allows: at least {}.'],
  maxProperties: ['too_many', 'More properties than the schema allows: at most {}.'],
};

/** Keywords that only say a part below them failed: the part's own error says where and what. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'contains',
  'allOf',
  '$ref',
  '$dynamicRef',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'if',
  'then',
  'else',
]);

/** `root.items[2].text` as the place under the value it names: `items[2].text` (`$` for the value itself). */
export function placeUnder(path: string, root: string): string {
  if (path === root) return '$';
  const rest = path.startsWith(root) ? path.slice(root.length) : path;
  return rest.startsWith('.') ? rest.slice(1) : rest === '' ? '$' : rest;
}

/** The issue's sentence with what the schema wants there (`Required: expected string.`). */
function sentenceAt(schema: unknown, path: string, root: string, code: UIIssueCode): string {
  return refusedPlaceSentence(code, schemaWants(schema, { path: placeUnder(path, root), code }));
}

/**
 * The issues of a refused value and the line that names them, as the SDK says it (`describeRefusedPlaces`):
 * `text: missing_property (expected string)`; `valueName` names the value itself (`(arguments)`).
 */
export function refusalOf(
  schema: object | boolean,
  value: unknown,
  root: string,
  valueName: string,
): { readonly issues: SchemaIssue[]; readonly places: string } {
  const issues = schemaIssues(schema, value, root);
  const places = describeRefusedPlaces(
    schema,
    issues.map((issue) => ({ path: placeUnder(issue.path, root), code: issue.code })),
    valueName,
  );
  return { issues, places };
}

/**
 * Where `value` fails `schema`, as at most `max` located issues under `root` — what the schema wants, never what
 * was sent (the value may be the user's data): `arguments.text` `invalid_type` "Expected string.". Empty when the
 * value is valid; one issue at `root` when the validator says no more.
 */
export function schemaIssues(schema: object | boolean, value: unknown, root: string, max = 3): SchemaIssue[] {
  const entry = entryFor(schema);
  if (entry instanceof SchemaRefusal)
    return [
      { path: root, code: 'invalid_value', message: 'The schema cannot be used, so nothing is accepted.' },
    ];
  let errors: readonly {
    instanceLocation: string;
    keyword: string;
    keywordLocation: string;
    error: string;
  }[];
  try {
    const result = validate(value, entry.schema, entry.draft, entry.lookup, false);
    if (result.valid) return [];
    errors = result.errors;
  } catch {
    return [{ path: root, code: 'invalid_type', message: 'Not a JSON value.' }];
  }
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (issues.length >= max) break;
    if (WRAPPERS.has(error.keyword)) continue;
    let issue: SchemaIssue;
    const limit = LIMIT_KEYWORDS[error.keyword];
    if (error.keyword === 'required') {
      const property = /required property "(.*)"/.exec(error.error)?.[1] ?? '';
      const path = pathOf(root, error.instanceLocation, property);
      issue = {
        path,
        code: 'missing_property',
        message: sentenceAt(schema, path, root, 'missing_property'),
      };
    } else if (error.keyword === 'type') {
      const expected = /Expected "([a-z", ]+)"/.exec(error.error)?.[1]?.replace(/"/g, '') ?? 'another type';
      issue = {
        path: pathOf(root, error.instanceLocation),
        code: 'invalid_type',
        message: `Expected ${expected}.`,
      };
    } else if (error.keyword === 'false') {
      const path = pathOf(root, error.instanceLocation);
      issue = {
        path,
        code: 'unknown_property',
        message: sentenceAt(schema, path, root, 'unknown_property'),
      };
    } else if (limit !== undefined) {
      const bound = numberAt(entry.schema, error.keywordLocation);
      issue = {
        path: pathOf(root, error.instanceLocation),
        code: limit[0],
        message: limit[1].replace('{}', bound === undefined ? 'the bound' : String(bound)),
      };
    } else
      issue = {
        path: pathOf(root, error.instanceLocation),
        code: 'invalid_value',
        message: `Does not satisfy the schema's ${error.keyword.slice(0, 32).replace(/[^A-Za-z$]/g, '')}.`,
      };
    const key = `${issue.path} ${issue.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues.length > 0
    ? issues
    : [{ path: root, code: 'invalid_value', message: 'Does not match the schema.' }];
}
