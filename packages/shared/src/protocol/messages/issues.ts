/**
 * Located issues on the wire (seed 002 §8 "可定位的 path/message … Host 对工具可见的诊断再限制到 10 项"): what a
 * receiver tells the sender of a message it refused, so the sender can fix it — at most
 * `UI_SCHEMA_LIMITS.maxToolIssues` issues, each a bounded path, a stable code and a fixed sentence. Nothing the
 * sender wrote comes back but the names of the places: a key that is not an identifier (it could carry anything)
 * is shown as `[*]`, and every character outside printable ASCII as `?`.
 */
import { z } from 'zod';
import { UI_ISSUE_CODES, type UIIssue } from '../../errors/issues.js';
import { UI_SCHEMA_LIMITS } from '../../limits/ui-limits.js';
import { humanText } from './common.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/** Printable ASCII, the space included: a path such as `payload.document.root.children[2].props`. */
const WIRE_PATH_PATTERN = /^[\x20-\x7e]+$/;

/** One issue as it travels: `{ path, code, message }`. */
export const LineUpIssueSchema = z
  .strictObject({
    path: z.string().min(1).max(UI_SCHEMA_LIMITS.maxIssuePathLength).regex(WIRE_PATH_PATTERN),
    code: z.enum(UI_ISSUE_CODES),
    message: humanText(UI_SCHEMA_LIMITS.maxIssueMessageLength),
  })
  .meta({
    id: 'LineUpIssue',
    description:
      'Where (a path into the refused message), a stable code, and what is allowed, in one sentence.',
  });
export type LineUpIssue = z.infer<typeof LineUpIssueSchema>;

/** The issues of one refusal: 1 to `UI_SCHEMA_LIMITS.maxToolIssues` of them. */
export const LineUpIssueListSchema = z
  .array(LineUpIssueSchema)
  .min(1)
  .max(UI_SCHEMA_LIMITS.maxToolIssues)
  .meta({ id: 'LineUpIssueList' });

/** A quoted path segment (`["a b"]`, a key that is not an identifier): its text is the sender's. */
const QUOTED_SEGMENT = /\["(?:[^"\\]|\\.)*"\]/g;
const NOT_PRINTABLE = /[^\x20-\x7e]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function wirePath(path: string, prefix: string): string {
  const relative = path === '$' || path === '' ? '' : path;
  const joined =
    prefix === ''
      ? relative
      : relative === '' || relative.startsWith('[')
        ? prefix + relative
        : `${prefix}.${relative}`;
  const text = (joined === '' ? '$' : joined).replace(QUOTED_SEGMENT, '[*]').replace(NOT_PRINTABLE, '?');
  return text.length <= UI_SCHEMA_LIMITS.maxIssuePathLength
    ? text
    : `${text.slice(0, UI_SCHEMA_LIMITS.maxIssuePathLength - 3)}...`;
}

function wireMessage(message: string): string {
  const text = message.replace(CONTROL, ' ').trim();
  const bounded =
    text.length <= UI_SCHEMA_LIMITS.maxIssueMessageLength
      ? text
      : `${text.slice(0, UI_SCHEMA_LIMITS.maxIssueMessageLength - 1)}…`;
  return bounded === '' ? 'Invalid value.' : bounded;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);

/**
 * The first `UI_SCHEMA_LIMITS.maxToolIssues` of `issues` as they go on the wire, their paths below `prefix`
 * (`payload.document` for the issues of `parseDocument`): always a valid `LineUpIssueList` (an empty input
 * gives one `invalid_value` issue at `prefix`), whoever built the issues.
 */
export function wireIssues(issues: readonly UIIssue[], prefix = ''): LineUpIssue[] {
  const listed: readonly UIIssue[] =
    issues.length > 0 ? issues : [{ path: '$', code: 'invalid_value', message: 'Invalid message.' }];
  return listed.slice(0, UI_SCHEMA_LIMITS.maxToolIssues).map((issue) =>
    Object.freeze({
      path: wirePath(issue.path, prefix),
      code: KNOWN_CODES.has(issue.code) ? issue.code : 'invalid_value',
      message: wireMessage(issue.message),
    }),
  );
}

/**
 * An error reported in a result (`tool.result`, `app.result`): a stable code, an optional message for people and,
 * for a refused message, optional located `issues`.
 */
export function resultError<T extends z.ZodType<string>>(code: T) {
  return z.strictObject({
    code,
    message: humanText(LINEUP_WIRE_LIMITS.maxErrorMessageLength).exactOptional(),
    issues: LineUpIssueListSchema.exactOptional(),
  });
}
