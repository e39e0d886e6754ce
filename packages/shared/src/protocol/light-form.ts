/**
 * The light form of a message its precompiled parser declined (`parseEnvelope`'s full path): the same envelope with
 * every top-level payload field that is opaque JSON data — a document, a stream frame, Surface state, call
 * arguments — and that zod would accept, replaced by the smallest value zod accepts there (`{}`, `null`). zod then
 * reports exactly the issues it would report for the message as sent, without walking a quarter of a megabyte of
 * document it had nothing to say about: refusing a message costs no more than taking one of the same size (the
 * refusal benchmark). A field zod would not accept stays as it is, so its own issues are reported.
 *
 * "zod would accept" is what the JSON data schemas of `json/json-data.ts` check, once the whole envelope passed
 * `measureSafeJSON`: the value is there, has no own `__proto__` key, is a plain object where an object is required,
 * and is within its byte bound.
 */
import type { z } from 'zod';
import { jsonDataKindOf } from '../json/json-data.js';
import { protoKeyPaths } from '../json/proto-keys.js';
import { jsonByteLength } from '../json/safe-json.js';

const { getPrototypeOf, hasOwn, keys: objectKeys } = Object;

interface ObjectInternals {
  readonly def: { readonly type: string; readonly shape?: Readonly<Record<string, z.core.$ZodType>> };
}
interface WrapperInternals {
  readonly def: { readonly type: string; readonly innerType?: z.core.$ZodType };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && getPrototypeOf(value) === Object.prototype;

/** The JSON data kind of a field's schema, through `optional` / `exactOptional`. */
function slotKind(schema: z.core.$ZodType) {
  let current: z.core.$ZodType | undefined = schema;
  while (current !== undefined) {
    const kind = jsonDataKindOf(current);
    if (kind !== undefined) return kind;
    const { def } = current._zod as unknown as WrapperInternals;
    current = def.type === 'optional' ? def.innerType : undefined;
  }
  return undefined;
}

/**
 * `input` (a decoded envelope that passed `measureSafeJSON`) with its payload's acceptable JSON data fields made
 * light, or `undefined` when none was replaced (zod may as well read the input itself).
 */
export function lightForm(payloadSchema: z.core.$ZodType, input: unknown): unknown {
  if (!isPlainObject(input) || !isPlainObject(input.payload)) return undefined;
  const { shape } = (payloadSchema._zod as unknown as ObjectInternals).def;
  if (shape === undefined) return undefined;
  const payload = input.payload;
  let light: Record<string, unknown> | undefined;
  for (const key of objectKeys(shape)) {
    if (!hasOwn(payload, key)) continue;
    const kind = slotKind(shape[key]!);
    if (kind === undefined) continue;
    const value = payload[key];
    if (value === undefined || (kind.object && !isPlainObject(value))) continue;
    if (typeof value !== 'object' || value === null) continue; // small already
    if (protoKeyPaths(value).length > 0) continue;
    if (kind.maxBytes !== undefined && jsonByteLength(value) > kind.maxBytes) continue;
    light ??= { ...payload };
    light[key] = kind.object ? {} : null;
  }
  return light === undefined ? undefined : { ...input, payload: light };
}
