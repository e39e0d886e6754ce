/**
 * The error family of LineUp. Every error a LineUp package throws on purpose extends `LineUpError`: it has a
 * stable `code`, and `issues` (located problems, at most 20, each bounded; empty when the error is not about a
 * place in some input). Catch the family with `isLineUpError(error)` or `error instanceof LineUpError`: both
 * read a brand (`Symbol.for('@lineup/error')`), so they hold for an error thrown by another copy of the package
 * (a Vite plugin that loads an app's module in its own module graph, two versions in one bundle). Checks for a
 * particular class (`instanceof UISchemaError`) stay exact, and hold within one copy; across copies, compare
 * `code`.
 */
import { MAX_ISSUES } from '../limits/ui-limits.js';
import { createIssue, type UIIssue } from './issues.js';

const LINEUP_ERROR_BRAND: unique symbol = Symbol.for('@lineup/error') as never;

/** The base of every LineUp error: a stable `code`, bounded `issues`, and a brand that survives copies. */
export abstract class LineUpError<Code extends string = string> extends Error {
  /** Stable, machine-readable kind of the error (renaming one is a breaking change). */
  readonly code: Code;
  /** Located problems, at most 20, each bounded; empty when the error is not about a place in some input. */
  readonly issues: readonly UIIssue[];
  declare readonly [LINEUP_ERROR_BRAND]: true;

  constructor(
    code: Code,
    message: string,
    options?: ErrorOptions & { readonly issues?: readonly UIIssue[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = freezeIssues(options?.issues ?? []);
    Object.defineProperty(this, LINEUP_ERROR_BRAND, { value: true });
  }

  /**
   * `value instanceof LineUpError` reads the brand, so it also holds for errors of another copy of the package;
   * `instanceof` a subclass is the usual prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class asked (the base or a subclass) decides the check.
    if (this === LineUpError) return isLineUpError(value);
    // biome-ignore lint/complexity/noThisInStatic: a subclass keeps the usual prototype check.
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/** Whether `value` is an error of the LineUp family, from this copy of the package or another. */
export function isLineUpError(value: unknown): value is LineUpError {
  return (
    value instanceof Error &&
    (value as unknown as Record<symbol, unknown>)[LINEUP_ERROR_BRAND] === true &&
    typeof (value as { code?: unknown }).code === 'string' &&
    Array.isArray((value as { issues?: unknown }).issues)
  );
}

function summarize(name: string, issues: readonly UIIssue[]): string {
  const first = issues[0];
  if (!first) return `${name}: invalid input.`;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
  return `${first.path}: ${first.message}${more}`;
}

function freezeIssues(issues: readonly UIIssue[]): readonly UIIssue[] {
  return Object.freeze(issues.slice(0, MAX_ISSUES));
}

/** The errors that are about located issues: the message summarizes the first. */
abstract class IssuesError<Code extends string> extends LineUpError<Code> {
  constructor(name: string, code: Code, issues: readonly UIIssue[]) {
    const bounded = freezeIssues(issues);
    super(code, summarize(name, bounded), { issues: bounded });
  }
}

/*
 * Each class's code, one constant each: a class reads its own, so a page that throws only some classes leaves the
 * others' codes (and `LINEUP_ERROR_CODES`) out.
 */
const UI_SCHEMA_INVALID = 'ui_schema_invalid';
const UI_STATE_REJECTED = 'ui_state_rejected';
const UI_EXPRESSION_FAILED = 'ui_expression_failed';
const UI_ACTION_INVALID = 'ui_action_invalid';
const UI_STREAM_REJECTED = 'ui_stream_rejected';
const PROTOCOL_INVALID = 'protocol_invalid';

/** The `code` of each error class of `@lineup/shared`. */
export const LINEUP_ERROR_CODES = {
  UISchemaError: UI_SCHEMA_INVALID,
  UIStateError: UI_STATE_REJECTED,
  UIExpressionError: UI_EXPRESSION_FAILED,
  UIActionError: UI_ACTION_INVALID,
  UIStreamError: UI_STREAM_REJECTED,
  LineUpProtocolError: PROTOCOL_INVALID,
} as const;

/** A document (or a value inside one) failed validation. `issues` holds at most 20 located problems. */
export class UISchemaError extends IssuesError<(typeof LINEUP_ERROR_CODES)['UISchemaError']> {
  override readonly name = 'UISchemaError';
  constructor(issues: readonly UIIssue[]) {
    super('UISchemaError', UI_SCHEMA_INVALID, issues);
  }
}

/** A state update, restore or check was rejected; the previous state is unchanged. */
export class UIStateError extends IssuesError<(typeof LINEUP_ERROR_CODES)['UIStateError']> {
  override readonly name = 'UIStateError';
  constructor(issues: readonly UIIssue[]) {
    super('UIStateError', UI_STATE_REJECTED, issues);
  }
}

/** An expression failed at run time: division by zero, a result out of range, the step budget, … */
export class UIExpressionError extends LineUpError<(typeof LINEUP_ERROR_CODES)['UIExpressionError']> {
  override readonly name = 'UIExpressionError';
  /** Where in the expression it failed, e.g. `args[1]`, relative to the evaluated expression. */
  readonly path: string;
  constructor(message: string, path = '$') {
    const issue = createIssue([], 'evaluation_failed', message, path);
    super(UI_EXPRESSION_FAILED, issue.message, { issues: [issue] });
    this.path = path;
  }
}

/** An action definition, its computed arguments or prompt, or a result mapping was rejected. */
export class UIActionError extends IssuesError<(typeof LINEUP_ERROR_CODES)['UIActionError']> {
  override readonly name = 'UIActionError';
  constructor(issues: readonly UIIssue[]) {
    super('UIActionError', UI_ACTION_INVALID, issues);
  }
}

/**
 * A component stream frame or mutation was rejected (seed 002 §12); the previous stream state is unchanged.
 * Issues of the candidate tree keep the document's paths; issues of a snapshot are prefixed `snapshot`.
 */
export class UIStreamError extends IssuesError<(typeof LINEUP_ERROR_CODES)['UIStreamError']> {
  override readonly name = 'UIStreamError';
  constructor(issues: readonly UIIssue[]) {
    super('UIStreamError', UI_STREAM_REJECTED, issues);
  }
}

/**
 * A wire or bridge message (a `lineup.v1` envelope, a Surface or MiniApp channel message, an Agent Tool
 * descriptor or manifest, an action request, receipt or catalog) failed validation. Nothing was executed.
 */
export class LineUpProtocolError extends IssuesError<(typeof LINEUP_ERROR_CODES)['LineUpProtocolError']> {
  override readonly name = 'LineUpProtocolError';
  constructor(issues: readonly UIIssue[]) {
    super('LineUpProtocolError', PROTOCOL_INVALID, issues);
  }
}
