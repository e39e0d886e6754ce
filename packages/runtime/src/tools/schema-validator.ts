/**
 * Checks tool arguments and results against the JSON Schemas the inventory published (seed 003 §4.2 steps 2
 * and 8): the manifests' schemas (Draft 2020-12), compiled with AJV. A schema read from IndexedDB is a new
 * object on every read, so compiled validators are kept by the schema's JSON text, a bounded number of them
 * (AJV's own cache, keyed by object, is cleared of each one we let go). AJV reports no value back to the agent:
 * a failure is one stable code.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** Distinct schemas kept compiled; the least recently used one goes first beyond this. */
const MAX_COMPILED = 512;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new Map<string, { readonly schema: object; readonly validate: ValidateFunction }>();
const refuseAll = (() => false) as unknown as ValidateFunction;

/** Whether `value` satisfies `schema`; a schema AJV cannot compile accepts nothing. */
export function matchesSchema(schema: object, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (entry === undefined) {
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = refuseAll;
    }
    entry = { schema, validate };
    if (compiled.size >= MAX_COMPILED) {
      const [oldestKey, oldest] = compiled.entries().next().value as [string, { schema: object }];
      compiled.delete(oldestKey);
      ajv.removeSchema(oldest.schema);
    }
  } else compiled.delete(key);
  compiled.set(key, entry);
  return entry.validate(value) === true;
}

/** How many schemas are kept compiled (for tests). */
export function compiledSchemaCount(): number {
  return compiled.size;
}
