/**
 * Deep freezing of validated JSON values: `parseDocument` and the protocol parsers return frozen results
 * (seed 002 §8 "返回深冻结的文档", §11 "最后冻结结果"), so a caller cannot change a value after it was checked.
 */

/** A JSON value type with every nested property and element read-only. */
export type DeepReadonly<T> = T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

const { freeze, keys: objectKeys } = Object;
const { isArray } = Array;

/**
 * Freezes `value` and every object and array inside it, and returns the same value. Meant for safe JSON
 * (`measureSafeJSON` first): it reads properties, so it must not be given objects with getters. It walks
 * with an explicit stack and visits each object once, so depth, shared references and cycles are harmless.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const visited = new Set<object>();
  const pending: object[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (visited.has(next)) continue;
    visited.add(next);
    freeze(next);
    if (isArray(next)) {
      for (let index = 0; index < next.length; index++) {
        const item: unknown = next[index];
        if (typeof item === 'object' && item !== null) pending.push(item);
      }
    } else {
      const record = next as Record<string, unknown>;
      const keys = objectKeys(record);
      for (let index = 0; index < keys.length; index++) {
        const item = record[keys[index] as string];
        if (typeof item === 'object' && item !== null) pending.push(item);
      }
    }
  }
  return value;
}
