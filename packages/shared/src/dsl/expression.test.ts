import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derived, expressionError, op, state } from '../../test/utils.js';
import { UIExpressionError } from '../errors/errors.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { UI_EXPRESSION_OPERATORS } from './catalog.js';
import {
  type EvaluationContext,
  evaluateExpression,
  evaluateWith,
  roundLikeToFixed,
  StepBudget,
} from './expression.js';
import type { Expr, Scalar, UIDerivedValues, UIState } from './types.js';

const STATE: UIState = { n: 3, s: 'hi', b: true, f: false, zero: 0, big: 1e15 };
const DERIVED: UIDerivedValues = { d: 2, dn: null, ds: 'x' };
/** The float right above 1e15 (the spacing of doubles there is 0.125). */
const ABOVE_MAX = 1e15 + 0.125;
const MAX_STRING = UI_LIMITS.maxStringLength;

/** `not(not(…(true)))` with `depth` levels in all; the innermost literal is at depth `depth`. */
function nested(depth: number): Expr {
  let expr: Expr = true;
  for (let level = 1; level < depth; level++) expr = op('not', expr);
  return expr;
}

/** The path of the node at 1-based `depth` in `nested(…)`: `args[0]` repeated. */
function nestedPath(depth: number): string {
  return depth === 1 ? '$' : Array.from({ length: depth - 1 }, () => 'args[0]').join('.');
}

/** A `min` tree of exactly `nodes` nodes whose value is 1 (`min` takes 1–16 arguments). */
function treeOfSize(nodes: number): Expr {
  if (nodes === 1) return 1;
  const rest = nodes - 1;
  const width = Math.min(UI_SCHEMA_LIMITS.maxOperatorArguments, rest);
  const children: Expr[] = [];
  for (let index = 0; index < width; index++) {
    const size = Math.floor(rest / width) + (index < rest % width ? 1 : 0);
    children.push(treeOfSize(size));
  }
  return op('min', ...children);
}

function evaluate(expr: Expr): Scalar {
  return evaluateExpression(expr, STATE, DERIVED);
}

