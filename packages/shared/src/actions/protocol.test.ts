/**
 * The DSL 1.1 action protocol (seed 002 §11, §13): one row per field rule with the issue's code and path;
 * exact limits (bytes, counts, lengths) accepted and one past rejected; collections checked shell first and
 * then per element, never as one aggregate; parameter hashes bound to content; and arbitrary input never
 * making a parser throw anything but `LineUpProtocolError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesOf, json, keyed, type Row, row, without } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { messageBudget, parseShape } from '../json/parse.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import * as protocol from './protocol.js';
import {
  assertSameRequestContent,
  computeParameterHash,
  parseUIActionQuery,
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  parseUIDocumentRef,
  UI_ACTION_PROTOCOL_LIMITS,
  UI_ACTION_RECEIPT_STATUSES,
  UI_CAPABILITY_RISKS,
  UIActionReceiptListSchema,
  UIActionReceiptSchema,
  type UIActionReserveRequest,
  UICapabilityCatalogSchema,
} from './protocol.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

/** See bridge/surface.test.ts: `invalid_type` once json/parse.ts parses with `reportInput`. */
const WRONG_TYPE: UIIssueCode = (() => {
  try {
    parseShape(
      z.strictObject({ a: z.number() }),
      { a: 'x' },
      { budget: messageBudget(64) },
      LineUpProtocolError,
    );
  } catch (error) {
    return (error as LineUpProtocolError).issues[0]?.code ?? 'invalid_type';
  }
  return 'invalid_type';
})();

const INJECTED = 'zzInjected';
const HASH = 'a'.repeat(64);

const documentRef = (overrides: J = {}): J => ({
  sourceCallId: 'call_read_01',
  uiId: 'compact_reader',
  generation: 0,
  revision: 0,
  ...overrides,
});
const request = (overrides: J = {}): J => ({
  documentRef: documentRef(),
  requestId: 'req-0001',
  actionId: 'read_info',
  values: { path: 'README.md', lines: 0, verbose: false },
  ...overrides,
});
const query = (overrides: J = {}): J => ({ operationId: 'op-0001', ...overrides });
const receipt = (overrides: J = {}): J => ({
  operationId: 'op-0001',
  requestId: 'req-0001',
  documentRef: documentRef(),
  actionId: 'read_info',
  status: 'succeeded',
  parameterHash: HASH,
  createdAt: 1_786_000_000_000,
  updatedAt: 1_786_000_000_500,
  message: 'Read 42 lines.',
  result: { totalLines: 42 },
  ...overrides,
});
const capability = (overrides: J = {}): J => ({
  id: 'read_file',
  title: 'Read a file',
  description: 'Reads a text file of the workspace.',
  risk: 'read',
  parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  resultFields: ['totalLines'],
  ...overrides,
});

/**
 * `base` with string fields `f0`, `f1`, … (each at most 4,000 characters) added to `base[field]` until the
 * whole of `root()` is exactly `bytes` UTF-8 bytes as JSON.
 */
function growTo(root: J, container: J, bytes: number, maxFieldLength = 4_000): J {
  let index = 0;
  while (jsonByteLength(root) < bytes) {
    const key = `f${index++}`;
    container[key] = '';
    const missing = bytes - jsonByteLength(root);
    container[key] = 'x'.repeat(Math.max(0, Math.min(maxFieldLength, missing)));
  }
  expect(jsonByteLength(root)).toBe(bytes);
  return root;
}

function expectRejections(parse: (input: unknown) => unknown, rows: readonly Row[]): void {
  it.each(rows.map((rejection) => [rejection.rule, rejection] as const))('rejects %s', (_rule, rejection) => {
    const issues = issuesOf(() => parse(rejection.input()));
    expect(issues).toContainEqual(expect.objectContaining({ code: rejection.code, path: rejection.path }));
    for (const issue of issues) expect(`${issue.path} ${issue.message}`).not.toContain(INJECTED);
  });
}

