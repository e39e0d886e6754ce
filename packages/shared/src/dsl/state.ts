/**
 * Local state of a validated document (seed 002 §4): the initial state, atomic single-field updates, the
 * conservative restore of saved state, and the full validity check. Every state returned is a new frozen object;
 * a rejected change leaves the caller's state untouched.
 */

import { UIStateError } from '../errors/errors.js';
import { IssueCollector } from '../errors/issues.js';
import { jsonByteLength, measureSafeJSON } from '../json/safe-json.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { documentIndex } from './document.js';
import { checkFieldValue } from './domain.js';
import type { StateValue, UIDocument, UIState } from './types.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** A valid state is one flat object of at most 64 scalars within the state byte budget. */
const STATE_JSON_BUDGET = {
  maxBytes: UI_LIMITS.maxStateBytes,
  maxDepth: 2,
  maxValues: UI_LIMITS.maxStateFields + 1,
};
/** Saved state may carry fields of an older document (ignored), so it is read with the document's JSON budget. */
const SAVED_STATE_JSON_BUDGET = {
  maxBytes: UI_LIMITS.maxDocumentBytes,
  maxDepth: UI_LIMITS.maxJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues,
};

/**
 * States this module produced, with the document they are valid for and their JSON size. They are frozen, so
 * they stay valid: `updateState` skips re-checking them and updates the size from the changed field alone,
 * which keeps an update O(1) in the number of fields.
 */
const knownStates = new WeakMap<object, { readonly document: UIDocument; readonly bytes: number }>();

/** Freezes a state known to be valid for `document` and remembers it. */
export function rememberValidState(
  document: UIDocument,
  state: Record<string, StateValue>,
  bytes?: number,
): UIState {
  Object.freeze(state);
  knownStates.set(state, { document, bytes: bytes ?? jsonByteLength(state) });
  return state;
}

/** The declared initial value of every state field. */
export function initialState(document: UIDocument): UIState {
  const { document: valid } = documentIndex(document);
  const state: Record<string, StateValue> = {};
  for (const name of Object.keys(valid.state)) state[name] = valid.state[name]!.initial;
  return rememberValidState(valid, state);
}

/**
 * Checks that `state` holds exactly the declared fields, each within its domain (type, range, step, maxLength,
 * Select options), and that the whole object fits 262,144 bytes. Throws `UIStateError` otherwise.
 */
export function assertValidState(document: UIDocument, state: unknown): asserts state is UIState {
  const { document: valid, index } = documentIndex(document);
  if (typeof state === 'object' && state !== null && knownStates.get(state)?.document === valid) return;
  const issues = new IssueCollector();
  if (measureSafeJSON(state, STATE_JSON_BUDGET, issues) === undefined) throw new UIStateError(issues.issues);
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new UIStateError([{ path: '$', code: 'invalid_type', message: 'State must be a JSON object.' }]);
  }
  const record = state as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!index.fields.has(name)) {
      issues.add([], 'unknown_property', 'State has a field the document does not declare.');
      break;
    }
  }
  for (const [name, domain] of index.fields) {
    if (!hasOwn.call(record, name)) {
      issues.add([name], 'missing_property', 'Every declared state field must be present.');
      continue;
    }
    const violation = checkFieldValue(domain, record[name]);
    if (violation) issues.add([name], violation.code, violation.message);
  }
  if (!issues.empty) throw new UIStateError(issues.issues);
}

/**
 * Validates and applies one field change atomically: returns a new frozen state, or throws `UIStateError`
 * (unknown field, wrong type, out of range, off the step grid, not a Select option, state over budget, or an
 * invalid current state) and leaves `state` as it was.
 */
export function updateState(document: UIDocument, state: UIState, key: string, value: unknown): UIState {
  const { document: valid, index } = documentIndex(document);
  assertValidState(valid, state);
  const domain = typeof key === 'string' ? index.fields.get(key) : undefined;
  if (!domain) {
    throw new UIStateError([
      { path: '$', code: 'unknown_reference', message: 'This state field is not declared.' },
    ]);
  }
  const violation = checkFieldValue(domain, value);
  if (violation) throw new UIStateError([{ path: key, code: violation.code, message: violation.message }]);
  // State is JSON data, where -0 does not exist: store 0, so a saved and restored state compares equal.
  const stored = (Object.is(value, -0) ? 0 : value) as StateValue;
  const next = { ...state, [key]: stored };
  const known = knownStates.get(state);
  // Only one value changes, so the size changes by the difference of that value's JSON length.
  const bytes = known
    ? known.bytes - jsonByteLength(state[key]) + jsonByteLength(stored)
    : jsonByteLength(next);
  if (bytes > UI_LIMITS.maxStateBytes) {
    throw new UIStateError([
      { path: '$', code: 'too_large', message: `The state would exceed ${UI_LIMITS.maxStateBytes} bytes.` },
    ]);
  }
  return rememberValidState(valid, next, bytes);
}

/**
 * Restores saved state conservatively: starts from the initial state and takes only declared fields whose saved
 * value is valid; unknown or invalid fields are ignored. Input that cannot be checked safely (not plain JSON,
 * over budget) or a result over budget yields the initial state. Never dispatches an action.
 */
export function restoreState(document: UIDocument, input: unknown): UIState {
  const { document: valid, index } = documentIndex(document);
  const defaults = initialState(valid);
  const issues = new IssueCollector();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return defaults;
  if (measureSafeJSON(input, SAVED_STATE_JSON_BUDGET, issues) === undefined) return defaults;
  const saved = input as Record<string, unknown>;
  const restored: Record<string, StateValue> = { ...defaults };
  for (const [name, domain] of index.fields) {
    if (hasOwn.call(saved, name) && checkFieldValue(domain, saved[name]) === undefined) {
      restored[name] = saved[name] as StateValue;
    }
  }
  const bytes = jsonByteLength(restored);
  if (bytes > UI_LIMITS.maxStateBytes) return defaults;
  return rememberValidState(valid, restored, bytes);
}
