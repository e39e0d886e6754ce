/**
 * The contract a generation freezes (seed 002 §12 "同一 generation 冻结…"): document id, version, mode, the
 * state definitions, derived, actions, the root's id and type, and the option value set every Select imposes
 * on its field. An existing node id cannot become another component type. A new Select must reuse its field's
 * existing option set, and removing the last Select of a field would widen that field's domain, so both are
 * rejected; a producer that needs another contract opens a new generation. This keeps the value domain of a
 * field the user may be typing into stable while the UI streams in.
 */

import type { UIDocument, UINode } from '../dsl/types.js';
import type { IssueCollector, IssuePath } from '../errors/issues.js';
import { jsonEqual } from '../json/equal.js';

/** The option value set a field's Selects impose, with where the first such Select sits. */
interface SelectDomain {
  readonly values: ReadonlySet<string>;
  readonly path: IssuePath;
}

interface DocumentOutline {
  /** Every node by id, with its path from the document root. */
  readonly nodes: ReadonlyMap<string, { readonly node: UINode; readonly path: IssuePath }>;
  /** Field name → option set, for every field at least one Select binds. */
  readonly selects: ReadonlyMap<string, SelectDomain>;
}

const outlines = new WeakMap<UIDocument, DocumentOutline>();

/** Nodes and Select domains of a validated document, computed once per frozen document. */
export function outline(document: UIDocument): DocumentOutline {
  const known = outlines.get(document);
  if (known) return known;
  const nodes = new Map<string, { node: UINode; path: IssuePath }>();
  const selects = new Map<string, SelectDomain>();
  const visit = (node: UINode, path: IssuePath): void => {
    nodes.set(node.id, { node, path });
    // parseDocument already proved every Select of one field offers the same value set.
    if (node.type === 'Select' && !selects.has(node.props.bind)) {
      selects.set(node.props.bind, {
        values: new Set(node.props.options.map((option) => option.value)),
        path: [...path, 'props', 'options'],
      });
    }
    if ('children' in node) {
      for (let index = 0; index < node.children.length; index++)
        visit(node.children[index]!, [...path, 'children', index]);
    }
  };
  visit(document.root, ['root']);
  const result = { nodes, selects };
  outlines.set(document, result);
  return result;
}

const FIXED_MESSAGE = 'is fixed within a generation; open a new generation to change it.';

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const value of a) if (!b.has(value)) return false;
  return true;
}

/** Reports every entry of two dictionaries that differs, at `<name>.<key>`. */
function compareDictionary(
  name: 'state' | 'derived' | 'actions',
  base: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
  issues: IssueCollector,
): void {
  if (base === next || jsonEqual(base, next)) return;
  const what = name === 'state' ? 'A state definition' : name === 'derived' ? 'A derived field' : 'An action';
  for (const key of new Set([...Object.keys(base), ...Object.keys(next)])) {
    if (issues.full) return;
    if (!Object.hasOwn(base, key) || !Object.hasOwn(next, key) || !jsonEqual(base[key], next[key]))
      issues.add([name, key], 'invalid_value', `${what} ${FIXED_MESSAGE}`);
  }
}

export interface ContractOptions {
  /**
   * Whether an id present in both documents must keep its component type. True between consecutive frames;
   * false across a gap of missed frames, where the node may have been removed and added again as a new node.
   */
  readonly nodeTypes: boolean;
}

/**
 * Adds an issue to `issues` (paths inside `next`) for every part of the generation contract `next` changes
 * relative to `base`. Both documents are validated and frozen.
 */
export function checkGenerationContract(
  base: UIDocument,
  next: UIDocument,
  options: ContractOptions,
  issues: IssueCollector,
): void {
  if (base === next) return;
  if (next.id !== base.id) issues.add(['id'], 'invalid_value', `The document id ${FIXED_MESSAGE}`);
  if (next.version !== base.version)
    issues.add(['version'], 'invalid_value', `The document version ${FIXED_MESSAGE}`);
  if (next.mode !== base.mode) issues.add(['mode'], 'invalid_value', `The document mode ${FIXED_MESSAGE}`);
  compareDictionary('state', base.state, next.state, issues);
  compareDictionary('derived', base.derived, next.derived, issues);
  if (base.version === '1.1' && next.version === '1.1')
    compareDictionary('actions', base.actions, next.actions, issues);
  if (next.root.id !== base.root.id)
    issues.add(['root', 'id'], 'invalid_value', `The root id ${FIXED_MESSAGE}`);
  if (next.root.type !== base.root.type)
    issues.add(['root', 'type'], 'invalid_value', `The root component type ${FIXED_MESSAGE}`);
  if (next.root === base.root) return;

  const before = outline(base);
  const after = outline(next);
  if (options.nodeTypes) {
    for (const [id, { node, path }] of after.nodes) {
      if (issues.full) return;
      const previous = before.nodes.get(id);
      if (previous && previous.node.type !== node.type && path.length > 1)
        issues.add(
          [...path, 'type'],
          'invalid_value',
          'An existing node id cannot change its component type.',
        );
    }
  }
  for (const [field, domain] of after.selects) {
    const previous = before.selects.get(field);
    if (!previous)
      issues.add(
        domain.path,
        'select_domain_conflict',
        'A new Select may only bind a field that already has Selects, and must reuse their option values.',
      );
    else if (!sameSet(previous.values, domain.values))
      issues.add(
        domain.path,
        'select_domain_conflict',
        `The option values of a field's Selects are its domain, which ${FIXED_MESSAGE}`,
      );
  }
  for (const field of before.selects.keys()) {
    if (!after.selects.has(field))
      issues.add(
        ['state', field],
        'select_domain_conflict',
        "Removing the last Select of a field would change the field's domain; keep one Select bound to it.",
      );
  }
}
