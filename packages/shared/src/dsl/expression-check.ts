/**
 * Static validation of an untrusted expression (seed 002 §3, §9), used by `parseDocument`. The input is
 * already known to be plain JSON (assertSafeJSON); this checks that it is an `Expr`: its shape, identifiers,
 * references, arity, static argument types, nesting depth and the document-wide node budget. It never
 * throws, reports every problem to an `IssueCollector` with the path conventions of PATHS.md, and never
 * echoes an unknown key or a rejected value.
 *
 * Types are sets, as bitmasks: `if` can return "number or string", and an argument is well typed only when
 * every type it may have is accepted (seed 002 §3: no implicit conversions).
 */

import type { IssueCollector, IssuePath } from '../errors/issues.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { type ExpressionOperator, isUIIdentifier, UI_EXPRESSION_OPERATORS, UI_OPERATORS } from './catalog.js';
import { describeArity } from './expression-compile.js';

export const T_NUMBER = 1;
export const T_STRING = 2;
export const T_BOOLEAN = 4;
export const T_NULL = 8;
export const T_ANY = 15;
/** A set of scalar types: a union of `T_NUMBER`, `T_STRING`, `T_BOOLEAN`, `T_NULL`. */
export type TypeSet = number;

const TYPE_NAMES: readonly (readonly [TypeSet, string])[] = [
  [T_NUMBER, 'number'],
  [T_STRING, 'string'],
  [T_BOOLEAN, 'boolean'],
  [T_NULL, 'null'],
];

