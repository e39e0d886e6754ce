/**
 * The shared setup of the DSL 1.1 action protocol tests (`actions/protocol.*.test.ts`, seed 002 §11, §13):
 * builders of one valid value per message (document reference, reserve request, query, receipt, capability),
 * padding a value to an exact byte size, and the row runners that check each parse for acceptance (an equal,
 * frozen copy) or rejection (the issue's code and path, never echoing injected text).
 */
import { expect, it } from 'vitest';
import { z } from 'zod';
import { LineUpProtocolError } from '../src/errors/errors.js';
import type { UIIssueCode } from '../src/errors/issues.js';
import { messageBudget, parseShape } from '../src/json/parse.js';
import { jsonByteLength } from '../src/json/safe-json.js';
import { issuesOf, type J, type Row, row, without } from './utils.js';

/**
 * See test/surface.ts (the bridge surface tests): `invalid_type` once json/parse.ts parses with
 * `reportInput`.
 */
export const WRONG_TYPE: UIIssueCode = (() => {
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

export const INJECTED = 'zzInjected';
export const HASH = 'a'.repeat(64);

export const documentRef = (overrides: J = {}): J => ({
  sourceCallId: 'call_read_01',
  uiId: 'compact_reader',
  generation: 0,
  revision: 0,
  ...overrides,
});
export const request = (overrides: J = {}): J => ({
  documentRef: documentRef(),
  requestId: 'req-0001',
  actionId: 'read_info',
  values: { path: 'README.md', lines: 0, verbose: false },
  ...overrides,
});
export const query = (overrides: J = {}): J => ({ operationId: 'op-0001', ...overrides });
export const receipt = (overrides: J = {}): J => ({
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
export const capability = (overrides: J = {}): J => ({
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
export function growTo(root: J, container: J, bytes: number, maxFieldLength = 4_000): J {
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

export function expectRejections(parse: (input: unknown) => unknown, rows: readonly Row[]): void {
  it.each(rows.map((rejection) => [rejection.rule, rejection] as const))('rejects %s', (_rule, rejection) => {
    const issues = issuesOf(() => parse(rejection.input()));
    expect(issues).toContainEqual(expect.objectContaining({ code: rejection.code, path: rejection.path }));
    for (const issue of issues) expect(`${issue.path} ${issue.message}`).not.toContain(INJECTED);
  });
}

export function expectAccepted<T>(parse: (input: unknown) => T, input: unknown): T {
  const parsed = parse(input);
  expect(parsed).toEqual(input);
  expect(parsed).not.toBe(input);
  expect(Object.isFrozen(parsed)).toBe(true);
  expect(Object.isFrozen(input)).toBe(false);
  return parsed;
}

/** Rules of a document reference, for any place it appears (`prefix` is its path). */
export function documentRefRows(wrap: (reference: J) => J, prefix: string): Row[] {
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

/** `count` receipts with distinct operation ids. */
export const receipts = (count: number): J[] =>
  Array.from({ length: count }, (_, index) =>
    receipt({ operationId: `op-${index}`, requestId: `req-${index}` }),
  );
export const capabilities = (count: number): J[] =>
  Array.from({ length: count }, (_, index) => capability({ id: `cap${index}` }));
