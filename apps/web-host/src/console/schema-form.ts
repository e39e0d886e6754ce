/**
 * The agent console's argument form, generated from an Agent Tool's published `input_schema` (JSON Schema
 * 2020-12, seed 003 §4.1). Pure functions, so the view only renders:
 *
 * - `buildFormModel` reads the schema once: one field per property of the root object, of kind `string`
 *   (`enum`/`const` → a choice; `minLength`, `maxLength`, `pattern`), `integer` / `number` (`minimum`,
 *   `maximum`, the exclusive bounds, `multipleOf`, `enum`) or `boolean`, with `required`. A property the
 *   generator cannot render (a nested object or array, a union type, `oneOf`, `$ref`, …) is a `json` field,
 *   edited as JSON text; a root it cannot render (no properties, a composition) makes the whole arguments
 *   object JSON text.
 * - `argumentsFromForm` and `argumentsFromJSONText` turn what the user typed into the `arguments` object, or
 *   refuse it with located issues (codes, so the view says them in the user's language).
 *
 * The checks cover what the form shows; the runtime still validates the call against the whole schema and
 * answers `invalid_arguments` for anything this missed (seed 003 §4.2 step 2).
 */
import { type JSONObject, type JSONValue, MINIAPP_CHANNEL_LIMITS } from '@lineup/shared/bridge';

/** Why a field, or the whole arguments object, is edited as JSON text. */
export type JSONFallbackReason =
  /** The root is not an object schema. */
  | 'not_an_object'
  /** `oneOf`, `anyOf`, `allOf`, `not`, `if`, `$ref` and the like. */
  | 'composed'
  /** The root declares no properties, so any key may be given. */
  | 'open_object'
  /** A property that is itself an object or an array. */
  | 'nested'
  /** A property of several types (`["string", "null"]`). */
  | 'union_type'
  /** A property without a `type`. */
  | 'untyped'
  /** A keyword the form would not enforce. */
  | 'unsupported_keyword';

interface FieldBase {
  /** The property name: the key in `arguments`. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface StringField extends FieldBase {
  readonly kind: 'string';
  /** `enum` / `const`: the user picks one. */
  readonly options?: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly default?: string;
}

export interface NumberField extends FieldBase {
  readonly kind: 'integer' | 'number';
  readonly options?: readonly number[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly default?: number;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
  readonly default?: boolean;
}

export interface JSONField extends FieldBase {
  readonly kind: 'json';
  readonly reason: JSONFallbackReason;
  /** The JSON types the schema names, when it names any (checked before sending). */
  readonly types?: readonly string[];
  readonly default?: JSONValue;
}

export type FieldModel = StringField | NumberField | BooleanField | JSONField;

export interface FormModel {
  readonly fields: readonly FieldModel[];
  /** `additionalProperties: false`: keys other than the fields' are refused. */
  readonly closed: boolean;
  /** Set when the generator cannot render the object: the whole arguments object is JSON text. */
  readonly wholeJSON: JSONFallbackReason | null;
}

/** What the user typed, by property name: text for every kind (`'true'` / `'false'` for a boolean). */
export type FormValues = Readonly<Record<string, string>>;

export type ArgumentIssueCode =
  | 'required'
  | 'not_a_number'
  | 'not_an_integer'
  | 'below_minimum'
  | 'above_maximum'
  | 'not_above'
  | 'not_below'
  | 'not_a_multiple'
  | 'too_short'
  | 'too_long'
  | 'pattern_mismatch'
  | 'not_an_option'
  | 'wrong_type'
  | 'invalid_json'
  | 'not_an_object'
  | 'unknown_property'
  | 'too_large';

/** One refusal: the field (`null` for the whole object), why, and the limit it broke when there is one. */
export interface ArgumentIssue {
  readonly field: string | null;
  readonly code: ArgumentIssueCode;
  readonly limit?: number | string;
}

export type ArgumentsOutcome =
  | { readonly ok: true; readonly arguments: JSONObject }
  | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

/** The arguments of one call are at most this many UTF-8 bytes (the tool.call payload's own bound). */
export const MAX_ARGUMENT_BYTES = MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes;

/** A property name shown in an issue about a key the user typed is cut to this many characters. */
const MAX_SHOWN_KEY_LENGTH = 40;

type Schema = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Words of a schema that only describe it: never a reason to fall back. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** What the root object may say and still be a form. `$defs` is only read through a property's `$ref`. */
const ROOT_KEYWORDS = new Set([
  ...ANNOTATIONS,
  'type',
  'properties',
  'required',
  'additionalProperties',
  '$defs',
  'definitions',
]);

/** What a property of each kind may say and still be a field (`format` is a hint, not checked). */
const FIELD_KEYWORDS: Readonly<Record<'string' | 'integer' | 'number' | 'boolean', ReadonlySet<string>>> = {
  string: new Set([...ANNOTATIONS, 'type', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format']),
  integer: new Set([
    ...ANNOTATIONS,
    'type',
    'enum',
    'const',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
  ]),
  number: new Set([
    ...ANNOTATIONS,
    'type',
    'enum',
    'const',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
  ]),
  boolean: new Set([...ANNOTATIONS, 'type', 'enum', 'const']),
};

const COMPOSITION_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
];

/** The one type a schema names (`"string"` or `["string"]`), `'union'` for several, `null` for none. */
function singleType(schema: Schema): string | 'union' | null {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    if (type.length === 1 && typeof type[0] === 'string') return type[0];
    return type.length === 0 ? null : 'union';
  }
  return null;
}

function declaredTypes(schema: Schema): readonly string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((item) => typeof item === 'string')) return type as string[];
  return undefined;
}

