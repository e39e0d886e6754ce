/**
 * Finds own `__proto__` keys in safe JSON. zod copies objects key by key and skips an own `__proto__` key
 * without an issue (assigning it would replace the copy's prototype), so a parser would return less data than
 * was sent — and a hash would bind content the sender never saw. Parsers reject such keys instead
 * (seed 002 §11 "不支持 … __proto__"; nothing is silently dropped).
 */
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';

const PROTO_KEY = '__proto__';
const { hasOwn, keys: objectKeys } = Object;
const { isArray } = Array;

/** One container met by the walk; the parent chain gives its path only when an issue needs it. */
interface Visit {
  readonly value: object;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Paths of the objects that own a `__proto__` key, at most `UI_SCHEMA_LIMITS.maxIssues`. Iterative, so depth
 * costs no stack; the parsers call it on input already proven to be safe JSON, so reading runs no code.
 */
export function protoKeyPaths(input: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  if (typeof input !== 'object' || input === null) return found;
  const pending: Visit[] = [{ value: input, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value } = visit;
    if (isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item === 'object' && item !== null)
          pending.push({ value: item, key: index, parent: visit });
      }
      continue;
    }
    if (hasOwn(value, PROTO_KEY)) {
      found.push(pathOf(visit));
      if (found.length >= UI_SCHEMA_LIMITS.maxIssues) break;
    }
    const record = value as Record<string, unknown>;
    for (const key of objectKeys(record)) {
      const item = record[key];
      if (typeof item === 'object' && item !== null) pending.push({ value: item, key, parent: visit });
    }
  }
  return found;
}
