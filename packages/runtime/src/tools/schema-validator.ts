/**
 * Checks tool arguments against the input schema the inventory published (seed 003 §4.2 step 2). The
 * schemas are the manifests' JSON Schemas (Draft 2020-12), compiled once per schema object with AJV and kept
 * while the object lives. AJV reports no value back to the agent: a failure is one stable code.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Whether `value` satisfies `schema`; a schema AJV cannot compile accepts nothing. */
export function matchesSchema(schema: object, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = (() => false) as unknown as ValidateFunction;
    }
    compiled.set(schema, validate);
  }
  return validate(value) === true;
}
