/**
 * The copy `parseDocument` returns, made in one pass after validation: every object and array is new and
 * frozen as soon as it is filled, so no separate freezing walk is needed.
 *
 * Streams add structural sharing (seed 002 §12: "未变的分支保持对象引用与组件 key，避免每帧重新挂载整棵界面"):
 * every frame carries a full snapshot, freshly decoded, so without sharing every node of every frame would be
 * a new object and a renderer would re-render the whole tree. `frozenCopySharing` copies a validated input
 * against the previous document: each node (matched by id, wherever it sits), props object, and the state,
 * derived and actions dictionaries that equal their counterpart in `base` are `base`'s own objects, and only
 * the path from the root to what changed is copied. Comparing an unchanged part costs less than copying and
 * freezing it, so sharing makes the copy cheaper, not dearer.
 */
import { jsonEqual } from '../json/equal.js';
import type { UIDocument, UINode } from './types.js';

type JSONRecord = { readonly [key: string]: unknown };

const { freeze, keys: objectKeys, defineProperty } = Object;
const { isArray } = Array;

/** A frozen deep copy of safe JSON (already proven acyclic, plain and bounded). */
export function frozenCopy(value: unknown): unknown {
  // JSON has no -0 (it serializes as 0): store 0, so a document and its JSON round trip are equal.
  if (typeof value !== 'object' || value === null) return value === 0 ? 0 : value;
  if (isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = frozenCopy(value[index]);
    return freeze(copy);
  }
  const copy: Record<string, unknown> = {};
  const names = objectKeys(value);
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    setMember(copy, name, frozenCopy((value as JSONRecord)[name]));
  }
  return freeze(copy);
}

function setMember(record: Record<string, unknown>, name: string, value: unknown): void {
  // Validation admits no "__proto__" key; should one ever pass, it must stay data, never become the prototype.
  if (name === '__proto__')
    defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

/** `base`'s part when equal to `value`, else a frozen copy of `value`. */
function shared(value: unknown, base: unknown): unknown {
  return jsonEqual(value, base) ? base : frozenCopy(value);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * A frozen copy of `input` — a document `parseDocument` has just validated — that shares every part equal to
 * its counterpart in `base` (another validated, frozen document; `nodes` is its node index). Returns `base`
 * itself when nothing differs.
 */
export function frozenCopySharing(
  input: JSONRecord,
  base: UIDocument,
  nodes: ReadonlyMap<string, UINode>,
): UIDocument {
  const copyNode = (node: JSONRecord): UINode => {
    const old = nodes.get(node.id as string);
    const props = old === undefined ? frozenCopy(node.props) : shared(node.props, old.props);
    const children = isArray(node.children) ? node.children.map(copyNode) : undefined;
    const oldChildren = old !== undefined && 'children' in old ? old.children : undefined;
    if (
      old !== undefined &&
      old.type === node.type &&
      props === old.props &&
      (children === undefined
        ? oldChildren === undefined
        : oldChildren !== undefined && sameItems(children, oldChildren))
    )
      return old;
    // A validated node has only `id`, `type`, `props` and, for layouts, `children`, in the sender's key order.
    const copy: Record<string, unknown> = {};
    for (const name of objectKeys(node))
      copy[name] =
        name === 'props' ? props : name === 'children' ? freeze(children!) : (node[name] as string);
    return freeze(copy) as unknown as UINode;
  };

  const root = copyNode(input.root as JSONRecord);
  const baseRecord = base as unknown as JSONRecord;
  const copy: Record<string, unknown> = {};
  let unchanged = root === base.root;
  const names = objectKeys(input);
  for (const name of names) {
    let value: unknown;
    if (name === 'root') value = root;
    else if (name === 'state' || name === 'derived' || name === 'actions')
      value = shared(input[name], baseRecord[name]);
    else value = input[name];
    if (value !== baseRecord[name]) unchanged = false;
    setMember(copy, name, value);
  }
  if (unchanged && names.length === objectKeys(base).length) return base;
  return freeze(copy) as unknown as UIDocument;
}
