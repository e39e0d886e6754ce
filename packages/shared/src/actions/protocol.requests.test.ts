/**
 * What the page sends in the DSL 1.1 action protocol (seed 002 §11, §13): document references, reserve
 * requests and operation queries, one row per field rule with the issue's code and path, exact limits (bytes,
 * counts, lengths) accepted and one past rejected; and parameter hashes bound to a request's content.
 */
import { describe, expect, it } from 'vitest';
import {
  documentRef,
  documentRefRows,
  expectAccepted,
  expectRejections,
  growTo,
  HASH,
  INJECTED,
  query,
  receipt,
  request,
  WRONG_TYPE,
} from '../../test/actions-protocol.js';
import { issuesOf, type J, json, keyed, row, without } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import {
  assertSameRequestContent,
  computeParameterHash,
  parseUIActionQuery,
  parseUIActionReserveRequest,
  parseUIDocumentRef,
  UIActionReceiptSchema,
  type UIActionReserveRequest,
} from './protocol.js';

/** A reference of exactly `bytes` bytes, through an over-long `sourceCallId`. */
const referenceOfBytes = (bytes: number): J =>
  documentRef({ sourceCallId: 'c'.repeat(bytes - jsonByteLength(documentRef({ sourceCallId: '' }))) });

describe('parseUIDocumentRef', () => {
  it.each([
    ['a complete UI', documentRef()],
    ['a stream', documentRef({ generation: 7, revision: 3 })],
    ['the largest generation and revision', documentRef({ generation: 1_000_000_000, revision: 256 })],
    ['a sourceCallId of 256 printable ASCII', documentRef({ sourceCallId: ` ~${'x'.repeat(254)}` })],
    ['a uiId of 64', documentRef({ uiId: `u${'i'.repeat(63)}` })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUIDocumentRef, input);
  });

  expectRejections(parseUIDocumentRef, [
    ...documentRefRows((reference) => reference, ''),
    row('not an object', () => [], WRONG_TYPE, '$'),
    row('one byte past 1,024', () => referenceOfBytes(1_025), 'too_large', '$'),
    row('nested past the shell depth', () => documentRef({ uiId: [[[[1]]]] }), 'too_deep', 'uiId[0][0][0]'),
  ]);

  it('measures the budget before the structure: 1,024 bytes are structurally wrong, 1,025 too large', () => {
    const at = referenceOfBytes;
    expect(jsonByteLength(at(1_024))).toBe(1_024);
    expect(issuesOf(() => parseUIDocumentRef(at(1_024)))).toEqual([
      expect.objectContaining({ code: 'string_too_long', path: 'sourceCallId' }),
    ]);
    expect(issuesOf(() => parseUIDocumentRef(at(1_025)))).toEqual([
      expect.objectContaining({ code: 'too_large', path: '$' }),
    ]);
  });
});

describe('parseUIActionReserveRequest', () => {
  it.each([
    ['a request', request()],
    ['no values', request({ values: {} })],
    ['64 values', request({ values: keyed(UI_LIMITS.maxStateFields) })],
    ['a requestId of 128 printable ASCII with a space', request({ requestId: `r ${'x'.repeat(126)}` })],
    ['extreme numbers', request({ values: { a: 1e15, b: -1e15, c: 0.5 } })],
    ['a string of 4,096', request({ values: { a: 'x'.repeat(4_096) } })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUIActionReserveRequest, input);
  });

  it('accepts exactly 32,768 bytes and rejects 32,769 (seed 002 §13)', () => {
    const at = (bytes: number) => {
      const input = request({ values: {} });
      return growTo(input, input.values, bytes);
    };
    expect(() => parseUIActionReserveRequest(at(UI_PROTOCOL_LIMITS.maxActionRequestBytes))).not.toThrow();
    expect(
      issuesOf(() => parseUIActionReserveRequest(at(UI_PROTOCOL_LIMITS.maxActionRequestBytes + 1))),
    ).toEqual([expect.objectContaining({ code: 'too_large', path: '$' })]);
  });

  expectRejections(parseUIActionReserveRequest, [
    ...documentRefRows((reference) => request({ documentRef: reference }), 'documentRef'),
    row('requestId empty', () => request({ requestId: '' }), 'string_too_short', 'requestId'),
    row('requestId of 129', () => request({ requestId: 'r'.repeat(129) }), 'string_too_long', 'requestId'),
    row('requestId with a tab', () => request({ requestId: 'a\tb' }), 'invalid_value', 'requestId'),
    row('requestId not ASCII', () => request({ requestId: 'req-①' }), 'invalid_value', 'requestId'),
    row('requestId missing', () => without(request(), 'requestId'), 'missing_property', 'requestId'),
    row('actionId not an identifier', () => request({ actionId: 'read info' }), 'invalid_value', 'actionId'),
    row('actionId __proto__', () => request({ actionId: '__proto__' }), 'invalid_value', 'actionId'),
    row('values an array', () => request({ values: [] }), WRONG_TYPE, 'values'),
    row('values missing', () => without(request(), 'values'), 'missing_property', 'values'),
    row('65 values', () => request({ values: keyed(UI_LIMITS.maxStateFields + 1) }), 'too_many', 'values'),
    row(
      'a value key not an identifier',
      () => request({ values: { [`${INJECTED} key`]: 1 } }),
      'invalid_identifier',
      'values',
    ),
    row('a value key prototype', () => request({ values: { prototype: 1 } }), 'invalid_identifier', 'values'),
    row(
      'a value key __proto__',
      () => request({ values: json('{"__proto__":1}') }),
      'invalid_identifier',
      'values',
    ),
    row('a null value', () => request({ values: { a: null } }), 'invalid_value', 'values.a'),
    row('an object value', () => request({ values: { a: { b: 1 } } }), 'invalid_value', 'values.a'),
    row('an array value', () => request({ values: { a: [1] } }), 'invalid_value', 'values.a'),
    row('a number past 1e15', () => request({ values: { a: 1e15 + 2 } }), 'number_out_of_range', 'values.a'),
    row(
      'a string of 4,097',
      () => request({ values: { a: 'x'.repeat(4_097) } }),
      'string_too_long',
      'values.a',
    ),
    row('NaN', () => request({ values: { a: Number.NaN } }), 'invalid_json', 'values.a'),
    row('a principal', () => request({ principal: 'admin' }), 'unknown_property', '$'),
    row('a confirmation', () => request({ confirmed: true }), 'unknown_property', '$'),
    row(
      'a parameter hash chosen by the page',
      () => request({ parameterHash: HASH }),
      'unknown_property',
      '$',
    ),
  ]);
});

