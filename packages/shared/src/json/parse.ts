/**
 * The one way every protocol shape is parsed (seed 002 §11, §13; seed 000 §2.4): first prove the input is safe
 * JSON within its byte/depth/value budget, then check it strictly against its zod schema, then deep-freeze the
 * result. zod issues become our located, coded issues; messages are ours, never zod's, so no unknown key or
 * rejected value is echoed back.
 */
import type { z } from 'zod';
import { IssueCollector, truncate, type UIIssue, type UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { deepFreeze } from './freeze.js';
import { protoKeyPaths } from './proto-keys.js';
import { measureSafeJSON, type SafeJSONBudget } from './safe-json.js';
import { zodIssuePlace } from './zod-issue-place.js';

/** A JSON budget for a protocol message: its byte limit, with generous depth and value counts. */
export function messageBudget(maxBytes: number, maxDepth: number = UI_LIMITS.maxJsonDepth): SafeJSONBudget {
  return { maxBytes, maxDepth, maxValues: UI_LIMITS.maxJsonValues };
}

type ZodIssue = z.core.$ZodIssue;

function describeBound(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/**
 * Converts one zod issue into ours: the code and path of `zodIssuePlace`, and a message that echoes nothing the
 * sender wrote.
 */
export function fromZodIssue(issue: ZodIssue, prefix?: string): UIIssue {
  const { path, code } = zodIssuePlace(issue, prefix);
  return Object.freeze({
    path,
    code,
    message: truncate(zodIssueMessage(issue, code), UI_SCHEMA_LIMITS.maxIssueMessageLength),
  });
}

/** The message of a zod issue whose code `zodIssuePlace` gave as `code`. */
function zodIssueMessage(issue: ZodIssue, code: UIIssueCode): string {
  switch (issue.code) {
    case 'invalid_type':
      return code === 'missing_property'
        ? 'This property is required.'
        : `Expected ${issue.expected === 'record' ? 'object' : issue.expected}.`;
    case 'unrecognized_keys':
      return 'Unknown property; this object is closed.';
    case 'too_big':
      return tooBig(code, describeBound(issue.maximum));
    case 'too_small':
      return tooSmall(code, describeBound(issue.minimum));
    case 'invalid_value': {
      const allowed =
        issue.values.length <= 12
          ? `one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
          : undefined;
      // An enum or literal left out is missing, not a wrong value: say so, and what it may be.
      if (code === 'missing_property')
        return allowed === undefined
          ? 'This property is required.'
          : `This property is required: ${allowed}.`;
      return allowed === undefined ? 'Not one of the allowed values.' : `Must be ${allowed}.`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue
        ? `Does not match the required format ${String(issue.pattern)}.`
        : `Not a valid ${issue.format}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${describeBound(issue.divisor)}.`;
    case 'invalid_union':
      return 'Does not match any of the allowed shapes.';
    case 'invalid_key':
      return 'A key of this object is not allowed.';
    case 'invalid_element':
      return 'An element of this collection is not allowed.';
    case 'custom':
      return issue.message;
    default:
      return 'Invalid value.';
  }
}

function tooBig(code: UIIssueCode, bound: string): string {
  switch (code) {
    case 'string_too_long':
      return `Must be at most ${bound} UTF-16 code units long.`;
    case 'too_many':
      return `At most ${bound} entries are allowed.`;
    default:
      return `Must be at most ${bound}.`;
  }
}

function tooSmall(code: UIIssueCode, bound: string): string {
  switch (code) {
    case 'string_too_short':
      return `Must be at least ${bound} character(s) long.`;
    case 'too_few':
      return `At least ${bound} entries are required.`;
    default:
      return `Must be at least ${bound}.`;
  }
}

export interface ParseShapeOptions {
  /** Budget of the whole input (bytes, depth, values). */
  readonly budget: SafeJSONBudget;
  /** Prefix of every issue path, e.g. `snapshot`. */
  readonly prefix?: string;
}

/** Constructor of the error a parser throws; it receives the bounded issues. */
export type IssuesErrorClass = new (issues: readonly UIIssue[]) => Error;

/**
 * Safe JSON and budget, then strict structure, then deep freeze. Throws `ErrorClass` with at most 20 located
 * issues; the input is never modified (zod returns a copy, which is what gets frozen).
 */
export function parseShape<T>(
  schema: z.ZodType<T>,
  input: unknown,
  options: ParseShapeOptions,
  ErrorClass: IssuesErrorClass,
): T {
  const issues = new IssueCollector(options.prefix);
  if (measureSafeJSON(input, options.budget, issues) === undefined) throw new ErrorClass(issues.issues);
  for (const path of protoKeyPaths(input)) {
    issues.add(path, 'invalid_identifier', 'The key __proto__ is not allowed in protocol data.');
  }
  if (!issues.empty) throw new ErrorClass(issues.issues);
  return deepFreeze(parseStrict(schema, input, ErrorClass, options.prefix));
}

/**
 * The strict-structure step of `parseShape`, for input already proven to be safe JSON: zod's copy of `input`
 * (not frozen), or `ErrorClass` with at most 20 of zod's issues made ours, their paths prefixed by `prefix`.
 */
export function parseStrict<T>(
  schema: z.ZodType<T>,
  input: unknown,
  ErrorClass: IssuesErrorClass,
  prefix?: string,
  /** The input is most likely invalid (a faster check declined it): parse once, reporting the input. */
  likelyInvalid = false,
): T {
  if (likelyInvalid) {
    const detailed = schema.safeParse(input, { reportInput: true });
    if (detailed.success) return detailed.data;
    throw new ErrorClass(
      detailed.error.issues.slice(0, UI_SCHEMA_LIMITS.maxIssues).map((issue) => fromZodIssue(issue, prefix)),
    );
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // Parse again reporting the input: only then does zod tell an absent value (missing_property) from one of
  // the wrong type. Success never pays for it (any parse option slows zod down); messages never use it.
  const detailed = schema.safeParse(input, { reportInput: true });
  const zodIssues = detailed.success ? result.error.issues : detailed.error.issues;
  throw new ErrorClass(
    zodIssues.slice(0, UI_SCHEMA_LIMITS.maxIssues).map((issue) => fromZodIssue(issue, prefix)),
  );
}
