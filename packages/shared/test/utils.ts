/**
 * The helpers that several test files of @lineup/shared share, written once: copying and walking JSON test
 * data, catching the error a call must throw, reading its issues, and building expressions and protocol data.
 * Only the ES library is visible here (like the package's sources): no DOM, no Node.
 */
import { expect } from 'vitest';
import type { ExpressionOperator } from '../src/dsl/catalog.js';
import type { Expr } from '../src/dsl/types.js';
import { LineUpProtocolError, UIExpressionError } from '../src/errors/errors.js';
import type { UIIssue, UIIssueCode } from '../src/errors/issues.js';
import { UI_SCHEMA_LIMITS } from '../src/limits/ui-limits.js';
import { type ParseEnvelopeOptions, parseEnvelope } from '../src/protocol/envelope.js';

// biome-ignore lint/suspicious/noExplicitAny: tests build and mutate arbitrary (often invalid) JSON on purpose.
export type J = any;

/** A path into a JSON value: property names and array indexes, outermost first (the root's is `[]`). */
export type JSONPath = readonly (string | number)[];

// ── JSON test data ──────────────────────────────────────────────────────────────────────────────────────

/** A deep copy through JSON text: fresh, mutable plain data, sharing nothing with `value`. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `JSON.parse(text)`: unlike an object literal, it keeps an own `__proto__` key an own key. */
export function json(text: string): J {
  return JSON.parse(text);
}

/** A shallow copy of `value` without its property `key`. */
export function without(value: J, key: string): J {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** An object of `count` keys `k0`, `k1`, …, each holding `value`. */
export function keyed(count: number, value: unknown = 1): J {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, value]));
}

/** `{ "p": "xxx…" }` of exactly `bytes` UTF-8 bytes as JSON (at least 8). */
export function objectOfBytes(bytes: number): J {
  return { p: 'x'.repeat(bytes - 8) };
}

/** A getter that fails the test if anything runs it (a check must read data without calling code). */
export function throwingGetter(): never {
  throw new Error('a getter ran');
}

/** Every path into a JSON value (the root's is `[]`), depth first: where a property test can change something. */
export function paths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    out.push(path);
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, [...path, index]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    }
  };
  walk(root, []);
  return out;
}

/** The value at `path` inside `root`. */
export function getAt(root: J, path: JSONPath): J {
  let value = root;
  for (const segment of path) value = value[segment];
  return value;
}

/**
 * Replaces the value at `path` (the root when `path` is empty) and returns the new root. The property is
 * defined, not assigned, so that a `__proto__` key becomes an own data property, as `JSON.parse` makes it.
 */
export function setAt(root: J, path: JSONPath, value: unknown): J {
  if (path.length === 0) return value;
  Object.defineProperty(getAt(root, path.slice(0, -1)), path[path.length - 1] as string | number, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return root;
}

/** Asserts that `value` and every object and array inside it are frozen; `path` names it in a failure. */
export function expectDeepFrozen(value: unknown, path = '$'): void {
  if (typeof value !== 'object' || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, child] of Object.entries(value)) expectDeepFrozen(child, `${path}.${key}`);
}

// ── Errors and issues ───────────────────────────────────────────────────────────────────────────────────

/** Runs `run`, which must throw, and returns what it threw. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('Expected a throw, but nothing was thrown.');
}

/**
 * Runs `run`, which must throw an `ErrorClass`, and returns that error. Anything else it throws is thrown
 * again, so the test fails with it.
 */
export function thrownBy<E>(ErrorClass: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    if (error instanceof ErrorClass) return error;
    throw error;
  }
  throw new Error(`Expected a ${ErrorClass.name}, but nothing was thrown.`);
}

/** The `UIExpressionError` that `run` must throw. */
export function expressionError(run: () => unknown): UIExpressionError {
  return thrownBy(UIExpressionError, run);
}

/**
 * Runs a protocol parse: returns its result, or `undefined` after checking that it threw the documented error —
 * a `LineUpProtocolError` with 1 to 20 issues, each path and message within its bound.
 */
export function protocolOutcome<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    expectBoundedError(error, LineUpProtocolError);
    return undefined;
  }
}

/** Checks that `error` is a `type` with 1 to 20 issues, each path and message within its bound. */
export function expectBoundedError(
  error: unknown,
  type: abstract new (...args: never[]) => { readonly issues: readonly UIIssue[] },
): void {
  expect(error).toBeInstanceOf(type);
  const { issues } = error as { readonly issues: readonly UIIssue[] };
  expect(issues.length).toBeGreaterThan(0);
  expect(issues.length).toBeLessThanOrEqual(UI_SCHEMA_LIMITS.maxIssues);
  for (const issue of issues) {
    expect(issue.path.length).toBeLessThanOrEqual(UI_SCHEMA_LIMITS.maxIssuePathLength);
    expect(issue.message.length).toBeLessThanOrEqual(UI_SCHEMA_LIMITS.maxIssueMessageLength);
  }
}

/** The issues of the `LineUpProtocolError` that `run` must throw, as an array the test may change. */
export function issuesOf(run: () => unknown): UIIssue[] {
  return [...thrownBy(LineUpProtocolError, run).issues];
}

/** The code and path of each issue, in order: what a rule's test compares (messages are checked apart). */
export function codesAndPaths<C extends string>(
  issues: readonly { readonly code: C; readonly path: string }[],
): { code: C; path: string }[] {
  return issues.map(({ code, path }) => ({ code, path }));
}

/** The `LineUpProtocolError` that `parseEnvelope` must throw for `input`. */
export function envelopeRejection(input: unknown, options?: ParseEnvelopeOptions): LineUpProtocolError {
  return thrownBy(LineUpProtocolError, () => parseEnvelope(input, options));
}

/** The code and path of each issue `parseEnvelope` must raise for `input`. */
export function envelopeIssuesOf(
  input: unknown,
  options?: ParseEnvelopeOptions,
): { code: UIIssueCode; path: string }[] {
  return codesAndPaths(envelopeRejection(input, options).issues);
}

/** One rejection rule of a parser: the input that breaks it, and the code and path of the issue it gets. */
export interface Row {
  readonly rule: string;
  readonly input: () => unknown;
  readonly code: UIIssueCode;
  readonly path: string;
}

export function row(rule: string, input: () => unknown, code: UIIssueCode, path: string): Row {
  return { rule, input, code, path };
}

// ── Expressions ─────────────────────────────────────────────────────────────────────────────────────────

/** `{ op: name, args }`. */
export function op(name: ExpressionOperator, ...args: Expr[]): Expr {
  return { op: name, args };
}

/** A reference to the state field `name`. */
export function state(name: string): Expr {
  return { state: name };
}

/** A reference to the derived field `name`. */
export function derived(name: string): Expr {
  return { derived: name };
}