describe('parseUIActionQuery', () => {
  it.each([
    ['a query', query()],
    ['an operationId of 128', query({ operationId: 'o'.repeat(128) })],
    ['an operationId of 1', query({ operationId: '~' })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUIActionQuery, input);
  });

  it('measures the budget first: 1,024 bytes are structurally wrong, 1,025 too large', () => {
    const at = (bytes: number) => query({ operationId: 'o'.repeat(bytes - 18) });
    expect(jsonByteLength(at(1_024))).toBe(1_024);
    expect(issuesOf(() => parseUIActionQuery(at(1_024)))).toEqual([
      expect.objectContaining({ code: 'string_too_long', path: 'operationId' }),
    ]);
    expect(issuesOf(() => parseUIActionQuery(at(1_025)))).toEqual([
      expect.objectContaining({ code: 'too_large', path: '$' }),
    ]);
  });

  expectRejections(parseUIActionQuery, [
    row('operationId empty', () => query({ operationId: '' }), 'string_too_short', 'operationId'),
    row(
      'operationId of 129',
      () => query({ operationId: 'o'.repeat(129) }),
      'string_too_long',
      'operationId',
    ),
    row(
      'operationId with a control character',
      () => query({ operationId: 'o\u0000' }),
      'invalid_value',
      'operationId',
    ),
    row('operationId missing', () => ({}), 'missing_property', 'operationId'),
    row('a session id', () => query({ sessionId: 's' }), 'unknown_property', '$'),
    row('not an object', () => 'op-0001', WRONG_TYPE, '$'),
  ]);
});

describe('parameter hashes (seed 002 §11: same requestId with different content is rejected)', () => {
  const base = request() as UIActionReserveRequest;

  it('is the canonical SHA-256 of documentRef, actionId and values', () => {
    const hash = computeParameterHash(base);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(
      hashCanonicalJSON({ documentRef: base.documentRef, actionId: base.actionId, values: base.values }),
    );
    expect(UIActionReceiptSchema.safeParse(receipt({ parameterHash: hash })).success).toBe(true);
  });

  it('ignores the requestId and key order, and sees every content change', () => {
    const hash = computeParameterHash(base);
    const reordered = json(
      '{"values":{"verbose":false,"lines":0,"path":"README.md"},"actionId":"read_info","requestId":"req-0002",' +
        '"documentRef":{"revision":0,"generation":0,"uiId":"compact_reader","sourceCallId":"call_read_01"}}',
    );
    expect(computeParameterHash(reordered)).toBe(hash);
    const changes: J[] = [
      request({ values: { path: 'README.md', lines: 1, verbose: false } }),
      request({ values: { path: 'README.md', lines: 0 } }),
      request({ values: { path: 'README.md', lines: '0', verbose: false } }),
      request({ actionId: 'write_info' }),
      request({ documentRef: documentRef({ sourceCallId: 'call_read_02' }) }),
      request({ documentRef: documentRef({ generation: 1 }) }),
    ];
    for (const changed of changes) expect(computeParameterHash(changed)).not.toBe(hash);
  });

  it('accepts a retry of the same content and rejects the same id with other content', () => {
    const hash = computeParameterHash(base);
    expect(assertSameRequestContent(hash, request())).toBe(hash);
    expect(
      issuesOf(() => assertSameRequestContent(hash, request({ values: { path: '/etc/passwd' } }))),
    ).toEqual([expect.objectContaining({ code: 'duplicate_id', path: 'requestId' })]);
  });

  it('never hashes an invalid request', () => {
    expect(issuesOf(() => computeParameterHash(request({ values: { a: { b: 1 } } }) as J))).toContainEqual(
      expect.objectContaining({ path: 'values.a' }),
    );
    expect(() => assertSameRequestContent(HASH, { ...base, requestId: '' })).toThrow(LineUpProtocolError);
  });
});
