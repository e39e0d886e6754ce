/**
 * Actions of a validated document: local `set`/`reset` (seed 002 §6), resolving a 1.1 action into capability
 * arguments or an agent prompt, and applying a host-filtered result through `resultMap` (seed 002 §11). Nothing
 * here executes an operation or grants a permission.
 */

import { UIActionError, UIExpressionError } from '../errors/errors.js';
import { createIssue, IssueCollector, type UIIssueCode } from '../errors/issues.js';
import { canonicalJSONString } from '../json/canonical.js';
import { jsonByteLength, measureSafeJSON } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { documentIndex } from './document.js';
import { checkFieldValue, isStateValue } from './domain.js';
import { assertValidState, initialState, rememberValidState, updateState } from './state.js';
import type { Scalar, StateValue, UIDocument, UILocalAction, UIState, Value } from './types.js';
import { createDerivedResolver } from './values.js';

const hasOwn = Object.prototype.hasOwnProperty;

function actionError(path: string, code: UIIssueCode, message: string): UIActionError {
  return new UIActionError([createIssue([], code, message, path)]);
}

/** Every local action of the document's Buttons and Forms, as canonical JSON, to recognise a dispatched one. */
const localActionsByDocument = new WeakMap<UIDocument, ReadonlySet<string>>();

function localActionsOf(document: UIDocument, nodes: Iterable<{ props: object }>): ReadonlySet<string> {
  let known = localActionsByDocument.get(document);
  if (!known) {
    const set = new Set<string>();
    for (const node of nodes) {
      const action = (node.props as { action?: { type: string } }).action;
      if (action && action.type !== 'invoke') set.add(canonicalJSONString(action));
    }
    known = set;
    localActionsByDocument.set(document, known);
  }
  return known;
}

/**
 * Runs a `set` or `reset` action that a Button or Form of the document declares. `reset` returns the initial
 * state; `set` computes its value from the current state (only the derived fields it uses) and applies it with
 * `updateState`, so a value out of the field's domain throws `UIStateError` and keeps the old state. An action
 * the document does not declare, or an `invoke`, throws `UIActionError`.
 */
export function dispatchLocalAction(document: UIDocument, state: UIState, action: UILocalAction): UIState {
  const { document: valid, index } = documentIndex(document);
  const type = (action as { type?: unknown } | null)?.type;
  if (type === 'invoke') {
    throw actionError(
      'type',
      'invalid_value',
      'invoke actions go through the host (resolveUIAction), not locally.',
    );
  }
  if (!localActionsOf(valid, index.nodes.values()).has(safeCanonical(action))) {
    throw actionError(
      '$',
      'unknown_reference',
      'Only a set or reset action declared by the document can be dispatched.',
    );
  }
  if (action.type === 'reset') return initialState(valid);
  const value = resolveActionValue(valid, state, action.value, 'value');
  return updateState(valid, state, action.key, value);
}

function safeCanonical(value: unknown): string {
  try {
    return canonicalJSONString(value);
  } catch {
    return '';
  }
}

function resolveActionValue(document: UIDocument, state: UIState, value: Value, path: string): Scalar {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return createDerivedResolver(document, state).evaluate(value.expr);
  } catch (error) {
    if (error instanceof UIExpressionError) {
      throw actionError(path, 'evaluation_failed', `The value could not be computed: ${error.message}`);
    }
    throw error;
  }
}

/** A 1.1 tool action with its computed, flat scalar arguments. Not yet authorised or executed. */
export interface ResolvedToolAction {
  readonly kind: 'tool';
  readonly actionId: string;
  readonly capabilityId: string;
  readonly arguments: Readonly<Record<string, Scalar>>;
}

/** A 1.1 agent callback with its computed prompt, to be sent as a follow-up user message. */
export interface ResolvedAgentAction {
  readonly kind: 'agent';
  readonly actionId: string;
  readonly prompt: string;
}

export type ResolvedUIAction = ResolvedToolAction | ResolvedAgentAction;

/**
 * Computes what a 1.1 action would submit, from the validated document and the current state: capability
 * arguments (≤ 32 fields, ≤ 16,384 bytes) or a non-empty agent prompt (≤ 4,096). Executes nothing and grants
 * nothing; the host re-derives the same from its persisted document. Throws `UIActionError`.
 */
