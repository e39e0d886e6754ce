/**
 * Component mutations and terminal intents (seed 002 §12 "候选树与稳定状态"): `add` inserts a complete
 * subtree into an existing layout parent, `update` replaces one node's props wholesale, `remove` deletes a
 * non-root node with its subtree. There is deliberately no generic JSON path: a patch can only name a node id,
 * so it cannot reach a prototype, a registry or the host context.
 *
 * `applyMutation` builds the candidate tree with structural sharing: only the nodes on the path from the root
 * to the changed node are new objects, every other branch is the previous frozen object, so a renderer keeps
 * its React keys and skips unchanged subtrees. The candidate is not validated here; stream.ts re-validates the
 * whole of it with `parseDocument` before committing.
 */
import { z } from 'zod';
import { UI_COMPONENTS } from '../dsl/components.js';
import { UIDocumentV11Schema, UIIdentifierSchema } from '../dsl/schema.js';
import type { UIDocument, UINode } from '../dsl/types.js';
import { UIStreamError } from '../errors/errors.js';
import { createIssue, type IssuePath, type UIIssueCode } from '../errors/issues.js';
import type { SafeJSONBudget } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS, UI_STREAM_TERMINAL_TYPES, UIStreamMessageSchema } from './checkpoint.js';

/**
 * The node schema of DSL 1.1 (the superset: 1.1 adds `invoke`). A 1.0 document that receives an `invoke`
 * node is still rejected, by `parseDocument` on the candidate. schema.ts does not export the node schema on
 * its own, so it is read from the document schema's `root`.
 */
const nodeSchema = (UIDocumentV11Schema as unknown as z.ZodObject).shape.root as unknown as z.ZodType<UINode>;

/** The most properties any component declares (catalog), stated in the JSON Schema of `update.props`. */
const MAX_COMPONENT_PROPS = Math.max(
  ...Object.values(UI_COMPONENTS).map(({ required, optional }) => required.length + optional.length),
);

export const UIStreamAddMutationSchema = z.strictObject({
  type: z.literal('add'),
  parentId: UIIdentifierSchema,
  /** Position among the parent's children after insertion; at most the current child count. */
  index: z
    .int()
    .min(0)
    .max(UI_LIMITS.maxComponents - 1),
  node: nodeSchema,
});

export const UIStreamUpdateMutationSchema = z.strictObject({
  type: z.literal('update'),
  nodeId: UIIdentifierSchema,
  /** The node's complete new props; `parseDocument` checks them against the node's component type. */
  props: z.record(UIIdentifierSchema, z.json()).meta({ maxProperties: MAX_COMPONENT_PROPS }),
});

export const UIStreamRemoveMutationSchema = z.strictObject({
  type: z.literal('remove'),
  nodeId: UIIdentifierSchema,
});

/** One component patch (seed 002 §12), at most `UI_PROTOCOL_LIMITS.maxStreamMutationBytes`. */
export const UIStreamMutationSchema = z
  .discriminatedUnion('type', [
    UIStreamAddMutationSchema,
    UIStreamUpdateMutationSchema,
    UIStreamRemoveMutationSchema,
  ])
  .meta({ id: 'UIStreamMutation', description: 'add, update or remove one component subtree.' });
export type UIStreamMutation = z.infer<typeof UIStreamMutationSchema>;

/** The end of a generation as the producer asks for it: complete, cancel or error, with an optional note. */
export const UIStreamTerminalIntentSchema = z
  .strictObject({
    type: z.enum(UI_STREAM_TERMINAL_TYPES),
    message: UIStreamMessageSchema.exactOptional(),
  })
  .meta({ id: 'UIStreamTerminalIntent' });
export type UIStreamTerminalIntent = z.infer<typeof UIStreamTerminalIntentSchema>;

/** What `advanceUIStream` takes: a mutation or a terminal intent. */
export const UIStreamEventSchema = z
  .discriminatedUnion('type', [
    UIStreamAddMutationSchema,
    UIStreamUpdateMutationSchema,
    UIStreamRemoveMutationSchema,
    UIStreamTerminalIntentSchema,
  ])
  .meta({ id: 'UIStreamEvent' });
