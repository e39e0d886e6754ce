/** Every path into a JSON value (the root's is `[]`), depth first: where a property test can change something. */
export function paths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    out.push(path);
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, [...path, index]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    }
  };
  walk(root, []);
  return out;
}
