/**
 * JSON Schema documents carried as data: a capability's `input_schema` (seed 000 §5.2) and an Agent Tool's
 * input and output schemas (seed 003 §4.1). They are safe JSON of bounded size, and more: every object in a
 * schema position must use only JSON Schema keywords (2020-12, plus draft-07's `definitions`,
 * `additionalItems` and array `items`) with values of the right kind. The vocabulary is closed, so a schema
 * cannot carry a `handler`, a `script` or any other field a consumer might be tempted to run
 * (seed 003 §4.1 "不包含 handler、私有函数名或其他可执行内容"); `$ref` stays inside the document, so
 * validating never fetches a URL (seed 000 §4.1 "禁止任意公网 URL").
 *
 * This checks shape, not meaning: it does not compile the schema. The runtime's validator does, with its own
 * limits on patterns.
 */
import type { z } from 'zod';
import type { UIIssueCode } from '../../errors/issues.js';
import { checkJSONBytes, JSONObjectSchema } from '../../json/json-data.js';
import { UI_SCHEMA_LIMITS } from '../../limits/ui-limits.js';

/** The dialects a schema may declare in `$schema`: those `z.toJSONSchema` emits. */
export const JSON_SCHEMA_DIALECTS = [
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft-07/schema#',
] as const;

/** The seven JSON Schema types. */
export const JSON_SCHEMA_TYPES = [
  'null',
  'boolean',
  'object',
  'array',
  'number',
  'string',
  'integer',
] as const;

type KeywordKind =
  | 'dialect'
  | 'string'
  | 'ref'
  | 'type'
  | 'json'
  | 'json_array'
  | 'number'
  | 'positive_number'
  | 'count'
  | 'boolean'
  | 'strings'
  | 'strings_map'
  | 'schema'
  | 'schema_or_schemas'
  | 'schemas'
  | 'schema_map';

const KEYWORDS: ReadonlyMap<string, KeywordKind> = new Map<string, KeywordKind>([
  ['$schema', 'dialect'],
  ['$id', 'string'],
  ['$anchor', 'string'],
  ['$dynamicAnchor', 'string'],
  ['$comment', 'string'],
  ['$ref', 'ref'],
  ['$dynamicRef', 'ref'],
  ['title', 'string'],
  ['description', 'string'],
  ['format', 'string'],
  ['pattern', 'string'],
  ['contentEncoding', 'string'],
  ['contentMediaType', 'string'],
  ['type', 'type'],
  ['const', 'json'],
  ['default', 'json'],
  ['enum', 'json_array'],
  ['examples', 'json_array'],
  ['maximum', 'number'],
  ['minimum', 'number'],
  ['exclusiveMaximum', 'number'],
  ['exclusiveMinimum', 'number'],
  ['multipleOf', 'positive_number'],
  ['maxLength', 'count'],
  ['minLength', 'count'],
  ['maxItems', 'count'],
  ['minItems', 'count'],
  ['maxContains', 'count'],
  ['minContains', 'count'],
  ['maxProperties', 'count'],
  ['minProperties', 'count'],
  ['uniqueItems', 'boolean'],
  ['readOnly', 'boolean'],
  ['writeOnly', 'boolean'],
  ['deprecated', 'boolean'],
  ['required', 'strings'],
  ['dependentRequired', 'strings_map'],
  ['not', 'schema'],
  ['if', 'schema'],
  ['then', 'schema'],
  ['else', 'schema'],
  ['additionalProperties', 'schema'],
  ['additionalItems', 'schema'],
  ['propertyNames', 'schema'],
  ['contains', 'schema'],
  ['unevaluatedProperties', 'schema'],
  ['unevaluatedItems', 'schema'],
  ['contentSchema', 'schema'],
  ['items', 'schema_or_schemas'],
  ['allOf', 'schemas'],
  ['anyOf', 'schemas'],
  ['oneOf', 'schemas'],
  ['prefixItems', 'schemas'],
  ['properties', 'schema_map'],
  ['patternProperties', 'schema_map'],
  ['$defs', 'schema_map'],
  ['definitions', 'schema_map'],
  ['dependentSchemas', 'schema_map'],
]);

/** Every keyword a carried JSON Schema may use. */
export const JSON_SCHEMA_KEYWORDS: readonly string[] = Object.freeze([...KEYWORDS.keys()]);

type Path = (string | number)[];
type Issue = { readonly path: Path; readonly code: UIIssueCode; readonly message: string };

const { isArray } = Array;
const { keys: objectKeys } = Object;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !isArray(value);
const DIALECTS: ReadonlySet<string> = new Set(JSON_SCHEMA_DIALECTS);
const TYPES: ReadonlySet<string> = new Set(JSON_SCHEMA_TYPES);

/** Walks one schema; `issues` stops growing at the reporting limit, and the walk stops with it. */
class SchemaShapeWalker {
  readonly issues: Issue[] = [];

  get full(): boolean {
    return this.issues.length >= UI_SCHEMA_LIMITS.maxIssues;
  }

  private add(path: Path, code: UIIssueCode, message: string): void {
    if (!this.full) this.issues.push({ path, code, message });
  }

