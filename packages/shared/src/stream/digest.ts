/**
 * Content digests of stream frames (seed 002 §12: "同 seq 的 SHA-256 内容摘要不同则作为冲突拒绝"). The digest
 * of a frame is exactly `hashCanonicalJSON(frame)`: SHA-256 of its canonical JSON text. It also yields the
 * frame's byte size for the stream budget, since canonical text has the length `JSON.stringify` would give.
 *
 * Every frame repeats a full snapshot of up to 262,144 bytes, and consecutive snapshots share almost all of
 * it. So the canonical UTF-8 bytes of each frozen document part (document, node, props, state, derived,
 * actions) are remembered per object: with structural sharing (sharing.ts, mutation.ts) only the path from
 * the root to a changed node is written and encoded again, and the cost left per frame is SHA-256 itself.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { UIDocument, UINode } from '../dsl/types.js';
import type { UIStreamCheckpoint } from './checkpoint.js';

const { isArray } = Array;
const { keys: objectKeys, isFrozen } = Object;
const { stringify } = JSON;

/**
 * The canonical JSON of a document part as UTF-8 chunks: its own text, encoded once, around the encodings of
 * its children. Hashing feeds the chunks to SHA-256 in order, so a frame is never joined into one string or
 * encoded again as a whole; an unchanged node costs one cache lookup and its bytes' hashing.
 */
interface Encoded {
  readonly parts: readonly (Uint8Array | Encoded)[];
  /** UTF-8 bytes of the whole part. */
  readonly length: number;
}

/** Encodings of frozen document parts; a frozen object's content cannot change, so neither can its bytes. */
const encodings = new WeakMap<object, Encoded>();

/** Collects text and nested encodings, merging adjacent text into one chunk. */
class Writer {
  private readonly parts: (Uint8Array | Encoded)[] = [];
  private text: string[] = [];
  private length = 0;

  write(text: string): void {
    this.text.push(text);
  }

  embed(encoded: Encoded): void {
    this.flush();
    this.parts.push(encoded);
    this.length += encoded.length;
  }

  /** Appends the canonical JSON of a value already known to be safe JSON. */
  value(value: unknown): void {
    if (typeof value !== 'object' || value === null) {
      this.text.push(stringify(value));
      return;
    }
    if (isArray(value)) {
      this.text.push('[');
      for (let index = 0; index < value.length; index++) {
        if (index > 0) this.text.push(',');
        this.value(value[index]);
      }
      this.text.push(']');
      return;
    }
    const record = value as Readonly<Record<string, unknown>>;
    const names = objectKeys(record).sort();
    this.text.push('{');
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      this.text.push(index > 0 ? `,${stringify(name)}:` : `${stringify(name)}:`);
      this.value(record[name]);
    }
    this.text.push('}');
  }

  finish(): Encoded {
    this.flush();
    return { parts: this.parts, length: this.length };
  }

  private flush(): void {
    if (this.text.length === 0) return;
    const bytes = utf8ToBytes(this.text.join(''));
    this.text = [];
    this.parts.push(bytes);
    this.length += bytes.length;
  }
}

function remembered(value: object, write: (writer: Writer) => void): Encoded {
  const known = encodings.get(value);
  if (known !== undefined) return known;
  const writer = new Writer();
  write(writer);
  const encoded = writer.finish();
  if (isFrozen(value)) encodings.set(value, encoded);
  return encoded;
}

/** Writes an object's members in canonical (sorted) order; `member` writes one value. */
function writeMembers(writer: Writer, record: object, member: (name: string, value: unknown) => void): void {
  const names = objectKeys(record).sort();
  writer.write('{');
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    writer.write(index > 0 ? `,${stringify(name)}:` : `${stringify(name)}:`);
    member(name, (record as Readonly<Record<string, unknown>>)[name]);
  }
  writer.write('}');
}

function encodePart(value: unknown): Encoded {
  if (typeof value !== 'object' || value === null) {
    const writer = new Writer();
    writer.value(value);
    return writer.finish();
  }
  return remembered(value, (writer) => writer.value(value));
}

function encodeNode(node: UINode): Encoded {
  return remembered(node, (writer) =>
    writeMembers(writer, node, (name, value) => {
      if (name === 'children' && 'children' in node) {
        writer.write('[');
        for (let index = 0; index < node.children.length; index++) {
          if (index > 0) writer.write(',');
          writer.embed(encodeNode(node.children[index]!));
        }
        writer.write(']');
      } else if (name === 'props') writer.embed(encodePart(value));
      else writer.value(value);
    }),
  );
}

/** The canonical JSON of a validated document as UTF-8 chunks, reusing the chunks of every part seen before. */
function encodeDocument(document: UIDocument): Encoded {
  return remembered(document, (writer) =>
    writeMembers(writer, document, (name, value) => {
      if (name === 'root') writer.embed(encodeNode(document.root));
      else if (name === 'state' || name === 'derived' || name === 'actions') writer.embed(encodePart(value));
      else writer.value(value);
    }),
  );
}

function feed(hash: ReturnType<typeof sha256.create>, encoded: Encoded): void {
  for (const part of encoded.parts) {
    if (part instanceof Uint8Array) hash.update(part);
    else feed(hash, part);
  }
}

/** The SHA-256 content digest and the UTF-8 size of one frame. */
export interface FrameDigest {
  /** Lowercase hex SHA-256 of the canonical JSON text: equal to `hashCanonicalJSON(frame)`. */
  readonly digest: string;
  /** UTF-8 bytes of the frame as JSON (the same for canonical text and for `JSON.stringify`). */
  readonly bytes: number;
}

/** Digest and size of a frame whose envelope and snapshot are validated. */
export function frameDigest(checkpoint: UIStreamCheckpoint): FrameDigest {
  const writer = new Writer();
  writeMembers(writer, checkpoint, (name, value) => {
    if (name === 'snapshot') writer.embed(encodeDocument(checkpoint.snapshot));
    else writer.value(value);
  });
  const encoded = writer.finish();
  const hash = sha256.create();
  feed(hash, encoded);
  return { digest: bytesToHex(hash.digest()), bytes: encoded.length };
}

/** SHA-256 of a validated document's canonical JSON (tests compare it with `hashCanonicalJSON`). */
export function documentDigest(document: UIDocument): string {
  const hash = sha256.create();
  feed(hash, encodeDocument(document));
  return bytesToHex(hash.digest());
}
