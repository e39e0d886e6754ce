/**
 * Counts the IndexedDB requests a piece of work issues, by object store and method (`apps.getAll`,
 * `tool_calls.put`), on whatever IndexedDB the test runs (fake-indexeddb in the unit tests).
 */
/** The request methods of object stores and indexes. */
export const REQUEST_METHODS = [
  'get',
  'getAll',
  'getKey',
  'getAllKeys',
  'count',
  'openCursor',
  'openKeyCursor',
  'put',
  'add',
  'delete',
  'clear',
] as const;
const METHODS = REQUEST_METHODS;

/** The requests issued on object stores while `body` runs that `counts` selects, by `store.method`. */
export async function countRequests(
  counts: (request: `${string}.${(typeof METHODS)[number]}`) => boolean,
  body: () => Promise<unknown>,
): Promise<number> {
  const prototype = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map(METHODS.map((method) => [method, prototype[method]]));
  let counted = 0;
  for (const [method, original] of originals)
    prototype[method] = function counting(this: IDBObjectStore, ...args: unknown[]) {
      if (counts(`${this.name}.${method}`)) counted++;
      return original?.apply(this, args);
    };
  try {
    await body();
  } finally {
    for (const [method, original] of originals) if (original !== undefined) prototype[method] = original;
  }
  return counted;
}