describe('evaluateExpression: the 18 operators (seed 002 §3)', () => {
  const sixteenOnes: Expr[] = Array.from({ length: 16 }, () => 1);
  const rows: [string, Expr, Scalar][] = [
    ['a number literal', 1.5, 1.5],
    ['the largest number', 1e15, 1e15],
    ['the most negative number', -1e15, -1e15],
    ['a string literal', 'text', 'text'],
    ['a string of exactly 4096 units', 'a'.repeat(MAX_STRING), 'a'.repeat(MAX_STRING)],
    ['a boolean literal', false, false],
    ['null', null, null],
    ['a state reference', state('n'), 3],
    ['a derived reference', derived('d'), 2],
    ['a null derived value', derived('dn'), null],
    ['add', op('add', 1, 2), 3],
    ['add with 16 arguments', op('add', ...sixteenOnes), 16],
    ['add in binary floating point', op('add', 0.1, 0.2), 0.30000000000000004],
    ['add reaching exactly 1e15', op('add', 1e15 - 1, 1), 1e15],
    ['add of state values', op('add', state('n'), state('zero'), 1), 4],
    ['sub', op('sub', 5, 8), -3],
    ['sub in binary floating point', op('sub', 0.3, 0.1), 0.19999999999999998],
    ['mul', op('mul', 2, 3, 4), 24],
    ['mul with 16 arguments', op('mul', ...sixteenOnes), 1],
    ['div', op('div', 1, 4), 0.25],
    ['div of zero', op('div', 0, 5), 0],
    ['pow', op('pow', 2, 10), 1024],
    ['pow with a fractional exponent', op('pow', 4, 0.5), 2],
    ['pow reaching exactly 1e15', op('pow', 10, 15), 1e15],
    ['min of one argument', op('min', 3), 3],
    ['min', op('min', 3, -1, 2), -1],
    ['max', op('max', 3, -1, 2), 3],
    ['round, 0 digits by default', op('round', 2.5), 3],
    ['round of a negative half (toFixed rounds away from zero)', op('round', -2.5), -3],
    ['round uses toFixed on the binary value', op('round', 1.005, 2), 1],
    ['round of 0.1 + 0.2 to 2 digits', op('round', op('add', 0.1, 0.2), 2), 0.3],
    ['round to the most digits (6)', op('round', 1.23456789, 6), 1.234568],
    ['round to 0 digits explicitly', op('round', 9.5, 0), 10],
    ['round just under 1e15 up to 1e15', op('round', 1e15 - 0.125), 1e15],
    ["round of a small negative keeps toFixed's negative zero", op('round', -0.4), -0],
    ['round of negative zero is zero, as toFixed prints it', op('round', -0), 0],
    ['round of an exact binary tie', op('round', 0.125, 2), 0.13],
    ['round of a large value with digits', op('round', 98765.4321987, 6), 98765.432199],
    ['eq of equal numbers', op('eq', 1, 1), true],
    ['eq of 1 and "1"', op('eq', 1, '1'), false],
    ['eq of true and 1', op('eq', true, 1), false],
    ['eq of null and null', op('eq', null, derived('dn')), true],
    ['eq of null and ""', op('eq', null, ''), false],
    ['eq of equal strings', op('eq', state('s'), 'hi'), true],
    ['eq of 0.1 + 0.2 and 0.3', op('eq', op('add', 0.1, 0.2), 0.3), false],
    ['lt', op('lt', 1, 2), true],
    ['lt of equal numbers', op('lt', 2, 2), false],
    ['lte', op('lte', 2, 2), true],
    ['gt', op('gt', 1, 2), false],
    ['gte', op('gte', 2, 2), true],
    ['and of trues', op('and', true, true, state('b')), true],
    ['and with a false', op('and', true, false, true), false],
    ['or of falses', op('or', false, state('f')), false],
    ['or with a true', op('or', false, true), true],
    ['not', op('not', true), false],
    ['if, then branch', op('if', true, 'yes', 0), 'yes'],
    ['if, else branch', op('if', state('f'), 'yes', 0), 0],
    ['if returning null', op('if', false, 1, null), null],
    ['concat of every scalar type', op('concat', 'a', 1, true, null, false, 1.5), 'a1truefalse1.5'],
    ['concat of one argument', op('concat', 7), '7'],
    ['concat of a large number', op('concat', 1e15), '1000000000000000'],
    ['concat of a small number uses String(n)', op('concat', 1e-7), '1e-7'],
    ['concat of negative zero', op('concat', -0), '0'],
    [
      'concat reaching exactly 4096 units',
      op('concat', 'a'.repeat(MAX_STRING - 1), 'b'),
      `${'a'.repeat(4095)}b`,
    ],
    ['concat of a derived string', op('concat', derived('ds'), derived('dn')), 'x'],
    [
      'a nested expression',
      op('mul', state('n'), op('pow', op('add', 1, op('div', 5, 100)), 2)),
      3 * 1.05 ** 2,
    ],
  ];

  it.each(rows)('%s', (_name, expr, expected) => {
    expect(evaluate(expr)).toBe(expected);
  });

  it('has a row for every operator', () => {
    const covered = new Set(rows.flatMap(([, expr]) => collectOperators(expr)));
    expect([...covered].sort()).toEqual([...UI_EXPRESSION_OPERATORS].sort());
  });
});

function collectOperators(expr: Expr): string[] {
  if (typeof expr !== 'object' || expr === null || !('op' in expr)) return [];
  return [expr.op, ...expr.args.flatMap(collectOperators)];
}

