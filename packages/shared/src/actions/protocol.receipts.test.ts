/**
 * What the host answers in the DSL 1.1 action protocol (seed 002 §11, §13): public action results, receipts
 * and receipt lists, one row per field rule with the issue's code and path; exact limits (bytes, counts,
 * lengths) accepted and one past rejected; and a list checked shell first and then per element, never as one
 * aggregate.
 */
import { describe, expect, it } from 'vitest';
import {
  documentRef,
  documentRefRows,
  expectAccepted,
  expectRejections,
  growTo,
  receipt,
  receipts,
  WRONG_TYPE,
} from '../../test/actions-protocol.js';
import { issuesOf, type J, json, keyed, row, without } from '../../test/utils.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import {
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionResult,
  UI_ACTION_PROTOCOL_LIMITS,
  UI_ACTION_RECEIPT_STATUSES,
  UIActionReceiptListSchema,
} from './protocol.js';

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
