/**
 * The vocabulary of the Intelligent UI DSL (seed 002 §2–§6): versions, modes, the values of enumerated props,
 * the 18 operators with their arity and static types. The components themselves are one table,
 * components.ts. The zod schemas, the JSON Schema, the validator and the agent-side tool definitions are all
 * built from these tables, so they cannot drift apart.
 */

export const UI_DOCUMENT_VERSIONS = ['1.0', '1.1'] as const;
export type UIDocumentVersion = (typeof UI_DOCUMENT_VERSIONS)[number];

export const UI_DOCUMENT_MODES = ['structured_ui', 'interactive_ui'] as const;
export type UIDocumentMode = (typeof UI_DOCUMENT_MODES)[number];

/** Identifier of documents, nodes, state, derived, chart points, table columns, actions, capabilities, fields. */
export const UI_IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Names that match the pattern but could reach an object's prototype; never allowed (seed 002 §2). */
export const UI_FORBIDDEN_IDENTIFIERS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  'constructor',
]);

export function isUIIdentifier(value: unknown): value is string {
  return (
    typeof value === 'string' && UI_IDENTIFIER_PATTERN.test(value) && !UI_FORBIDDEN_IDENTIFIERS.has(value)
  );
}

export const UI_GAPS = ['sm', 'md', 'lg'] as const;
export const UI_HEADING_LEVELS = [1, 2, 3] as const;
export const UI_GRID_COLUMNS = [1, 2, 3, 4] as const;
export const UI_BADGE_TONES = ['neutral', 'success', 'warning', 'danger'] as const;
export const UI_CHART_KINDS = ['bar', 'line'] as const;
export const UI_BUTTON_VARIANTS = ['primary', 'secondary'] as const;
export const UI_RESULT_STYLES = ['decimal', 'currency', 'percent'] as const;
export const UI_RESULT_CURRENCIES = ['CNY', 'USD', 'EUR'] as const;
/** Default `ResultFormat.digits` and `Progress.max` (seed 002 §5). */
export const UI_DEFAULT_RESULT_DIGITS = 2;
export const UI_DEFAULT_PROGRESS_MAX = 100;

/** Elements the Markdown component may render (seed 002 §5); everything else is unwrapped or skipped. */
export const UI_MARKDOWN_ALLOWED_ELEMENTS = [
  'p',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
] as const;

/** Static types of the expression language. `scalar` means any of them (or null). */
export type ExpressionType = 'number' | 'string' | 'boolean' | 'null' | 'scalar';

/**
 * The 18 operators (seed 002 §3). `args` gives the static type of each argument: a single entry applies to
 * every argument of a variadic operator; `any` accepts any scalar type. `if` is special-cased: its branches may
 * be of any type and its result is the union of both.
 */
export const UI_OPERATORS = {
  add: { minArgs: 2, maxArgs: 16, args: ['number'], returns: 'number' },
  sub: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'number' },
  mul: { minArgs: 2, maxArgs: 16, args: ['number'], returns: 'number' },
  div: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'number' },
  pow: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'number' },
  min: { minArgs: 1, maxArgs: 16, args: ['number'], returns: 'number' },
  max: { minArgs: 1, maxArgs: 16, args: ['number'], returns: 'number' },
  round: { minArgs: 1, maxArgs: 2, args: ['number'], returns: 'number' },
  eq: { minArgs: 2, maxArgs: 2, args: ['any'], returns: 'boolean' },
  lt: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'boolean' },
  lte: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'boolean' },
  gt: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'boolean' },
  gte: { minArgs: 2, maxArgs: 2, args: ['number'], returns: 'boolean' },
  and: { minArgs: 2, maxArgs: 16, args: ['boolean'], returns: 'boolean' },
  or: { minArgs: 2, maxArgs: 16, args: ['boolean'], returns: 'boolean' },
  not: { minArgs: 1, maxArgs: 1, args: ['boolean'], returns: 'boolean' },
  if: { minArgs: 3, maxArgs: 3, args: ['boolean', 'any', 'any'], returns: 'any' },
  concat: { minArgs: 1, maxArgs: 16, args: ['any'], returns: 'string' },
} as const satisfies Record<
  string,
  { minArgs: number; maxArgs: number; args: readonly ('number' | 'boolean' | 'any')[]; returns: string }
>;

export type ExpressionOperator = keyof typeof UI_OPERATORS;
export const UI_EXPRESSION_OPERATORS = Object.keys(UI_OPERATORS) as ExpressionOperator[];

/** Local action types of 1.0 and 1.1, and the 1.1-only `invoke` (seed 002 §6, §11). */
export const UI_LOCAL_ACTION_TYPES = ['reset', 'set'] as const;
export const UI_ACTION_KINDS = ['tool', 'agent'] as const;