function expectAccepted<T>(parse: (input: unknown) => T, input: unknown): T {
  const parsed = parse(input);
  expect(parsed).toEqual(input);
  expect(parsed).not.toBe(input);
  expect(Object.isFrozen(parsed)).toBe(true);
  expect(Object.isFrozen(input)).toBe(false);
  return parsed;
}

/** Rules of a document reference, for any place it appears (`prefix` is its path). */
function documentRefRows(wrap: (reference: J) => J, prefix: string): Row[] {
  const at = (field: string) => (prefix === '' ? field : `${prefix}.${field}`);
  return [
    row(
      'sourceCallId empty',
      () => wrap(documentRef({ sourceCallId: '' })),
      'string_too_short',
      at('sourceCallId'),
    ),
    row(
      'sourceCallId of 257',
      () => wrap(documentRef({ sourceCallId: 'c'.repeat(257) })),
      'string_too_long',
      at('sourceCallId'),
    ),
    row(
      'sourceCallId not ASCII',
      () => wrap(documentRef({ sourceCallId: 'call_é' })),
      'invalid_value',
      at('sourceCallId'),
    ),
    row(
      'sourceCallId with a line feed',
      () => wrap(documentRef({ sourceCallId: 'a\nb' })),
      'invalid_value',
      at('sourceCallId'),
    ),
    row(
      'sourceCallId a number',
      () => wrap(documentRef({ sourceCallId: 1 })),
      WRONG_TYPE,
      at('sourceCallId'),
    ),
    row('uiId not an identifier', () => wrap(documentRef({ uiId: '1ui' })), 'invalid_value', at('uiId')),
    row('uiId constructor', () => wrap(documentRef({ uiId: 'constructor' })), 'invalid_value', at('uiId')),
    row('uiId of 65', () => wrap(documentRef({ uiId: `u${'i'.repeat(64)}` })), 'invalid_value', at('uiId')),
    row(
      'generation negative',
      () => wrap(documentRef({ generation: -1 })),
      'number_out_of_range',
      at('generation'),
    ),
    row(
      'generation past 1e9',
      () => wrap(documentRef({ generation: 1_000_000_001 })),
      'number_out_of_range',
      at('generation'),
    ),
    row('generation fractional', () => wrap(documentRef({ generation: 0.5 })), WRONG_TYPE, at('generation')),
    row(
      'revision past 256',
      () => wrap(documentRef({ generation: 1, revision: 257 })),
      'number_out_of_range',
      at('revision'),
    ),
    row(
      'revision negative',
      () => wrap(documentRef({ revision: -1 })),
      'number_out_of_range',
      at('revision'),
    ),
    row(
      'a complete UI with a revision',
      () => wrap(documentRef({ revision: 1 })),
      'invalid_value',
      at('revision'),
    ),
    row('uiId missing', () => wrap(without(documentRef(), 'uiId')), 'missing_property', at('uiId')),
    row(
      'an unknown property',
      () => wrap(documentRef({ [INJECTED]: 1 })),
      'unknown_property',
      prefix === '' ? '$' : prefix,
    ),
    row(
      'a document instead of a reference',
      () => wrap(documentRef({ document: {} })),
      'unknown_property',
      prefix === '' ? '$' : prefix,
    ),
  ];
}

/** A reference of exactly `bytes` bytes, through an over-long `sourceCallId`. */
const referenceOfBytes = (bytes: number): J =>
  documentRef({ sourceCallId: 'c'.repeat(bytes - jsonByteLength(documentRef({ sourceCallId: '' }))) });

/**
 * A structurally valid receipt of exactly `bytes` bytes: every bounded text at its longest in escaped form
 * (`\\` is 2 bytes, a control character 6), and the public result filling the rest.
 */
