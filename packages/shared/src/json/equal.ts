/**
 * Deep equality of JSON values. Structural sharing (dsl/copy.ts) and the stream's generation contract compare
 * whole snapshot parts with it on every frame, so it allocates nothing and takes identity as its fast path.
 */
const { isArray } = Array;
const { hasOwn } = Object;

/** Deep equality of JSON values (plain data; frozen documents and their parts). Identity is the fast path. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || (isContainer(a) && isContainer(b) && containersEqual(a, b));
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * Two containers. Members are compared inline (most values of a document are primitives, and this runs over
 * every value of every frame), so `hasOwn` is only asked where a name that `right` lacks could still read as
 * equal: as `undefined`, or as an object inherited from `Object.prototype` (`__proto__`). Anything else
 * inherited is a function, which equals no JSON value.
 */
function containersEqual(a: object, b: object): boolean {
  if (isArray(a)) {
    if (!isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) {
      const left: unknown = a[index];
      const right: unknown = b[index];
      if (left !== right && !(isContainer(left) && isContainer(right) && containersEqual(left, right)))
        return false;
    }
    return true;
  }
  if (isArray(b)) return false;
  const record = b as Readonly<Record<string, unknown>>;
  // for…in over frozen plain data (no enumerable inherited keys) avoids allocating two key arrays per object.
  let count = 0;
  for (const name in a) {
    const left: unknown = (a as Readonly<Record<string, unknown>>)[name];
    const right = record[name];
    if (left === right) {
      if (left === undefined && !hasOwn(record, name)) return false;
    } else if (
      !(isContainer(left) && isContainer(right) && hasOwn(record, name) && containersEqual(left, right))
    )
      return false;
    count++;
  }
  for (const _ in record) count--;
  return count === 0;
}