describe('evaluateExpression: failures and their paths (seed 002 §3)', () => {
  const seventeen: Expr[] = Array.from({ length: 17 }, () => 1);
  const rows: [string, unknown, string][] = [
    // No implicit conversions: the path points at the argument of the wrong type.
    ['add of a string', op('add', 1, '1'), 'args[1]'],
    ['add of a boolean', op('add', true, 1), 'args[0]'],
    ['sub of null', op('sub', 1, null), 'args[1]'],
    ['mul of a string state', op('mul', 2, state('s')), 'args[1]'],
    ['div of a boolean', op('div', false, 1), 'args[0]'],
    ['pow of null', op('pow', 2, derived('dn')), 'args[1]'],
    ['min of a string', op('min', 'a'), 'args[0]'],
    ['max of a boolean', op('max', 1, true), 'args[1]'],
    ['round of a string', op('round', '1.5'), 'args[0]'],
    ['round with string digits', op('round', 1.5, '1'), 'args[1]'],
    ['lt of a string', op('lt', 'a', 1), 'args[0]'],
    ['lte of null', op('lte', 1, null), 'args[1]'],
    ['gt of a boolean', op('gt', true, false), 'args[0]'],
    ['gte of a string', op('gte', 1, '2'), 'args[1]'],
    ['and of a number', op('and', 1, true), 'args[0]'],
    ['or of a string', op('or', false, 'true'), 'args[1]'],
    ['not of a number', op('not', 0), 'args[0]'],
    ['if with a number condition', op('if', 1, 'a', 'b'), 'args[0]'],
    ['a nested type error', op('add', 1, op('mul', 2, op('sub', 3, 'x'))), 'args[1].args[1].args[1]'],
    // Division by zero: at the divisor.
    ['div by zero', op('div', 1, 0), 'args[1]'],
    ['div by negative zero', op('div', 1, -0), 'args[1]'],
    ['div by a computed zero', op('div', 1, op('sub', 2, 2)), 'args[1]'],
    ['div by zero inside add', op('add', 1, op('div', state('n'), state('zero'))), 'args[1].args[1]'],
    // pow: non-finite or out of range, at the pow node.
    ['pow to Infinity', op('pow', 0, -1), '$'],
    ['pow to NaN', op('pow', -8, 0.5), '$'],
    ['pow past 1e15', op('pow', 10, 16), '$'],
    ['pow past 1e15 inside an expression', op('add', 0, op('pow', 10, 15.01)), 'args[1]'],
    // Every arithmetic intermediate within ±1e15, at the operator node.
    ['add past 1e15', op('add', 1e15, 1), '$'],
    ['add past 1e15 in a partial sum only', op('add', 1e15, 1e15, -1e15), '$'],
    ['sub past -1e15', op('sub', -1e15, 1), '$'],
    ['mul past 1e15 in a partial product only', op('mul', 1e8, 1e8, 1e-8), '$'],
    ['div past 1e15', op('div', 1e15, 0.5), '$'],
    ['a literal just above 1e15', ABOVE_MAX, '$'],
    ['a literal just below -1e15', -ABOVE_MAX, '$'],
    ['a NaN literal', Number.NaN, '$'],
    ['an Infinity argument', op('add', 1, Number.POSITIVE_INFINITY), 'args[1]'],
    // round digits: an integer 0–6, at the digits argument.
    ['round to 7 digits', op('round', 1, 7), 'args[1]'],
    ['round to -1 digits', op('round', 1, -1), 'args[1]'],
    ['round to 0.5 digits', op('round', 1, 0.5), 'args[1]'],
    // Strings within 4096 UTF-16 units, computed ones at the concat node.
    ['a string literal of 4097 units', 'a'.repeat(MAX_STRING + 1), '$'],
    ['concat reaching 4097 units', op('concat', 'a'.repeat(MAX_STRING), 'b'), '$'],
    ['concat past the limit in an intermediate', op('concat', 'a'.repeat(4000), 'b'.repeat(97), 'c'), '$'],
    ['concat past the limit by UTF-16 units', op('concat', '😀'.repeat(2048), 'a'), '$'],
    ['concat past the limit, nested', op('eq', 1, op('concat', 'a'.repeat(MAX_STRING), 1)), 'args[1]'],
    // References: declared, own keys only.
    ['an undeclared state field', state('missing'), '$'],
    ['a prototype name as state', state('toString'), '$'],
    ['__proto__ as state', state('__proto__'), '$'],
    ['a non-string state name', { state: 1 }, '$'],
    ['an unknown derived name', op('not', derived('missing')), 'args[0]'],
    ['a prototype name as derived', derived('hasOwnProperty'), '$'],
    // Malformed input (never validated) fails cleanly.
    ['add of one argument', op('add', 1), '$'],
    ['add of 17 arguments', op('add', ...seventeen), '$'],
    ['not of two arguments', op('not', true, false), '$'],
    ['if of two arguments', op('if', true, 1), '$'],
    ['round of three arguments', op('round', 1, 2, 3), '$'],
    ['concat of no arguments', op('concat'), '$'],
    ['args that are not an array', { op: 'add', args: { length: 2 } }, '$'],
    ['args that are a string', { op: 'concat', args: 'ab' }, '$'],
    ['an unknown operator', { op: 'plus', args: [1, 2] }, '$'],
    ['a prototype name as operator', { op: 'toString', args: [] }, '$'],
    ['an empty object', {}, '$'],
    ['an array', [1, 2], '$'],
    ['undefined', undefined, '$'],
    ['a nested malformed node', op('add', 1, { value: 2 } as unknown as Expr), 'args[1]'],
  ];

  it.each(rows)('%s fails at %s', (_name, expr, path) => {
    expect(expressionError(() => evaluate(expr as Expr)).path).toBe(path);
  });

  it('fails when a state value is not a number, string or boolean', () => {
    const error = expressionError(() => evaluateExpression(state('x'), { x: null } as unknown as UIState));
    expect(error.path).toBe('$');
  });

  it('never reads state through the prototype', () => {
    const inherited = Object.create({ inherited: 1 }) as UIState;
    expect(expressionError(() => evaluateExpression(state('inherited'), inherited)).path).toBe('$');
  });

  it('does not echo names or values in messages', () => {
    expect(expressionError(() => evaluate(state('secretField'))).message).not.toContain('secretField');
    expect(
      expressionError(() => evaluate({ op: 'secretOp', args: [] } as unknown as Expr)).message,
    ).not.toContain('secretOp');
    expect(expressionError(() => evaluate(op('add', 1, 'secretValue'))).message).not.toContain('secretValue');
  });

  it('says what is allowed', () => {
    expect(expressionError(() => evaluate(op('add', 1))).message).toBe('add takes 2 to 16 arguments.');
    expect(expressionError(() => evaluate(op('add', 1, 'x'))).message).toBe(
      'add takes numbers; this argument is a string.',
    );
  });
});