function receiptOfBytes(bytes: number, overrides: J = {}): J {
  const input = receipt({
    operationId: '\\'.repeat(128),
    requestId: '\\'.repeat(128),
    documentRef: documentRef({ sourceCallId: '\\'.repeat(256) }),
    message: '\u0001'.repeat(512),
    result: {},
    ...overrides,
  });
  growTo(input, input.result, bytes);
  expect(jsonByteLength(input.result)).toBeLessThanOrEqual(UI_PROTOCOL_LIMITS.maxActionResultBytes);
  return input;
}

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

describe('parseUIActionResult', () => {
  it.each([
    ['a result', { totalLines: 42, operation: 'update', ok: true, note: null }],
    ['no fields', {}],
    ['32 fields', keyed(UI_PROTOCOL_LIMITS.maxActionResultFields)],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUIActionResult, input);
  });

  it('accepts exactly 32,768 bytes and rejects 32,769', () => {
    const at = (bytes: number) => {
      const input: J = {};
      return growTo(input, input, bytes);
    };
    expect(Object.keys(at(UI_PROTOCOL_LIMITS.maxActionResultBytes)).length).toBeLessThanOrEqual(32);
    expect(() => parseUIActionResult(at(UI_PROTOCOL_LIMITS.maxActionResultBytes))).not.toThrow();
    expect(issuesOf(() => parseUIActionResult(at(UI_PROTOCOL_LIMITS.maxActionResultBytes + 1)))).toEqual([
      expect.objectContaining({ code: 'too_large', path: '$' }),
    ]);
  });

  expectRejections(parseUIActionResult, [
    row('33 fields', () => keyed(UI_PROTOCOL_LIMITS.maxActionResultFields + 1), 'too_many', '$'),
    row('a nested object', () => ({ user: { secret: 'x' } }), 'invalid_value', 'user'),
    row('an array', () => ({ lines: [1, 2] }), 'invalid_value', 'lines'),
    row('a JSONPath-like field name', () => ({ 'result.user.secret': 1 }), 'invalid_identifier', '$'),
    row('a __proto__ field', () => json('{"__proto__":{"isAdmin":true}}'), 'invalid_identifier', '$'),
    row('a string of 4,097', () => ({ text: 'x'.repeat(4_097) }), 'string_too_long', 'text'),
    row('not an object', () => [1], WRONG_TYPE, '$'),
  ]);
});