export type UIStreamEvent = z.infer<typeof UIStreamEventSchema>;

/** seed 002 §13: one patch or terminal intent; a subtree nests like a document, plus the shell's levels. */
// (Built by hand: `messageBudget`'s depth parameter is typed as the literal 128, so it cannot take this sum.)
export const UI_STREAM_EVENT_BUDGET: SafeJSONBudget = Object.freeze({
  maxBytes: UI_PROTOCOL_LIMITS.maxStreamMutationBytes,
  maxDepth: UI_LIMITS.maxJsonDepth + UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues,
});

function reject(path: IssuePath, code: UIIssueCode, message: string): never {
  throw new UIStreamError([createIssue(path, code, message)]);
}

/** The chain of nodes from the root to the node `id` and the child index taken at each step. */
interface NodeLocation {
  readonly chain: readonly UINode[];
  readonly indexes: readonly number[];
}

function locate(root: UINode, id: string): NodeLocation | undefined {
  const chain: UINode[] = [];
  const indexes: number[] = [];
  const visit = (node: UINode): boolean => {
    chain.push(node);
    if (node.id === id) return true;
    if ('children' in node) {
      for (let index = 0; index < node.children.length; index++) {
        indexes.push(index);
        if (visit(node.children[index]!)) return true;
        indexes.pop();
      }
    }
    chain.pop();
    return false;
  };
  return visit(root) ? { chain, indexes } : undefined;
}

function withChildren(node: UINode, children: readonly UINode[]): UINode {
  return Object.freeze({ ...node, children: Object.freeze(children) }) as UINode;
}

/**
 * Replaces `location`'s last node by `replacement` (or removes it when `null`), copying only its ancestors.
 */
function rebuild(document: UIDocument, location: NodeLocation, replacement: UINode | null): UIDocument {
  const { chain, indexes } = location;
  let next = replacement;
  for (let level = chain.length - 2; level >= 0; level--) {
    const parent = chain[level] as UINode & { children: readonly UINode[] };
    const children = parent.children.slice();
    if (next === null) children.splice(indexes[level]!, 1);
    else children[indexes[level]!] = next;
    next = withChildren(parent, children);
  }
  return Object.freeze({ ...document, root: next! });
}

/**
 * Applies a validated mutation to a validated, frozen document and returns the frozen candidate, sharing
 * every unchanged branch. Throws `UIStreamError` at the mutation's own fields (`parentId`, `index`, `nodeId`)
 * when it names no node, a node that cannot take children, a position out of range, or the root.
 */
export function applyMutation(document: UIDocument, mutation: UIStreamMutation): UIDocument {
  switch (mutation.type) {
    case 'add': {
      const location = locate(document.root, mutation.parentId);
      if (!location) return reject(['parentId'], 'unknown_reference', 'parentId must name an existing node.');
      const parent = location.chain[location.chain.length - 1]!;
      if (!('children' in parent))
        return reject(
          ['parentId'],
          'children_not_allowed',
          'Only Row, Column, Grid, Card and Form nodes take children.',
        );
      if (mutation.index > parent.children.length)
        return reject(
          ['index'],
          'number_out_of_range',
          `index must be between 0 and the parent's child count (${parent.children.length}).`,
        );
      const children = parent.children.slice();
      children.splice(mutation.index, 0, mutation.node);
      return rebuild(document, location, withChildren(parent, children));
    }
    case 'update': {
      const location = locate(document.root, mutation.nodeId);
      if (!location) return reject(['nodeId'], 'unknown_reference', 'nodeId must name an existing node.');
      const node = location.chain[location.chain.length - 1]!;
      // seed 002 §12: update replaces props only; id, type and children stay the node's own.
      return rebuild(document, location, Object.freeze({ ...node, props: mutation.props }) as UINode);
    }
    case 'remove': {
      if (mutation.nodeId === document.root.id)
        return reject(['nodeId'], 'invalid_value', 'The root node cannot be removed.');
      const location = locate(document.root, mutation.nodeId);
      if (!location) return reject(['nodeId'], 'unknown_reference', 'nodeId must name an existing node.');
      return rebuild(document, location, null);
    }
  }
}
