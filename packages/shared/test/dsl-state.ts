/**
 * The shared setup of the local state tests (`dsl/state.*.test.ts`, seed 002 §4, §8, §10): the UTF-8 size
 * of a state, the assertion of a `UIStateError` with its exact issue `code` and `path`, the parsed fixture
 * documents, a document with one field per domain rule, and documents of 64 long string fields whose state
 * can outgrow the 262,144-byte budget.
 */
import { expect } from 'vitest';
import compoundInterest from '../fixtures/compound-interest.json' with { type: 'json' };
import formControls from '../fixtures/form-controls.json' with { type: 'json' };
import { parseDocument } from '../src/dsl/document.js';
import type { UIDocument } from '../src/dsl/types.js';
import { UIStateError } from '../src/errors/errors.js';
import type { UIIssueCode } from '../src/errors/issues.js';
import { UI_LIMITS } from '../src/limits/ui-limits.js';
import { clone, thrown } from './utils.js';

/** UTF-8 length of a string, counted independently of the implementation (JSON text is what is measured). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
export const stateBytes = (state: object): number => utf8Length(JSON.stringify(state));

/** Asserts a `UIStateError` whose issues are exactly `[{ path, code }]`. */
export function expectStateError(run: () => unknown, code: UIIssueCode, path: string): void {
  const error = thrown(run);
  expect(error).toBeInstanceOf(UIStateError);
  expect((error as UIStateError).issues.map((issue) => ({ path: issue.path, code: issue.code }))).toEqual([
    { path, code },
  ]);
}

export const COMPOUND = parseDocument(clone(compoundInterest));
export const FORM = parseDocument(clone(formControls));

/** One field per domain rule of seed 002 §4. */
export const DOMAINS = parseDocument({
  version: '1.0',
  id: 'domains',
  mode: 'interactive_ui',
  title: 'Domains',
  state: {
    free: { type: 'number', initial: 0 },
    bounded: { type: 'number', initial: 5, min: 0, max: 10 },
    whole: { type: 'number', initial: 0, step: 1 },
    tenth: { type: 'number', initial: 0, min: 0, max: 10, step: 0.1 },
    offset: { type: 'number', initial: 0.5, min: 0.5, max: 100, step: 1 },
    half: { type: 'number', initial: 0, max: 10, step: 0.5 },
    large: { type: 'number', initial: 0, min: 0, max: 1_000_000_000, step: 1 },
    text: { type: 'string', initial: '' },
    short: { type: 'string', initial: 'ab', maxLength: 3 },
    flag: { type: 'boolean', initial: false },
    choice: { type: 'string', initial: 'a', maxLength: 8 },
  },
  derived: {},
  root: {
    id: 'root',
    type: 'Column',
    props: {},
    children: [
      {
        id: 'choice-select',
        type: 'Select',
        props: {
          label: 'Choice',
          bind: 'choice',
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'b' },
            { label: 'C', value: 'c' },
          ],
        },
      },
    ],
  },
});

export const FIELD_COUNT = UI_LIMITS.maxStateFields;
const fieldName = (index: number): string => `f${String(index).padStart(2, '0')}`;
export const FIELD_NAMES = Array.from({ length: FIELD_COUNT }, (_, index) => fieldName(index));

/**
 * 64 string fields of maxLength 4096: 64 × 4096 > 262,144, so the state byte budget binds before maxLength.
 * The first `bigInitials` fields start full (4,096 × "i").
 */
export function budgetDocument(bigInitials = 0): UIDocument {
  const state: Record<string, unknown> = {};
  FIELD_NAMES.forEach((name, index) => {
    state[name] = {
      type: 'string',
      initial: index < bigInitials ? 'i'.repeat(UI_LIMITS.maxStringLength) : '',
      maxLength: UI_LIMITS.maxStringLength,
    };
  });
  return parseDocument({
    version: '1.0',
    id: 'budget',
    mode: 'structured_ui',
    title: 'Budget',
    state,
    derived: {},
    root: { id: 'root', type: 'Text', props: { text: 'x' } },
  });
}
export const BUDGET = budgetDocument();