/** Names a type set for people: `number`, `number or string`, `number, string or null`. */
export function describeTypeSet(types: TypeSet): string {
  const names = TYPE_NAMES.filter(([type]) => (types & type) !== 0).map(([, name]) => name);
  if (names.length === 0) return 'no type';
  if (names.length === 1) return names[0] as string;
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** `a number`, `a string or null`: a type set as the complement of "this expression is …". */
function describeWithArticle(types: TypeSet): string {
  return TYPE_NAMES.filter(([type]) => (types & type) !== 0)
    .map(([type, name]) => (type === T_NULL ? name : `a ${name}`))
    .join(' or ');
}

/** What the checker needs from the document around the expression. */
export interface ExpressionCheckContext {
  /** The type of a declared state field, or undefined when it is not declared (the checker reports that). */
  stateType(name: string): TypeSet | undefined;
  /**
   * The type of a derived field. `path` is the reference's `….derived`. Undefined means an unknown name or a
   * field already known to be invalid (a cycle, a failed check): the callee reports those itself.
   */
  derivedType(name: string, path: IssuePath): TypeSet | undefined;
  readonly issues: IssueCollector;
  /** Expression nodes seen in the whole document so far (seed 002 §9: at most `maxExpressionNodes`). */
  readonly counter: { nodes: number };
}

const MAX_DEPTH = UI_LIMITS.maxExpressionDepth;
const MAX_NODES = UI_LIMITS.maxExpressionNodes;
const MAX_STRING_LENGTH = UI_LIMITS.maxStringLength;
const MAX_ABS_NUMBER = UI_LIMITS.maxAbsNumber;
const MAX_ABS_TEXT = MAX_ABS_NUMBER.toExponential().replace('e+', 'e');
const MAX_FRACTION_DIGITS = UI_SCHEMA_LIMITS.maxFractionDigits;

const NOT_AN_EXPRESSION = 'An expression is a scalar, { state }, { derived } or { op, args }.';
const IDENTIFIER_RULE = `starts with a letter followed by at most ${UI_SCHEMA_LIMITS.maxIdentifierLength - 1} letters, digits, _ or -, and is not __proto__, prototype or constructor`;

const ARGUMENT_TYPES = { number: T_NUMBER, boolean: T_BOOLEAN, any: T_ANY } as const;
const RESULT_TYPES = { number: T_NUMBER, boolean: T_BOOLEAN, string: T_STRING, any: T_ANY } as const;

/**
 * Checks an untrusted expression at `path`. Returns the set of types it may evaluate to, or undefined when it
 * is invalid; then at least one issue was reported (here, or earlier in the document when the node budget
 * or the issue list is exhausted).
 */
export function checkExpression(
  input: unknown,
  path: IssuePath,
  context: ExpressionCheckContext,
): TypeSet | undefined {
  return checkNode(input, path, 1, context);
}

function checkNode(
  input: unknown,
  path: IssuePath,
  depth: number,
  context: ExpressionCheckContext,
): TypeSet | undefined {
  const { issues, counter } = context;
  // Once the list is full the document is rejected anyway; stop spending work on it.
  if (issues.full) return undefined;
  // seed 002 §9: a document has at most 2048 expression nodes, every literal and reference included. Report
  // once, where the budget overflows, then check nothing more.
  if (counter.nodes >= MAX_NODES) {
    if (counter.nodes === MAX_NODES) {
      counter.nodes++;
      issues.add(path, 'too_many', `A document has at most ${MAX_NODES} expression nodes.`);
    }
    return undefined;
  }
  counter.nodes++;
  // seed 002 §9: a literal or reference alone has depth 1; deeper than 24 is rejected without descending, so
  // hostile nesting cannot exhaust the stack.
  if (depth > MAX_DEPTH) {
    issues.add(path, 'too_deep', `An expression nests at most ${MAX_DEPTH} levels deep.`);
    return undefined;
  }

  switch (typeof input) {
    case 'number':
      // seed 002 §3: numbers are finite with |x| ≤ 1e15.
      if (Number.isFinite(input) && Math.abs(input) <= MAX_ABS_NUMBER) return T_NUMBER;
      issues.add(
        path,
        'number_out_of_range',
        `A number must be finite and between -${MAX_ABS_TEXT} and ${MAX_ABS_TEXT}.`,
      );
      return undefined;
    case 'string':
      // seed 002 §3: strings have at most 4,096 UTF-16 code units.
      if (input.length <= MAX_STRING_LENGTH) return T_STRING;
      issues.add(path, 'string_too_long', `A string has at most ${MAX_STRING_LENGTH} UTF-16 code units.`);
      return undefined;
    case 'boolean':
      return T_BOOLEAN;
    case 'object':
      if (input === null) return T_NULL;
      if (Array.isArray(input)) break;
      return checkObject(input as Record<string, unknown>, path, depth, context);
    default:
      break;
  }
  issues.add(path, 'invalid_type', NOT_AN_EXPRESSION);
  return undefined;
}

/** True when `record` has an own property other than `allowed`; never reports which one (seed 002 §8). */
function hasOtherKeys(record: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key of Object.keys(record)) if (!allowed.includes(key)) return true;
  return false;
}

const OPERATOR_KEYS = ['op', 'args'] as const;
const STATE_KEYS = ['state'] as const;
const DERIVED_KEYS = ['derived'] as const;

function checkObject(
  record: Record<string, unknown>,
  path: IssuePath,
  depth: number,
  context: ExpressionCheckContext,
): TypeSet | undefined {
  const { issues } = context;
  if (Object.hasOwn(record, 'op')) {
    if (hasOtherKeys(record, OPERATOR_KEYS)) {
      issues.add(path, 'unknown_property', 'An operator expression has only the properties op and args.');
      return undefined;
    }
    return checkOperator(record, path, depth, context);
  }
  if (Object.hasOwn(record, 'state')) {
    if (hasOtherKeys(record, STATE_KEYS)) {
      issues.add(path, 'unknown_property', 'A state reference has only the property state.');
      return undefined;
    }
    const referencePath = [...path, 'state'];
    const name = checkReferenceName(record.state, referencePath, 'state', issues);
    if (name === undefined) return undefined;
    const type = context.stateType(name);
    // seed 002 §3: references name keys declared in the document's state dictionary only.
    if (type === undefined)
      issues.add(referencePath, 'unknown_reference', 'This state field is not declared in state.');
    return type;
  }
  if (Object.hasOwn(record, 'derived')) {
    if (hasOtherKeys(record, DERIVED_KEYS)) {
      issues.add(path, 'unknown_property', 'A derived reference has only the property derived.');
      return undefined;
    }
    const referencePath = [...path, 'derived'];
    const name = checkReferenceName(record.derived, referencePath, 'derived', issues);
    // Unknown names and cycles are reported by the callee, which knows the whole derived dictionary.
    return name === undefined ? undefined : context.derivedType(name, referencePath);
  }
  issues.add(path, 'invalid_type', NOT_AN_EXPRESSION);
  return undefined;
}

