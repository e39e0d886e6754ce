/**
 * Precompiled parsers: the success path of "safe JSON within a budget, then strict zod, then deep freeze" (the
 * steps of `parseShape`, which `parseEnvelope` takes) in one walk, for the schemas made only of the plain parts
 * this module can read — closed objects, bounded and patterned strings, numbers, booleans, literals, enums,
 * pipes of those, optional fields, and the JSON data schemas of `json/json-data.ts`. Profiling a client
 * sending `ui.event`s showed those steps costing more than the socket: four walks of the input (the budget, the
 * `__proto__` keys, zod, the byte bound of the data) and one of the copy (the freeze).
 *
 * A precompiled parser never reports anything. It returns the deep-frozen value the full path would return, or
 * `undefined` whenever it cannot vouch for that — any doubt at all: a rule broken, a budget approached, a
 * shared reference, an unusual prototype, a thrown Proxy trap — and the caller then takes the full path, which
 * decides, and words the issues, exactly as before. So it only has to be right about what it accepts:
 *
 * - everything it accepts passes `measureSafeJSON` within the budget (it reads only own data properties of
 *   plain objects and arrays, counts values and an upper bound of the bytes, and bounds the depth);
 * - everything it accepts passes the zod schema, and its result equals zod's (same keys in the same order,
 *   same values, fresh objects and arrays), deep-frozen.
 *
 * `precompile` reads the zod definitions once and returns `undefined` for a schema with any part it does not
 * know (a refinement, a transform, a format, a default, an array, a union …), so a schema that changes either
 * stays precompiled with its new rules or falls back to zod as a whole; it never goes stale. What it knows of
 * each part is zod's own behaviour (zod 4.6: lengths in code points, `key in input`, `for … in` for unknown
 * keys, one shared copy of a repeated container); `precompiled.test.ts` holds it to the full path.
 */
import type { z } from 'zod';
import { jsonDataKindOf } from '../json/json-data.js';
import type { SafeJSONBudget } from '../json/safe-json.js';
import { jsonPrimitiveBytesBound, utf8ByteLength } from '../json/safe-json-bytes.js';
import {
  copySafeJSONMeasured,
  NOT_SAFE_JSON,
  plainObjectKeys,
  type SafeJSONCopyState,
  safeJSONCopyState,
} from '../json/safe-json-copy.js';

/**
 * Returns the parsed, deep-frozen value, or `undefined` to send the input to the full parser. `owned`: the input
 * is the caller's own result of `JSON.parse`, which nobody else holds — its JSON data (a document, arguments,
 * state) is then frozen where it is and becomes part of the result instead of being copied
 * (`adoptParsedJSON`); the result is equal either way.
 */
export type PrecompiledParser<T> = (input: unknown, owned?: boolean) => T | undefined;

const OBJECT = Object;
const OBJECT_PROTOTYPE: object = Object.prototype;
const { freeze, getOwnPropertyDescriptor, getOwnPropertySymbols, hasOwn, keys: objectKeys } = Object;

/** The parts of zod's internals this module reads (`schema._zod`); anything else makes a schema unsupported. */
interface SchemaInternals {
  readonly def: SchemaDef;
  readonly traits: ReadonlySet<string>;
  readonly values?: ReadonlySet<unknown>;
}
interface SchemaDef {
  readonly type: string;
  readonly checks?: readonly {
    readonly _zod: { readonly def: CheckDef; readonly traits: ReadonlySet<string> };
  }[];
  readonly coerce?: boolean;
  readonly format?: string;
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly catchall?: z.core.$ZodType;
  readonly innerType?: z.core.$ZodType;
  readonly in?: z.core.$ZodType;
  readonly out?: z.core.$ZodType;
}
interface CheckDef {
  readonly check: string;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly format?: string;
  readonly pattern?: unknown;
}

const internals = (schema: z.core.$ZodType): SchemaInternals => schema._zod as unknown as SchemaInternals;

/** A primitive test: the value is accepted as it is (zod returns it unchanged). */
type Leaf = (value: unknown) => boolean;
/** A container read: the copy, or `NOT_SAFE_JSON`. `depth` containers enclose `value`. */
type Reader = (value: unknown, state: SafeJSONCopyState, depth: number) => unknown;

interface Field {
  readonly key: string;
  /** The key's bytes in JSON text, with its colon. */
  readonly keyBytes: number;
  /** Absent is allowed (`optional` / `exactOptional`: nothing in the output either). */
  readonly optional: boolean;
  readonly leaf: Leaf | undefined;
  readonly read: Reader | undefined;
}

