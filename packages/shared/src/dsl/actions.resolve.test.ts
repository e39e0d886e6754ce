/**
 * Resolving a 1.1 action (seed 002 §11): `resolveUIAction` computes a tool's capability arguments or an agent
 * prompt from the current state. Rejected rows assert the error class, the issue `code` and `path`, and that
 * the caller's state is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { AGENT, COMPOUND, expectIssue, FILE_READER, v11 } from '../../test/dsl-actions.js';
import { clone, type J, op, state } from '../../test/utils.js';
import { UIActionError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { type ResolvedUIAction, resolveUIAction } from './actions.js';
import { initialState, updateState } from './state.js';
import type { UIDocument, UIState } from './types.js';

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
