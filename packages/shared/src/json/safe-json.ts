/**
 * Safe JSON: proves that an already-decoded value is plain JSON data within a budget before any schema
 * looks at it (seed 002 §8 `assertSafeJSON`, §9 budgets, §11 "先检查安全 JSON 与预算", §13 layered budgets).
 *
 * The walk is iterative (an explicit stack, never recursion), reads every property through a check that
 * cannot run a getter, and measures the exact UTF-8 length `JSON.stringify` would produce without building
 * that string. Budgets stop it early, so hostile input costs at most `maxValues` steps.
 *
 * The byte counts live in `safe-json-bytes.ts` (this module re-exports `utf8ByteLength`), the issue-free copy
 * of the precompiled parsers in `safe-json-copy.ts`.
 */
import { UISchemaError } from '../errors/errors.js';
import { IssueCollector, type IssuePath } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import * as jsonBytes from './safe-json-bytes.js';
import { SAFE_JSON_INTRINSICS } from './safe-json-intrinsics.js';

export { utf8ByteLength } from './safe-json-bytes.js';

const {
  OBJECT_PROTOTYPE,
  ARRAY_PROTOTYPE,
  getPrototypeOf,
  objectKeys,
  getOwnPropertyNames,
  getOwnPropertySymbols,
  getOwnPropertyDescriptor,
  hasOwn,
  ownKeys,
  isArray,
  isFiniteNumber,
  lookupGetter,
} = SAFE_JSON_INTRINSICS;
// Bound once at load, like the intrinsics: every string and number is counted through them, and under the test
// runner's module transform (vitest, where the benchmarks run) each read of an imported name is a getter call.
const { jsonStringBytes, numberBytes } = jsonBytes;

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