describe('parseUIActionReceipt', () => {
  it.each(UI_ACTION_RECEIPT_STATUSES.map((status) => [status] as const))('accepts status %s', (status) => {
    const input = status === 'succeeded' ? receipt() : without(receipt({ status }), 'result');
    expectAccepted(parseUIActionReceipt, input);
  });

  it.each([
    ['no message and no result', without(without(receipt(), 'message'), 'result')],
    ['a succeeded receipt without a result', without(receipt(), 'result')],
    ['updatedAt equal to createdAt', receipt({ updatedAt: 1_786_000_000_000 })],
    ['time zero', receipt({ createdAt: 0, updatedAt: 0 })],
    ['a message of 512', receipt({ message: 'm'.repeat(512) })],
    ['an empty message', receipt({ message: '' })],
    ['a stream reference', receipt({ documentRef: documentRef({ generation: 2, revision: 5 }) })],
    ['a result of 32 fields', receipt({ result: keyed(32, 'v') })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUIActionReceipt, input);
  });

  it('accepts exactly 36,864 bytes and rejects 36,865 (seed 002 §13)', () => {
    const largest = receiptOfBytes(UI_PROTOCOL_LIMITS.maxActionReceiptBytes);
    expect(parseUIActionReceipt(largest)).toEqual(largest);
    expect(
      issuesOf(() => parseUIActionReceipt(receiptOfBytes(UI_PROTOCOL_LIMITS.maxActionReceiptBytes + 1))),
    ).toEqual([expect.objectContaining({ code: 'too_large', path: '$' })]);
  });

  it('bounds the inner result by its own, smaller budget', () => {
    const result: J = {};
    growTo(result, result, UI_PROTOCOL_LIMITS.maxActionResultBytes + 1);
    expect(issuesOf(() => parseUIActionReceipt(receipt({ result, message: '' })))).toContainEqual(
      expect.objectContaining({ code: 'too_large', path: 'result' }),
    );
  });

  expectRejections(parseUIActionReceipt, [
    ...documentRefRows((reference) => receipt({ documentRef: reference }), 'documentRef'),
    row('an unknown status', () => receipt({ status: 'done' }), 'invalid_value', 'status'),
    row('a status of another case', () => receipt({ status: 'Succeeded' }), 'invalid_value', 'status'),
    row('a result with failed', () => receipt({ status: 'failed' }), 'invalid_value', 'result'),
    row('a result with accepted', () => receipt({ status: 'accepted' }), 'invalid_value', 'result'),
    row('a result with unknown', () => receipt({ status: 'unknown' }), 'invalid_value', 'result'),
    row(
      'updatedAt before createdAt',
      () => receipt({ updatedAt: 1_785_999_999_999 }),
      'number_out_of_range',
      'updatedAt',
    ),
    row('createdAt negative', () => receipt({ createdAt: -1 }), 'number_out_of_range', 'createdAt'),
    row('createdAt fractional', () => receipt({ createdAt: 1.5 }), WRONG_TYPE, 'createdAt'),
    row(
      'createdAt an ISO string',
      () => receipt({ createdAt: '2026-08-02T12:00:00Z' }),
      WRONG_TYPE,
      'createdAt',
    ),
    row('updatedAt missing', () => without(receipt(), 'updatedAt'), 'missing_property', 'updatedAt'),
    row(
      'a parameterHash in uppercase',
      () => receipt({ parameterHash: 'A'.repeat(64) }),
      'invalid_value',
      'parameterHash',
    ),
    row(
      'a parameterHash of 63',
      () => receipt({ parameterHash: 'a'.repeat(63) }),
      'invalid_value',
      'parameterHash',
    ),
    row(
      'a parameterHash of 65',
      () => receipt({ parameterHash: 'a'.repeat(65) }),
      'invalid_value',
      'parameterHash',
    ),
    row(
      'a parameterHash not hex',
      () => receipt({ parameterHash: 'g'.repeat(64) }),
      'invalid_value',
      'parameterHash',
    ),
    row('a message of 513', () => receipt({ message: 'm'.repeat(513) }), 'string_too_long', 'message'),
    row('a message null', () => receipt({ message: null }), WRONG_TYPE, 'message'),
    row(
      'an operationId of 129',
      () => receipt({ operationId: 'o'.repeat(129) }),
      'string_too_long',
      'operationId',
    ),
    row('a requestId empty', () => receipt({ requestId: '' }), 'string_too_short', 'requestId'),
    row('an actionId not an identifier', () => receipt({ actionId: '1a' }), 'invalid_value', 'actionId'),
    row('a result of 33 fields', () => receipt({ result: keyed(33) }), 'too_many', 'result'),
    row('a nested result', () => receipt({ result: { a: { b: 1 } } }), 'invalid_value', 'result.a'),
    row('a raw tool error', () => receipt({ error: { stack: 'at …' } }), 'unknown_property', '$'),
  ]);
});

