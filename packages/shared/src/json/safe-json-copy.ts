/**
 * Copying safe JSON without issues: `copySafeJSON`, the fast path of a parser that never needs issues
 * (`protocol/precompiled.ts`), which returns a deep-frozen copy of exactly what a zod JSON schema would, or
 * `NOT_SAFE_JSON` whenever `measureSafeJSON` (`safe-json.ts`) might have something to say.
 */

import type { SafeJSONBudget } from './safe-json.js';
import * as jsonBytes from './safe-json-bytes.js';
import { SAFE_JSON_INTRINSICS } from './safe-json-intrinsics.js';

const {
  OBJECT_PROTOTYPE,
  ARRAY_PROTOTYPE,
  getPrototypeOf,
  objectKeys,
  getOwnPropertyNames,
  getOwnPropertySymbols,
  getOwnPropertyDescriptor,
  hasOwn,
  freeze,
  ownKeys,
  isArray,
  isFiniteNumber,
  lookupGetter,
} = SAFE_JSON_INTRINSICS;
// Bound once at load, like the intrinsics: every string and number is counted through them, and under the test
// runner's module transform (vitest, where the benchmarks run) each read of an imported name is a getter call.
const { jsonStringBytes, numberBytes } = jsonBytes;

const PROTO_KEY = '__proto__';

/** What `copySafeJSON` and `plainObjectKeys` answer when they cannot vouch for a value. */
export const NOT_SAFE_JSON: unique symbol = Symbol('not safe JSON');

/**
 * The running totals of one value being copied with `copySafeJSON` (and of whatever encloses it): values and
 * UTF-8 bytes counted so far, the budget of the whole, and the containers met so far, so that none is met
 * twice. `bytes` may over-count (a caller may add an upper bound for what it checked itself), never
 * under-count.
 */
export interface SafeJSONCopyState {
  readonly budget: SafeJSONBudget;
  bytes: number;
  values: number;
  /** The largest `depth` at which a container was met (-1 before any). */
  deepest: number;
  /** A `-0` was met (JSON text has none: it serializes as `0`). */
  negativeZero: boolean;
  /**
   * The value is the caller's own result of `JSON.parse`, shared with nobody: plain data by construction (own
   * enumerable data properties, standard prototypes, dense arrays, no shared containers), so
   * `copySafeJSONMeasured` reads it directly and freezes it where it is (`adoptParsedJSON`) instead of copying it.
   */
  owned: boolean;
  /** The first container met; `seen` holds them all once there is a second. */
  first: object | undefined;
  seen: Set<object> | undefined;
}

export function safeJSONCopyState(budget: SafeJSONBudget): SafeJSONCopyState {
  return {
    budget,
    bytes: 0,
    values: 0,
    deepest: -1,
    negativeZero: false,
    owned: false,
    first: undefined,
    seen: undefined,
  };
}

/**
 * What a copy made by `copySafeJSONMeasured` was found to hold: exactly what `measureSafeJSON` would measure of it
 * — its UTF-8 bytes as `JSON.stringify` writes it, its values, its depth (nested containers: `{}` is 1) — and
 * whether it holds a `-0`.
 */
export interface SafeJSONMeasure {
  readonly bytes: number;
  readonly values: number;
  readonly depth: number;
  readonly negativeZero: boolean;
}

/**
 * The measures of the containers this package copied and froze itself: only `copySafeJSONMeasured` adds to it,
 * and only objects it has just created, so an entry can be neither forged nor outdated.
 */
const MEASURED = new WeakMap<object, SafeJSONMeasure>();

/**
 * The measure of `value` when it is a deep-frozen container this package's safe-JSON copy made (an envelope's
 * JSON data, read by a precompiled parser), else `undefined`: such a value need not be walked again to be
 * known safe JSON, nor copied again to be known frozen.
 */
export function safeJSONMeasureOf(value: unknown): SafeJSONMeasure | undefined {
  return typeof value === 'object' && value !== null ? MEASURED.get(value) : undefined;
}

/**
 * `copySafeJSON`, noting the measure of a container it copies (`safeJSONMeasureOf`). The totals of `state` are
 * the same as `copySafeJSON` leaves them.
 */
