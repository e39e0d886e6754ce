/**
 * `documentJsonSchema` (seed 002 §9): JSON Schema Draft 2020-12 of both document versions, generated from the
 * zod schemas of schema.ts, for editors, tools and build exports. The build writes it to
 * `schema/ui.schema.json`. It checks structure only; `parseDocument` remains the trust boundary.
 */
import { type JSONSchemaObject, jsonSchemaFromZod } from '../json/zod-json-schema.js';
import { UIDocumentSchema } from './schema.js';

export const UI_DOCUMENT_SCHEMA_ID = 'urn:dsh:intelligent-ui:document:1.1';

function buildDocumentJsonSchema(): JSONSchemaObject {
  // Recursive schemas (Expr, nodes) stay as $ref into $defs.
  const generated = jsonSchemaFromZod(UIDocumentSchema);
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: UI_DOCUMENT_SCHEMA_ID,
    title: 'LineUp Intelligent UI document (DSL 1.0 and 1.1)',
    description:
      'Structure of an Intelligent UI document. Passing this schema is necessary, not sufficient: parseDocument also checks unique ids, references, cycles, static types, shared domains, default evaluation and budgets.',
    ...rest,
  };
}

/** The document JSON Schema (Draft 2020-12, `$id` `urn:dsh:intelligent-ui:document:1.1`), deep-frozen. */
export const documentJsonSchema: Readonly<JSONSchemaObject> = /* @__PURE__ */ deepFreezeSchema(
  buildDocumentJsonSchema(),
);

function deepFreezeSchema<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreezeSchema(item);
    Object.freeze(value);
  }
  return value;
}
