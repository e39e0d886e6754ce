/**
 * Located issues, the one way every layer reports bad input (seed 002 §8). Every issue has a `path` into the
 * offending input, a stable `code` an agent can react to, and a short `message` for people. Messages never echo
 * unknown key names or rejected values: they are fixed sentences that say what is allowed.
 *
 * This folder is the bottom of the module graph: it imports nothing but the limits.
 */
import { MAX_ISSUE_MESSAGE_LENGTH, MAX_ISSUE_PATH_LENGTH, MAX_ISSUES } from '../limits/ui-limits.js';

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
    if (text.length > MAX_ISSUE_PATH_LENGTH) break;
  }
  return truncate(text || '$', MAX_ISSUE_PATH_LENGTH);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Builds an issue with a bounded path and message. */
export function createIssue(path: IssuePath, code: UIIssueCode, message: string, prefix?: string): UIIssue {
  return Object.freeze({
    path: formatIssuePath(path, prefix),
    code,
    message: truncate(message, MAX_ISSUE_MESSAGE_LENGTH),
  });
}

/**
 * Collects issues up to the reporting limit. Validators keep going after an issue (to report several at
 * once) but stop early once the collector is full.
 */
export class IssueCollector {
  readonly issues: UIIssue[] = [];
  constructor(
    private readonly prefix?: string,
    private readonly limit: number = MAX_ISSUES,
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
