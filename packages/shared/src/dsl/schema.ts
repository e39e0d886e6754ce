/**
 * zod schemas of the Intelligent UI document (seed 002 §2–§6, §11): the node union is built from the component
 * table (components.ts), the rest from schema-parts.ts and the limits. They describe structure only — closed
 * objects, types, local bounds — and are the source of the exported JSON Schema (`documentJsonSchema`). They are
 * not the trust boundary: `parseDocument` adds the semantic checks (unique ids, references, cycles, static
 * types, shared domains, default evaluation, budgets) that no structural schema can express (seed 002 §9), and
 * is what hosts and clients must call.
 */
import { z } from 'zod';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_DOCUMENT_MODES } from './catalog.js';
import { UI_COMPONENT_TABLE, UI_COMPONENT_TYPES } from './components.js';
import {
  ExprSchema,
  StateDeclarationSchema,
  UIActionDefinitionSchema,
  UIActionSchema,
  UIIdentifierSchema,
  UILocalActionSchema,
} from './schema-parts.js';
import type { UIAction, UIDocumentV10, UIDocumentV11, UINode } from './types.js';

export {
  ExprSchema,
  ResultFormatSchema,
  ScalarSchema,
  StateDeclarationSchema,
  UIActionDefinitionSchema,
  UIActionSchema,
  UIIdentifierSchema,
  UILocalActionSchema,
  ValueSchema,
} from './schema-parts.js';

// Dictionaries carry their size limit as JSON Schema `maxProperties` through `.meta()`: zod records cannot
// state it, and parseDocument enforces it.

/** The node union for one document version; only the layout components carry `children`. */
function nodeSchema(version: '1.0' | '1.1', action: z.ZodType<UIAction>): z.ZodType<UINode> {
  const node: z.ZodType<UINode> = z
    .lazy(() =>
      z.discriminatedUnion(
        'type',
        UI_COMPONENT_TYPES.map((type) => {
          const { props, children } = UI_COMPONENT_TABLE[type];
          const shape = { id: UIIdentifierSchema, type: z.literal(type), props: props({ action }) };
          return children === 'required'
            ? z.strictObject({ ...shape, children: z.array(node).max(UI_LIMITS.maxComponents - 1) })
            : z.strictObject(shape);
        }) as unknown as [z.ZodObject, ...z.ZodObject[]],
      ),
    )
    .meta({ id: version === '1.0' ? 'NodeV1_0' : 'NodeV1_1' }) as unknown as z.ZodType<UINode>;
  return node;
}

const documentBase = {
  id: UIIdentifierSchema,
  mode: z.enum(UI_DOCUMENT_MODES),
  title: z.string().min(1).max(UI_LIMITS.maxTitleLength),
  state: z
    .record(UIIdentifierSchema, StateDeclarationSchema)
    .meta({ maxProperties: UI_LIMITS.maxStateFields }),
  derived: z.record(UIIdentifierSchema, ExprSchema).meta({ maxProperties: UI_LIMITS.maxDerivedFields }),
};

export const UIDocumentV10Schema: z.ZodType<UIDocumentV10> = z
  .strictObject({ version: z.literal('1.0'), ...documentBase, root: nodeSchema('1.0', UILocalActionSchema) })
  .meta({ id: 'DocumentV1_0', description: 'DSL 1.0: local set/reset actions only.' });

export const UIDocumentV11Schema: z.ZodType<UIDocumentV11> = z
  .strictObject({
    version: z.literal('1.1'),
    ...documentBase,
    actions: z
      .record(UIIdentifierSchema, UIActionDefinitionSchema)
      .meta({ maxProperties: UI_PROTOCOL_LIMITS.maxActions }),
    root: nodeSchema('1.1', UIActionSchema),
  })
  .meta({ id: 'DocumentV1_1', description: 'DSL 1.1: adds the actions dictionary and invoke.' });

/** Structure of a 1.0 or 1.1 document. Use `parseDocument` for validation; this schema alone is not enough. */
export const UIDocumentSchema = z.discriminatedUnion('version', [
  UIDocumentV10Schema as unknown as z.ZodObject,
  UIDocumentV11Schema as unknown as z.ZodObject,
]);
