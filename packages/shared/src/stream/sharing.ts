/**
 * Structural sharing between consecutive snapshots (seed 002 §12: "未变的分支保持对象引用与组件 key，避免每帧
 * 重新挂载整棵界面"). Every frame carries a full snapshot, freshly parsed, so without this step every node of
 * every frame would be a new object and a renderer would re-render the whole tree. `shareStructure` keeps the
 * previous frozen object for every part whose content is unchanged; only the path from the root to what
 * changed is new.
 */
import type { UIDocument, UINode } from '../dsl/types.js';

const { isArray } = Array;
const { hasOwn, freeze } = Object;

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

const nodeMaps = new WeakMap<UIDocument, ReadonlyMap<string, UINode>>();

/** Every node of a frozen document by id, computed once per document. */
function nodesById(document: UIDocument): ReadonlyMap<string, UINode> {
  let nodes = nodeMaps.get(document);
  if (!nodes) {
    const map = new Map<string, UINode>();
    const stack: UINode[] = [document.root];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      map.set(node.id, node);
      if ('children' in node) for (const child of node.children) stack.push(child);
    }
    nodes = map;
    nodeMaps.set(document, nodes);
  }
  return nodes;
}

/**
 * Returns a frozen document equal in content to `next` in which every node, props object, state, derived
 * and actions dictionary that equals its counterpart in `base` (nodes matched by id, wherever they sit) is
 * `base`'s own object. Returns `base` itself when nothing changed, and reuses `next`'s objects where they
 * share nothing with `base`. Both documents are validated and frozen; neither is modified.
 */
export function shareStructure(base: UIDocument, next: UIDocument): UIDocument {
  if (base === next) return base;
  const previous = nodesById(base);

  const mergeNode = (node: UINode): UINode => {
    const old = previous.get(node.id);
    const props = old && jsonEqual(old.props, node.props) ? old.props : node.props;
    if (!('children' in node)) {
      if (old && old.type === node.type && props === old.props) return old;
      return props === node.props ? node : (freeze({ ...node, props }) as UINode);
    }
    const children = node.children.map(mergeNode);
    const oldChildren = old && 'children' in old ? old.children : undefined;
    if (
      old &&
      old.type === node.type &&
      props === old.props &&
      oldChildren !== undefined &&
      sameItems(children, oldChildren)
    )
      return old;
    if (props === node.props && sameItems(children, node.children)) return node;
    return freeze({ ...node, props, children: freeze(children) }) as UINode;
  };

  const root = mergeNode(next.root);
  const state = jsonEqual(base.state, next.state) ? base.state : next.state;
  const derived = jsonEqual(base.derived, next.derived) ? base.derived : next.derived;
  const actions =
    base.version === '1.1' && next.version === '1.1' && jsonEqual(base.actions, next.actions)
      ? base.actions
      : next.version === '1.1'
        ? next.actions
        : undefined;
  if (
    root === base.root &&
    state === base.state &&
    derived === base.derived &&
    (base.version === '1.0' || actions === base.actions) &&
    next.version === base.version &&
    next.id === base.id &&
    next.mode === base.mode &&
    next.title === base.title
  )
    return base;
  const merged: Record<string, unknown> = { ...next, state, derived, root };
  if (actions !== undefined) merged.actions = actions;
  return freeze(merged) as unknown as UIDocument;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
