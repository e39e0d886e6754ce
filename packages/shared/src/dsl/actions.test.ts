/**
 * Actions (seed 002 §6, §8, §10, §11): local `set`/`reset` through `dispatchLocalAction`, resolving a 1.1
 * action into capability arguments or an agent prompt (`resolveUIAction`), and writing a host-filtered result
 * through `resultMap` (`applyActionResult`). One row per rule; rejected rows assert the error class, the issue
 * `code` and `path`, and that the caller's state is unchanged.
 */
import { describe, expect, it } from 'vitest';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import { clone, derived, op, state, thrown } from '../../test/utils.js';
import { UIActionError, UIStateError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { applyActionResult, dispatchLocalAction, type ResolvedUIAction, resolveUIAction } from './actions.js';
import { parseDocument } from './document.js';
import { assertValidState, initialState, updateState } from './state.js';
import type { UIDocument, UILocalAction, UIState } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are built and edited as plain JSON before parsing.
type J = any;

type IssueError = UIActionError | UIStateError;
/** Asserts an error of `errorClass` whose issues are exactly `[{ path, code }]`. */
function expectIssue(
  run: () => unknown,
  errorClass: new (...args: never[]) => IssueError,
  code: UIIssueCode,
  path: string,
): void {
  const error = thrown(run);
  expect(error).toBeInstanceOf(errorClass);
  expect((error as IssueError).issues.map((issue) => ({ path: issue.path, code: issue.code }))).toEqual([
    { path, code },
  ]);
}

const button = (id: string, action: unknown): J => ({ id, type: 'Button', props: { label: id, action } });

/** Seed 002 §6: `add(principal, 100)` on the §7 calculator. */
const ADD_HUNDRED: UILocalAction = {
  type: 'set',
  key: 'principal',
  value: { expr: op('add', state('principal'), 100) },
};
const COMPOUND = (() => {
  const document: J = clone(compoundInterest);
  document.root.children.push(button('add-hundred', ADD_HUNDRED));
  return parseDocument(document);
})();
const FORM = parseDocument(clone(formControls));

/** The action of the node `id` (a Button or Form) of a document. */
function actionOf(document: UIDocument, id: string): UILocalAction {
  const stack: J[] = [document.root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node.id === id) return node.props.action as UILocalAction;
    stack.push(...(node.children ?? []));
  }
  throw new Error(`No node ${id}.`);
}
/** form-controls "add-seat": `seats = min(seats + 1, 10)`. */
const ADD_SEAT = actionOf(FORM, 'add-seat');
const FILE_READER = parseDocument(clone(fileReader));
const AGENT = parseDocument(clone(agentCallback));

/** seed 002 §6: 一个不相关的派生字段除零，不应阻断用于恢复状态的按钮. */
const FIX_DENOMINATOR: UILocalAction = { type: 'set', key: 'den', value: 1 };
const TRIPLE: UILocalAction = { type: 'set', key: 'x', value: { expr: derived('good') } };
const FROM_BAD: UILocalAction = { type: 'set', key: 'x', value: { expr: derived('bad') } };
const QUARTER: UILocalAction = { type: 'set', key: 'x', value: { expr: op('div', state('x'), 4) } };
const ISOLATION = parseDocument({
  version: '1.0',
  id: 'isolation',
  mode: 'interactive_ui',
  title: 'Isolation',
  state: {
    den: { type: 'number', initial: 1, min: 0, max: 10, step: 1 },
    x: { type: 'number', initial: 4, min: -100, max: 100, step: 1 },
  },
  derived: { bad: op('div', 10, state('den')), good: op('mul', state('x'), 3) },
  root: {
    id: 'root',
    type: 'Column',
    props: {},
    children: [
      button('fix', FIX_DENOMINATOR),
      button('triple', TRIPLE),
      button('from-bad', FROM_BAD),
      button('quarter', QUARTER),
    ],
  },
});

function v11(id: string, stateDeclarations: J, actions: J, children: J[] = []): UIDocument {
  return parseDocument({
    version: '1.1',
    id,
    mode: 'interactive_ui',
    title: id,
    state: stateDeclarations,
    derived: {},
    actions,
    root: { id: 'root', type: 'Column', props: {}, children },
  });
}

