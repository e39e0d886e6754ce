/**
 * The rule corpus of `parseDocument` for values and expressions (seed 002 §3, §9): Scalar, Value and Expr,
 * references, operator arity and static types, cycles, the evaluation of defaults and the expression budgets.
 * One row per rule: invalid rows assert the issue's `code` and exact `path` (PATHS.md); valid rows pin the edges.
 * The base document, its builders and the runner are in test/document-rules.ts.
 */
import {
  bareObjectValue,
  C,
  describeRuleCorpus,
  doc,
  dv,
  expr,
  INJECTED_KEY,
  issue,
  type J,
  node,
  notChain,
  one,
  op,
  repeat,
  ruleCorpus,
  st,
  text,
  VALID_NODES,
  withDerived,
} from '../../test/document-rules.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

/** `add` of `count` zero literals: `count + 1` expression nodes. */
const zeros = (count: number): J => op('add', ...Array.from({ length: count }, () => 0));

/**
 * A document with no expression outside `derived` and exactly `2048 + extra` expression nodes in it
 * (7 × 273 + 137 = 2,048; `extra` = 1 adds one literal).
 */
function expressionBudgetDocument(extra: 0 | 1): J {
  const derived: J = {};
  for (let index = 0; index < 7; index += 1)
    derived[`e${index}`] = op('add', ...Array.from({ length: 16 }, () => zeros(16)));
  const last = Array.from({ length: 8 }, () => zeros(16));
  derived.e7 = op('add', ...(extra === 1 ? [...last, 0] : last));
  return doc([], { state: {}, derived });
}

// ---------------------------------------------------------------------------------------------------------
// §3 Scalar, Value, Expr
// ---------------------------------------------------------------------------------------------------------

