/**
 * Safe JSON: proves that an already-decoded value is plain JSON data within a budget before any schema
 * looks at it (seed 002 §8 `assertSafeJSON`, §9 budgets, §11 "先检查安全 JSON 与预算", §13 layered budgets).
 *
 * The walk is iterative (an explicit stack, never recursion), reads every property through a check that
 * cannot run a getter, and measures the exact UTF-8 length `JSON.stringify` would produce without building
 * that string. Budgets stop it early, so hostile input costs at most `maxValues` steps.
 */
import { UISchemaError } from '../errors/errors.js';
import { IssueCollector, type IssuePath } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';

/** Limits of one safe-JSON check. Depth counts nested objects and arrays (`{}` is depth 1, `1` is depth 0). */
export interface SafeJSONBudget {
  /** Largest UTF-8 length of the value serialized by `JSON.stringify`. */
  readonly maxBytes: number;
  /** Deepest nesting of objects and arrays. */
  readonly maxDepth: number;
  /** Most values: every object, array and primitive counts one; property keys do not. */
  readonly maxValues: number;
}

/** The budget of one UI document (seed 002 §9). */
export const DOCUMENT_JSON_BUDGET: SafeJSONBudget = Object.freeze({
  maxBytes: UI_LIMITS.maxDocumentBytes,
  maxDepth: UI_LIMITS.maxJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues,
});

/**
 * The budget of `jsonByteLength`, which only measures values that were checked already: it bounds nothing
 * a protocol value can reach (documents nest 128 levels plus 4 for an envelope, seed 002 §13), and its
 * depth stops a cycle in a value that was never checked.
 */
const MEASURE_ONLY_BUDGET: SafeJSONBudget = Object.freeze({
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxDepth: 1_024,
  maxValues: Number.MAX_SAFE_INTEGER,
});

// Intrinsics are captured once, so code that later replaces `Object.keys` and friends cannot run inside the
// check ("never invoke user code").
const OBJECT_PROTOTYPE: object = Object.prototype;
const ARRAY_PROTOTYPE: object = Array.prototype;
const {
  getPrototypeOf,
  keys: objectKeys,
  getOwnPropertyNames,
  getOwnPropertySymbols,
  getOwnPropertyDescriptor,
  hasOwn,
  freeze,
} = Object;
const { ownKeys } = Reflect;
const PROTO_KEY = '__proto__';
const { isArray } = Array;
const { isFinite: isFiniteNumber } = Number;

type LookupGetter = (this: unknown, key: PropertyKey) => unknown;
/**
 * `Object.prototype.__lookupGetter__` (ECMA-262 Annex B) answers "is this own element an accessor?" without
 * allocating a descriptor; for array elements V8 makes it about four times cheaper than
 * `getOwnPropertyDescriptor`. Engines without Annex B fall back to descriptors.
 */
const lookupGetterIntrinsic: unknown = getOwnPropertyDescriptor(OBJECT_PROTOTYPE, '__lookupGetter__')?.value;
const lookupGetter =
  typeof lookupGetterIntrinsic === 'function' ? (lookupGetterIntrinsic as LookupGetter) : undefined;

const MESSAGES = {
  notJson:
    'Only JSON data is allowed here: strings, finite numbers, booleans, null, arrays and plain objects.',
  notFinite: 'Numbers must be finite; NaN and Infinity are not JSON.',
  notPlain: 'Objects must be plain objects (or have a null prototype) and arrays must be plain arrays.',
  arrayShape: 'Arrays must be dense and have no own properties besides their elements and length.',
  objectShape: 'Objects may only have enumerable, string-keyed own properties.',
  accessor: 'Properties must hold plain data, not getters or setters.',
  cycle: 'JSON data must not refer to itself (a cycle).',
  uninspectable: 'This value could not be inspected as JSON data.',
} as const;

/**
 * The explicit stack of containers being walked; `next[i] - 1` is the entry being visited in
 * `containers[i]`, and `keys[i]` is `undefined` for an array. Allocated per call so that a re-entrant call
 * (from a Proxy trap, which is out of scope but must not corrupt state) has its own.
 */
interface WalkStack {
  readonly containers: object[];
  readonly keys: (readonly string[] | undefined)[];
  readonly next: number[];
  readonly sizes: number[];
}

/** The path of the entry being visited at `depth` (only built when an issue is reported). */
function pathAt(base: IssuePath, stack: WalkStack, depth: number): (string | number)[] {
  const path: (string | number)[] = [...base];
  for (let level = 0; level < depth; level++) {
    const index = (stack.next[level] ?? 1) - 1;
    const keys = stack.keys[level];
    path.push(keys === undefined ? index : (keys[index] ?? index));
  }
  return path;
}