describe('parseUICapabilityDescriptor', () => {
  it.each([
    ['a read capability', capability()],
    ...UI_CAPABILITY_RISKS.map((risk): [string, J] => [`risk ${risk}`, capability({ risk })]),
    ['an empty description and no public fields', capability({ description: '', resultFields: [] })],
    [
      'a title of 256 and a description of 4,096',
      capability({ title: 't'.repeat(256), description: 'd'.repeat(4_096) }),
    ],
    ['32 public fields', capability({ resultFields: Array.from({ length: 32 }, (_, index) => `f${index}`) })],
    ['deep parameters', capability({ parameters: { a: { b: { c: { d: { e: [1, { f: null }] } } } } } })],
  ])('accepts %s', (_rule, input) => {
    expectAccepted(parseUICapabilityDescriptor, input);
  });

  it('accepts exactly 65,536 bytes and rejects 65,537', () => {
    const at = (bytes: number) => {
      const input = capability({ parameters: {} });
      return growTo(input, input.parameters, bytes);
    };
    expect(() => parseUICapabilityDescriptor(at(UI_PROTOCOL_LIMITS.maxCapabilityBytes))).not.toThrow();
    expect(
      issuesOf(() => parseUICapabilityDescriptor(at(UI_PROTOCOL_LIMITS.maxCapabilityBytes + 1))),
    ).toEqual([expect.objectContaining({ code: 'too_large', path: '$' })]);
  });

  expectRejections(parseUICapabilityDescriptor, [
    row('an id not an identifier', () => capability({ id: 'read.file' }), 'invalid_value', 'id'),
    row('a title empty', () => capability({ title: '' }), 'string_too_short', 'title'),
    row('a title of 257', () => capability({ title: 't'.repeat(257) }), 'string_too_long', 'title'),
    row(
      'a description of 4,097',
      () => capability({ description: 'd'.repeat(4_097) }),
      'string_too_long',
      'description',
    ),
    row('an unknown risk', () => capability({ risk: 'restricted' }), 'invalid_value', 'risk'),
    row('parameters an array', () => capability({ parameters: [] }), WRONG_TYPE, 'parameters'),
    row('parameters a string', () => capability({ parameters: '{}' }), WRONG_TYPE, 'parameters'),
    row(
      'parameters with a nested __proto__',
      () => capability({ parameters: json('{"properties":{"__proto__":{}}}') }),
      'invalid_identifier',
      'parameters.properties',
    ),
    row(
      '33 public fields',
      () => capability({ resultFields: Array.from({ length: 33 }, (_, index) => `f${index}`) }),
      'too_many',
      'resultFields',
    ),
    row(
      'a duplicate public field',
      () => capability({ resultFields: ['a', 'b', 'a'] }),
      'duplicate_id',
      'resultFields[2]',
    ),
    row(
      'a public field path',
      () => capability({ resultFields: ['result.user'] }),
      'invalid_value',
      'resultFields[0]',
    ),
    row('a tool name', () => capability({ toolName: 'read' }), 'unknown_property', '$'),
    row('an execution URL', () => capability({ url: 'https://example.com' }), 'unknown_property', '$'),
  ]);
});

/** `count` receipts with distinct operation ids. */
const receipts = (count: number): J[] =>
  Array.from({ length: count }, (_, index) =>
    receipt({ operationId: `op-${index}`, requestId: `req-${index}` }),
  );
const capabilities = (count: number): J[] =>
  Array.from({ length: count }, (_, index) => capability({ id: `cap${index}` }));