/** `enum` (or `const`) when every member is of the field's kind; `false` when one is not. */
function optionsOf<T>(
  schema: Schema,
  accept: (value: unknown) => value is T,
): readonly T[] | false | undefined {
  const members = Object.hasOwn(schema, 'const') ? [schema.const] : schema.enum;
  if (members === undefined) return undefined;
  if (!Array.isArray(members) || members.length === 0 || !members.every(accept)) return false;
  return members;
}

function jsonField(base: FieldBase, schema: Schema, reason: JSONFallbackReason): JSONField {
  const types = declaredTypes(schema);
  return {
    ...base,
    kind: 'json',
    reason,
    ...(types === undefined ? {} : { types }),
    ...(schema.default === undefined ? {} : { default: schema.default as JSONValue }),
  };
}

function fieldOf(name: string, schema: unknown, required: boolean): FieldModel {
  const base: FieldBase = { name, required };
  if (!isRecord(schema)) return { ...base, kind: 'json', reason: 'untyped' };
  const described: FieldBase = {
    ...base,
    ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  };
  if (COMPOSITION_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword)))
    return jsonField(described, schema, 'composed');
  const type = singleType(schema);
  if (type === null) return jsonField(described, schema, 'untyped');
  if (type === 'union') return jsonField(described, schema, 'union_type');
  if (type === 'object' || type === 'array') return jsonField(described, schema, 'nested');
  if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean')
    return jsonField(described, schema, 'unsupported_keyword');
  const allowed = FIELD_KEYWORDS[type];
  if (Object.keys(schema).some((keyword) => !allowed.has(keyword)))
    return jsonField(described, schema, 'unsupported_keyword');

  if (type === 'string') {
    const options = optionsOf(schema, (value): value is string => typeof value === 'string');
    const { minLength, maxLength, pattern } = schema;
    if (
      options === false ||
      (minLength !== undefined && !isCount(minLength)) ||
      (maxLength !== undefined && !isCount(maxLength)) ||
      (pattern !== undefined && !compiles(pattern))
    )
      return jsonField(described, schema, 'unsupported_keyword');
    return {
      ...described,
      kind: 'string',
      ...(options === undefined ? {} : { options }),
      ...(minLength === undefined ? {} : { minLength: minLength as number }),
      ...(maxLength === undefined ? {} : { maxLength: maxLength as number }),
      ...(pattern === undefined ? {} : { pattern: pattern as string }),
      ...(typeof schema.default === 'string' ? { default: schema.default } : {}),
    };
  }
  if (type === 'boolean') {
    const options = optionsOf(schema, (value): value is boolean => typeof value === 'boolean');
    // A boolean that must be one value is not a choice the form can offer as a checkbox: keep it honest.
    if (options !== undefined) return jsonField(described, schema, 'unsupported_keyword');
    return {
      ...described,
      kind: 'boolean',
      ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}),
    };
  }
  const options = optionsOf(schema, isFiniteNumber);
  const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
  if (
    options === false ||
    bounds.some((keyword) => schema[keyword] !== undefined && !isFiniteNumber(schema[keyword])) ||
    (schema.multipleOf !== undefined && (schema.multipleOf as number) <= 0)
  )
    return jsonField(described, schema, 'unsupported_keyword');
  const field: { -readonly [K in keyof NumberField]: NumberField[K] } = { ...described, kind: type };
  if (options !== undefined) field.options = options;
  for (const keyword of bounds) if (schema[keyword] !== undefined) field[keyword] = schema[keyword] as number;
  if (isFiniteNumber(schema.default)) field.default = schema.default;
  return field;
}