function checkReferenceName(
  name: unknown,
  path: IssuePath,
  kind: 'state' | 'derived',
  issues: IssueCollector,
): string | undefined {
  if (typeof name !== 'string') {
    issues.add(path, 'invalid_type', `A ${kind} reference names a ${kind} field with a string.`);
    return undefined;
  }
  if (!isUIIdentifier(name)) {
    issues.add(path, 'invalid_identifier', `A ${kind} field name ${IDENTIFIER_RULE}.`);
    return undefined;
  }
  return name;
}

function isOperator(op: unknown): op is ExpressionOperator {
  return typeof op === 'string' && Object.hasOwn(UI_OPERATORS, op);
}

function checkOperator(
  record: Record<string, unknown>,
  path: IssuePath,
  depth: number,
  context: ExpressionCheckContext,
): TypeSet | undefined {
  const { issues } = context;
  const op = record.op;
  if (!isOperator(op)) {
    issues.add(
      [...path, 'op'],
      typeof op === 'string' ? 'invalid_value' : 'invalid_type',
      `op is one of ${UI_EXPRESSION_OPERATORS.join(', ')}.`,
    );
    return undefined;
  }
  const argsPath = [...path, 'args'];
  if (!Object.hasOwn(record, 'args')) {
    issues.add(argsPath, 'missing_property', 'An operator expression needs args, an array of expressions.');
    return undefined;
  }
  const args = record.args;
  if (!Array.isArray(args)) {
    issues.add(argsPath, 'invalid_type', 'args is an array of expressions.');
    return undefined;
  }
  const spec = UI_OPERATORS[op];
  if (args.length < spec.minArgs || args.length > spec.maxArgs) {
    issues.add(argsPath, 'invalid_arity', describeArity(op));
    return undefined;
  }

  let valid = true;
  let branches: TypeSet = 0;
  for (let index = 0; index < args.length; index++) {
    const argumentPath = [...argsPath, index];
    const argument: unknown = args[index];
    const type = checkNode(argument, argumentPath, depth + 1, context);
    if (type === undefined) {
      valid = false;
      continue;
    }
    const expected = ARGUMENT_TYPES[spec.args[index] ?? spec.args[0]];
    // Well typed only when every type the argument may take is accepted: no implicit conversions.
    if ((type & ~expected) !== 0) {
      valid = false;
      issues.add(
        argumentPath,
        'type_mismatch',
        `Expected ${describeWithArticle(expected)} here; this expression is ${describeWithArticle(type)}.`,
      );
      continue;
    }
    if (op === 'if' && index > 0) branches |= type;
    // seed 002 §3: round's digits is an integer 0–6; a literal out of that range can never evaluate.
    if (op === 'round' && index === 1 && typeof argument === 'number' && !isFractionDigits(argument)) {
      valid = false;
      issues.add(
        argumentPath,
        Number.isInteger(argument) ? 'number_out_of_range' : 'not_integer',
        `round takes an integer number of digits from 0 to ${MAX_FRACTION_DIGITS}.`,
      );
    }
  }
  if (!valid) return undefined;
  // seed 002 §3: if returns either branch, so its type is the union of both.
  return op === 'if' ? branches : RESULT_TYPES[spec.returns];
}

function isFractionDigits(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_FRACTION_DIGITS;
}
