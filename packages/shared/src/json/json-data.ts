/**
 * Opaque JSON data inside protocol messages: Surface event data and state, MiniApp tool arguments, results and
 * session data, action-protocol value dictionaries and capability parameters.
 *
 * zod copies objects key by key and skips an own `__proto__` key without an issue (assigning it would replace
 * the copy's prototype). A message holding one would come out of the parser with less data than was sent — and
 * a parameter hash would bind content the sender never saw. So these schemas reject every own `__proto__` key,
 * at any depth, before the copy is made (seed 002 §11 "不支持 … __proto__"; DESIGN.md "nothing is silently
 * truncated").
 */
import { z } from 'zod';
import type { UIIssueCode } from '../errors/issues.js';
import { protoKeyPaths } from './proto-keys.js';
import { jsonByteLength } from './safe-json.js';

const { keys: objectKeys } = Object;
const { isArray } = Array;

const MISSING_MESSAGE = 'This property is required.';
const issueParams = (code: UIIssueCode) => ({ code });

/** Reports a missing value and every own `__proto__` key of `input`; true when it found nothing. */
function checkInput(input: unknown, context: z.RefinementCtx): boolean {
  // zod reports an absent JSON value as "matches none of the JSON shapes"; say what is wrong instead.
  if (input === undefined) {
    context.addIssue({ code: 'custom', message: MISSING_MESSAGE, params: issueParams('missing_property') });
    return false;
  }
  const paths = protoKeyPaths(input);
  for (const path of paths) {
    context.addIssue({
      code: 'custom',
      path,
      message: 'The key __proto__ is not allowed in protocol data.',
      params: issueParams('invalid_identifier'),
    });
  }
  return paths.length === 0;
}

/** `schema`, preceded by a check that rejects every own `__proto__` key of the input (see the file comment). */
export function withoutProtoKeys<T extends z.ZodType>(schema: T) {
  return z.preprocess((input, context) => {
    checkInput(input, context);
    return input;
  }, schema);
}

export interface DictionaryOptions {
  /** Most keys. */
  readonly maxEntries: number;
  /** Most UTF-8 bytes of the whole dictionary as JSON, if it has its own bound. */
  readonly maxBytes?: number;
  /** Names the dictionary in a size message (`Session data`). */
  readonly what: string;
}

/**
 * A dictionary whose keys match `key` and whose values match `value`, bounded in entries (and bytes). Its
 * keys are checked before zod sees them, so a bad key is reported at the dictionary — never with its name in
 * the path (PATHS.md: "for a dictionary key, the dictionary"; messages never echo hostile input) — and an
 * oversized dictionary is refused before any value is parsed.
 */
export function boundedDictionary<V extends z.ZodType>(
  key: z.ZodType<string>,
  value: V,
  { maxEntries, maxBytes, what }: DictionaryOptions,
) {
  const dictionary = z.preprocess(
    (input, context) => {
      if (!checkInput(input, context) || typeof input !== 'object' || input === null || isArray(input))
        return input;
      const names = objectKeys(input);
      if (names.length > maxEntries) {
        context.addIssue({
          code: 'custom',
          message: `At most ${maxEntries} entries are allowed.`,
          params: issueParams('too_many'),
        });
      } else if (!names.every((name) => key.safeParse(name).success)) {
        context.addIssue({
          code: 'custom',
          message: 'A key of this object is not allowed.',
          params: issueParams('invalid_identifier'),
        });
      }
      return input;
    },
    z.record(key, value),
  );
  return maxBytes === undefined
    ? dictionary
    : dictionary.superRefine((entries, context) => checkJSONBytes(entries, maxBytes, context, what));
}

/** Adds a `too_large` issue when the JSON value (already parsed, so plain data) exceeds `maxBytes`. */
export function checkJSONBytes(
  value: unknown,
  maxBytes: number,
  context: z.RefinementCtx,
  what: string,
): void {
  if (jsonByteLength(value) > maxBytes) {
    context.addIssue({
      code: 'custom',
      message: `${what} may be at most ${maxBytes} bytes as UTF-8 JSON.`,
      params: issueParams('too_large'),
    });
  }
}

/**
 * What a precompiled parser (`protocol/precompiled.ts`) needs to know about the JSON data schemas below to copy
 * their values itself: any JSON value or only an object, and the byte bound. Keyed by zod definition, which a
 * `.meta()` or `.describe()` clone shares and anything that changes the schema's behaviour replaces.
 */
export interface JSONDataKind {
  readonly object: boolean;
  readonly maxBytes: number | undefined;
}

const JSON_DATA_KINDS = new WeakMap<object, JSONDataKind>();

function registered<T extends z.ZodType>(schema: T, object: boolean, maxBytes?: number): T {
  JSON_DATA_KINDS.set(schema._zod.def, Object.freeze({ object, maxBytes }));
  return schema;
}

/** The kind of `schema` when it is one of this module's JSON data schemas, exactly as made here. */
export function jsonDataKindOf(schema: z.core.$ZodType): JSONDataKind | undefined {
  return JSON_DATA_KINDS.get(schema._zod.def);
}

/** Any JSON value, without `__proto__` keys. Its size is bounded by the message that carries it. */
export const JSONValueSchema = registered(withoutProtoKeys(z.json()), false);
export type JSONValue = z.infer<typeof JSONValueSchema>;

/** A JSON object (not an array, not null), without `__proto__` keys. */
export const JSONObjectSchema = registered(withoutProtoKeys(z.record(z.string(), z.json())), true);
export type JSONObject = z.infer<typeof JSONObjectSchema>;

/** A JSON object of at most `maxBytes` UTF-8 bytes; `what` names it in the error message. */
export function boundedJSONObject(maxBytes: number, what: string) {
  return registered(
    JSONObjectSchema.superRefine((value, context) => checkJSONBytes(value, maxBytes, context, what)),
    true,
    maxBytes,
  );
}

/** A JSON value of at most `maxBytes` UTF-8 bytes; `what` names it in the error message. */
export function boundedJSONValue(maxBytes: number, what: string) {
  return registered(
    JSONValueSchema.superRefine((value, context) => checkJSONBytes(value, maxBytes, context, what)),
    false,
    maxBytes,
  );
}
