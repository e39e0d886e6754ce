import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derived, state } from '../../test/utils.js';
import { UIExpressionError } from '../errors/errors.js';
import { IssueCollector, type IssuePath, type UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { type ExpressionOperator, UI_EXPRESSION_OPERATORS } from './catalog.js';
import { evaluateExpression } from './expression.js';
import {
  checkExpression,
  describeTypeSet,
  type ExpressionCheckContext,
  T_ANY,
  T_BOOLEAN,
  T_NULL,
  T_NUMBER,
  T_STRING,
  type TypeSet,
} from './expression-check.js';
import type { Expr, Scalar, UIDerivedValues, UIState } from './types.js';

const op = (name: ExpressionOperator, ...args: unknown[]): unknown => ({ op: name, args });

/** Declared state and derived fields of the test document, with values matching their types. */
const STATE_TYPES: Readonly<Record<string, TypeSet>> = { n: T_NUMBER, s: T_STRING, b: T_BOOLEAN };
const DERIVED_TYPES: Readonly<Record<string, TypeSet>> = {
  dn: T_NUMBER,
  ds: T_STRING,
  dnull: T_NULL,
  dmix: T_NUMBER | T_STRING,
};
const STATE: UIState = { n: 3, s: 'hi', b: true };
const DERIVED: UIDerivedValues = { dn: 2.5, ds: 'x', dnull: null, dmix: 'm' };

const BASE: IssuePath = ['derived', 'total'];
const ABOVE_MAX = 1e15 + 0.125;
const MAX_STRING = UI_LIMITS.maxStringLength;

function makeContext(issues = new IssueCollector()): ExpressionCheckContext {
  return {
    stateType: (name) => (Object.hasOwn(STATE_TYPES, name) ? STATE_TYPES[name] : undefined),
    derivedType(name, path) {
      if (Object.hasOwn(DERIVED_TYPES, name)) return DERIVED_TYPES[name];
      // The document validator reports unknown derived names itself; mimic it.
      issues.add(path, 'unknown_reference', 'This derived field is not declared in derived.');
      return undefined;
    },
    issues,
    counter: { nodes: 0 },
  };
}

interface Outcome {
  type: TypeSet | undefined;
  issues: { path: string; code: UIIssueCode }[];
}

function check(input: unknown, context = makeContext()): Outcome {
  const type = checkExpression(input, BASE, context);
  return { type, issues: context.issues.issues.map(({ path, code }) => ({ path, code })) };
}

/** `not(not(…(true)))` with `depth` levels; the innermost literal is at depth `depth`. */
function nested(depth: number, leaf: unknown = true): unknown {
  let expr: unknown = leaf;
  for (let level = 1; level < depth; level++) expr = op('not', expr);
  return expr;
}

function nestedPath(depth: number): string {
  return ['derived.total', ...Array.from({ length: depth - 1 }, () => 'args[0]')].join('.');
}

describe('describeTypeSet', () => {
  const rows: [TypeSet, string][] = [
    [T_NUMBER, 'number'],
    [T_NULL, 'null'],
    [T_NUMBER | T_STRING, 'number or string'],
    [T_STRING | T_NULL, 'string or null'],
    [T_NUMBER | T_STRING | T_BOOLEAN, 'number, string or boolean'],
    [T_ANY, 'number, string, boolean or null'],
  ];
  it.each(rows)('%i is %s', (types, text) => {
    expect(describeTypeSet(types)).toBe(text);
  });
});

describe('checkExpression: accepted expressions and their types (seed 002 §3)', () => {
  const sixteen = Array.from({ length: 16 }, () => 1);
  const rows: [string, unknown, TypeSet][] = [
    ['a number', 1.5, T_NUMBER],
    ['1e15', 1e15, T_NUMBER],
    ['-1e15', -1e15, T_NUMBER],
    ['a string', 'text', T_STRING],
    ['an empty string', '', T_STRING],
    ['a string of exactly 4096 units', 'a'.repeat(MAX_STRING), T_STRING],
    ['a boolean', true, T_BOOLEAN],
    ['null', null, T_NULL],
    ['a number state', state('n'), T_NUMBER],
    ['a string state', state('s'), T_STRING],
    ['a derived union', derived('dmix'), T_NUMBER | T_STRING],
    ['add', op('add', 1, state('n')), T_NUMBER],
    ['add of 16 arguments', op('add', ...sixteen), T_NUMBER],
    ['sub', op('sub', 1, 2), T_NUMBER],
    ['mul', op('mul', 1, 2, derived('dn')), T_NUMBER],
    ['div', op('div', 1, 2), T_NUMBER],
    ['pow', op('pow', 1, 2), T_NUMBER],
    ['min of one argument', op('min', 1), T_NUMBER],
    ['max of 16 arguments', op('max', ...sixteen), T_NUMBER],
    ['round of one argument', op('round', 1.5), T_NUMBER],
    ['round to 6 digits', op('round', 1.5, 6), T_NUMBER],
    ['round to 0 digits', op('round', 1.5, 0), T_NUMBER],
    ['round to computed digits', op('round', 1.5, state('n')), T_NUMBER],
    ['eq of a number and a string', op('eq', 1, '1'), T_BOOLEAN],
    ['eq of null and a union', op('eq', null, derived('dmix')), T_BOOLEAN],
    ['lt', op('lt', 1, 2), T_BOOLEAN],
    ['lte', op('lte', 1, 2), T_BOOLEAN],
    ['gt', op('gt', 1, 2), T_BOOLEAN],
    ['gte', op('gte', 1, 2), T_BOOLEAN],
    ['and', op('and', true, state('b')), T_BOOLEAN],
    ['or of 16 arguments', op('or', ...sixteen.map(() => false)), T_BOOLEAN],
    ['not', op('not', op('eq', 1, 1)), T_BOOLEAN],
    ['if of one type', op('if', true, 1, 2), T_NUMBER],
    ['if of two types', op('if', state('b'), 1, 'one'), T_NUMBER | T_STRING],
    ['if with a null branch', op('if', false, null, 'x'), T_STRING | T_NULL],
    ['if of a derived union', op('if', true, derived('dmix'), false), T_NUMBER | T_STRING | T_BOOLEAN],
    ['concat of every scalar type', op('concat', 'a', 1, true, null, derived('dmix')), T_STRING],
    ['concat of 16 arguments', op('concat', ...sixteen), T_STRING],
    ['the calculator of seed 002 §7', op('mul', 1, op('pow', op('add', 1, op('div', 5, 100)), 10)), T_NUMBER],
  ];

  it.each(rows)('%s', (_name, input, type) => {
    expect(check(input)).toEqual({ type, issues: [] });
  });

  it('has a row for every operator', () => {
    const covered = new Set(rows.map(([, input]) => (input as { op?: string } | null)?.op).filter(Boolean));
    expect([...covered].sort()).toEqual([...UI_EXPRESSION_OPERATORS].sort());
  });
});

describe('checkExpression: rejected expressions, by path and code', () => {
  const seventeen = Array.from({ length: 17 }, () => 1);
  type Row = [string, unknown, [path: string, code: UIIssueCode][]];
  const at = (suffix: string) => `derived.total${suffix}`;
  const rows: Row[] = [
    // Scalars (seed 002 §3).
    ['a number above 1e15', ABOVE_MAX, [[at(''), 'number_out_of_range']]],
    ['a number below -1e15', -ABOVE_MAX, [[at(''), 'number_out_of_range']]],
    ['a string of 4097 units', 'a'.repeat(MAX_STRING + 1), [[at(''), 'string_too_long']]],
    ['a string of 4097 UTF-16 units', `${'😀'.repeat(2048)}a`, [[at(''), 'string_too_long']]],
    ['an array', [1], [[at(''), 'invalid_type']]],
    ['an empty object', {}, [[at(''), 'invalid_type']]],
    ['an expr wrapper', { expr: 1 }, [[at(''), 'invalid_type']]],
    // Closed objects: the path is the object, the key is never echoed.
    ['a state reference with an extra key', { state: 'n', extra: 1 }, [[at(''), 'unknown_property']]],
    ['both state and derived', { state: 'n', derived: 'dn' }, [[at(''), 'unknown_property']]],
    ['a derived reference with an extra key', { derived: 'dn', x: 1 }, [[at(''), 'unknown_property']]],
    [
      'an operator with an extra key',
      { op: 'add', args: [1, 2], extra: true },
      [[at(''), 'unknown_property']],
    ],
    ['an operator with a state key', { op: 'add', args: [1, 2], state: 'n' }, [[at(''), 'unknown_property']]],
    // References.
    ['a non-string state name', { state: 1 }, [[at('.state'), 'invalid_type']]],
    ['an invalid state identifier', state('1abc'), [[at('.state'), 'invalid_identifier']]],
    ['__proto__ as state', state('__proto__'), [[at('.state'), 'invalid_identifier']]],
    ['constructor as state', state('constructor'), [[at('.state'), 'invalid_identifier']]],
    ['an undeclared state field', state('missing'), [[at('.state'), 'unknown_reference']]],
    ['a prototype name as state', state('toString'), [[at('.state'), 'unknown_reference']]],
    ['an invalid derived identifier', derived('a b'), [[at('.derived'), 'invalid_identifier']]],
    [
      'an undeclared derived field (reported by the callee)',
      derived('missing'),
      [[at('.derived'), 'unknown_reference']],
    ],
    [
      'a nested undeclared reference',
      op('add', 1, state('missing')),
      [[at('.args[1].state'), 'unknown_reference']],
    ],
    // Operators.
    ['an unknown operator', { op: 'plus', args: [1, 2] }, [[at('.op'), 'invalid_value']]],
    ['a prototype name as operator', { op: 'toString', args: [] }, [[at('.op'), 'invalid_value']]],
    ['a non-string operator', { op: 1, args: [] }, [[at('.op'), 'invalid_type']]],
    ['missing args', { op: 'add' }, [[at('.args'), 'missing_property']]],
    ['args that are not an array', { op: 'add', args: { 0: 1, 1: 2 } }, [[at('.args'), 'invalid_type']]],
    // Arity, one row per operator (at the node's args).
    ['add of 1 argument', op('add', 1), [[at('.args'), 'invalid_arity']]],
    ['add of 17 arguments', op('add', ...seventeen), [[at('.args'), 'invalid_arity']]],
    ['sub of 3 arguments', op('sub', 1, 2, 3), [[at('.args'), 'invalid_arity']]],
    ['mul of 1 argument', op('mul', 1), [[at('.args'), 'invalid_arity']]],
    ['mul of 17 arguments', op('mul', ...seventeen), [[at('.args'), 'invalid_arity']]],
    ['div of 1 argument', op('div', 1), [[at('.args'), 'invalid_arity']]],
    ['pow of 3 arguments', op('pow', 1, 2, 3), [[at('.args'), 'invalid_arity']]],
    ['min of no arguments', op('min'), [[at('.args'), 'invalid_arity']]],
    ['max of 17 arguments', op('max', ...seventeen), [[at('.args'), 'invalid_arity']]],
    ['round of no arguments', op('round'), [[at('.args'), 'invalid_arity']]],
    ['round of 3 arguments', op('round', 1, 2, 3), [[at('.args'), 'invalid_arity']]],
    ['eq of 1 argument', op('eq', 1), [[at('.args'), 'invalid_arity']]],
    ['lt of 3 arguments', op('lt', 1, 2, 3), [[at('.args'), 'invalid_arity']]],
    ['lte of 1 argument', op('lte', 1), [[at('.args'), 'invalid_arity']]],
    ['gt of no arguments', op('gt'), [[at('.args'), 'invalid_arity']]],
    ['gte of 3 arguments', op('gte', 1, 2, 3), [[at('.args'), 'invalid_arity']]],
    ['and of 1 argument', op('and', true), [[at('.args'), 'invalid_arity']]],
    ['or of 17 arguments', op('or', ...seventeen.map(() => true)), [[at('.args'), 'invalid_arity']]],
    ['not of 2 arguments', op('not', true, true), [[at('.args'), 'invalid_arity']]],
    ['if of 2 arguments', op('if', true, 1), [[at('.args'), 'invalid_arity']]],
    ['concat of no arguments', op('concat'), [[at('.args'), 'invalid_arity']]],
    ['concat of 17 arguments', op('concat', ...seventeen), [[at('.args'), 'invalid_arity']]],
    // Static types: at the argument; no implicit conversions, unions must fit entirely.
    ['add of a string', op('add', 1, 'a'), [[at('.args[1]'), 'type_mismatch']]],
    ['add of null', op('add', null, 1), [[at('.args[0]'), 'type_mismatch']]],
    ['add of a number-or-string union', op('add', 1, derived('dmix')), [[at('.args[1]'), 'type_mismatch']]],
    ['add of an if of two types', op('add', 1, op('if', true, 1, 'a')), [[at('.args[1]'), 'type_mismatch']]],
    ['sub of a string state', op('sub', state('s'), 1), [[at('.args[0]'), 'type_mismatch']]],
    ['mul of a boolean', op('mul', 2, true), [[at('.args[1]'), 'type_mismatch']]],
    ['div of a comparison', op('div', op('lt', 1, 2), 1), [[at('.args[0]'), 'type_mismatch']]],
    ['pow of a concat', op('pow', 2, op('concat', 1)), [[at('.args[1]'), 'type_mismatch']]],
    ['min of a string', op('min', 'a'), [[at('.args[0]'), 'type_mismatch']]],
    ['max of null', op('max', 1, derived('dnull')), [[at('.args[1]'), 'type_mismatch']]],
    ['round of a string', op('round', '1.5'), [[at('.args[0]'), 'type_mismatch']]],
    ['round with string digits', op('round', 1, '2'), [[at('.args[1]'), 'type_mismatch']]],
    [
      'lt of a string',
      op('lt', 'a', 'b'),
      [
        [at('.args[0]'), 'type_mismatch'],
        [at('.args[1]'), 'type_mismatch'],
      ],
    ],
    ['lte of a boolean', op('lte', 1, false), [[at('.args[1]'), 'type_mismatch']]],
    ['gt of null', op('gt', null, 1), [[at('.args[0]'), 'type_mismatch']]],
    ['gte of a string', op('gte', 1, state('s')), [[at('.args[1]'), 'type_mismatch']]],
    ['and of a number', op('and', 1, true), [[at('.args[0]'), 'type_mismatch']]],
    ['or of a string', op('or', false, 'true'), [[at('.args[1]'), 'type_mismatch']]],
    ['not of a number', op('not', state('n')), [[at('.args[0]'), 'type_mismatch']]],
    ['if with a number condition', op('if', 1, 'a', 'b'), [[at('.args[0]'), 'type_mismatch']]],
    [
      'if with an invalid unchosen branch',
      op('if', true, 1, state('missing')),
      [[at('.args[2].state'), 'unknown_reference']],
    ],
    [
      'a nested type error',
      op('add', 1, op('mul', 2, op('sub', 3, 'x'))),
      [[at('.args[1].args[1].args[1]'), 'type_mismatch']],
    ],
    // round digits: an integer 0–6 when written as a literal.
    ['round to 7 digits', op('round', 1, 7), [[at('.args[1]'), 'number_out_of_range']]],
    ['round to -1 digits', op('round', 1, -1), [[at('.args[1]'), 'number_out_of_range']]],
    ['round to 0.5 digits', op('round', 1, 0.5), [[at('.args[1]'), 'not_integer']]],
  ];

  it.each(rows)('%s', (_name, input, expected) => {
    const outcome = check(input);
    expect(outcome.type).toBeUndefined();
    expect(outcome.issues).toEqual(expected.map(([path, code]) => ({ path, code })));
  });

  it('never echoes unknown keys, operators or rejected values', () => {
    const inputs = [
      { op: 'add', args: [1, 2], secretKey: 1 },
      { op: 'secretOperator', args: [] },
      state('secretField'),
      op('add', 1, 'secretValue'),
    ];
    for (const input of inputs) {
      const [issue] = makeAndCheck(input);
      expect(issue?.message).toBeDefined();
      expect(issue?.message).not.toMatch(/secret/);
    }
  });

  it('says what is allowed', () => {
    expect(makeAndCheck(op('add', 1))[0]?.message).toBe('add takes 2 to 16 arguments.');
    expect(makeAndCheck(op('round'))[0]?.message).toBe('round takes 1 or 2 arguments.');
    expect(makeAndCheck(op('not'))[0]?.message).toBe('not takes exactly 1 argument.');
    expect(makeAndCheck(op('add', 1, 'a'))[0]?.message).toBe(
      'Expected a number here; this expression is a string.',
    );
    expect(makeAndCheck(op('add', 1, derived('dmix')))[0]?.message).toBe(
      'Expected a number here; this expression is a number or a string.',
    );
  });
});

function makeAndCheck(input: unknown) {
  const context = makeContext();
  checkExpression(input, BASE, context);
  return context.issues.issues;
}

describe('checkExpression: depth (seed 002 §9)', () => {
  it('accepts depth 24', () => {
    expect(check(nested(UI_LIMITS.maxExpressionDepth))).toEqual({ type: T_BOOLEAN, issues: [] });
  });

  it('rejects depth 25 at the node past the limit', () => {
    expect(check(nested(UI_LIMITS.maxExpressionDepth + 1)).issues).toEqual([
      { path: nestedPath(25), code: 'too_deep' },
    ]);
  });

  it('counts a literal or a reference alone as depth 1', () => {
    expect(check(state('b'))).toEqual({ type: T_BOOLEAN, issues: [] });
    expect(check(nested(24, state('b')))).toEqual({ type: T_BOOLEAN, issues: [] });
    expect(check(nested(25, state('b'))).issues).toEqual([{ path: nestedPath(25), code: 'too_deep' }]);
  });

  it('stops at the limit on hostile nesting, without recursing', () => {
    let hostile: unknown = 1;
    for (let level = 0; level < 100_000; level++) hostile = { op: 'not', args: [hostile] };
    expect(check(hostile).issues).toEqual([{ path: nestedPath(25), code: 'too_deep' }]);
  });
});

describe('checkExpression: the document-wide node budget (seed 002 §9)', () => {
  const fifteenOnes = Array.from({ length: 15 }, () => 1);
  const sixteenNodes = op('add', ...fifteenOnes);

  it(`accepts ${UI_LIMITS.maxExpressionNodes} nodes across a document and rejects one more`, () => {
    const context = makeContext();
    for (let index = 0; index < UI_LIMITS.maxExpressionNodes / 16; index++) {
      expect(checkExpression(sixteenNodes, ['derived', `d${index}`], context)).toBe(T_NUMBER);
    }
    expect(context.counter.nodes).toBe(UI_LIMITS.maxExpressionNodes);
    expect(context.issues.empty).toBe(true);
    expect(checkExpression(1, ['root', 'props', 'value', 'expr'], context)).toBeUndefined();
    expect(context.issues.issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: 'root.props.value.expr', code: 'too_many' },
    ]);
  });

  it('counts every node, literals and references included', () => {
    const context = makeContext();
    checkExpression(op('add', 1, state('n'), op('if', true, derived('dn'), 2)), BASE, context);
    expect(context.counter.nodes).toBe(7);
  });

  it('reports once, at the node where the budget overflows, then stops counting and checking', () => {
    const context = makeContext();
    context.counter.nodes = UI_LIMITS.maxExpressionNodes - 8;
    // The add is node 2041, args[0..6] are 2042–2048, args[7] overflows.
    expect(check(sixteenNodes, context).issues).toEqual([
      { path: 'derived.total.args[7]', code: 'too_many' },
    ]);
    expect(check(op('add', 'not checked', 1), context).issues).toHaveLength(1);
    expect(context.counter.nodes).toBe(UI_LIMITS.maxExpressionNodes + 1);
  });

  it('stops once the issue list is full', () => {
    const context = makeContext(new IssueCollector(undefined, 2));
    const type = checkExpression(op('add', 'a', 'b', 'c', 'd'), BASE, context);
    expect(type).toBeUndefined();
    expect(context.issues.issues).toHaveLength(2);
  });
});