/**
 * The path of the first reference that closes a cycle on the current branch, or `undefined` when `value`
 * is not on the stack. Only runs once the depth budget is exceeded, so the common path pays nothing for it.
 */
function cyclePath(base: IssuePath, stack: WalkStack, depth: number, value: object): IssuePath | undefined {
  const branch = stack.containers.slice(0, depth);
  branch.push(value);
  if (branch.indexOf(value) === depth) return undefined;
  for (let later = 1; later < branch.length; later++) {
    if (branch.indexOf(branch[later] as object) < later) return pathAt(base, stack, later);
  }
  return undefined;
}

/**
 * Proves that `input` is plain JSON data within `budget` and returns the exact UTF-8 length of
 * `JSON.stringify(input)`, or `undefined` after adding issues to `issues`.
 *
 * Rejected with `invalid_json` at the offending value: `undefined`, functions, symbols, bigints, NaN and
 * ±Infinity; objects whose prototype is neither `Object.prototype` nor `null`; arrays that are sparse, have
 * extra own properties or another prototype; accessor properties (never invoked); symbol-keyed or
 * non-enumerable properties; cycles. Budgets: nesting deeper than `maxDepth` is `too_deep` at the first
 * container past it; more than `maxValues` values is `too_many` and more than `maxBytes` is `too_large`, both
 * at `path` (the whole input). The walk stops at the first exceeded budget or when `issues` is full.
 *
 * A cycle is recognised when it reaches the depth budget (a cycle longer than `maxDepth` reads as
 * `too_deep`); a shared, acyclic reference is valid and measured each time it occurs, as `JSON.stringify`
 * would. "Plain" means this realm's `Object.prototype` / `Array.prototype`: values from another realm (an
 * iframe, a `vm` context) are rejected, while structured clones (postMessage) arrive in this realm.
 *
 * Never throws and never runs code of the input (Proxies are out of scope: their traps run, and a throwing
 * trap is reported as `invalid_json`).
 */
