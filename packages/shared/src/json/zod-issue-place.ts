/**
 * Where a zod issue is and what kind it is, in our terms: its `UIIssueCode` and its path as `formatIssuePath`
 * writes it. The one mapping of zod's issues to ours: `fromZodIssue` (`parse.ts`) adds a message for people to
 * it; a MiniApp page (`@lineup/miniapp-sdk`), whose channel carries only codes and paths, reads it without the
 * messages. No zod at run time (types only).
 */
import type { z } from 'zod';
import { formatIssuePath, type UIIssueCode } from '../errors/issues.js';

/** The zod origins whose size is a count of entries (`too_many`, `too_few`); any other is a number's. */
const COLLECTIONS: readonly unknown[] = ['array', 'set', 'object', 'record'];

/** The code and path of a zod issue as `fromZodIssue` gives them, without its message. */
export interface ZodIssuePlace {
  /** `root.children[0].props`, `tags["my key"]`, `$` for the value itself; at most 512 characters. */
  readonly path: string;
  readonly code: UIIssueCode;
}

/**
 * The code and path of one zod issue (`path` prefixed by `prefix`): what `fromZodIssue` reports, without the
 * message. A missing value (`invalid_type`, or `invalid_value` below the root, of an absent input) is
 * `missing_property`; an `invalid_key` is reported at its object, never at the key.
 */
export function zodIssuePlace(issue: z.core.$ZodIssue, prefix?: string): ZodIssuePlace {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  const kind = issue.code;
  let code: UIIssueCode = 'invalid_value';
  if (kind === 'invalid_type') code = issue.input === undefined ? 'missing_property' : kind;
  else if (kind === 'invalid_value') {
    // An enum or literal left out is missing, not a wrong value.
    if (issue.input === undefined && issue.path.length > 0) code = 'missing_property';
  } else if (kind === 'unrecognized_keys') code = 'unknown_property';
  else if (kind === 'too_big' || kind === 'too_small') {
    const big = kind === 'too_big';
    code =
      issue.origin === 'string'
        ? big
          ? 'string_too_long'
          : 'string_too_short'
        : COLLECTIONS.includes(issue.origin)
          ? big
            ? 'too_many'
            : 'too_few'
          : 'number_out_of_range';
  } else if (kind === 'invalid_key') {
    code = 'invalid_identifier';
    // zod puts the rejected key last in the path; report the object, never the key.
    path.pop();
  } else if (kind === 'custom') code = ((issue.params ?? {}) as { code?: UIIssueCode }).code ?? code;
  return { path: formatIssuePath(path, prefix), code };
}
