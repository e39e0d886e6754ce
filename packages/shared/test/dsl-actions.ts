/**
 * The shared setup of the action tests (`dsl/actions.*.test.ts`, seed 002 §6, §11): the assertion of a
 * rejected action's error class, issue `code` and `path`, the parsed fixture documents they run against, and
 * the builder of small 1.1 documents with declared actions.
 */
import { expect } from 'vitest';
import agentCallback from '../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../fixtures/file-reader.json' with { type: 'json' };
import { parseDocument } from '../src/dsl/document.js';
import type { UIDocument, UILocalAction } from '../src/dsl/types.js';
import type { UIActionError, UIStateError } from '../src/errors/errors.js';
import type { UIIssueCode } from '../src/errors/issues.js';
import { clone, type J, op, state, thrown } from './utils.js';

export type IssueError = UIActionError | UIStateError;
/** Asserts an error of `errorClass` whose issues are exactly `[{ path, code }]`. */
export function expectIssue(
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

export const button = (id: string, action: unknown): J => ({
  id,
  type: 'Button',
  props: { label: id, action },
});

/** Seed 002 §6: `add(principal, 100)` on the §7 calculator. */
export const ADD_HUNDRED: UILocalAction = {
  type: 'set',
  key: 'principal',
  value: { expr: op('add', state('principal'), 100) },
};
export const COMPOUND = (() => {
  const document: J = clone(compoundInterest);
  document.root.children.push(button('add-hundred', ADD_HUNDRED));
  return parseDocument(document);
})();
export const FILE_READER = parseDocument(clone(fileReader));
export const AGENT = parseDocument(clone(agentCallback));

export function v11(id: string, stateDeclarations: J, actions: J, children: J[] = []): UIDocument {
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