describe('round is Number(x.toFixed(d)) exactly (seed 002 §3)', () => {
  const viaToFixed = (value: number, digits: number) => Number(value.toFixed(digits));
  const digits = fc.integer({ min: 0, max: UI_SCHEMA_LIMITS.maxFractionDigits });

  it.each([
    [1.005, 2],
    [2.5, 0],
    [-2.5, 0],
    [0.5, 0],
    [-0.5, 0],
    [1.0000005, 6],
    [4.9999999e-7, 6],
    [1e15, 6],
    [-1e15, 3],
    [1e15 - 0.125, 0],
    [2 ** 50 / 1e6, 6],
    [0.30000000000000004, 2],
    [-0, 3],
    [-0.0000001, 6],
  ])('round(%d, %d)', (value, places) => {
    expect(Object.is(roundLikeToFixed(value, places), viaToFixed(value, places))).toBe(true);
  });

  it('agrees with toFixed on random values', () => {
    const value = fc.double({ min: -1e15, max: 1e15, noNaN: true });
    fc.assert(
      fc.property(value, digits, (x, d) => Object.is(roundLikeToFixed(x, d), viaToFixed(x, d))),
      { numRuns: 20_000 },
    );
  });

  it('agrees with toFixed on decimal and binary ties and their neighbours', () => {
    const tie = fc
      .tuple(fc.integer({ min: -1e9, max: 1e9 }), digits, fc.integer({ min: -3, max: 3 }))
      .map(([units, places, nudge]) => {
        const x = (units + 0.5) / 10 ** places;
        // Step a few doubles away from the tie in either direction.
        let y = x;
        for (let step = 0; step < Math.abs(nudge); step++) y = nextDouble(y, nudge > 0);
        return [y, places] as const;
      });
    const dyadic = fc
      .tuple(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), fc.integer({ min: 0, max: 30 }), digits)
      .map(([numerator, shift, places]) => [numerator / 2 ** shift, places] as const);
    fc.assert(
      fc.property(fc.oneof(tie, dyadic), ([x, d]) => Object.is(roundLikeToFixed(x, d), viaToFixed(x, d))),
      { numRuns: 20_000 },
    );
  });
});

