/**
 * Frame digests (seed 002 §12): exactly `hashCanonicalJSON(frame)`, whatever the key order, and the frame's
 * UTF-8 size; remembered encodings of shared parts never go stale.
 */
import { describe, expect, it } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import { parseDocument } from '../dsl/document.js';
import type { UIDocument } from '../dsl/types.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { buildCheckpoint, UI_STREAM_LIMITS, type UIStreamEnvelope } from './checkpoint.js';
import { documentDigest, frameDigest } from './digest.js';
import { shareStructure } from './sharing.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
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
  message: 'Unicode ✓ 产品 \u0001 \ud83d\ude00',
};

/** Reverses the key order of every object: the canonical text must not care. */
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

describe('frameDigest', () => {
  it.each(DOCUMENTS)('equals hashCanonicalJSON and the JSON byte length for %s', (_name, source) => {
    for (const input of [clone(source), reversed(clone(source))]) {
      const document = parseDocument(input);
      const checkpoint = buildCheckpoint({ ...ENVELOPE, uiId: document.id }, document);
      const { digest, bytes } = frameDigest(checkpoint);
      expect(digest).toBe(hashCanonicalJSON(checkpoint, BUDGET));
      expect(bytes).toBe(jsonByteLength(checkpoint));
      expect(documentDigest(document)).toBe(hashCanonicalJSON(document));
    }
  });

  it('writes numbers and strings as JSON.stringify does', () => {
    const document = parseDocument({
      version: '1.0',
      id: 'numbers',
      mode: 'structured_ui',
      title: 'Numbers ✓',
      state: { n: { type: 'number', initial: -0, min: -1e15, max: 1e15, step: 1e-7 } },
      derived: {},
      root: { id: 'root', type: 'Text', props: { text: 'tab\there "q" \\ 😀' } },
    });
    expect(documentDigest(document)).toBe(hashCanonicalJSON(document));
  });

  it('stays correct for shared documents, whose parts were written for an earlier frame', () => {
    const first = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.title = 'Edited';
    edited.root.children[0].props.text = 'Changed';
    const shared = shareStructure(first, parseDocument(edited));
    documentDigest(first);
    expect(documentDigest(shared)).toBe(hashCanonicalJSON(shared));
    expect(documentDigest(shared)).not.toBe(documentDigest(first));
  });

  it('does not remember the text of objects that can still change', () => {
    const document = clone(initialFixture) as J;
    const before = documentDigest(document as UIDocument);
    document.title = 'Changed';
    const after = documentDigest(document as UIDocument);
    expect(after).not.toBe(before);
    expect(after).toBe(hashCanonicalJSON(document));
  });
});
