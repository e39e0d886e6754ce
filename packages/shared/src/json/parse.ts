/**
 * The one way every protocol shape is parsed (seed 002 §11, §13; seed 000 §2.4): first prove the input is safe
 * JSON within its byte/depth/value budget, then check it strictly against its zod schema, then deep-freeze the
 * result. zod issues become our located, coded issues; messages are ours, never zod's, so no unknown key or
 * rejected value is echoed back.
 */
import type { z } from 'zod';
import {
  createIssue,
  IssueCollector,
  type IssuePath,
  type UIIssue,
  type UIIssueCode,
} from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { deepFreeze } from './freeze.js';
import { protoKeyPaths } from './proto-keys.js';
import { measureSafeJSON, type SafeJSONBudget } from './safe-json.js';

/** A JSON budget for a protocol message: its byte limit, with generous depth and value counts. */
export function messageBudget(maxBytes: number, maxDepth: number = UI_LIMITS.maxJsonDepth): SafeJSONBudget {
  return { maxBytes, maxDepth, maxValues: UI_LIMITS.maxJsonValues };
}

type ZodIssue = z.core.$ZodIssue;

function describeBound(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/** Converts one zod issue into ours (code, path, a message that echoes nothing the sender wrote). */
export function fromZodIssue(issue: ZodIssue, prefix?: string): UIIssue {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  let code: UIIssueCode;
  let message: string;
  let at: IssuePath = path;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) {
        code = 'missing_property';
        message = 'This property is required.';
      } else {
        code = 'invalid_type';
        message = `Expected ${issue.expected === 'record' ? 'object' : issue.expected}.`;
      }
      break;
    case 'unrecognized_keys':
      code = 'unknown_property';
      message = 'Unknown property; this object is closed.';
      break;
    case 'too_big':
      ({ code, message } = tooBig(issue.origin, issue.maximum));
      break;
    case 'too_small':
      ({ code, message } = tooSmall(issue.origin, issue.minimum));
      break;
    case 'invalid_value': {
      const allowed =
        issue.values.length <= 12
          ? `one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
          : undefined;
      // An enum or literal left out is missing, not a wrong value: say so, and what it may be.
      if (issue.input === undefined && issue.path.length > 0) {
        code = 'missing_property';
        message =
          allowed === undefined ? 'This property is required.' : `This property is required: ${allowed}.`;
      } else {
        code = 'invalid_value';
        message = allowed === undefined ? 'Not one of the allowed values.' : `Must be ${allowed}.`;
      }
      break;
    }
    case 'invalid_format':
      code = 'invalid_value';
      message =
        issue.format === 'regex' && 'pattern' in issue
          ? `Does not match the required format ${String(issue.pattern)}.`
          : `Not a valid ${issue.format}.`;
      break;
    case 'not_multiple_of':
      code = 'invalid_value';
      message = `Must be a multiple of ${describeBound(issue.divisor)}.`;
      break;
    case 'invalid_union':
      code = 'invalid_value';
      message = 'Does not match any of the allowed shapes.';
      break;
    case 'invalid_key':
      code = 'invalid_identifier';
      message = 'A key of this object is not allowed.';
      // zod puts the rejected key last in the path; report the object, never the key.
      at = path.slice(0, -1);
      break;
    case 'invalid_element':
      code = 'invalid_value';
      message = 'An element of this collection is not allowed.';
      break;
    case 'custom': {
      const params = (issue.params ?? {}) as { code?: UIIssueCode };
      code = params.code ?? 'invalid_value';
      message = issue.message;
      break;
    }
    default:
      code = 'invalid_value';
      message = 'Invalid value.';
  }
  return createIssue(at, code, message, prefix);
}

function tooBig(origin: string, maximum: unknown): { code: UIIssueCode; message: string } {
  const bound = describeBound(maximum);
  switch (origin) {
    case 'string':
      return { code: 'string_too_long', message: `Must be at most ${bound} UTF-16 code units long.` };
    case 'array':
    case 'set':
    case 'object':
    case 'record':
      return { code: 'too_many', message: `At most ${bound} entries are allowed.` };
    default:
      return { code: 'number_out_of_range', message: `Must be at most ${bound}.` };
  }
}

function tooSmall(origin: string, minimum: unknown): { code: UIIssueCode; message: string } {
  const bound = describeBound(minimum);
  switch (origin) {
    case 'string':
      return { code: 'string_too_short', message: `Must be at least ${bound} character(s) long.` };
    case 'array':
    case 'set':
    case 'object':
    case 'record':
      return { code: 'too_few', message: `At least ${bound} entries are required.` };
    default:
      return { code: 'number_out_of_range', message: `Must be at least ${bound}.` };
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
