/**
 * Frame sizes and digests (seed 002 §12): the size is the frame's JSON byte length, whatever the key order,
 * and remembered sizes of shared parts never go stale; the digest is exactly `hashCanonicalJSON(frame)`,
 * computed only when a seq arrives again, and at most once per frame.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import mutationsFixture from '../../fixtures/stream-mutations.json' with { type: 'json' };
import { clone } from '../../test/utils.js';
import { parseDocument, parseDocumentSharing } from '../dsl/document.js';
import type { UIDocument } from '../dsl/types.js';
import { UIStreamError } from '../errors/errors.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { buildCheckpoint, UI_STREAM_LIMITS, type UIStreamEnvelope } from './checkpoint.js';
import { frameBytes, frameDigest } from './digest.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

// Counts hashing: the real function, watched.
vi.mock('../json/canonical.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../json/canonical.js')>();
  return { ...original, hashCanonicalJSON: vi.fn(original.hashCanonicalJSON) };
});
const hashing = vi.mocked(hashCanonicalJSON);

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

const BUDGET = {
  maxBytes: UI_PROTOCOL_LIMITS.maxStreamFrameBytes,
  maxDepth: UI_LIMITS.maxJsonDepth + UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues + UI_STREAM_LIMITS.envelopeJsonValues,
};
const ENVELOPE: UIStreamEnvelope = {
  protocol: 'dsh.intelligent-ui.stream',
  version: '1.0',
  sourceCallId: 'call "quoted" \\ id',
  uiId: 'x',
  generation: 3,
  seq: 2,
  baseRevision: 0,
  revision: 1,
  type: 'update',
  // A lone surrogate is escaped by JSON.stringify (6 bytes), a pair is 4 bytes of UTF-8.
  message: 'Unicode ✓ 产品 \u0001 \ud83d\ude00 \ud800',
};

/** Reverses the key order of every object: neither size nor digest may care. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversed(item)]),
  );
}

const DOCUMENTS: [string, unknown][] = [
  ['compound-interest', compoundInterest],
  ['file-reader', fileReader],
  ['product-comparison', productComparison],
  ['form-controls', formControls],
  ['agent-callback', agentCallback],
  ['stream-initial', initialFixture],
  ['the maximum-size document', buildMaxDocument()],
];

const frameOf = (document: UIDocument) => buildCheckpoint({ ...ENVELOPE, uiId: document.id }, document);

beforeEach(() => {
  hashing.mockClear();
});

describe('frameBytes and frameDigest', () => {
  it.each(DOCUMENTS)('equal the JSON byte length and hashCanonicalJSON for %s', (_name, source) => {
    for (const input of [clone(source), reversed(clone(source))]) {
      const checkpoint = frameOf(parseDocument(input));
      expect(frameBytes(checkpoint)).toBe(jsonByteLength(checkpoint));
      expect(frameDigest(checkpoint)).toBe(hashCanonicalJSON(checkpoint, BUDGET));
    }
  });

  it('measures numbers and strings as JSON.stringify writes them', () => {
    const document = parseDocument({
      version: '1.0',
      id: 'numbers',
      mode: 'structured_ui',
      title: 'Numbers ✓',
      state: { n: { type: 'number', initial: -0, min: -1e15, max: 1e15, step: 1e-7 } },
      derived: {},
      root: { id: 'root', type: 'Text', props: { text: 'tab\there "q" \\ 😀' } },
    });
    const checkpoint = frameOf(document);
    expect(frameBytes(checkpoint)).toBe(jsonByteLength(checkpoint));
    expect(frameDigest(checkpoint)).toBe(hashCanonicalJSON(checkpoint, BUDGET));
  });

  it('stays correct for shared documents, whose parts were measured for an earlier frame', () => {
    const first = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.title = 'Edited, longer';
    edited.root.children[0].props.text = 'Changed ✓';
    const shared = parseDocumentSharing(edited, first);
    expect(frameBytes(frameOf(first))).toBe(jsonByteLength(frameOf(first)));
    expect(frameBytes(frameOf(shared))).toBe(jsonByteLength(frameOf(shared)));
    expect(frameBytes(frameOf(shared))).not.toBe(frameBytes(frameOf(first)));
    expect(frameDigest(frameOf(shared))).not.toBe(frameDigest(frameOf(first)));
  });

  it('does not remember objects that can still change', () => {
    const document = clone(initialFixture) as J;
    const checkpoint = { ...ENVELOPE, uiId: document.id, snapshot: document };
    const before = frameBytes(checkpoint);
    const digest = frameDigest(checkpoint);
    document.title = 'Changed';
    document.root.props.title = 'A longer title than before';
    expect(frameBytes(checkpoint)).not.toBe(before);
    expect(frameBytes(checkpoint)).toBe(jsonByteLength(checkpoint));
    expect(frameDigest(checkpoint)).not.toBe(digest);
    expect(frameDigest(checkpoint)).toBe(hashCanonicalJSON(checkpoint, BUDGET));
  });

  it('hashes a frozen frame at most once', () => {
    const checkpoint = frameOf(parseDocument(clone(productComparison)));
    const digest = frameDigest(checkpoint);
    expect(frameDigest(checkpoint)).toBe(digest);
    expect(hashing).toHaveBeenCalledTimes(1);
  });
});

describe('digests in a stream are computed only for a repeated seq', () => {
  const seedExample = (): UIStreamState[] => {
    const states = [startUIStream(clone(initialFixture), 'call-open-1', 1)];
    for (const mutation of clone(mutationsFixture) as J[])
      states.push(advanceUIStream(states.at(-1)!, mutation));
    return states;
  };

  it('hashes nothing while a producer advances or a receiver takes new frames and identical repeats', () => {
    const states = seedExample();
    let receiver: UIStreamState | null = null;
    for (const state of states) receiver = acceptCheckpoint(receiver, clone(state.checkpoint));
    for (const state of states) expect(acceptCheckpoint(receiver, clone(state.checkpoint))).toBe(receiver);
    expect(receiver!.digests.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(hashing).not.toHaveBeenCalled();
  });

  it('hashes a conflicting frame, and the accepted frame once however often it is challenged', () => {
    const states = seedExample();
    let receiver: UIStreamState | null = null;
    for (const state of states) receiver = acceptCheckpoint(receiver, clone(state.checkpoint));
    for (const title of ['Other', 'Another']) {
      const conflicting = clone(states[2]!.checkpoint) as J;
      conflicting.snapshot.title = title;
      expect(() => acceptCheckpoint(receiver, conflicting)).toThrow(UIStreamError);
    }
    // Two incoming frames, one accepted frame.
    expect(hashing).toHaveBeenCalledTimes(3);
    expect(receiver!.digests[2]!.digest).toBe(hashCanonicalJSON(states[2]!.checkpoint, BUDGET));
    expect(hashing).toHaveBeenCalledTimes(4);
  });

  it('reads each record as { seq, digest } data, hashing its frame on first read', () => {
    const [opened] = seedExample();
    const record = opened!.digests[0]!;
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.keys(record)).toEqual(['seq', 'digest']);
    const digest = hashCanonicalJSON(opened!.checkpoint, BUDGET);
    hashing.mockClear();
    expect(JSON.parse(JSON.stringify(record))).toEqual({ seq: 1, digest });
    expect(record.digest).toBe(digest);
    expect(hashing).toHaveBeenCalledTimes(1);
  });
});