type Compiled = { readonly leaf: Leaf } | { readonly read: Reader };

/** The longest text a string test remembers as the last one it accepted. */
const REMEMBERED_LENGTH = 256;

/** Unicode code points of `text`: zod measures string lengths in code points. */
function codePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit < 0xdc00) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        count--;
        index++;
      }
    }
  }
  return count;
}

/** The checks of a `z.string()`: lengths (in code points, as zod counts) and regular expressions. */
function stringLeaf(checks: SchemaDef['checks']): Leaf | undefined {
  let minimum = 0;
  let maximum = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  for (const check of checks ?? []) {
    const { def, traits } = check._zod;
    if (def.check === 'min_length' && traits.has('$ZodCheckMinLength') && typeof def.minimum === 'number')
      minimum = Math.max(minimum, def.minimum);
    else if (
      def.check === 'max_length' &&
      traits.has('$ZodCheckMaxLength') &&
      typeof def.maximum === 'number'
    )
      maximum = Math.min(maximum, def.maximum);
    else if (
      def.check === 'string_format' &&
      def.format === 'regex' &&
      traits.has('$ZodCheckRegex') &&
      def.pattern instanceof RegExp
    )
      patterns.push(def.pattern);
    else return undefined;
  }
  // The test depends on the text alone, and the same short texts recur message after message (a conversation
  // id, a sender, a type): the last one accepted is remembered.
  let accepted: string | undefined;
  return (value) => {
    if (typeof value !== 'string') return false;
    if (value === accepted) return true;
    const units = value.length;
    // A code point is one or two units: only a length between the bounds in units and in points is counted.
    if (units < minimum || (units < minimum * 2 && codePoints(value) < minimum)) return false;
    if (units > maximum && codePoints(value) > maximum) return false;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return false;
    }
    if (units <= REMEMBERED_LENGTH) accepted = value;
    return true;
  };
}

function compileLeaf(schema: z.core.$ZodType): Leaf | undefined {
  const { def, traits, values } = internals(schema);
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string':
      // A format (`z.iso.datetime()`, `z.email()` …) is a check of its own: not a plain string.
      if (def.coerce === true || def.format !== undefined || traits.has('$ZodCheck')) return undefined;
      return stringLeaf(checks);
    case 'number':
      if (def.coerce === true || def.format !== undefined || traits.has('$ZodCheck') || checks.length > 0)
        return undefined;
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      if (def.coerce === true || checks.length > 0) return undefined;
      return (value) => typeof value === 'boolean';
    case 'literal':
    case 'enum': {
      if (checks.length > 0 || values === undefined) return undefined;
      return (value) => values.has(value);
    }
    case 'pipe': {
      // Two primitive tests in a row (`z.number().pipe(z.literal(1))`): neither changes the value.
      if (checks.length > 0 || def.in === undefined || def.out === undefined) return undefined;
      const first = compileLeaf(def.in);
      const second = compileLeaf(def.out);
      if (first === undefined || second === undefined) return undefined;
      return (value) => first(value) && second(value);
    }
    default:
      return undefined;
  }
}

/** A JSON data schema of `json/json-data.ts`: copied by `copySafeJSON`, its byte bound checked exactly. */
function jsonReader(schema: z.core.$ZodType): Reader | undefined {
  const kind = jsonDataKindOf(schema);
  if (kind === undefined) return undefined;
  const { object, maxBytes } = kind;
  return (value, state, depth) => {
    if (object && (typeof value !== 'object' || value === null || Array.isArray(value))) return NOT_SAFE_JSON;
    const before = state.bytes;
    // Measured: a document among them is then neither walked nor copied again by `parseDocument`.
    const copy = copySafeJSONMeasured(value, state, depth);
    if (copy === NOT_SAFE_JSON || (maxBytes !== undefined && state.bytes - before > maxBytes))
      return NOT_SAFE_JSON;
    return copy;
  };
}