export function resolveUIAction(document: UIDocument, state: UIState, actionId: string): ResolvedUIAction {
  const { document: valid } = documentIndex(document);
  if (valid.version !== '1.1' || !hasOwn.call(valid.actions, actionId)) {
    throw actionError('actionId', 'unknown_reference', 'The document declares no action with this id.');
  }
  const definition = valid.actions[actionId]!;
  const base = `actions.${actionId}`;
  if (definition.kind === 'agent') {
    const prompt = resolveActionValue(valid, state, definition.prompt, `${base}.prompt`);
    if (typeof prompt !== 'string') {
      throw actionError(`${base}.prompt`, 'type_mismatch', 'An agent prompt must compute to a string.');
    }
    if (prompt.length === 0) {
      throw actionError(
        `${base}.prompt`,
        'string_too_short',
        'An agent prompt must compute to a non-empty string.',
      );
    }
    if (prompt.length > UI_PROTOCOL_LIMITS.maxAgentPromptLength) {
      throw actionError(
        `${base}.prompt`,
        'string_too_long',
        `An agent prompt is at most ${UI_PROTOCOL_LIMITS.maxAgentPromptLength} UTF-16 code units.`,
      );
    }
    return Object.freeze({ kind: 'agent', actionId, prompt });
  }
  const args: Record<string, Scalar> = {};
  for (const name of Object.keys(definition.arguments)) {
    args[name] = resolveActionValue(valid, state, definition.arguments[name]!, `${base}.arguments.${name}`);
  }
  if (jsonByteLength(args) > UI_PROTOCOL_LIMITS.maxActionArgumentBytes) {
    throw actionError(
      `${base}.arguments`,
      'too_large',
      `The computed arguments exceed ${UI_PROTOCOL_LIMITS.maxActionArgumentBytes} bytes.`,
    );
  }
  return Object.freeze({
    kind: 'tool',
    actionId,
    capabilityId: definition.capabilityId,
    arguments: Object.freeze(args),
  });
}

/** Budget for a public result: a flat object of at most 32 scalars within 32,768 bytes. */
const RESULT_JSON_BUDGET = {
  maxBytes: UI_PROTOCOL_LIMITS.maxActionResultBytes,
  maxDepth: 2,
  maxValues: UI_PROTOCOL_LIMITS.maxActionResultFields + 1,
};

/**
 * Writes a trusted, host-filtered scalar result into state through the action's `resultMap`: every mapped field
 * must be present and valid for its state field (type, range, step, Select options) and the whole state must
 * fit its budget, or nothing is written and `UIActionError` is thrown. The caller verifies the receipt and its
 * ownership first. Mapping never triggers another action.
 */
export function applyActionResult(
  document: UIDocument,
  state: UIState,
  actionId: string,
  result: unknown,
): UIState {
  const { document: valid, index } = documentIndex(document);
  if (valid.version !== '1.1' || !hasOwn.call(valid.actions, actionId)) {
    throw actionError('actionId', 'unknown_reference', 'The document declares no action with this id.');
  }
  const definition = valid.actions[actionId]!;
  if (definition.kind !== 'tool') {
    throw actionError(`actions.${actionId}`, 'invalid_value', 'Agent callbacks have no resultMap.');
  }
  assertValidState(valid, state);
  const issues = new IssueCollector('result');
  if (measureSafeJSON(result, RESULT_JSON_BUDGET, issues) === undefined)
    throw new UIActionError(issues.issues);
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw actionError('result', 'invalid_type', 'A result must be a flat JSON object of scalars.');
  }
  const fields = result as Record<string, unknown>;
  const next: Record<string, StateValue> = { ...state };
  const resultMap = definition.resultMap ?? {};
  const mapped = new Set(Object.values(resultMap));
  // seed 002 §13: a public result is flat scalars; fields the map does not read must be scalars too.
  for (const field of Object.keys(fields)) {
    const value = fields[field];
    if (!mapped.has(field) && typeof value === 'object' && value !== null) {
      issues.add([field], 'invalid_type', 'Public result fields are strings, numbers, booleans or null.');
    }
  }
  for (const stateKey of Object.keys(resultMap)) {
    const field = resultMap[stateKey]!;
    if (!hasOwn.call(fields, field)) {
      issues.add([field], 'missing_property', 'The result lacks a field the resultMap reads.');
      continue;
    }
    const value = fields[field];
    const violation = isStateValue(value)
      ? checkFieldValue(index.fields.get(stateKey)!, value)
      : {
          code: 'type_mismatch' as const,
          message: 'Result values mapped into state must be strings, numbers or booleans.',
        };
    if (violation)
      issues.add([field], violation.code, `Cannot map into state field ${stateKey}: ${violation.message}`);
    else next[stateKey] = value as StateValue;
  }
  if (!issues.empty) throw new UIActionError(issues.issues);
  const bytes = jsonByteLength(next);
  if (bytes > UI_LIMITS.maxStateBytes) {
    throw actionError('result', 'too_large', `The state would exceed ${UI_LIMITS.maxStateBytes} bytes.`);
  }
  return rememberValidState(valid, next, bytes);
}
