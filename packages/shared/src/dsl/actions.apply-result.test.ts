/**
 * Action results (seed 002 §11): `applyActionResult` writes a host-filtered result into state through the
 * action's `resultMap`, all or nothing, and within the state byte budget. Rejected rows assert the error
 * class, the issue `code` and `path`, and that the caller's state is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { AGENT, COMPOUND, expectIssue, FILE_READER, v11 } from '../../test/dsl-actions.js';
import { clone } from '../../test/utils.js';
import { UIActionError, UIStateError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { applyActionResult } from './actions.js';
import { assertValidState, initialState, updateState } from './state.js';
import type { UIDocument, UIState } from './types.js';

const SELECT_RESULT = v11(
  'select-result',
  {
    tier: { type: 'string', initial: 'basic', maxLength: 16 },
    count: { type: 'number', initial: 0, min: 0, max: 100, step: 1 },
    note: { type: 'string', initial: '', maxLength: 5 },
    flag: { type: 'boolean', initial: false },
  },
  {
    fetch: {
      kind: 'tool',
      capabilityId: 'fetch_plan',
      arguments: {},
      resultMap: { tier: 'tier', count: 'count', note: 'note', flag: 'flag' },
    },
    ping: { kind: 'tool', capabilityId: 'ping', arguments: {} },
  },
  [
    {
      id: 'tier-select',
      type: 'Select',
      props: {
        label: 'Tier',
        bind: 'tier',
        options: [
          { label: 'Basic', value: 'basic' },
          { label: 'Pro', value: 'pro' },
        ],
      },
    },
  ],
);
const VALID_FETCH = { tier: 'pro', count: 5, note: 'ok', flag: true };

/** A result of exactly `fields` fields, `totalLines` one of them. */
function resultWithFields(fields: number): Record<string, unknown> {
  const result: Record<string, unknown> = { totalLines: 7 };
  for (let index = 1; index < fields; index++) result[`extra${index}`] = index;
  return result;
}
/** `{ totalLines: 7, pad: "…" }` of exactly `bytes` bytes (ASCII). */
function resultOfBytes(bytes: number): Record<string, unknown> {
  const overhead = JSON.stringify({ totalLines: 7, pad: '' }).length;
  return { totalLines: 7, pad: 'p'.repeat(bytes - overhead) };
}