function compiles(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The form of an input schema: its fields in declaration order, or `wholeJSON` with the reason the object
 * cannot be a form. Never throws; a schema it does not understand is JSON text, never a guess.
 */
export function buildFormModel(schema: unknown): FormModel {
  const whole = (reason: JSONFallbackReason): FormModel => ({ fields: [], closed: false, wholeJSON: reason });
  if (!isRecord(schema)) return whole('not_an_object');
  if (COMPOSITION_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword))) return whole('composed');
  const type = singleType(schema);
  if (type !== 'object' && !(type === null && isRecord(schema.properties))) return whole('not_an_object');
  if (Object.keys(schema).some((keyword) => !ROOT_KEYWORDS.has(keyword))) return whole('unsupported_keyword');
  const { properties, additionalProperties } = schema;
  if (properties !== undefined && !isRecord(properties)) return whole('unsupported_keyword');
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [],
  );
  const names = Object.keys(properties ?? {});
  const closed = additionalProperties === false;
  // With no declared property and any key allowed, only JSON text can say what to send.
  if (names.length === 0 && !closed) return whole('open_object');
  // A required key that has no property schema could not be typed in a field.
  if ([...required].some((name) => !names.includes(name))) return whole('unsupported_keyword');
  return {
    fields: names.map((name) => fieldOf(name, (properties as Schema)[name], required.has(name))),
    closed,
    wholeJSON: null,
  };
}

/** The text each field starts with: its schema `default`, or nothing. */
export function initialFormValues(model: FormModel): FormValues {
  const values: Record<string, string> = {};
  for (const field of model.fields) {
    values[field.name] =
      field.default === undefined
        ? ''
        : field.kind === 'json'
          ? JSON.stringify(field.default)
          : String(field.default);
  }
  return values;
}

/** JSON's number grammar: no hex, no `Infinity`, no stray spaces or signs. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The value a field's text stands for; `undefined` when empty (not given). */
function parseField(field: FieldModel, raw: string): { value?: JSONValue; issue?: ArgumentIssue } {
  const issue = (code: ArgumentIssueCode): { issue: ArgumentIssue } => ({
    issue: { field: field.name, code },
  });
  switch (field.kind) {
    case 'string':
      return raw === '' ? {} : { value: raw };
    case 'boolean':
      if (raw === '') return {};
      if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
      return issue('wrong_type');
    case 'integer':
    case 'number': {
      const trimmed = raw.trim();
      if (trimmed === '') return {};
      if (!NUMBER_TEXT.test(trimmed)) return issue('not_a_number');
      const value = Number(trimmed);
      if (!Number.isFinite(value)) return issue('not_a_number');
      return { value };
    }
    case 'json': {
      const trimmed = raw.trim();
      if (trimmed === '') return {};
      try {
        return { value: JSON.parse(trimmed) as JSONValue };
      } catch {
        return issue('invalid_json');
      }
    }
  }
}

const jsonTypeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** The first rule of `field` that `value` breaks, or null. */
function checkValue(field: FieldModel, value: unknown): ArgumentIssue | null {
  const issue = (code: ArgumentIssueCode, limit?: number | string): ArgumentIssue => ({
    field: field.name,
    code,
    ...(limit === undefined ? {} : { limit }),
  });
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return issue('wrong_type', 'string');
      if (field.options !== undefined && !field.options.includes(value)) return issue('not_an_option');
      // JSON Schema counts characters as code points, so an emoji is one.
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength)
        return issue('too_short', field.minLength);
      if (field.maxLength !== undefined && length > field.maxLength)
        return issue('too_long', field.maxLength);
      if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(value))
        return issue('pattern_mismatch', field.pattern);
      return null;
    }
    case 'integer':
    case 'number': {
      if (!isFiniteNumber(value)) return issue('wrong_type', field.kind);
      if (field.kind === 'integer' && !Number.isSafeInteger(value)) return issue('not_an_integer');
      if (field.options !== undefined && !field.options.includes(value)) return issue('not_an_option');
      if (field.minimum !== undefined && value < field.minimum) return issue('below_minimum', field.minimum);
      if (field.maximum !== undefined && value > field.maximum) return issue('above_maximum', field.maximum);
      if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum)
        return issue('not_above', field.exclusiveMinimum);
      if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum)
        return issue('not_below', field.exclusiveMaximum);
      if (field.multipleOf !== undefined) {
        const quotient = value / field.multipleOf;
        // Decimal steps (0.1) are not exact in binary: a quotient within a hair of an integer passes.
        if (Math.abs(quotient - Math.round(quotient)) > 1e-9)
          return issue('not_a_multiple', field.multipleOf);
      }
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : issue('wrong_type', 'boolean');
    case 'json': {
      if (field.types === undefined) return null;
      const actual = jsonTypeOf(value);
      const fits = field.types.some(
        (type) =>
          type === actual ||
          (type === 'integer' && Number.isInteger(value)) ||
          (type === 'number' && actual === 'number'),
      );
      return fits ? null : issue('wrong_type', field.types.join(' | '));
    }
  }
}

/** Every rule of the model over an arguments object: required keys, each field's value, unknown keys, size. */
function checkArguments(model: FormModel, input: JSONObject): ArgumentsOutcome {
  const issues: ArgumentIssue[] = [];
  for (const field of model.fields) {
    if (!Object.hasOwn(input, field.name)) {
      if (field.required) issues.push({ field: field.name, code: 'required' });
      continue;
    }
    const issue = checkValue(field, input[field.name]);
    if (issue !== null) issues.push(issue);
  }
  if (model.closed) {
    const known = new Set(model.fields.map((field) => field.name));
    for (const key of Object.keys(input))
      if (!known.has(key))
        issues.push({ field: key.slice(0, MAX_SHOWN_KEY_LENGTH), code: 'unknown_property' });
  }
  if (issues.length > 0) return { ok: false, issues };
  if (new TextEncoder().encode(JSON.stringify(input)).length > MAX_ARGUMENT_BYTES)
    return { ok: false, issues: [{ field: null, code: 'too_large', limit: MAX_ARGUMENT_BYTES }] };
  return { ok: true, arguments: input };
}

/**
 * The arguments of a filled form: each field's text read as its kind (empty means not given), then every
 * rule of the model. Refuses with one issue per field that is wrong, in field order.
 */
export function argumentsFromForm(model: FormModel, values: FormValues): ArgumentsOutcome {
  if (model.wholeJSON !== null) return { ok: false, issues: [{ field: null, code: 'invalid_json' }] };
  const issues: ArgumentIssue[] = [];
  const input: Record<string, JSONValue> = {};
  for (const field of model.fields) {
    const parsed = parseField(field, values[field.name] ?? '');
    if (parsed.issue !== undefined) issues.push(parsed.issue);
    else if (parsed.value !== undefined) input[field.name] = parsed.value;
  }
  const checked = checkArguments(model, input);
  if (issues.length === 0) return checked;
  // A field whose text did not parse is reported once, for its text.
  const unparsed = new Set(issues.map((issue) => issue.field));
  const rest = checked.ok ? [] : checked.issues.filter((issue) => !unparsed.has(issue.field));
  return { ok: false, issues: [...issues, ...rest] };
}

/** The arguments typed as one JSON object (the whole-object editor), under the same rules as the form. */
export function argumentsFromJSONText(model: FormModel, text: string): ArgumentsOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, issues: [{ field: null, code: 'invalid_json' }] };
  }
  if (!isRecord(value)) return { ok: false, issues: [{ field: null, code: 'not_an_object' }] };
  return checkArguments(model, value as JSONObject);
}

/** The arguments a filled form stands for, as JSON text for the whole-object editor (what parses, only). */
export function formValuesAsJSONText(model: FormModel, values: FormValues): string {
  const input: Record<string, JSONValue> = {};
  for (const field of model.fields) {
    const parsed = parseField(field, values[field.name] ?? '');
    if (parsed.value !== undefined) input[field.name] = parsed.value;
  }
  return JSON.stringify(input, null, 2);
}