/** A closed object (`z.strictObject`): its fields in shape order, as zod builds its output. */
function objectReader(schema: z.core.$ZodType): Reader | undefined {
  const { def } = internals(schema);
  const catchall = def.catchall === undefined ? undefined : internals(def.catchall).def;
  if ((def.checks ?? []).length > 0 || catchall?.type !== 'never' || catchall.checks?.length)
    return undefined;
  const shape = def.shape;
  if (shape === undefined || getOwnPropertySymbols(shape).length > 0) return undefined;
  const fields: Field[] = [];
  for (const key of objectKeys(shape)) {
    if (key === '__proto__') return undefined;
    let field = shape[key] as z.core.$ZodType;
    const fieldInternals = internals(field);
    const optional = fieldInternals.def.type === 'optional';
    if (optional) {
      // `.optional()` and `.exactOptional()` agree on JSON data: absent stays absent, present is parsed.
      const { traits } = fieldInternals;
      if (
        !(traits.has('$ZodOptional') || traits.has('$ZodExactOptional')) ||
        (fieldInternals.def.checks ?? []).length > 0 ||
        fieldInternals.def.innerType === undefined
      )
        return undefined;
      field = fieldInternals.def.innerType;
    }
    const compiled = compile(field);
    if (compiled === undefined) return undefined;
    fields.push({
      key,
      keyBytes: utf8ByteLength(JSON.stringify(key)) + 1,
      optional,
      leaf: 'leaf' in compiled ? compiled.leaf : undefined,
      read: 'read' in compiled ? compiled.read : undefined,
    });
  }
  return (value, state, depth) => {
    if (typeof value !== 'object' || value === null || depth >= state.budget.maxDepth) return NOT_SAFE_JSON;
    const keys = plainObjectKeys(value);
    if (keys === NOT_SAFE_JSON) return NOT_SAFE_JSON;
    const output: Record<string, unknown> = {};
    let found = 0;
    for (const field of fields) {
      const { key } = field;
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) {
        // zod asks `key in value`: an inherited property would be read.
        if (!field.optional || key in value) return NOT_SAFE_JSON;
        continue;
      }
      if (!hasOwn(descriptor, 'value')) return NOT_SAFE_JSON;
      const item: unknown = descriptor.value;
      let parsed: unknown;
      if (field.leaf !== undefined) {
        const bytes = jsonPrimitiveBytesBound(item);
        if (bytes < 0 || !field.leaf(item)) return NOT_SAFE_JSON;
        state.values++;
        state.bytes += bytes;
        parsed = item;
      } else {
        parsed = (field.read as Reader)(item, state, depth + 1);
        if (parsed === NOT_SAFE_JSON) return NOT_SAFE_JSON;
      }
      output[key] = parsed;
      state.bytes += field.keyBytes;
      found++;
    }
    // Every own key is enumerable (plainObjectKeys), so any key outside the shape makes the counts differ.
    if (found !== keys.length) return NOT_SAFE_JSON;
    state.values++;
    state.bytes += found === 0 ? 2 : found + 1;
    return freeze(output);
  };
}

function compile(schema: z.core.$ZodType): Compiled | undefined {
  const json = jsonReader(schema);
  if (json !== undefined) return { read: json };
  if (internals(schema).def.type === 'object') {
    const read = objectReader(schema);
    return read === undefined ? undefined : { read };
  }
  const leaf = compileLeaf(schema);
  return leaf === undefined ? undefined : { leaf };
}

/**
 * zod's strict objects list unknown keys with `for … in`, which also walks enumerable properties inherited from
 * `Object.prototype`, and its records ask `Object.prototype.constructor` whether an object is plain. A precompiled
 * parser reads own properties only, so it steps aside unless `Object.prototype` is as the language made it there.
 */
function pristineObjectPrototype(): boolean {
  for (const _key in OBJECT_PROTOTYPE) return false;
  return OBJECT_PROTOTYPE.constructor === OBJECT && hasOwn(OBJECT_PROTOTYPE, 'isPrototypeOf');
}

/**
 * The precompiled parser of `schema` (a closed object) for inputs within `budget`, or `undefined` when the
 * schema has a part this module does not read. See the file comment for what it promises.
 */
export function precompile<T>(
  schema: z.ZodType<T>,
  budget: SafeJSONBudget,
): PrecompiledParser<T> | undefined {
  const read = internals(schema).def.type === 'object' ? objectReader(schema) : undefined;
  if (read === undefined) return undefined;
  return (input, owned = false) => {
    if (typeof input !== 'object' || input === null) return undefined;
    try {
      if (!pristineObjectPrototype()) return undefined;
      const state = safeJSONCopyState(budget);
      state.owned = owned;
      const output = read(input, state, 0);
      if (output === NOT_SAFE_JSON || state.values > budget.maxValues || state.bytes > budget.maxBytes)
        return undefined;
      return output as T;
    } catch {
      // Only a Proxy trap can throw here; the full parser reports it.
      return undefined;
    }
  };
}
