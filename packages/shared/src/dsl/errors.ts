/**
 * Errors of the DSL (seed 002 §8). Every issue has a `path` into the offending input, a stable `code` an
 * agent can react to, and a short `message` for people. Messages never echo unknown key names or rejected
 * values: they are fixed sentences that say what is allowed.
 */
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';

/** Every issue code, stable across releases (renaming one is a breaking change, VERSIONING.md). */
export const UI_ISSUE_CODES = [
  // Safe JSON and budgets (assertSafeJSON, §9)
  'invalid_json',
  'too_large',
  'too_deep',
  'too_many',
  'too_few',
  // Structure
  'invalid_type',
  'missing_property',
  'unknown_property',
  'invalid_value',
  'invalid_identifier',
  'string_too_short',
  'string_too_long',
  'number_out_of_range',
  'not_integer',
  'unsupported_version',
  'unknown_component',
  'children_not_allowed',
  'children_required',
  // Document semantics
  'duplicate_id',
  'input_not_allowed',
  'nested_form',
  'unknown_reference',
  'bind_type_mismatch',
  'domain_mismatch',
  'step_mismatch',
  'select_domain_conflict',
  'row_columns_mismatch',
  // Expressions
  'invalid_arity',
  'type_mismatch',
  'derived_cycle',
  'evaluation_failed',
  // Actions (1.1)
  'actions_not_allowed',
  'invalid_result_map',
] as const;

export type UIIssueCode = (typeof UI_ISSUE_CODES)[number];

export interface UIIssue {
  /** Where the problem is, e.g. `root.children[2].props.bind` or `state.rate.step`. At most 512 characters. */
  readonly path: string;
  /** Stable, machine-readable kind of the problem. */
  readonly code: UIIssueCode;
  /** What is wrong and what is allowed, in one sentence. At most 300 characters. */
  readonly message: string;
}

/** A path under construction: property names and array indexes from the root of the input. */
export type IssuePath = readonly (string | number)[];

const IDENTIFIER_SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Renders `['root', 'children', 0, 'props']` as `root.children[0].props`, bounded to 512 characters. */
export function formatIssuePath(path: IssuePath, prefix?: string): string {
  let text = prefix ?? '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER_SEGMENT.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
    if (text.length > UI_SCHEMA_LIMITS.maxIssuePathLength) break;
  }
  return truncate(text || '$', UI_SCHEMA_LIMITS.maxIssuePathLength);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Builds an issue with a bounded path and message. */
export function createIssue(path: IssuePath, code: UIIssueCode, message: string, prefix?: string): UIIssue {
  return Object.freeze({
    path: formatIssuePath(path, prefix),
    code,
    message: truncate(message, UI_SCHEMA_LIMITS.maxIssueMessageLength),
  });
}

function summarize(name: string, issues: readonly UIIssue[]): string {
  const first = issues[0];
  if (!first) return `${name}: invalid input.`;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
  return `${first.path}: ${first.message}${more}`;
}

function freezeIssues(issues: readonly UIIssue[]): readonly UIIssue[] {
  return Object.freeze(issues.slice(0, UI_SCHEMA_LIMITS.maxIssues));
}

/** The errors that carry located issues: at most 20, each bounded; the message summarizes the first. */
abstract class IssuesError extends Error {
  readonly issues: readonly UIIssue[];
  constructor(name: string, issues: readonly UIIssue[]) {
    const bounded = freezeIssues(issues);
    super(summarize(name, bounded));
    this.issues = bounded;
  }
}

/** A document (or a value inside one) failed validation. `issues` holds at most 20 located problems. */
export class UISchemaError extends IssuesError {
  override readonly name = 'UISchemaError';
  constructor(issues: readonly UIIssue[]) {
    super('UISchemaError', issues);
  }
}

/** A state update, restore or check was rejected; the previous state is unchanged. */
export class UIStateError extends IssuesError {
  override readonly name = 'UIStateError';
  constructor(issues: readonly UIIssue[]) {
    super('UIStateError', issues);
  }
}

/** An expression failed at run time: division by zero, a result out of range, the step budget, … */
export class UIExpressionError extends Error {
  override readonly name = 'UIExpressionError';
  /** Where in the expression it failed, e.g. `args[1]`, relative to the evaluated expression. */
  readonly path: string;
  constructor(message: string, path = '$') {
    super(truncate(message, UI_SCHEMA_LIMITS.maxIssueMessageLength));
    this.path = path;
  }
}

/** An action definition, its computed arguments or prompt, or a result mapping was rejected. */
export class UIActionError extends IssuesError {
  override readonly name = 'UIActionError';
  constructor(issues: readonly UIIssue[]) {
    super('UIActionError', issues);
  }
}

/**
 * Collects issues up to the reporting limit. Validators keep going after an issue (to report several at
 * once) but stop early once the collector is full.
 */
export class IssueCollector {
  readonly issues: UIIssue[] = [];
  constructor(
    private readonly prefix?: string,
    private readonly limit: number = UI_SCHEMA_LIMITS.maxIssues,
  ) {}

  add(path: IssuePath, code: UIIssueCode, message: string): void {
    if (this.issues.length < this.limit) this.issues.push(createIssue(path, code, message, this.prefix));
  }

  get full(): boolean {
    return this.issues.length >= this.limit;
  }

  get empty(): boolean {
    return this.issues.length === 0;
  }
}

/**
 * A component stream frame or mutation was rejected (seed 002 §12); the previous stream state is unchanged.
 * Issues of the candidate tree keep the document's paths; issues of a snapshot are prefixed `snapshot`.
 */
export class UIStreamError extends IssuesError {
  override readonly name = 'UIStreamError';
  constructor(issues: readonly UIIssue[]) {
    super('UIStreamError', issues);
  }
}

/**
 * A wire or bridge message (a `lineup.v1` envelope, a Surface or MiniApp channel message, an Agent Tool
 * descriptor or manifest, an action request, receipt or catalog) failed validation. Nothing was executed.
 */
export class LineUpProtocolError extends IssuesError {
  override readonly name = 'LineUpProtocolError';
  constructor(issues: readonly UIIssue[]) {
    super('LineUpProtocolError', issues);
  }
}