describe('applyActionResult: resultMap writes a host-filtered result into state (seed 002 §11)', () => {
  const rows: [string, () => [UIDocument, UIState], string, () => unknown, Record<string, unknown>][] = [
    [
      'seed §11 {"lines":"totalLines"}',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => ({ totalLines: 42 }),
      { lines: 42 },
    ],
    [
      'unmapped extra fields are ignored',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => ({ totalLines: 42, encoding: 'utf-8', truncated: false, note: null }),
      { lines: 42 },
    ],
    [
      'the inclusive maximum',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => ({ totalLines: 1_000_000_000 }),
      { lines: 1_000_000_000 },
    ],
    [
      'several fields at once (agent-callback)',
      () => [AGENT, initialState(AGENT)],
      'search_changes',
      () => ({ totalMatches: 3, normalizedQuery: 'stream' }),
      { matchCount: 3, lastQuery: 'stream' },
    ],
    [
      'a Select option, a number, a string and a boolean',
      () => [SELECT_RESULT, initialState(SELECT_RESULT)],
      'fetch',
      () => VALID_FETCH,
      VALID_FETCH,
    ],
    [
      'exactly 32 result fields',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => resultWithFields(UI_PROTOCOL_LIMITS.maxActionResultFields),
      { lines: 7 },
    ],
    [
      'a result of exactly 32,768 bytes',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => resultOfBytes(UI_PROTOCOL_LIMITS.maxActionResultBytes),
      { lines: 7 },
    ],
    [
      'an own __proto__ key is plain data and never a source',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      () => JSON.parse('{"__proto__":7,"totalLines":9}'),
      { lines: 9 },
    ],
    [
      'a tool action without resultMap writes nothing',
      () => [SELECT_RESULT, initialState(SELECT_RESULT)],
      'ping',
      () => ({ tier: 'pro', count: 5 }),
      {},
    ],
    [
      'the user edits outside the mapping are kept',
      () => [FILE_READER, updateState(FILE_READER, initialState(FILE_READER), 'path', 'src/index.ts')],
      'read_info',
      () => ({ totalLines: 3 }),
      { lines: 3 },
    ],
  ];
  it.each(rows)('%s', (_, build, actionId, result, changes) => {
    const [document, before] = build();
    const snapshot = clone(before);
    const next = applyActionResult(document, before, actionId, result());
    expect(next).toStrictEqual({ ...snapshot, ...changes });
    expect(Object.isFrozen(next)).toBe(true);
    expect(before).toStrictEqual(snapshot);
    expect(() => assertValidState(document, clone(next))).not.toThrow();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

describe('applyActionResult: any failure rejects the whole mapping and writes nothing (seed 002 §11)', () => {
  const reader = (): [UIDocument, UIState] => [FILE_READER, initialState(FILE_READER)];
  const cycle = (): unknown => {
    const result: Record<string, unknown> = { totalLines: 1 };
    result.self = result;
    return result;
  };
  class ToolResult {
    totalLines = 1;
  }
  type Row = [string, () => [UIDocument, UIState], string, () => unknown, UIIssueCode, string];
  const rows: Row[] = [
    [
      'the mapped field is missing',
      reader,
      'read_info',
      () => ({ lines: 42 }),
      'missing_property',
      'result.totalLines',
    ],
    [
      'one of two mapped fields is missing',
      () => [AGENT, initialState(AGENT)],
      'search_changes',
      () => ({ totalMatches: 3 }),
      'missing_property',
      'result.normalizedQuery',
    ],
    [
      'a string for a number field',
      reader,
      'read_info',
      () => ({ totalLines: '42' }),
      'type_mismatch',
      'result.totalLines',
    ],
    [
      'null for a number field',
      reader,
      'read_info',
      () => ({ totalLines: null }),
      'type_mismatch',
      'result.totalLines',
    ],
    [
      'a boolean for a number field',
      reader,
      'read_info',
      () => ({ totalLines: true }),
      'type_mismatch',
      'result.totalLines',
    ],
    [
      'an object for a number field',
      reader,
      'read_info',
      () => ({ totalLines: { value: 1 } }),
      'type_mismatch',
      'result.totalLines',
    ],
    [
      'an unmapped field holding an object (public results are flat scalars)',
      reader,
      'read_info',
      () => ({ totalLines: 3, meta: { a: 1 } }),
      'invalid_type',
      'result.meta',
    ],
    [
      'below the minimum',
      reader,
      'read_info',
      () => ({ totalLines: -1 }),
      'number_out_of_range',
      'result.totalLines',
    ],
    [
      'above the maximum',
      reader,
      'read_info',
      () => ({ totalLines: 1_000_000_001 }),
      'number_out_of_range',
      'result.totalLines',
    ],
    [
      'off the step grid',
      reader,
      'read_info',
      () => ({ totalLines: 1.5 }),
      'step_mismatch',
      'result.totalLines',
    ],
    // An exact double: step 1 has no float-representation excuse to accept it (seed 002 §4).
    [
      'off the step grid near the maximum',
      reader,
      'read_info',
      () => ({ totalLines: 999_999_999.5 }),
      'step_mismatch',
      'result.totalLines',
    ],
    [
      'a value outside the Select options; the valid fields are not written either',
      () => [SELECT_RESULT, initialState(SELECT_RESULT)],
      'fetch',
      () => ({ ...VALID_FETCH, tier: 'enterprise' }),
      'select_domain_conflict',
      'result.tier',
    ],
    [
      'a string over the field maxLength',
      () => [SELECT_RESULT, initialState(SELECT_RESULT)],
      'fetch',
      () => ({ ...VALID_FETCH, note: 'toolong' }),
      'string_too_long',
      'result.note',
    ],
    [
      'a wrong type in a later field; the earlier ones are not written',
      () => [SELECT_RESULT, initialState(SELECT_RESULT)],
      'fetch',
      () => ({ ...VALID_FETCH, flag: 'yes' }),
      'type_mismatch',
      'result.flag',
    ],
    ['a number result', reader, 'read_info', () => 42, 'invalid_type', 'result'],
    ['a string result', reader, 'read_info', () => '{"totalLines":42}', 'invalid_type', 'result'],
    ['a null result', reader, 'read_info', () => null, 'invalid_type', 'result'],
    ['an array result', reader, 'read_info', () => [{ totalLines: 42 }], 'invalid_type', 'result'],
    ['undefined', reader, 'read_info', () => undefined, 'invalid_json', 'result'],
    ['a class instance', reader, 'read_info', () => new ToolResult(), 'invalid_json', 'result'],
    [
      'a NaN field',
      reader,
      'read_info',
      () => ({ totalLines: Number.NaN }),
      'invalid_json',
      'result.totalLines',
    ],
    [
      'an undefined field',
      reader,
      'read_info',
      () => ({ totalLines: undefined }),
      'invalid_json',
      'result.totalLines',
    ],
    ['a cycle', reader, 'read_info', cycle, 'invalid_json', 'result.self'],
    [
      'more than 32 fields',
      reader,
      'read_info',
      () => resultWithFields(UI_PROTOCOL_LIMITS.maxActionResultFields + 1),
      'too_many',
      'result',
    ],
    [
      'more than 32,768 bytes',
      reader,
      'read_info',
      () => resultOfBytes(UI_PROTOCOL_LIMITS.maxActionResultBytes + 1),
      'too_large',
      'result',
    ],
    [
      'an undeclared action id',
      reader,
      'missing',
      () => ({ totalLines: 1 }),
      'unknown_reference',
      'actionId',
    ],
    [
      'a prototype name as action id',
      reader,
      'hasOwnProperty',
      () => ({ totalLines: 1 }),
      'unknown_reference',
      'actionId',
    ],
    [
      'a 1.0 document',
      () => [COMPOUND, initialState(COMPOUND)],
      'read_info',
      () => ({ totalLines: 1 }),
      'unknown_reference',
      'actionId',
    ],
    [
      'an agent callback has no resultMap',
      () => [AGENT, initialState(AGENT)],
      'draft_notes',
      () => ({ totalMatches: 3 }),
      'invalid_value',
      'actions.draft_notes',
    ],
  ];
  it.each(rows)('%s', (_, build, actionId, result, code, path) => {
    const [document, before] = build();
    const snapshot = clone(before);
    expectIssue(() => applyActionResult(document, before, actionId, result()), UIActionError, code, path);
    expect(before).toStrictEqual(snapshot);
  });

  it('never invokes a getter of the result', () => {
    let calls = 0;
    const result = Object.defineProperty({}, 'totalLines', {
      get: () => {
        calls++;
        return 1;
      },
      enumerable: true,
    });
    const before = initialState(FILE_READER);
    expectIssue(
      () => applyActionResult(FILE_READER, before, 'read_info', result),
      UIActionError,
      'invalid_json',
      'result.totalLines',
    );
    expect(calls).toBe(0);
  });

  it('rejects an invalid current state with UIStateError', () => {
    const current = { path: 'README.md' };
    expectIssue(
      () => applyActionResult(FILE_READER, current as UIState, 'read_info', { totalLines: 1 }),
      UIStateError,
      'missing_property',
      'lines',
    );
    expect(current).toStrictEqual({ path: 'README.md' });
  });
});

describe('applyActionResult: the whole state stays within 262,144 bytes (seed 002 §11)', () => {
  const names = Array.from(
    { length: UI_LIMITS.maxStateFields },
    (_, index) => `f${String(index).padStart(2, '0')}`,
  );
  const last = names[names.length - 1]!;
  const FILL = v11('fill', Object.fromEntries(names.map((name) => [name, { type: 'string', initial: '' }])), {
    fill: { kind: 'tool', capabilityId: 'fill', arguments: {}, resultMap: { [last]: 'text' } },
  });
  const full = (): UIState => {
    let current = initialState(FILL);
    for (const name of names.slice(0, -1))
      current = updateState(FILL, current, name, 'a'.repeat(UI_LIMITS.maxStringLength));
    return current;
  };

  it('maps a value that exactly fills the budget, and rejects one unit more', () => {
    const before = full();
    const room = UI_LIMITS.maxStateBytes - JSON.stringify(before).length;
    expect(room).toBeLessThan(UI_LIMITS.maxStringLength);
    const snapshot = clone(before);
    expectIssue(
      () => applyActionResult(FILL, before, 'fill', { text: 'a'.repeat(room + 1) }),
      UIActionError,
      'too_large',
      'result',
    );
    expect(before).toStrictEqual(snapshot);
    const next = applyActionResult(FILL, before, 'fill', { text: 'a'.repeat(room) });
    expect(JSON.stringify(next).length).toBe(UI_LIMITS.maxStateBytes);
  });
});