const ARGUMENT_KEYS = ['a', 'b', 'c', 'd', 'e'] as const;
const long = (): J => ({ type: 'string', initial: 'x' });
const ACTIONS = v11(
  'actions',
  {
    question: { type: 'string', initial: 'hi', maxLength: 100 },
    a: long(),
    b: long(),
    c: long(),
    d: long(),
    e: long(),
    den: { type: 'number', initial: 1, min: 0, max: 10, step: 1 },
  },
  {
    ask: { kind: 'agent', prompt: { expr: state('question') } },
    twice: { kind: 'agent', prompt: { expr: op('concat', state('a'), state('b')) } },
    bulk: {
      kind: 'tool',
      capabilityId: 'bulk_write',
      arguments: Object.fromEntries(ARGUMENT_KEYS.map((key) => [key, { expr: state(key) }])),
    },
    ratio: {
      kind: 'tool',
      capabilityId: 'calculate',
      arguments: { value: { expr: op('div', 10, state('den')) } },
    },
  },
);

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

// ---------------------------------------------------------------------------------------------------------
// dispatchLocalAction
// ---------------------------------------------------------------------------------------------------------

describe('dispatchLocalAction: declared set and reset actions (seed 002 §6)', () => {
  it('reset returns the initial state, frozen', () => {
    let changed = updateState(COMPOUND, initialState(COMPOUND), 'rate', 7.5);
    changed = updateState(COMPOUND, changed, 'years', 30);
    const reset = dispatchLocalAction(COMPOUND, changed, { type: 'reset' });
    expect(reset).toStrictEqual(initialState(COMPOUND));
    expect(Object.isFrozen(reset)).toBe(true);
    expect(changed).toStrictEqual({ principal: 10000, rate: 7.5, years: 30 });
  });

  it('reset restores every field of the form, Select and booleans included', () => {
    let changed = updateState(FORM, initialState(FORM), 'plan', 'premium');
    changed = updateState(FORM, changed, 'name', 'Ada');
    changed = updateState(FORM, changed, 'newsletter', false);
    expect(dispatchLocalAction(FORM, changed, { type: 'reset' })).toStrictEqual(initialState(FORM));
  });

  const rows: [string, () => [UIDocument, UIState], UILocalAction, Record<string, unknown>][] = [
    [
      'set with a literal (form submit)',
      () => [FORM, initialState(FORM)],
      { type: 'set', key: 'submitted', value: true },
      { submitted: true },
    ],
    [
      'set a Select field to an option (choose premium)',
      () => [FORM, initialState(FORM)],
      { type: 'set', key: 'plan', value: 'premium' },
      { plan: 'premium' },
    ],
    [
      'the same action with its keys in another order',
      () => [FORM, initialState(FORM)],
      { value: 'premium', key: 'plan', type: 'set' } as UILocalAction,
      { plan: 'premium' },
    ],
    ['set with an expression (add a seat)', () => [FORM, initialState(FORM)], ADD_SEAT, { seats: 3 }],
    [
      'seed §6 add(principal, 100) from the current state',
      () => [COMPOUND, initialState(COMPOUND)],
      ADD_HUNDRED,
      { principal: 10100 },
    ],
    [
      'seed §6 add(principal, 100) reaching exactly the maximum (inclusive)',
      () => [COMPOUND, updateState(COMPOUND, initialState(COMPOUND), 'principal', 99_999_900)],
      ADD_HUNDRED,
      { principal: 100_000_000 },
    ],
    [
      'seed §6: a recovery button works while an unrelated derived field divides by zero',
      () => [ISOLATION, updateState(ISOLATION, initialState(ISOLATION), 'den', 0)],
      FIX_DENOMINATOR,
      { den: 1 },
    ],
    [
      'seed §6: a set computes only the derived fields it uses',
      () => [ISOLATION, updateState(ISOLATION, initialState(ISOLATION), 'den', 0)],
      TRIPLE,
      { x: 12 },
    ],
  ];
  it.each(rows)('%s', (_, build, action, changes) => {
    const [document, before] = build();
    const snapshot = clone(before);
    const next = dispatchLocalAction(document, before, action);
    expect(next).toStrictEqual({ ...snapshot, ...changes });
    expect(Object.isFrozen(next)).toBe(true);
    expect(before).toStrictEqual(snapshot);
  });

  it('add a seat stops at 10 (min(seats + 1, 10)) and keeps the state valid', () => {
    const action = ADD_SEAT;
    let current = updateState(FORM, initialState(FORM), 'seats', 10);
    current = dispatchLocalAction(FORM, current, action);
    expect(current.seats).toBe(10);
  });
});