export function measureSafeJSON(
  input: unknown,
  budget: SafeJSONBudget,
  issues: IssueCollector,
  path: IssuePath = [],
): number | undefined {
  const { maxBytes, maxDepth, maxValues } = budget;
  const stack: WalkStack = { containers: [], keys: [], next: [], sizes: [] };
  const { containers, keys: keyStack, next, sizes } = stack;
  let depth = 0;
  let bytes = 0;
  let values = 0;
  let valid = true;
  let value: unknown = input;

  try {
    for (;;) {
      // Visit `value`: count it, check it, and open it when it is a container.
      values++;
      switch (typeof value) {
        case 'string':
          bytes += jsonStringBytes(value);
          break;
        case 'number':
          if (isFiniteNumber(value)) bytes += numberBytes(value);
          else {
            valid = false;
            if (!report(issues, pathAt(path, stack, depth), MESSAGES.notFinite)) return undefined;
          }
          break;
        case 'boolean':
          bytes += value ? 4 : 5;
          break;
        case 'object': {
          if (value === null) {
            bytes += 4;
            break;
          }
          if (depth >= maxDepth) {
            const cycle = cyclePath(path, stack, depth, value);
            if (cycle !== undefined) issues.add(cycle, 'invalid_json', MESSAGES.cycle);
            else {
              issues.add(
                pathAt(path, stack, depth),
                'too_deep',
                `JSON data may nest objects and arrays at most ${maxDepth} levels deep.`,
              );
            }
            return undefined;
          }
          let keys: readonly string[] | undefined;
          let size: number;
          if (isArray(value)) {
            if (getPrototypeOf(value) !== ARRAY_PROTOTYPE) {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.notPlain)) return undefined;
              break;
            }
            size = value.length;
            // Refuse an oversized array before listing its keys, which allocates one string per element.
            if (size > maxValues - values) return tooMany(issues, path, maxValues);
            // Own keys list indexes ascending, then `length` (created with the array), then anything added
            // later: exactly `size + 1` keys ending in `length` means dense with no extra (or symbol) keys.
            const own = ownKeys(value);
            if (own.length !== size + 1 || own[size] !== 'length') {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.arrayShape)) return undefined;
              break;
            }
            keys = undefined;
          } else {
            const prototype: unknown = getPrototypeOf(value);
            if (prototype !== OBJECT_PROTOTYPE && prototype !== null) {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.notPlain)) return undefined;
              break;
            }
            keys = objectKeys(value);
            size = keys.length;
            if (size > maxValues - values) return tooMany(issues, path, maxValues);
            // `Object.keys` lists only enumerable string keys: equal counts rule out the others.
            if (getOwnPropertyNames(value).length !== size || getOwnPropertySymbols(value).length !== 0) {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.objectShape)) return undefined;
              break;
            }
          }
          // Brackets and commas are counted on entry, so the running total never overshoots the result.
          bytes += size === 0 ? 2 : size + 1;
          containers[depth] = value;
          keyStack[depth] = keys;
          next[depth] = 0;
          sizes[depth] = size;
          depth++;
          break;
        }
        default:
          // undefined, function, symbol, bigint
          valid = false;
          if (!report(issues, pathAt(path, stack, depth), MESSAGES.notJson)) return undefined;
      }
      if (values > maxValues) return tooMany(issues, path, maxValues);
      if (bytes > maxBytes) {
        issues.add(path, 'too_large', `JSON data may be at most ${maxBytes} bytes as UTF-8.`);
        return undefined;
      }

      // Advance to the next entry: pop finished containers, then read one entry without running a getter.
      for (;;) {
        if (depth === 0) return valid ? bytes : undefined;
        const top = depth - 1;
        const index = next[top] as number;
        if (index === sizes[top]) {
          depth = top;
          continue;
        }
        next[top] = index + 1;
        const container = containers[top] as Record<string | number, unknown>;
        const keys = keyStack[top];
        if (keys === undefined) {
          // Dense was proven on entry, so the element is own; a getter-less accessor reads as undefined.
          if (lookupGetter !== undefined) {
            if (lookupGetter.call(container, index) !== undefined) {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.accessor)) return undefined;
              continue;
            }
            value = container[index];
          } else {
            const descriptor = getOwnPropertyDescriptor(container, index);
            if (descriptor === undefined || !hasOwn(descriptor, 'value')) {
              valid = false;
              if (!report(issues, pathAt(path, stack, depth), MESSAGES.accessor)) return undefined;
              continue;
            }
            value = descriptor.value;
          }
        } else {
          const key = keys[index] as string;
          bytes += jsonStringBytes(key) + 1;
          // One descriptor per key tells data from accessor without calling it (`hasOwn`, so a polluted
          // `Object.prototype.value` cannot pass for one).
          const descriptor = getOwnPropertyDescriptor(container, key);
          if (descriptor === undefined || !hasOwn(descriptor, 'value')) {
            valid = false;
            if (!report(issues, pathAt(path, stack, depth), MESSAGES.accessor)) return undefined;
            continue;
          }
          value = descriptor.value;
        }
        break;
      }
    }
  } catch {
    // Only a Proxy trap (or a revoked Proxy) can throw here.
    issues.add(pathAt(path, stack, depth), 'invalid_json', MESSAGES.uninspectable);
    return undefined;
  }
}

/** Adds an `invalid_json` issue; `false` once the collector is full and the walk should stop. */
function report(issues: IssueCollector, at: IssuePath, message: string): boolean {
  issues.add(at, 'invalid_json', message);
  return !issues.full;
}

function tooMany(issues: IssueCollector, path: IssuePath, maxValues: number): undefined {
  issues.add(path, 'too_many', `JSON data may contain at most ${maxValues} values.`);
  return undefined;
}

/**
 * Checks that `input` is plain JSON data within `budget` (the document budget by default) before a
 * recursive schema parse (seed 002 §8). Returns its UTF-8 length as JSON; throws `UISchemaError` otherwise.
 */
export function assertSafeJSON(input: unknown, budget: SafeJSONBudget = DOCUMENT_JSON_BUDGET): number {
  const issues = new IssueCollector();
  const bytes = measureSafeJSON(input, budget, issues);
  if (bytes === undefined) throw new UISchemaError(issues.issues);
  return bytes;
}

/**
 * The exact UTF-8 length of `JSON.stringify(value)` for a value that is already known to be safe JSON
 * (for example the output of a schema parse). Throws `UISchemaError` if it is not JSON data after all; it
 * checks no budget.
 */
export function jsonByteLength(value: unknown): number {
  return assertSafeJSON(value, MEASURE_ONLY_BUDGET);
}

// ── Copying without issues ────────────────────────────────────────────────────────────────────────────

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
  /** The first container met; `seen` holds them all once there is a second. */
  first: object | undefined;
  seen: Set<object> | undefined;
}

