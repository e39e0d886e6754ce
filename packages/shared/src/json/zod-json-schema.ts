/**
 * The one way LineUp turns a zod schema into JSON Schema: Draft 2020-12, recursive schemas as `$ref` into
 * `$defs`, shared sub-schemas inlined, and a hard error for anything JSON Schema cannot say (a transform, a
 * date), so a generated schema never silently accepts less or more than its zod source. Used for the
 * document schema, the `intelligent_ui*` tool parameters and the Agent Tool schemas a MiniApp declares.
 */
import { z } from 'zod';

/** A JSON Schema object as JSON data. */
export type JSONSchemaObject = { [key: string]: unknown };

export interface JSONSchemaFromZodOptions {
  /**
   * `output` (default): the data after parsing — a field with a default is required. `input`: what a sender
   * may send — a field with a default is optional. Arguments use `input`, results `output`.
   */
  readonly io?: 'input' | 'output';
}

/**
 * JSON Schema (Draft 2020-12, with its `$schema`) of a zod schema, as plain JSON data; throws for an
 * unrepresentable one. zod attaches a non-enumerable `~standard` helper to its result, which no JSON
 * carrier accepts (the safe-JSON checks refuse non-enumerable properties), so only the data is returned.
 */
export function jsonSchemaFromZod(
  schema: z.ZodType,
  options: JSONSchemaFromZodOptions = {},
): JSONSchemaObject {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: options.io ?? 'output',
    cycles: 'ref',
    reused: 'inline',
    unrepresentable: 'throw',
  });
  return JSON.parse(JSON.stringify(generated)) as JSONSchemaObject;
}