/** The adjacent double above (or below) `x`, for finite non-zero `x`. */
function nextDouble(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 === up ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

describe('evaluateExpression: depth (seed 002 §9)', () => {
  it('evaluates an expression of depth 24', () => {
    expect(evaluate(nested(UI_LIMITS.maxExpressionDepth))).toBe(false);
  });

  it('rejects depth 25 at the node past the limit', () => {
    const error = expressionError(() => evaluate(nested(UI_LIMITS.maxExpressionDepth + 1)));
    expect(error.path).toBe(nestedPath(25));
  });

  it('fails cleanly, without a stack overflow, on hostile nesting', () => {
    expect(expressionError(() => evaluate(nested(100_000))).path).toBe(nestedPath(25));
  });
});

describe('short-circuit evaluation (seed 002 §3)', () => {
  const divideByZero = op('gt', op('div', 1, 0), 0);
  const rows: [string, Expr, Scalar][] = [
    ['and stops at the first false', op('and', true, false, divideByZero), false],
    ['or stops at the first true', op('or', false, true, divideByZero), true],
    ['if does not evaluate the else branch', op('if', true, 1, op('div', 1, 0)), 1],
    ['if does not evaluate the then branch', op('if', false, op('div', 1, 0), 2), 2],
    ['and does not type-check arguments it skips', op('and', false, 1 as unknown as Expr), false],
  ];

  it.each(rows)('%s', (_name, expr, expected) => {
    expect(evaluate(expr)).toBe(expected);
  });

  it('evaluates the argument when the first one does not decide', () => {
    expect(expressionError(() => evaluate(op('and', true, divideByZero))).path).toBe(
      'args[1].args[0].args[1]',
    );
    expect(expressionError(() => evaluate(op('or', false, divideByZero))).path).toBe(
      'args[1].args[0].args[1]',
    );
  });

  it('never resolves a derived value in a skipped branch', () => {
    const resolved: string[] = [];
    const context: EvaluationContext = {
      state: STATE,
      budget: new StepBudget(),
      resolveDerived(name) {
        resolved.push(name);
        return true;
      },
    };
    expect(evaluateWith(op('if', derived('cond'), derived('chosen'), derived('skipped')), context)).toBe(
      true,
    );
    expect(evaluateWith(op('and', false, derived('skipped')), context)).toBe(false);
    expect(evaluateWith(op('or', true, derived('skipped')), context)).toBe(true);
    expect(resolved).toEqual(['cond', 'chosen']);
    // 3 nodes visited by if, 2 by and, 2 by or.
    expect(context.budget.used).toBe(7);
  });
});

describe('the step budget (seed 002 §9)', () => {
  it('spends one step per call and throws once exhausted', () => {
    const budget = new StepBudget(2);
    budget.step();
    budget.step();
    expect(budget.used).toBe(2);
    expressionError(() => budget.step());
    expect(budget.used).toBe(2);
  });

  it('defaults to maxEvaluationSteps', () => {
    expect(new StepBudget().limit).toBe(UI_LIMITS.maxEvaluationSteps);
  });

  it('costs one step per visited node', () => {
    const budget = new StepBudget(3);
    const context: EvaluationContext = { state: STATE, budget, resolveDerived: () => null };
    expect(evaluateWith(op('add', 1, 2), context)).toBe(3);
    expect(budget.used).toBe(3);
  });

  it('fails at the node that needs the step past the limit', () => {
    const context: EvaluationContext = {
      state: STATE,
      budget: new StepBudget(2),
      resolveDerived: () => null,
    };
    expect(expressionError(() => evaluateWith(op('add', 1, 2), context)).path).toBe('args[1]');
  });

  it(`accepts exactly ${UI_LIMITS.maxEvaluationSteps} nodes and rejects one more`, () => {
    expect(evaluate(treeOfSize(UI_LIMITS.maxEvaluationSteps))).toBe(1);
    expressionError(() => evaluate(treeOfSize(UI_LIMITS.maxEvaluationSteps + 1)));
  });

  it('gives each evaluateExpression call a fresh budget', () => {
    const large = treeOfSize(5_000);
    expect(evaluate(large)).toBe(1);
    expect(evaluate(large)).toBe(1);
  });

  it('is shared by derived references evaluated through the same context', () => {
    // Without memoization, each level multiplies the work by 16: 17, 289, 4641 and 9285 steps.
    const sixteen = (expr: Expr): Expr[] => Array.from({ length: 16 }, () => expr);
    const expressions: Record<string, Expr> = {
      leaf: op('add', ...sixteen(1)),
      mid: op('add', ...sixteen(derived('leaf'))),
      top: op('add', ...sixteen(derived('mid'))),
      wide: op('add', derived('top'), derived('top')),
    };
    const context: EvaluationContext = {
      state: STATE,
      budget: new StepBudget(),
      resolveDerived(name) {
        const expr = expressions[name];
        if (expr === undefined) throw new UIExpressionError('unknown');
        return evaluateWith(expr, this);
      },
    };
    expect(evaluateWith(derived('top'), context)).toBe(4096);
    expect(context.budget.used).toBe(4642);
    const error = expressionError(() =>
      evaluateWith(derived('wide'), { ...context, budget: new StepBudget() }),
    );
    expect(error.message).toContain(String(UI_LIMITS.maxEvaluationSteps));
    // Reported at the reference in the evaluated expression, not inside the derived field's own expression.
    expect(error.path).toBe('$');
  });
});

describe('evaluateWith and the derived resolver', () => {
  function contextWith(resolveDerived: (name: string) => Scalar): EvaluationContext {
    return { state: STATE, budget: new StepBudget(), resolveDerived };
  }

  it('reports a resolver failure at the reference, with its message', () => {
    const failing = contextWith(() => {
      throw new UIExpressionError('div cannot divide by zero; the divisor must not be 0.', 'args[1]');
    });
    const error = expressionError(() => evaluateWith(op('add', 1, derived('ratio')), failing));
    expect(error.path).toBe('args[1]');
    expect(error.message).toBe('div cannot divide by zero; the divisor must not be 0.');
  });

  it('lets other resolver errors through unchanged', () => {
    const bug = new TypeError('bug');
    const failing = contextWith(() => {
      throw bug;
    });
    expect(() => evaluateWith(derived('x'), failing)).toThrow(bug);
  });

  it('checks resolved values like any other value', () => {
    const rows: [unknown, string][] = [
      [ABOVE_MAX, 'args[0]'],
      ['a'.repeat(MAX_STRING + 1), 'args[0]'],
      [{}, 'args[0]'],
      [undefined, 'args[0]'],
    ];
    for (const [value, path] of rows) {
      const context = contextWith(() => value as Scalar);
      expect(expressionError(() => evaluateWith(op('eq', derived('x'), 1), context)).path).toBe(path);
    }
  });

  it('reads state from the context', () => {
    const context: EvaluationContext = {
      state: { x: 41 },
      budget: new StepBudget(),
      resolveDerived: () => 1,
    };
    expect(evaluateWith(op('add', state('x'), derived('one')), context)).toBe(42);
  });
});

describe('evaluateExpression on arbitrary input (property)', () => {
  it('returns a scalar or throws only UIExpressionError', () => {
    const names = fc.constantFrom('n', 's', 'b', 'd', 'dn', 'missing', 'toString', '__proto__');
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({ state: names }),
        fc.record({ derived: names }),
        fc.record({
          op: fc.oneof(fc.constantFrom(...UI_EXPRESSION_OPERATORS), fc.string()),
          args: fc.oneof(fc.array(tie('node'), { maxLength: 17 }), fc.jsonValue({ maxDepth: 1 })),
        }),
      ),
    }));
    fc.assert(
      fc.property(node, (expr) => {
        try {
          const value = evaluate(expr as Expr);
          expect(['number', 'string', 'boolean', 'object']).toContain(typeof value);
          if (typeof value === 'object') expect(value).toBeNull();
        } catch (error) {
          expect(error).toBeInstanceOf(UIExpressionError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