accept('§3 Value literals: string, number, boolean, null', () =>
  doc([text('a', 'x'), text('b', 12000), text('c', true), text('d', null)]),
);
accept('§3 Value expressions: reference and operator', () =>
  doc([
    node('Result', 'r1', { value: 12000 }),
    node('Result', 'r2', { value: expr(st('n')) }),
    node('Result', 'r3', { value: expr(op('mul', st('n'), 2)) }),
  ]),
);
accept('§3 an expr may wrap a literal', () =>
  doc([text('a', expr(5)), text('b', expr(null)), text('c', expr('x'))]),
);
accept('§3 "principal * 2" is only a string', () => doc([text('t', 'principal * 2')]));
reject(
  '§3 a bare { state } is not a Value',
  () => doc([text('t', st('n'))]),
  ...bareObjectValue(`${C(0)}.props.text`),
);
reject(
  '§3 a bare { op, args } is not a Value',
  () => doc([text('t', op('concat', 'a'))]),
  ...bareObjectValue(`${C(0)}.props.text`),
);
reject(
  '§3 a Value wrapper is closed',
  () => doc([text('t', { expr: st('n'), [INJECTED_KEY]: 1 })]),
  issue('unknown_property', `${C(0)}.props.text`),
);
reject(
  '§3 a Value cannot be an array',
  () => doc([text('t', ['a'])]),
  issue('invalid_type', `${C(0)}.props.text`),
);
reject(
  '§3 an expression cannot be an array literal',
  () => withDerived({ x: [1, 2] }),
  issue('invalid_type', 'derived.x'),
);
reject(
  '§3 a string of 4,097 UTF-16 code units',
  () => doc([text('t', repeat(4097))]),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§3 a string of exactly 4,096 UTF-16 code units', () => doc([text('t', repeat(4096))]));
reject(
  '§3 string length counts UTF-16 code units (2,049 emoji)',
  () => doc([text('t', repeat(2049, '😀'))]),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§3 2,048 emoji are 4,096 code units', () => doc([text('t', repeat(2048, '😀'))]));
reject(
  '§3 a string literal inside an expression is bounded',
  () => withDerived({ x: op('concat', repeat(4097)) }),
  issue('string_too_long', 'derived.x.args[0]'),
);
accept('§3 |x| = 1e15 is allowed', () =>
  doc([node('Result', 'r', { value: 1e15 }), node('Result', 'r2', { value: -1e15 })]),
);
reject(
  '§3 a number above 1e15',
  () => doc([node('Result', 'r', { value: 1.000000000000001e15 })]),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§3 a number below -1e15',
  () => doc([node('Result', 'r', { value: -2e15 })]),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§3 a number literal inside an expression above 1e15',
  () => withDerived({ x: op('add', 1, 2e15) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
);
reject(
  '§3 a table cell above 1e15',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = 1e16)),
  issue('number_out_of_range', `${C(0)}.props.rows[0].a`),
);

// References
reject(
  '§3 a state reference must be declared',
  () => doc([text('t', expr(st('missing')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.state`),
);
reject(
  '§3 a derived reference must be declared',
  () => doc([text('t', expr(dv('missing')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.derived`),
);
reject(
  '§3 a derived reference cannot name a state field',
  () => doc([text('t', expr(dv('n')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.derived`),
);
reject(
  '§3 a state reference cannot name a derived field',
  () => withDerived({ double: op('mul', st('n'), 2), x: op('add', st('double'), 1) }),
  issue('unknown_reference', 'derived.x.args[0].state'),
);
reject(
  '§3 no property paths in references',
  () => withDerived({ x: st('s.length') }),
  issue('unknown_reference', 'derived.x.state'),
  issue('invalid_identifier', 'derived.x.state'),
);
reject(
  '§3 a reference object is closed',
  () => withDerived({ x: { state: 'n', [INJECTED_KEY]: 'x' } }),
  issue('unknown_property', 'derived.x'),
);
reject(
  '§3 an operator object is closed',
  () => withDerived({ x: { ...op('add', 1, 2), [INJECTED_KEY]: 1 } }),
  issue('unknown_property', 'derived.x'),
);
reject(
  '§3 an unknown operator',
  () => withDerived({ x: op('mod', 5, 2) }),
  issue('invalid_value', 'derived.x.op'),
);
reject(
  '§3 operator args must be an array',
  () => withDerived({ x: { op: 'add', args: 1 } }),
  issue('invalid_type', 'derived.x.args'),
);
accept('§3 derived fields may reference later ones (declaration order is free)', () =>
  withDerived({ a: op('add', dv('b'), 1), b: op('mul', st('n'), 2) }),
);
accept('§3 a derived field need not be used by a component', () =>
  withDerived({ unused: op('add', st('n'), 1) }),
);

// Arity: one row per operator
const arityViolations: [string, unknown[]][] = [
  ['add', [1]],
  ['sub', [1, 2, 3]],
  ['mul', Array.from({ length: 17 }, () => 1)],
  ['div', [1]],
  ['pow', [1, 2, 3]],
  ['min', []],
  ['max', Array.from({ length: 17 }, () => 1)],
  ['round', [1, 2, 3]],
  ['eq', [1]],
  ['lt', [1, 2, 3]],
  ['lte', [1]],
  ['gt', []],
  ['gte', [1, 2, 3]],
  ['and', [true]],
  ['or', Array.from({ length: 17 }, () => true)],
  ['not', [true, false]],
  ['if', [true, 1]],
  ['concat', []],
];
for (const [name, args] of arityViolations) {
  reject(
    `§3 ${name} with ${args.length} arguments`,
    () => withDerived({ x: op(name, ...args) }),
    issue('invalid_arity', 'derived.x.args'),
  );
}
accept('§3 arity edges: add/mul/concat with 16, min/max with 1, round with 1 and 2', () =>
  withDerived({
    add16: op('add', ...Array.from({ length: 16 }, () => 1)),
    mul16: op('mul', ...Array.from({ length: 16 }, () => 1)),
    concat16: op('concat', ...Array.from({ length: 16 }, () => 'a')),
    min1: op('min', 3),
    max1: op('max', 3),
    round1: op('round', 2.5),
    round2: op('round', 2.555, 2),
  }),
);

// Static types: one row per operator that constrains its arguments
const typeViolations: [string, unknown[], number][] = [
  ['add', [1, 'a'], 1],
  ['sub', [true, 1], 0],
  ['mul', [st('n'), st('s')], 1],
  ['div', [1, null], 1],
  ['pow', ['2', 2], 0],
  ['min', [1, st('b')], 1],
  ['max', [dv('flag'), 1], 0],
  ['round', [1.5, 'x'], 1],
  ['lt', [st('s'), 1], 0],
  ['lte', [1, true], 1],
  ['gt', [null, 1], 0],
  ['gte', [1, '1'], 1],
  ['and', [true, 1], 1],
  ['or', [st('n'), true], 0],
  ['not', ['true'], 0],
  ['if', [1, 'a', 'b'], 0],
];
for (const [name, args, index] of typeViolations) {
  reject(
    `§3 ${name} with an argument of the wrong type`,
    () => withDerived({ flag: op('gt', st('n'), 1), x: op(name, ...args) }),
    issue('type_mismatch', `derived.x.args[${index}]`),
  );
}
reject(
  '§3 no implicit conversion through a derived field',
  () => withDerived({ label: op('concat', 'a'), x: op('add', dv('label'), 1) }),
  issue('type_mismatch', 'derived.x.args[0]'),
);
accept('§3 eq compares any scalars strictly (1 vs "1" is false, not an error)', () =>
  withDerived({
    x: op('eq', 1, '1'),
    y: op('eq', st('s'), null),
    z: op('if', op('eq', st('n'), 10), 'ten', 'other'),
  }),
);
accept('§3 concat converts any scalar, null to ""', () =>
  withDerived({ x: op('concat', 'n=', st('n'), ' ', st('b'), null) }),
);
reject(
  '§3 both if branches are reference-checked',
  () => withDerived({ x: op('if', true, 1, st('missing')) }),
  issue('unknown_reference', 'derived.x.args[2].state'),
);
reject(
  '§3 both if branches are type-checked',
  () => withDerived({ x: op('if', true, 1, op('add', 'a', 1)) }),
  issue('type_mismatch', 'derived.x.args[2].args[0]'),
);
accept('§3 only the selected if branch is evaluated', () =>
  withDerived({ x: op('if', true, 1, op('div', 1, 0)) }),
);
accept('§3 and/or short-circuit in order', () =>
  withDerived({
    x: op('and', false, op('gt', op('div', 1, 0), 0)),
    y: op('or', true, op('gt', op('div', 1, 0), 0)),
  }),
);
accept('§3 round digits 0 and 6', () =>
  withDerived({ x: op('round', 1.23456789, 6), y: op('round', 1.5, 0) }),
);
reject(
  '§3 round digits above 6',
  () => withDerived({ x: op('round', 1.5, 7) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits must be an integer',
  () => withDerived({ x: op('round', 1.5, 1.5) }),
  issue('not_integer', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits computed out of range in the default state',
  () => withDerived({ x: op('round', 1.5, st('n')) }),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits below 0',
  () => withDerived({ x: op('round', 1.5, -1) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);

// Cycles
reject(
  '§3 a derived field referencing itself',
  () => withDerived({ a: op('add', dv('a'), 1) }),
  issue('derived_cycle', 'derived.a'),
);
reject(
  '§3 an indirect derived cycle',
  () => withDerived({ a: op('add', dv('b'), 1), b: op('add', dv('c'), 1), c: op('mul', dv('a'), 2) }),
  issue('derived_cycle', 'derived.a'),
  issue('derived_cycle', 'derived.b'),
  issue('derived_cycle', 'derived.c'),
);
reject(
  '§3 a cycle through an untaken if branch is still a cycle',
  () => withDerived({ a: op('if', true, 1, dv('b')), b: op('add', dv('a'), 1) }),
  issue('derived_cycle', 'derived.a'),
  issue('derived_cycle', 'derived.b'),
);

// Default evaluation
reject(
  '§3 default division by zero in a derived field',
  () => withDerived({ ratio: op('div', st('n'), op('sub', st('n'), 10)) }),
  issue('evaluation_failed', 'derived.ratio'),
);
reject(
  '§3 default division by zero in a display value',
  () => doc([text('t', expr(op('div', 1, 0)))]),
  issue('evaluation_failed', `${C(0)}.props.text`),
);
reject(
  '§3 default division by zero behind a derived reference',
  () => withDerived({ zero: op('sub', st('n'), 10), ratio: op('div', 1, dv('zero')) }),
  issue('evaluation_failed', 'derived.ratio'),
);
reject(
  '§3 pow to a result above 1e15',
  () => withDerived({ x: op('pow', 10, 16) }),
  issue('evaluation_failed', 'derived.x'),
);
accept('§3 pow to exactly 1e15', () => withDerived({ x: op('pow', 10, 15) }));
reject(
  '§3 an intermediate sum above 1e15',
  () => withDerived({ x: op('sub', op('add', 1e15, 1e15), 1e15) }),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 a concatenation longer than 4,096',
  () => withDerived({ x: op('concat', repeat(4000), repeat(97)) }),
  issue('evaluation_failed', 'derived.x'),
);
accept('§3 a concatenation of exactly 4,096', () =>
  withDerived({ x: op('concat', repeat(4000), repeat(96)) }),
);

// Expression budgets (§9)
accept('§9 expression depth exactly 24', () => withDerived({ deep: notChain(24) }));
reject(
  '§9 expression depth 25',
  () => withDerived({ deep: notChain(25) }),
  issue('too_deep', `derived.deep${'.args[0]'.repeat(24)}`),
);
accept('§9 exactly 2,048 expression nodes', () => expressionBudgetDocument(0));
reject(
  '§9 more than 2,048 expression nodes',
  () => expressionBudgetDocument(1),
  issue('too_many', /^derived\.e\d/),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);