describe('dispatchLocalAction: rejected actions keep the old state (seed 002 §6)', () => {
  type Row = [
    string,
    () => [UIDocument, UIState],
    unknown,
    new (...args: never[]) => IssueError,
    UIIssueCode,
    string,
  ];
  const rows: Row[] = [
    [
      'seed §6: add(principal, 100) past the maximum throws UIStateError',
      () => [COMPOUND, updateState(COMPOUND, initialState(COMPOUND), 'principal', 99_999_950)],
      ADD_HUNDRED,
      UIStateError,
      'number_out_of_range',
      'principal',
    ],
    [
      'a computed value off the step grid throws UIStateError',
      () => [ISOLATION, updateState(ISOLATION, initialState(ISOLATION), 'x', 2)],
      QUARTER,
      UIStateError,
      'step_mismatch',
      'x',
    ],
    [
      'a value that fails to compute throws UIActionError at value',
      () => [ISOLATION, updateState(ISOLATION, initialState(ISOLATION), 'den', 0)],
      FROM_BAD,
      UIActionError,
      'evaluation_failed',
      'value',
    ],
    [
      'a set action no Button or Form declares (valid value)',
      () => [FORM, initialState(FORM)],
      { type: 'set', key: 'plan', value: 'basic' },
      UIActionError,
      'unknown_reference',
      '$',
    ],
    [
      'a set action no Button or Form declares (any field)',
      () => [COMPOUND, initialState(COMPOUND)],
      { type: 'set', key: 'years', value: 20 },
      UIActionError,
      'unknown_reference',
      '$',
    ],
    [
      'a declared action with an extra property',
      () => [COMPOUND, initialState(COMPOUND)],
      { type: 'reset', url: 'https://example.invalid' },
      UIActionError,
      'unknown_reference',
      '$',
    ],
    [
      'reset in a document without a reset button',
      () => [FILE_READER, initialState(FILE_READER)],
      { type: 'reset' },
      UIActionError,
      'unknown_reference',
      '$',
    ],
    [
      'not an action at all',
      () => [COMPOUND, initialState(COMPOUND)],
      null,
      UIActionError,
      'unknown_reference',
      '$',
    ],
    [
      'invoke is never local, even when a Button declares it',
      () => [FILE_READER, initialState(FILE_READER)],
      { type: 'invoke', actionId: 'read_info' },
      UIActionError,
      'invalid_value',
      'type',
    ],
    [
      'invoke in a 1.0 document',
      () => [COMPOUND, initialState(COMPOUND)],
      { type: 'invoke', actionId: 'read_info' },
      UIActionError,
      'invalid_value',
      'type',
    ],
  ];
  it.each(rows)('%s', (_, build, action, errorClass, code, path) => {
    const [document, before] = build();
    const snapshot = clone(before);
    expectIssue(() => dispatchLocalAction(document, before, action as UILocalAction), errorClass, code, path);
    expect(before).toStrictEqual(snapshot);
  });
});

// ---------------------------------------------------------------------------------------------------------
// resolveUIAction
// ---------------------------------------------------------------------------------------------------------

