/**
 * The name patterns as plain regular expressions, without zod: what `names.ts` and `dsl/scalars.ts` build their
 * schemas from, and what a MiniApp page checks with where it checks by itself (an error code of `fail`).
 */

/**
 * A machine token: snake_case, starting with a letter (`completed`, `app_activation_failed`, the app scope
 * `pomodoro`, the error code `not_found`).
 */
export const TOKEN_PATTERN = /^[a-z][a-z0-9_]*$/;

/** seed 003 §4.1: a public method (`start`, `interrupt`, `addItem`): a letter, then letters, digits, `_`. */
export const TOOL_METHOD_PATTERN = /^[a-z][A-Za-z0-9_]*$/;

/** seed 002 §2: a DSL identifier; the lookahead keeps `prototype` and `constructor` out (`__proto__` fails the first letter). */
export const UI_IDENTIFIER_PATTERN = /^(?!(?:prototype|constructor)$)[A-Za-z][A-Za-z0-9_-]{0,63}$/;