describe('parseUIActionReceiptList', () => {
  it('accepts an empty list and a list of 128, frozen throughout', () => {
    expect(parseUIActionReceiptList([])).toEqual([]);
    const list = receipts(UI_ACTION_PROTOCOL_LIMITS.maxReceiptListLength);
    const parsed = expectAccepted(parseUIActionReceiptList, list);
    expect(Object.isFrozen(parsed[127])).toBe(true);
    expect(Object.isFrozen(parsed[127]?.result)).toBe(true);
  });

  it('checks each element against its own budget, not the aggregate', () => {
    const large = (index: number) => {
      const result: J = {};
      growTo(result, result, 30_000);
      return receipt({ operationId: `op-${index}`, result });
    };
    const list = [large(0), large(1), large(2)];
    expect(jsonByteLength(list)).toBeGreaterThan(UI_PROTOCOL_LIMITS.maxActionReceiptBytes * 2);
    expect(parseUIActionReceiptList(list)).toHaveLength(3);
  });

  const sparse: J[] = [receipt()];
  sparse[2] = receipt({ operationId: 'op-2' });
  const extra: J = [receipt()];
  extra.note = 'x';
  const getter: J[] = [receipt()];
  Object.defineProperty(getter, 1, { get: () => receipt({ operationId: 'op-1' }), enumerable: true });
  class ReceiptArray extends Array<unknown> {}
  const { proxy: revoked, revoke } = Proxy.revocable([], {});
  revoke();
  const oversized = receiptOfBytes(UI_PROTOCOL_LIMITS.maxActionReceiptBytes + 1);

  expectRejections(parseUIActionReceiptList, [
    row('not an array', () => ({ receipts: [] }), 'invalid_type', '$'),
    row('129 receipts', () => receipts(UI_ACTION_PROTOCOL_LIMITS.maxReceiptListLength + 1), 'too_many', '$'),
    row('a sparse array', () => sparse, 'invalid_json', '$'),
    row('an array with an extra property', () => extra, 'invalid_json', '$'),
    row('a getter element', () => getter, 'invalid_json', '[1]'),
    row('an Array subclass', () => ReceiptArray.from([receipt()]), 'invalid_json', '$'),
    row('a revoked proxy', () => revoked, 'invalid_json', '$'),
    row(
      'an invalid element',
      () => [receipt(), receipt({ operationId: 'op-2', status: 'done' })],
      'invalid_value',
      '[1].status',
    ),
    row('an element not an object', () => [receipt(), 'op-2'], WRONG_TYPE, '[1]'),
    row('an element past its budget', () => [receipt(), oversized], 'too_large', '[1]'),
    row(
      'a duplicate operationId',
      () => [receipt(), receipt({ requestId: 'req-2' })],
      'duplicate_id',
      '[1].operationId',
    ),
  ]);

  it('reports issues of several elements, at most 20', () => {
    const list = receipts(40).map((item) => ({ ...item, status: 'done', parameterHash: 'x' }));
    const issues = issuesOf(() => parseUIActionReceiptList(list));
    expect(issues).toHaveLength(20);
    expect(issues[0]).toEqual(expect.objectContaining({ path: '[0].status' }));
    expect(issues).toContainEqual(expect.objectContaining({ path: '[9].parameterHash' }));
  });

  it('agrees with UIActionReceiptListSchema on what is valid', () => {
    expect(UIActionReceiptListSchema.safeParse(receipts(3)).success).toBe(true);
    expect(UIActionReceiptListSchema.safeParse([receipt(), receipt()]).success).toBe(false);
    expect(UIActionReceiptListSchema.safeParse(receipts(129)).success).toBe(false);
  });
});

