/**
 * Local actions (seed 002 §6, §8, §10): declared `set` and `reset` through `dispatchLocalAction`, and the
 * rejected ones. One row per rule; rejected rows assert the error class, the issue `code` and `path`, and
 * that the caller's state is unchanged.
 */
import { describe, expect, it } from 'vitest';
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import {
  ADD_HUNDRED,
  button,
  COMPOUND,
  expectIssue,
  FILE_READER,
  type IssueError,
} from '../../test/dsl-actions.js';
import { clone, derived, type J, op, state } from '../../test/utils.js';
import { UIActionError, UIStateError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { dispatchLocalAction } from './actions.js';
import { parseDocument } from './document.js';
import { initialState, updateState } from './state.js';
import type { UIDocument, UILocalAction, UIState } from './types.js';

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