export function copySafeJSONMeasured(value: unknown, state: SafeJSONCopyState, depth: number): unknown {
  const { bytes, values, deepest, negativeZero } = state;
  state.deepest = -1;
  state.negativeZero = false;
  const copy = state.owned ? adoptParsedJSON(value, state, depth) : copySafeJSON(value, state, depth);
  if (copy !== NOT_SAFE_JSON && typeof copy === 'object' && copy !== null)
    MEASURED.set(copy, {
      bytes: state.bytes - bytes,
      values: state.values - values,
      depth: state.deepest - depth + 1,
      negativeZero: state.negativeZero,
    });
  if (deepest > state.deepest) state.deepest = deepest;
  state.negativeZero ||= negativeZero;
  return copy;
}

/** False when `container` was met before by the same copy (a shared reference or a cycle). */
function firstMeeting(state: SafeJSONCopyState, container: object): boolean {
  const { first } = state;
  if (first === undefined) {
    state.first = container;
    return true;
  }
  let { seen } = state;
  if (seen === undefined) {
    seen = new Set([first]);
    state.seen = seen;
  }
  if (seen.has(container)) return false;
  seen.add(container);
  return true;
}

/**
 * The own keys of `value` when it is an object whose prototype is `Object.prototype` and whose own properties
 * are all enumerable and string-keyed — the objects `measureSafeJSON` walks, less those with a null prototype
 * — or `NOT_SAFE_JSON`. Whether each property holds data is the caller's to check.
 */
export function plainObjectKeys(value: object): readonly string[] | typeof NOT_SAFE_JSON {
  if (isArray(value) || getPrototypeOf(value) !== OBJECT_PROTOTYPE) return NOT_SAFE_JSON;
  const keys = objectKeys(value);
  if (getOwnPropertyNames(value).length !== keys.length || getOwnPropertySymbols(value).length !== 0)
    return NOT_SAFE_JSON;
  return keys;
}

/** What `countPrimitive` answers for an object or an array: the caller's to walk. */
const CONTAINER = Symbol('container');

/**
 * A primitive of `value` counted into `state` (values, bytes, a `-0`) and returned; `NOT_SAFE_JSON` for what JSON
 * has not (a non-finite number, `undefined`, a function, a symbol, a bigint); `CONTAINER` for an object or array.
 */
function countPrimitive(value: unknown, state: SafeJSONCopyState): unknown {
  switch (typeof value) {
    case 'string':
      state.values++;
      state.bytes += jsonStringBytes(value);
      return value;
    case 'number':
      if (!isFiniteNumber(value)) return NOT_SAFE_JSON;
      state.values++;
      state.bytes += numberBytes(value);
      if (value === 0 && 1 / value < 0) state.negativeZero = true;
      return value;
    case 'boolean':
      state.values++;
      state.bytes += value ? 4 : 5;
      return value;
    case 'object':
      if (value !== null) return CONTAINER;
      state.values++;
      state.bytes += 4;
      return null;
    default:
      return NOT_SAFE_JSON;
  }
}

/**
 * A deep-frozen copy of `value`, or `NOT_SAFE_JSON` — the fast path of a parser that never needs issues,
 * because it falls back to `measureSafeJSON` and the schema whenever this declines. `depth` containers enclose
 * `value` (the same count `measureSafeJSON` keeps), and `state` gathers the totals.
 *
 * It copies exactly what a zod JSON schema (`z.json()`, a record of it) returns for the value, and only when
 * `measureSafeJSON` would find nothing wrong with it where it stands; it declines, more strictly:
 * - anything `measureSafeJSON` reports (accessors, sparse or extended arrays, symbol or non-enumerable keys,
 *   non-plain prototypes, non-finite numbers, non-JSON values), and objects with a null prototype;
 * - a container nested `budget.maxDepth` deep, and totals past `budget.maxValues` (checked as it goes; the
 *   caller checks `bytes` and the final counts against the budget);
 * - an own `__proto__` key anywhere (the protocol's JSON schemas reject it);
 * - a container met twice by `state` (zod would hand out one copy for both; that is left to zod).
 *
 * Recursive, at most `budget.maxDepth` frames deep. A throwing Proxy trap is the caller's to catch.
 */
