/**
 * `lineup.v1.ui.document` and `lineup.v1.ui.checkpoint` (DESIGN.md "Wire messages"): bounded JSON objects
 * on the wire; their meaning is checked by `parseDocument` and the stream receiver.
 */
import { describe, expect, it } from 'vitest';
import compoundInterest from '../../../fixtures/compound-interest.json' with { type: 'json' };
import { clone, codesAndPaths, envelopeRejection } from '../../../test/utils.js';
import { parseDocument } from '../../dsl/document.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';
import { parseEnvelope } from '../envelope.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build arbitrary (often invalid) JSON on purpose.
type J = any;

const envelope = (type: string, payload: unknown): J => ({
  v: 1,
  id: 'msg_doc_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind: 'agent', id: 'agent_hermes_main' },
  payload,
});
/** An object whose JSON is exactly `bytes` long: `{"s":"…"}` is 8 bytes plus the string. */
const ofBytes = (bytes: number): J => ({ s: 'a'.repeat(bytes - 8) });
const checkpoint = (): J => ({
  protocol: 'dsh.intelligent-ui.stream',
  version: '1.0',
  sourceCallId: 'call_1',
  uiId: 'ui_1',
  generation: 1,
  seq: 1,
  baseRevision: null,
  revision: 0,
  type: 'snapshot',
  snapshot: clone(compoundInterest),
});

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  ['document missing', () => envelope('ui.document', {}), 'missing_property', 'payload.document'],
  ['document an array', () => envelope('ui.document', { document: [] }), 'invalid_type', 'payload.document'],
  [
    'document over maxDocumentBytes',
    () => envelope('ui.document', { document: ofBytes(UI_LIMITS.maxDocumentBytes + 1) }),
    'too_large',
    'payload.document',
  ],
  [
    'document payload with an extra field',
    () => envelope('ui.document', { document: {}, html: '<p>' }),
    'unknown_property',
    'payload',
  ],
  [
    'checkpoint a string',
    () => envelope('ui.checkpoint', { checkpoint: 'frame' }),
    'invalid_type',
    'payload.checkpoint',
  ],
  [
    'checkpoint over maxStreamFrameBytes',
    () => envelope('ui.checkpoint', { checkpoint: ofBytes(UI_PROTOCOL_LIMITS.maxStreamFrameBytes + 1) }),
    'too_large',
    'payload.checkpoint',
  ],
];

describe('ui.document and ui.checkpoint', () => {
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      const error = envelopeRejection(input());
      expect(codesAndPaths(error.issues)).toContainEqual({ code, path });
    });
  }

  it('carries a document that parseDocument then validates', () => {
    const parsed = parseEnvelope(envelope('ui.document', { document: clone(compoundInterest) }));
    if (parsed.kind !== 'message' || parsed.message.type !== 'lineup.v1.ui.document')
      throw new Error('not a document');
    expect(parseDocument(parsed.message.payload.document)).toEqual(parseDocument(clone(compoundInterest)));
  });

  it('accepts a document of exactly maxDocumentBytes and a checkpoint of exactly maxStreamFrameBytes', () => {
    expect(
      parseEnvelope(envelope('ui.document', { document: ofBytes(UI_LIMITS.maxDocumentBytes) })).kind,
    ).toBe('message');
    expect(
      parseEnvelope(
        envelope('ui.checkpoint', { checkpoint: ofBytes(UI_PROTOCOL_LIMITS.maxStreamFrameBytes) }),
      ).kind,
    ).toBe('message');
  });

  it('carries a stream checkpoint as a bounded object (the stream receiver validates it)', () => {
    expect(parseEnvelope(envelope('ui.checkpoint', { checkpoint: checkpoint() })).kind).toBe('message');
  });

  it('does not judge a document: an invalid one passes the envelope and fails parseDocument', () => {
    const parsed = parseEnvelope(envelope('ui.document', { document: { version: '9.9' } }));
    expect(parsed.kind).toBe('message');
    if (parsed.kind !== 'message' || parsed.message.type !== 'lineup.v1.ui.document')
      throw new Error('not a document');
    const { document } = parsed.message.payload;
    expect(() => parseDocument(document)).toThrow();
  });
});
