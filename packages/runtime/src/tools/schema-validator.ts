/**
 * Checks tool arguments and results, and capability arguments and outputs, against the JSON Schemas the
 * inventory published (seed 003 §4.2 steps 2 and 8). The schemas are interpreted (`@cfworker/json-schema`): no
 * code is generated, so a host whose Content Security Policy forbids `'unsafe-eval'` validates as any other.
 *
 * Every schema is readied once (schema-check.ts): a schema the validator cannot use is refused where it enters
 * the runtime (`assertUsableSchema`: install, capability declaration, DSL binding), and — if one was stored
 * before this check existed — accepts nothing afterwards. A schema read from IndexedDB is a new object on every
 * read, so readied schemas are kept by their JSON text, a bounded number of them. No value is echoed: a failure
 * is one stable code at the caller.
 */
import { validate } from '@cfworker/json-schema';
import {
  type PreparedSchema,
  prepareSchema,
  type SchemaOwner,
  SchemaRefusal,
  SchemaUnusableError,
} from './schema-check.js';

/** Distinct schemas kept readied; the least recently used one goes first beyond this. */
const MAX_PREPARED = 512;

type Entry = PreparedSchema | SchemaRefusal;
const prepared = new Map<string, Entry>();
/** How many times a schema was readied since the module loaded (for tests: readied once, not per copy). */
let preparations = 0;

/** The readied schema for `schema`, or why it cannot be used (kept either way). */
function entryFor(schema: object | boolean): Entry {
  const key = JSON.stringify(schema);
  let entry = prepared.get(key);
  if (entry === undefined) {
    preparations++;
    try {
      entry = prepareSchema(key);
    } catch (error) {
      // Anything else the interpreter's preparation throws is a refusal too, never an accepted schema.
      entry = error instanceof SchemaRefusal ? error : new SchemaRefusal('invalid_schema', '');
    }
    if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value as string);
  } else prepared.delete(key);
  prepared.set(key, entry);
  return entry;
}

/**
 * Throws `SchemaUnusableError` (naming `owner` and the JSON pointer of the keyword at fault) when the runtime
 * cannot validate with `schema`; returns otherwise.
 */
export function assertUsableSchema(schema: object | boolean, owner?: SchemaOwner): void {
  const entry = entryFor(schema);
  if (entry instanceof SchemaRefusal) throw new SchemaUnusableError(entry.reason, entry.pointer, owner);
}

/** Whether `value` satisfies `schema`; a schema the validator cannot use accepts nothing. */
export function matchesSchema(schema: object | boolean, value: unknown): boolean {
  const entry = entryFor(schema);
  if (entry instanceof SchemaRefusal) return false;
  try {
    return validate(value, entry.schema, entry.draft, entry.lookup, true).valid;
  } catch {
    // A value that is not JSON (undefined, a function), or a stack the value's depth exhausted.
    return false;
  }
}

/** How many schemas are kept readied (for tests). */
export function preparedSchemaCount(): number {
  return prepared.size;
}

/** How many times a schema was readied since the module loaded (for tests). */
export function schemaPreparationCount(): number {
  return preparations;
}