describe('resolveUIAction: arguments or a prompt computed from the current state (seed 002 §11)', () => {
  const rows: [string, () => [UIDocument, UIState], string, ResolvedUIAction][] = [
    [
      'file-reader: the tool, its capability and its arguments',
      () => [FILE_READER, initialState(FILE_READER)],
      'read_info',
      {
        kind: 'tool',
        actionId: 'read_info',
        capabilityId: 'read_file',
        arguments: { file_path: 'README.md', limit: 20 },
      },
    ],
    [
      'file-reader: arguments are re-derived from the edited state',
      () => [FILE_READER, updateState(FILE_READER, initialState(FILE_READER), 'path', 'docs/guide.md')],
      'read_info',
      {
        kind: 'tool',
        actionId: 'read_info',
        capabilityId: 'read_file',
        arguments: { file_path: 'docs/guide.md', limit: 20 },
      },
    ],
    [
      'agent-callback: a tool with computed and literal arguments',
      () => [AGENT, initialState(AGENT)],
      'search_changes',
      {
        kind: 'tool',
        actionId: 'search_changes',
        capabilityId: 'search_changelog',
        arguments: { query: '组件流式更新', audience: 'developers', limit: 20, includeArchived: false },
      },
    ],
    [
      'agent-callback: the prompt in the initial state',
      () => [AGENT, initialState(AGENT)],
      'draft_notes',
      {
        kind: 'agent',
        actionId: 'draft_notes',
        prompt:
          '请为开发者撰写关于“组件流式更新”的版本说明，列出 5 条要点，并单独列出已知风险与迁移步骤。 已找到的相关记录数：0。',
      },
    ],
    [
      'agent-callback: the prompt follows the edited state',
      () => {
        let current = initialState(AGENT);
        current = updateState(AGENT, current, 'audience', 'end-users');
        current = updateState(AGENT, current, 'includeRisks', false);
        current = updateState(AGENT, current, 'bulletCount', 3);
        current = updateState(AGENT, current, 'matchCount', 7);
        return [AGENT, current];
      },
      'draft_notes',
      {
        kind: 'agent',
        actionId: 'draft_notes',
        prompt: '请为产品用户撰写关于“组件流式更新”的版本说明，列出 3 条要点。 已找到的相关记录数：7。',
      },
    ],
  ];
  it.each(rows)('%s', (_, build, actionId, expected) => {
    const [document, current] = build();
    const snapshot = clone(current);
    const resolved = resolveUIAction(document, current, actionId);
    // Exactly this shape: nothing else (no tool name, permission or URL) rides along.
    expect(resolved).toStrictEqual(expected);
    expect(Object.isFrozen(resolved)).toBe(true);
    if (resolved.kind === 'tool') expect(Object.isFrozen(resolved.arguments)).toBe(true);
    expect(current).toStrictEqual(snapshot);
  });

  /** Sets the five argument fields to strings of these lengths. */
  function bulkState(lengths: readonly number[]): UIState {
    let current = initialState(ACTIONS);
    ARGUMENT_KEYS.forEach((key, index) => {
      current = updateState(ACTIONS, current, key, 'a'.repeat(lengths[index] ?? 0));
    });
    return current;
  }
  const argumentBytes = (lengths: readonly number[]): number =>
    JSON.stringify(
      Object.fromEntries(ARGUMENT_KEYS.map((key, index) => [key, 'a'.repeat(lengths[index] ?? 0)])),
    ).length;
  /** Lengths whose argument object is exactly `bytes` long. */
  function lengthsFor(bytes: number): number[] {
    let rest = bytes - argumentBytes([0, 0, 0, 0, 0]);
    return ARGUMENT_KEYS.map(() => {
      const length = Math.min(rest, UI_LIMITS.maxStringLength);
      rest -= length;
      return length;
    });
  }

  it('accepts arguments of exactly 16,384 bytes', () => {
    const lengths = lengthsFor(UI_PROTOCOL_LIMITS.maxActionArgumentBytes);
    expect(argumentBytes(lengths)).toBe(UI_PROTOCOL_LIMITS.maxActionArgumentBytes);
    const resolved = resolveUIAction(ACTIONS, bulkState(lengths), 'bulk');
    expect(resolved.kind === 'tool' && resolved.arguments.a).toBe('a'.repeat(lengths[0]!));
  });

  type Failure = [string, () => [UIDocument, UIState], string, UIIssueCode, string];
  const failures: Failure[] = [
    [
      'an undeclared action id',
      () => [FILE_READER, initialState(FILE_READER)],
      'missing',
      'unknown_reference',
      'actionId',
    ],
    [
      'a prototype name',
      () => [FILE_READER, initialState(FILE_READER)],
      'toString',
      'unknown_reference',
      'actionId',
    ],
    [
      '__proto__',
      () => [FILE_READER, initialState(FILE_READER)],
      '__proto__',
      'unknown_reference',
      'actionId',
    ],
    [
      'a 1.0 document has no actions',
      () => [COMPOUND, initialState(COMPOUND)],
      'read_info',
      'unknown_reference',
      'actionId',
    ],
    [
      'a prompt that computes to ""',
      () => [ACTIONS, updateState(ACTIONS, initialState(ACTIONS), 'question', '')],
      'ask',
      'string_too_short',
      'actions.ask.prompt',
    ],
    [
      'a prompt that cannot be computed (over 4,096 units)',
      () => {
        const current = updateState(ACTIONS, initialState(ACTIONS), 'a', 'a'.repeat(3000));
        return [ACTIONS, updateState(ACTIONS, current, 'b', 'b'.repeat(3000))];
      },
      'twice',
      'evaluation_failed',
      'actions.twice.prompt',
    ],
    [
      'an argument that cannot be computed',
      () => [ACTIONS, updateState(ACTIONS, initialState(ACTIONS), 'den', 0)],
      'ratio',
      'evaluation_failed',
      'actions.ratio.arguments.value',
    ],
    [
      'arguments one byte over 16,384',
      () => [ACTIONS, bulkState(lengthsFor(UI_PROTOCOL_LIMITS.maxActionArgumentBytes + 1))],
      'bulk',
      'too_large',
      'actions.bulk.arguments',
    ],
    [
      'arguments of four full strings',
      () => [ACTIONS, bulkState([4096, 4096, 4096, 4096, 0])],
      'bulk',
      'too_large',
      'actions.bulk.arguments',
    ],
  ];
  it.each(failures)('throws UIActionError for %s', (_, build, actionId, code, path) => {
    const [document, current] = build();
    const snapshot = clone(current);
    expectIssue(() => resolveUIAction(document, current, actionId), UIActionError, code, path);
    expect(current).toStrictEqual(snapshot);
  });
});

// ---------------------------------------------------------------------------------------------------------
// applyActionResult
// ---------------------------------------------------------------------------------------------------------

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