export function safeJSONCopyState(budget: SafeJSONBudget): SafeJSONCopyState {
  return { budget, bytes: 0, values: 0, first: undefined, seen: undefined };
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
  switch (typeof value) {
    case 'string':
      state.values++;
      state.bytes += jsonStringBytes(value);
      return value;
    case 'number':
      if (!isFiniteNumber(value)) return NOT_SAFE_JSON;
      state.values++;
      state.bytes += numberBytes(value);
      return value;
    case 'boolean':
      state.values++;
      state.bytes += value ? 4 : 5;
      return value;
    case 'object':
      break;
    default:
      return NOT_SAFE_JSON;
  }
  if (value === null) {
    state.values++;
    state.bytes += 4;
    return null;
  }
  const { maxDepth, maxValues } = state.budget;
  if (depth >= maxDepth || !firstMeeting(state, value)) return NOT_SAFE_JSON;
  state.values++;
  if (isArray(value)) {
    if (getPrototypeOf(value) !== ARRAY_PROTOTYPE) return NOT_SAFE_JSON;
    const size = value.length;
    if (size > maxValues - state.values) return NOT_SAFE_JSON;
    const own = ownKeys(value);
    if (own.length !== size + 1 || own[size] !== 'length') return NOT_SAFE_JSON;
    const copy: unknown[] = [];
    for (let index = 0; index < size; index++) {
      let item: unknown;
      if (lookupGetter !== undefined) {
        if (lookupGetter.call(value, index) !== undefined) return NOT_SAFE_JSON;
        item = value[index];
      } else {
        const descriptor = getOwnPropertyDescriptor(value, index);
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
  const keys = plainObjectKeys(value);
  if (keys === NOT_SAFE_JSON) return NOT_SAFE_JSON;
  const size = keys.length;
  if (size > maxValues - state.values) return NOT_SAFE_JSON;
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < size; index++) {
    const key = keys[index] as string;
    if (key === PROTO_KEY) return NOT_SAFE_JSON;
    const descriptor = getOwnPropertyDescriptor(value, key);
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
 * An upper bound of the UTF-8 length of `JSON.stringify(value)` for a JSON primitive (exact but for strings,
 * which count 6 bytes a UTF-16 unit: no unit takes more, escaped), or -1 for anything else.
 */
export function jsonPrimitiveBytesBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return isFiniteNumber(value) ? numberBytes(value) : -1;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : -1;
    default:
      return -1;
  }
}

/**
 * The UTF-8 length of `text` as `TextEncoder` encodes it: a lone surrogate becomes U+FFFD (3 bytes).
 * Inside JSON text a lone surrogate is escaped instead (`\udXXX`, 6 bytes); `jsonByteLength` counts that.
 */
export function utf8ByteLength(text: string): number {
  const length = text.length;
  let bytes = length;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 2; // a pair: 2 units, 4 bytes
      index++;
    } else bytes += 2; // the rest of the BMP, and a lone surrogate as U+FFFD
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

/**
 * UTF-8 length of `JSON.stringify(text)`, quotes included. Most strings of a document are printable ASCII
 * without `"` or `\`, where the answer is the length plus 2; the first other unit switches to exact
 * escaping from there on.
 */
function jsonStringBytes(text: string): number {
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c) {
      return 2 + index + escapedBytes(text, index);
    }
  }
  return length + 2;
}

/** Bytes of `text` from `start` on, escaped as `JSON.stringify` does (ECMA-262 QuoteJSONString). */
function escapedBytes(text: string, start: number): number {
  const length = text.length;
  let bytes = 0;
  for (let index = start; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      if (unit >= 0x20) bytes += unit === 0x22 || unit === 0x5c ? 2 : 1;
      // \b \t \n \f \r have short escapes; other controls are \u00XX.
      else bytes += unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6;
    } else if (unit < 0x800) bytes += 2;
    else if (unit < 0xd800 || unit >= 0xe000) bytes += 3;
    else if (unit < 0xdc00 && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 6; // a lone surrogate is escaped as \udXXX (well-formed JSON.stringify, ES2019)
  }
  return bytes;
}

/** Length of `String(value)`, which is what `JSON.stringify` writes for a finite number (`-0` is `0`). */
function numberBytes(value: number): number {
  // Small integers (sizes, steps, indexes) are most numbers of a document: count digits without a string.
  if ((value | 0) === value) {
    const sign = value < 0 ? 1 : 0;
    const magnitude = sign === 1 ? -value : value;
    if (magnitude < 10) return sign + 1;
    if (magnitude < 100) return sign + 2;
    if (magnitude < 1_000) return sign + 3;
    if (magnitude < 10_000) return sign + 4;
    if (magnitude < 100_000) return sign + 5;
    if (magnitude < 1_000_000) return sign + 6;
    if (magnitude < 10_000_000) return sign + 7;
    if (magnitude < 100_000_000) return sign + 8;
    if (magnitude < 1_000_000_000) return sign + 9;
    return sign + 10;
  }
  return String(value).length;
}
