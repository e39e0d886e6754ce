/**
 * The built-ins that the safe-JSON walk (`safe-json.ts`) and copy (`safe-json-copy.ts`) call, captured once when
 * the package loads, so that code that later replaces `Object.keys` and friends cannot run inside a check
 * ("never invoke user code"). Each of those modules destructures them into its own constants at load: the
 * walks call them for every value, and a module's own constant is the cheapest thing a call can read (under
 * the test runner's module transform, where the benchmarks run, an imported name is read through a getter).
 */

type LookupGetter = (this: unknown, key: PropertyKey) => unknown;

/**
 * `Object.prototype.__lookupGetter__` (ECMA-262 Annex B) answers "is this own element an accessor?" without
 * allocating a descriptor; for array elements V8 makes it about four times cheaper than
 * `getOwnPropertyDescriptor`. Engines without Annex B fall back to descriptors (`lookupGetter` is undefined).
 */
const lookupGetterIntrinsic: unknown = Object.getOwnPropertyDescriptor(
  Object.prototype,
  '__lookupGetter__',
)?.value;

/** @internal */
export const SAFE_JSON_INTRINSICS = Object.freeze({
  OBJECT_PROTOTYPE: Object.prototype as object,
  ARRAY_PROTOTYPE: Array.prototype as object,
  getPrototypeOf: Object.getPrototypeOf,
  objectKeys: Object.keys,
  getOwnPropertyNames: Object.getOwnPropertyNames,
  getOwnPropertySymbols: Object.getOwnPropertySymbols,
  getOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
  hasOwn: Object.hasOwn,
  freeze: Object.freeze,
  ownKeys: Reflect.ownKeys,
  isArray: Array.isArray,
  isFiniteNumber: Number.isFinite,
  lookupGetter:
    typeof lookupGetterIntrinsic === 'function' ? (lookupGetterIntrinsic as LookupGetter) : undefined,
});
