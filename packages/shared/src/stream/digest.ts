/**
 * Sizes and content digests of stream frames (seed 002 §12: "同 seq 的 SHA-256 内容摘要不同则作为冲突拒绝",
 * "接收器保存有界摘要记录、帧数与累计字节数").
 *
 * Every frame needs its byte size (the generation budget), but a digest only matters when a seq arrives a
 * second time: it decides between "the same frame again" and "a conflict". So the two are split. The size
 * is computed for every frame, cheaply: frames repeat a full snapshot of up to 262,144 bytes, consecutive
 * snapshots share almost all of it (dsl/copy.ts, mutation.ts), and the size of each frozen document part
 * (document, node, props, state, derived, actions) is remembered per object, so only the path from the root
 * to what changed is measured again. The digest, SHA-256 over the whole frame (~2.5 ms at 262 KB), is
 * computed on demand and at most once per frame object.
 */
import type { UIDocument, UINode } from '../dsl/types.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength, type SafeJSONBudget, utf8ByteLength } from '../json/safe-json.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS, type UIStreamCheckpoint } from './checkpoint.js';

const { keys: objectKeys, isFrozen } = Object;
const { stringify } = JSON;

/**
 * What hashing may walk: only parsed frames are hashed, so depth and values are a document's plus the
 * envelope's (seed 002 §13) and never exceeded. Bytes are not bounded here: the frame size is checked by the
 * generation budget, and a conflicting duplicate is hashed without it.
 */
const FRAME_DIGEST_BUDGET: SafeJSONBudget = Object.freeze({
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxDepth: UI_LIMITS.maxJsonDepth + UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues + UI_STREAM_LIMITS.envelopeJsonValues,
});

/** UTF-8 sizes of frozen document parts; a frozen part's content cannot change, so neither can its size. */
const sizes = new WeakMap<object, number>();

/** Digests of frozen frames, each computed on first request. */
const digests = new WeakMap<UIStreamCheckpoint, string>();

function remembered<T extends object>(part: T, measure: (part: T) => number): number {
  let size = sizes.get(part);
  if (size === undefined) {
    size = measure(part);
    if (isFrozen(part)) sizes.set(part, size);
  }
  return size;
}

/** UTF-8 size of a JSON value already known to be safe JSON; objects are remembered whole. */
function valueBytes(value: unknown): number {
  if (typeof value === 'object' && value !== null) return remembered(value, jsonByteLength);
  // JSON.stringify escapes lone surrogates, so its text is well-formed and utf8ByteLength is exact.
  return utf8ByteLength(stringify(value));
}

/** `{"name":value,…}`: braces, a colon per member, a comma between members, and `member` for each value. */
function objectBytes(record: object, member: (name: string, value: unknown) => number): number {
  const names = objectKeys(record);
  let bytes = names.length === 0 ? 2 : 2 * names.length + 1;
  for (const name of names)
    bytes +=
      utf8ByteLength(stringify(name)) + member(name, (record as Readonly<Record<string, unknown>>)[name]);
  return bytes;
}

function nodeBytes(node: UINode): number {
  return remembered(node, () =>
    objectBytes(node, (name, value) => {
      if (name !== 'children' || !('children' in node)) return valueBytes(value);
      let bytes = node.children.length === 0 ? 2 : node.children.length + 1;
      for (const child of node.children) bytes += nodeBytes(child);
      return bytes;
    }),
  );
}

function documentBytes(document: UIDocument): number {
  return remembered(document, () =>
    objectBytes(document, (name, value) => (name === 'root' ? nodeBytes(document.root) : valueBytes(value))),
  );
}

/**
 * UTF-8 size of a validated frame as JSON text (`JSON.stringify` and canonical JSON have the same length),
 * measuring only the parts not seen in an earlier frame.
 */
export function frameBytes(checkpoint: UIStreamCheckpoint): number {
  return objectBytes(checkpoint, (name, value) =>
    name === 'snapshot' ? documentBytes(checkpoint.snapshot) : valueBytes(value),
  );
}

/**
 * The content digest of a validated frame: exactly `hashCanonicalJSON(frame)`, lowercase hex SHA-256 of its
 * canonical JSON. Computed at most once per frozen frame.
 */
export function frameDigest(checkpoint: UIStreamCheckpoint): string {
  let digest = digests.get(checkpoint);
  if (digest === undefined) {
    digest = hashCanonicalJSON(checkpoint, FRAME_DIGEST_BUDGET);
    if (isFrozen(checkpoint)) digests.set(checkpoint, digest);
  }
  return digest;
}