/** The type of a runtime value, as a one-element type set. */
function typeOf(value: Scalar): TypeSet {
  if (value === null) return T_NULL;
  return typeof value === 'number' ? T_NUMBER : typeof value === 'string' ? T_STRING : T_BOOLEAN;
}

/** Runs an expression the checker accepted; its value must be of the checked type, or it fails cleanly. */
function assertEvaluatesWithin(expr: unknown, type: TypeSet): void {
  try {
    const value = evaluateExpression(expr as Expr, STATE, DERIVED);
    expect(typeOf(value) & type).not.toBe(0);
  } catch (error) {
    expect(error).toBeInstanceOf(UIExpressionError);
  }
}

describe('checkExpression on arbitrary input (property)', () => {
  const names = fc.constantFrom(
    'n',
    's',
    'b',
    'dn',
    'ds',
    'dnull',
    'dmix',
    'missing',
    'toString',
    '__proto__',
    '1x',
  );
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ state: fc.oneof(names, fc.jsonValue({ maxDepth: 1 })) }),
      fc.record({ derived: fc.oneof(names, fc.jsonValue({ maxDepth: 1 })) }),
      fc.record(
        {
          op: fc.oneof(
            fc.constantFrom(...UI_EXPRESSION_OPERATORS, 'toString', '__proto__'),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          args: fc.oneof(fc.array(tie('node'), { maxLength: 17 }), fc.jsonValue({ maxDepth: 1 })),
          extra: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: ['op'] },
      ),
      fc.dictionary(fc.string(), tie('node'), { maxKeys: 3 }),
    ),
  }));

  it('never throws on JSON, and what it accepts evaluates within its type', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), node), (input) => {
        const context = makeContext();
        const type = checkExpression(input, BASE, context);
        if (type === undefined) expect(context.issues.empty).toBe(false);
        else {
          expect(context.issues.empty).toBe(true);
          assertEvaluatesWithin(input, type);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('never throws on deep nesting of any kind', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000 }),
        fc.constantFrom('array', 'object', 'operator'),
        (depth, kind) => {
          let input: unknown = 0;
          for (let level = 0; level < depth; level++) {
            input =
              kind === 'array'
                ? [input]
                : kind === 'object'
                  ? { state: input }
                  : { op: 'add', args: [input, 1] };
          }
          expect(() => checkExpression(input, [], makeContext())).not.toThrow();
        },
      ),
      { numRuns: 50 },
    );
  });

  // Well-typed expressions by construction, so that most of them pass the checker.
  const number = fc.oneof(
    fc.integer({ min: -100, max: 100 }),
    fc.double({ min: -1e15, max: 1e15, noNaN: true }),
  );
  const text = fc.string({ maxLength: 8 });
  const typed = fc.letrec<{ number: unknown; boolean: unknown; string: unknown; any: unknown }>((tie) => {
    const call = (names: ExpressionOperator[], argument: fc.Arbitrary<unknown>, min: number, max: number) =>
      fc
        .tuple(fc.constantFrom(...names), fc.array(argument, { minLength: min, maxLength: max }))
        .map(([name, args]) => ({ op: name, args }));
    const branch = (result: fc.Arbitrary<unknown>) =>
      fc.tuple(tie('boolean'), result, result).map((args) => ({ op: 'if', args }));
    return {
      number: fc.oneof(
        { depthSize: 'small' },
        number,
        fc.constant(state('n')),
        fc.constant(derived('dn')),
        call(['add', 'mul'], tie('number'), 2, 4),
        call(['sub', 'div', 'pow'], tie('number'), 2, 2),
        call(['min', 'max'], tie('number'), 1, 3),
        fc
          .tuple(tie('number'), fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }))
          .map(([value, digits]) => ({
            op: 'round',
            args: digits === undefined ? [value] : [value, digits],
          })),
        branch(tie('number')),
      ),
      boolean: fc.oneof(
        { depthSize: 'small' },
        fc.boolean(),
        fc.constant(state('b')),
        call(['lt', 'lte', 'gt', 'gte'], tie('number'), 2, 2),
        call(['eq'], tie('any'), 2, 2),
        call(['and', 'or'], tie('boolean'), 2, 4),
        call(['not'], tie('boolean'), 1, 1),
        branch(tie('boolean')),
      ),
      string: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.constant(state('s')),
        fc.constant(derived('ds')),
        call(['concat'], tie('any'), 1, 4),
        branch(tie('string')),
      ),
      any: fc.oneof(
        { depthSize: 'small' },
        tie('number'),
        tie('boolean'),
        tie('string'),
        fc.constant(null),
        fc.constant(derived('dnull')),
        fc.constant(derived('dmix')),
        branch(tie('any')),
      ),
    };
  });

  it('well-typed expressions it accepts evaluate to a value of the returned type or fail cleanly', () => {
    fc.assert(
      fc.property(fc.oneof(typed.number, typed.boolean, typed.string, typed.any), (expr) => {
        const context = makeContext();
        const type = checkExpression(expr, BASE, context);
        fc.pre(type !== undefined);
        assertEvaluatesWithin(expr, type as TypeSet);
      }),
      { numRuns: 2_000 },
    );
  });
});