describe('parseUICapabilityCatalog', () => {
  it('accepts an empty catalog and one of 64', () => {
    expect(parseUICapabilityCatalog([])).toEqual([]);
    expectAccepted(parseUICapabilityCatalog, capabilities(UI_PROTOCOL_LIMITS.maxCapabilities));
  });

  it('checks each descriptor against its own budget, not the aggregate', () => {
    const large = (index: number) => {
      const input = capability({ id: `cap${index}`, parameters: {} });
      return growTo(input, input.parameters, 60_000);
    };
    const catalog = [large(0), large(1)];
    expect(jsonByteLength(catalog)).toBeGreaterThan(UI_PROTOCOL_LIMITS.maxCapabilityBytes);
    expect(parseUICapabilityCatalog(catalog)).toHaveLength(2);
  });

  expectRejections(parseUICapabilityCatalog, [
    row('65 descriptors', () => capabilities(UI_PROTOCOL_LIMITS.maxCapabilities + 1), 'too_many', '$'),
    row('an object', () => ({ read_file: capability() }), 'invalid_type', '$'),
    row('a duplicate id', () => [capability(), capability({ title: 'Again' })], 'duplicate_id', '[1].id'),
    row(
      'an invalid descriptor',
      () => [capability(), capability({ id: 'b', risk: 'admin' })],
      'invalid_value',
      '[1].risk',
    ),
  ]);

  it('agrees with UICapabilityCatalogSchema on duplicates and count', () => {
    expect(UICapabilityCatalogSchema.safeParse(capabilities(2)).success).toBe(true);
    expect(UICapabilityCatalogSchema.safeParse([capability(), capability()]).success).toBe(false);
    expect(UICapabilityCatalogSchema.safeParse(capabilities(65)).success).toBe(false);
  });
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

describe('properties', () => {
  const parsers: Record<string, (input: unknown) => unknown> = {
    parseUIDocumentRef,
    parseUIActionReserveRequest,
    parseUIActionQuery,
    parseUIActionResult,
    parseUIActionReceipt,
    parseUICapabilityDescriptor,
    parseUIActionReceiptList,
    parseUICapabilityCatalog,
    computeParameterHash: (input) => computeParameterHash(input as UIActionReserveRequest),
  };

  it('arbitrary JSON or JS values never throw anything but LineUpProtocolError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({ withObjectString: true, withNullPrototype: true, withSparseArray: true }),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
        ),
        (input) => {
          for (const parse of Object.values(parsers)) {
            try {
              parse(input);
            } catch (error) {
              expect(error).toBeInstanceOf(LineUpProtocolError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  const valid: [string, (input: unknown) => unknown, J][] = [
    ['parseUIDocumentRef', parseUIDocumentRef, documentRef()],
    ['parseUIActionReserveRequest', parseUIActionReserveRequest, request()],
    ['parseUIActionQuery', parseUIActionQuery, query()],
    ['parseUIActionResult', parseUIActionResult, { totalLines: 1, ok: true }],
    ['parseUIActionReceipt', parseUIActionReceipt, receipt()],
    ['parseUICapabilityDescriptor', parseUICapabilityDescriptor, capability()],
    ['parseUIActionReceiptList', parseUIActionReceiptList, receipts(2)],
    ['parseUICapabilityCatalog', parseUICapabilityCatalog, capabilities(2)],
  ];

  it.each(valid)(
    '%s: a valid input with one value replaced parses to itself or fails cleanly',
    (_name, parse, input) => {
      const paths: (string | number)[][] = [];
      const walk = (value: unknown, path: (string | number)[]) => {
        paths.push(path);
        if (typeof value === 'object' && value !== null) {
          for (const [key, child] of Object.entries(value))
            walk(child, [...path, Array.isArray(value) ? Number(key) : key]);
        }
      };
      walk(input, []);
      fc.assert(
        fc.property(
          fc.constantFrom(...paths.filter((path) => path.length > 0)),
          fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.constantFrom('__proto__', 'constructor', -1, 2 ** 53, ''),
          ),
          fc.boolean(),
          (path, value, asKey) => {
            const copy = JSON.parse(JSON.stringify(input));
            let parent = copy;
            for (const segment of path.slice(0, -1)) parent = parent[segment];
            const last = path[path.length - 1] as string | number;
            if (asKey && typeof value === 'string' && !Array.isArray(parent)) {
              const moved = parent[last];
              delete parent[last];
              Object.defineProperty(parent, value, {
                value: moved,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            } else {
              Object.defineProperty(parent, last, {
                value,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            }
            try {
              const parsed = parse(copy);
              expect(Object.isFrozen(parsed)).toBe(true);
              expect(parse(parsed)).toEqual(parsed);
            } catch (error) {
              expect(error).toBeInstanceOf(LineUpProtocolError);
            }
          },
        ),
        { numRuns: 200 },
      );
    },
  );
});

describe('JSON Schema', () => {
  const schemas = Object.entries(protocol).filter(([name]) => name.endsWith('Schema'));

  it.each(schemas)('%s converts to JSON Schema', (_name, schema) => {
    expect(() => z.toJSONSchema(schema as z.ZodType)).not.toThrow();
  });

  it('keeps every object closed', () => {
    const receiptSchema = JSON.stringify(z.toJSONSchema(UIActionReceiptSchema));
    expect(receiptSchema).toContain('"additionalProperties":false');
  });
});