  /** A schema is an object of keywords or a boolean (2020-12 §4.3.2). Depth is bounded by the JSON budget. */
  schema(value: unknown, path: Path): void {
    if (typeof value === 'boolean') return;
    if (!isRecord(value)) {
      this.add(path, 'invalid_type', 'Expected a JSON Schema: an object or a boolean.');
      return;
    }
    for (const key of objectKeys(value)) {
      if (this.full) return;
      const kind = KEYWORDS.get(key);
      if (kind === undefined) {
        // At the object, as for any closed object: the path never repeats a key the sender made up.
        this.add(
          path,
          'unknown_property',
          'Unknown property; a schema may only use the admitted JSON Schema keywords.',
        );
        continue;
      }
      this.keyword(kind, value[key], [...path, key]);
    }
  }

  private keyword(kind: KeywordKind, value: unknown, path: Path): void {
    switch (kind) {
      case 'dialect':
        if (typeof value !== 'string' || !DIALECTS.has(value)) {
          this.add(path, 'invalid_value', `Must be one of: ${JSON_SCHEMA_DIALECTS.join(', ')}.`);
        }
        return;
      case 'string':
        if (typeof value !== 'string') this.add(path, 'invalid_type', 'Expected string.');
        return;
      case 'ref':
        if (typeof value !== 'string') this.add(path, 'invalid_type', 'Expected string.');
        else if (!value.startsWith('#')) {
          this.add(path, 'invalid_value', 'A reference must point inside this schema (start with #).');
        }
        return;
      case 'type':
        this.type(value, path);
        return;
      case 'json':
        return;
      case 'json_array':
        if (!isArray(value)) this.add(path, 'invalid_type', 'Expected array.');
        return;
      case 'number':
        if (typeof value !== 'number') this.add(path, 'invalid_type', 'Expected number.');
        return;
      case 'positive_number':
        if (typeof value !== 'number') this.add(path, 'invalid_type', 'Expected number.');
        else if (value <= 0) this.add(path, 'number_out_of_range', 'Must be greater than 0.');
        return;
      case 'count':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          this.add(path, 'invalid_value', 'Expected a non-negative integer.');
        }
        return;
      case 'boolean':
        if (typeof value !== 'boolean') this.add(path, 'invalid_type', 'Expected boolean.');
        return;
      case 'strings':
        this.strings(value, path);
        return;
      case 'strings_map':
        if (!isRecord(value)) this.add(path, 'invalid_type', 'Expected object.');
        else for (const key of objectKeys(value)) this.strings(value[key], [...path, key]);
        return;
      case 'schema':
        this.schema(value, path);
        return;
      case 'schema_or_schemas':
        if (isArray(value)) this.schemas(value, path);
        else this.schema(value, path);
        return;
      case 'schemas':
        if (!isArray(value)) this.add(path, 'invalid_type', 'Expected array.');
        else this.schemas(value, path);
        return;
      case 'schema_map':
        if (!isRecord(value)) this.add(path, 'invalid_type', 'Expected object.');
        else for (const key of objectKeys(value)) this.schema(value[key], [...path, key]);
        return;
    }
  }

  private schemas(value: readonly unknown[], path: Path): void {
    if (value.length === 0) this.add(path, 'too_few', 'At least 1 entries are required.');
    value.forEach((item, index) => {
      this.schema(item, [...path, index]);
    });
  }

  private strings(value: unknown, path: Path): void {
    if (!isArray(value)) {
      this.add(path, 'invalid_type', 'Expected array.');
      return;
    }
    const seen = new Set<string>();
    value.forEach((item, index) => {
      if (typeof item !== 'string') this.add([...path, index], 'invalid_type', 'Expected string.');
      else if (seen.has(item)) this.add([...path, index], 'duplicate_id', 'Each name may appear only once.');
      else seen.add(item);
    });
  }

  private type(value: unknown, path: Path): void {
    const message = `Must be one of: ${JSON_SCHEMA_TYPES.join(', ')}, or a list of them.`;
    if (typeof value === 'string') {
      if (!TYPES.has(value)) this.add(path, 'invalid_value', message);
      return;
    }
    if (!isArray(value) || value.length === 0) {
      this.add(path, 'invalid_value', message);
      return;
    }
    const seen = new Set<string>();
    value.forEach((item, index) => {
      if (typeof item !== 'string' || !TYPES.has(item) || seen.has(item))
        this.add([...path, index], 'invalid_value', message);
      else seen.add(item);
    });
  }
}

export interface JSONSchemaObjectOptions {
  /** UTF-8 bytes of the schema as JSON. */
  readonly maxBytes: number;
  /** Names it in messages: `An input schema`. */
  readonly what: string;
  /** Require `"type": "object"` at the root: the schema describes an arguments object. */
  readonly objectRoot?: boolean;
}

/**
 * A JSON Schema carried as data: a JSON object (no `__proto__` keys, see json/json-data.ts) of at most
 * `maxBytes`, using only the keywords of `JSON_SCHEMA_KEYWORDS` with values of the right kind.
 */
export function jsonSchemaObject(options: JSONSchemaObjectOptions) {
  return JSONObjectSchema.superRefine((value, context: z.RefinementCtx) => {
    checkJSONBytes(value, options.maxBytes, context, options.what);
    const walker = new SchemaShapeWalker();
    walker.schema(value, []);
    if (options.objectRoot && value.type !== 'object') {
      walker.issues.push({
        path: ['type'],
        code: value.type === undefined ? 'missing_property' : 'invalid_value',
        message: 'The schema of an arguments object must declare "type": "object".',
      });
    }
    for (const issue of walker.issues.slice(0, UI_SCHEMA_LIMITS.maxIssues)) {
      context.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.message,
        params: { code: issue.code },
      });
    }
  });
}