export function copySafeJSON(value: unknown, state: SafeJSONCopyState, depth: number): unknown {
  const counted = countPrimitive(value, state);
  if (counted !== CONTAINER) return counted;
  const node = value as object;
  const { maxDepth, maxValues } = state.budget;
  if (depth >= maxDepth || !firstMeeting(state, node)) return NOT_SAFE_JSON;
  state.values++;
  if (depth > state.deepest) state.deepest = depth;
  if (isArray(node)) {
    if (getPrototypeOf(node) !== ARRAY_PROTOTYPE) return NOT_SAFE_JSON;
    const size = node.length;
    if (size > maxValues - state.values) return NOT_SAFE_JSON;
    const own = ownKeys(node);
    if (own.length !== size + 1 || own[size] !== 'length') return NOT_SAFE_JSON;
    const copy: unknown[] = [];
    for (let index = 0; index < size; index++) {
      let item: unknown;
      if (lookupGetter !== undefined) {
        if (lookupGetter.call(node, index) !== undefined) return NOT_SAFE_JSON;
        item = node[index];
      } else {
        const descriptor = getOwnPropertyDescriptor(node, index);
        if (descriptor === undefined || !hasOwn(descriptor, 'value')) return NOT_SAFE_JSON;
        item = descriptor.value;
      }
      // A setter without a getter reads as undefined, which is declined as not JSON.
      const copied = copySafeJSON(item, state, depth + 1);
      if (copied === NOT_SAFE_JSON) return NOT_SAFE_JSON;
      copy.push(copied);
    }
    state.bytes += size === 0 ? 2 : size + 1;
    return freeze(copy);
  }
  const keys = plainObjectKeys(node);
  if (keys === NOT_SAFE_JSON) return NOT_SAFE_JSON;
  const size = keys.length;
  if (size > maxValues - state.values) return NOT_SAFE_JSON;
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < size; index++) {
    const key = keys[index] as string;
    if (key === PROTO_KEY) return NOT_SAFE_JSON;
    const descriptor = getOwnPropertyDescriptor(node, key);
    if (descriptor === undefined || !hasOwn(descriptor, 'value')) return NOT_SAFE_JSON;
    const copied = copySafeJSON(descriptor.value, state, depth + 1);
    if (copied === NOT_SAFE_JSON) return NOT_SAFE_JSON;
    copy[key] = copied;
    state.bytes += jsonStringBytes(key) + 1;
  }
  state.bytes += size === 0 ? 2 : size + 1;
  return freeze(copy);
}

/**
 * `copySafeJSON` for a value that is the caller's own result of `JSON.parse` (`SafeJSONCopyState.owned`): the same
 * totals, the same answer for every such value, but each container is frozen where it is and returned itself —
 * no copy, and none of the checks that only a value made otherwise can fail (accessors, prototypes, sparse or
 * extended arrays, symbol keys, shared containers). An own `__proto__` key, which `JSON.parse` does make, is
 * still declined. On a decline, what was frozen stays frozen: the value is the caller's, and only read after.
 */
export function adoptParsedJSON(value: unknown, state: SafeJSONCopyState, depth: number): unknown {
  const counted = countPrimitive(value, state);
  if (counted !== CONTAINER) return counted;
  const node = value as object;
  const { maxDepth, maxValues } = state.budget;
  if (depth >= maxDepth) return NOT_SAFE_JSON;
  state.values++;
  if (depth > state.deepest) state.deepest = depth;
  if (isArray(node)) {
    const size = node.length;
    if (size > maxValues - state.values) return NOT_SAFE_JSON;
    for (let index = 0; index < size; index++)
      if (adoptParsedJSON(node[index], state, depth + 1) === NOT_SAFE_JSON) return NOT_SAFE_JSON;
    state.bytes += size === 0 ? 2 : size + 1;
    return freeze(node);
  }
  const keys = objectKeys(node);
  const size = keys.length;
  if (size > maxValues - state.values) return NOT_SAFE_JSON;
  for (let index = 0; index < size; index++) {
    const key = keys[index] as string;
    if (key === PROTO_KEY) return NOT_SAFE_JSON;
    if (adoptParsedJSON((node as Record<string, unknown>)[key], state, depth + 1) === NOT_SAFE_JSON)
      return NOT_SAFE_JSON;
    state.bytes += jsonStringBytes(key) + 1;
  }
  state.bytes += size === 0 ? 2 : size + 1;
  return freeze(node);
}
