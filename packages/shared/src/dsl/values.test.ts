/**
 * What a document shows (seed 002 §3, §6, §8): `evaluateDerived` computes every derived field once per call,
 * `resolveValue` reads already computed values, and `resolveDocumentValue` computes only the derived fields a
 * value uses, so one failing derived field (a denominator the user set to 0) does not break the others.
 */
import { describe, expect, it } from 'vitest';
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import { clone, derived, expressionError, op, state } from '../../test/utils.js';
import { UI_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { parseDocument } from './document.js';
import { evaluateExpression } from './expression.js';
import { initialState, updateState } from './state.js';
import type { Expr, Scalar, UIDerivedValues, UIDocument, UIState, Value } from './types.js';
import { evaluateDerived, resolveDocumentValue, resolveValue } from './values.js';

/** A minimal valid document around the given state and derived fields. */
function documentWith(
  stateDeclarations: Record<string, unknown>,
  derivedFields: Record<string, Expr>,
): UIDocument {
  return parseDocument({
    version: '1.0',
    id: 'values',
    mode: 'structured_ui',
    title: 'Values',
    state: stateDeclarations,
    derived: derivedFields,
    root: { id: 'root', type: 'Text', props: { text: 'x' } },
  });
}

const COMPOUND = parseDocument(clone(compoundInterest));
const FORM = parseDocument(clone(formControls));

/** The compound interest of seed 002 §7, computed in the same order of operations as the document. */
const total = (principal: number, rate: number, years: number): number =>
  principal * (1 + rate / 100) ** years;

// ---------------------------------------------------------------------------------------------------------
// evaluateDerived
// ---------------------------------------------------------------------------------------------------------

describe('evaluateDerived: every derived field of the document (seed 002 §3, §8)', () => {
  it('computes the seed §7 calculator in the initial state', () => {
    const values = evaluateDerived(COMPOUND, initialState(COMPOUND));
    const expected = total(10000, 5, 10);
    expect(values).toStrictEqual({ total: expected, gain: expected - 10000 });
  });

  it('computes from the state it is given, with no value kept from an earlier call', () => {
    const first = initialState(COMPOUND);
    expect(evaluateDerived(COMPOUND, first).total).toBe(total(10000, 5, 10));
    const second = updateState(COMPOUND, first, 'rate', 5.5);
    const values = evaluateDerived(COMPOUND, second);
    expect(values.total).toBe(total(10000, 5.5, 10));
    expect(values.gain).toBe(total(10000, 5.5, 10) - 10000);
    expect(evaluateDerived(COMPOUND, first).total).toBe(total(10000, 5, 10));
  });

  it('returns a frozen dictionary', () => {
    const values = evaluateDerived(COMPOUND, initialState(COMPOUND));
    expect(Object.isFrozen(values)).toBe(true);
    expect(() => {
      (values as Record<string, unknown>).total = 0;
    }).toThrow(TypeError);
  });

  it('computes the form-controls fixture, derived fields referring to derived fields', () => {
    const values = evaluateDerived(FORM, initialState(FORM));
    expect(values).toStrictEqual({
      unitPrice: 249,
      groupDiscount: 1,
      total: 498,
      displayName: '访客',
      greeting: '你好，访客！当前为 2 个席位预估费用。',
      isBeginner: false,
      needsEmail: true,
      readyToSubmit: false,
      experienceShare: 0.3,
    });
  });
});

describe('evaluateDerived: each derived field is computed once per call (seed 002 §8)', () => {
  /** A `min` tree of exactly `nodes` nodes whose value is 1 (`min` takes 1–16 arguments). */
  function treeOfSize(nodes: number): Expr {
    if (nodes === 1) return 1;
    const rest = nodes - 1;
    const width = Math.min(UI_SCHEMA_LIMITS.maxOperatorArguments, rest);
    const children: Expr[] = [];
    for (let index = 0; index < width; index++) {
      children.push(treeOfSize(Math.floor(rest / width) + (index < rest % width ? 1 : 0)));
    }
    return op('min', ...children);
  }

  const BASE_NODES = 1_000;
  const USERS = 16;
  const DOUBLINGS = 10;

  /**
   * `base` costs 1,000 steps. 16 fields use it and `sum` adds them: without reuse, `sum` alone would take
   * 16 × 1,003 > 8,192 steps. `d10 = d9 + d9`, …, `d1 = base + base` would take 2^10 × 1,000. Declared in
   * reverse, so that the first field computed pulls in all the others within its own step budget.
   */
  function fanOutDocument(): UIDocument {
    const fields: Record<string, Expr> = {};
    fields.sum = op('add', ...Array.from({ length: USERS }, (_, index) => derived(`u${index}`)));
    for (let level = DOUBLINGS; level >= 1; level--) {
      const previous = level === 1 ? 'base' : `d${level - 1}`;
      fields[`d${level}`] = op('add', derived(previous), derived(previous));
    }
    for (let index = 0; index < USERS; index++) fields[`u${index}`] = op('add', derived('base'), index);
    fields.base = treeOfSize(BASE_NODES);
    return documentWith({ n: { type: 'number', initial: 1 } }, fields);
  }
  const FAN_OUT = fanOutDocument();

  it('control: the same work written out without derived references exceeds 8,192 steps', () => {
    const inlined = op(
      'add',
      ...Array.from({ length: USERS }, (_, index) => op('add', treeOfSize(BASE_NODES), index)),
    );
    expect(USERS * (BASE_NODES + 2) + 1).toBeGreaterThan(UI_LIMITS.maxEvaluationSteps);
    const error = expressionError(() => evaluateExpression(inlined, {}, {}));
    expect(error.message).toContain(String(UI_LIMITS.maxEvaluationSteps));
  });

  it('evaluateDerived reuses every computed field within the budget', () => {
    const values = evaluateDerived(FAN_OUT, initialState(FAN_OUT));
    const expected: Record<string, Scalar> = { base: 1, sum: (USERS * (USERS + 1)) / 2 };
    for (let index = 0; index < USERS; index++) expected[`u${index}`] = 1 + index;
    for (let level = 1; level <= DOUBLINGS; level++) expected[`d${level}`] = 2 ** level;
    expect(values).toStrictEqual(expected);
  });

  it('resolveDocumentValue reuses them too', () => {
    const value: Value = { expr: op('add', derived('sum'), derived(`d${DOUBLINGS}`), derived('u3')) };
    expect(resolveDocumentValue(FAN_OUT, initialState(FAN_OUT), value)).toBe(136 + 1024 + 4);
  });
});

describe('evaluateDerived: a failure is a UIExpressionError at derived.<name> (seed 002 §3, §8)', () => {
  const denominator = { type: 'number', initial: 1, min: 0, max: 10, step: 1 };
  const rows: [string, () => [UIDocument, string, unknown], string][] = [
    [
      'division by a denominator set to 0: at the divisor',
      () => [documentWith({ den: denominator }, { ratio: op('div', 10, state('den')) }), 'den', 0],
      'derived.ratio.args[1]',
    ],
    [
      'a field using a failing one fails at its reference (it is computed first)',
      () => [
        documentWith(
          { den: denominator },
          { wrapper: op('add', derived('ratio'), 1), ratio: op('div', 10, state('den')) },
        ),
        'den',
        0,
      ],
      'derived.wrapper.args[0]',
    ],
    [
      'a root operator out of range: the field itself',
      () => [
        documentWith(
          { base: { type: 'number', initial: 2, min: 0, max: 1000, step: 1 } },
          { grow: op('pow', state('base'), 20) },
        ),
        'base',
        1000,
      ],
      'derived.grow',
    ],
    [
      'a computed string over 4,096 units',
      () => [
        documentWith(
          { s: { type: 'string', initial: 'x' } },
          { twice: op('concat', state('s'), state('s')) },
        ),
        's',
        'a'.repeat(3000),
      ],
      'derived.twice',
    ],
  ];
  it.each(rows)('%s', (_, build, path) => {
    const [document, key, value] = build();
    const initial = initialState(document);
    expect(() => evaluateDerived(document, initial)).not.toThrow();
    // The domain allows the value: only the computation fails (seed 002 §3: 用户随后输入新值仍可能使计算失败).
    const changed = updateState(document, initial, key, value);
    const error = expressionError(() => evaluateDerived(document, changed));
    expect(error.path).toBe(path);
  });
});

// ---------------------------------------------------------------------------------------------------------
// resolveValue
// ---------------------------------------------------------------------------------------------------------

describe('resolveValue: a literal, or an { expr } over state and computed derived values (seed 002 §3)', () => {
  const initial = initialState(COMPOUND);
  const values = evaluateDerived(COMPOUND, initial);
  const rows: [string, Value, Scalar][] = [
    ['a number literal', 12000, 12000],
    ['a string literal is never executed', 'principal * 2', 'principal * 2'],
    ['null', null, null],
    ['a boolean literal', false, false],
    ['a wrapped literal', { expr: 5 }, 5],
    ['a state reference', { expr: state('principal') }, 10000],
    ['an operator over state', { expr: op('mul', state('principal'), 2) }, 20000],
    ['a derived reference reads the computed value', { expr: derived('total') }, total(10000, 5, 10)],
    [
      'an operator over derived and state',
      { expr: op('sub', derived('total'), state('principal')) },
      total(10000, 5, 10) - 10000,
    ],
  ];
  it.each(rows)('%s', (_, value, expected) => {
    expect(resolveValue(value, initial, values)).toBe(expected);
  });

  const failures: [string, Value, UIDerivedValues, string][] = [
    ['a derived name that was not computed', { expr: derived('total') }, {}, '$'],
    ['a derived name the document does not declare', { expr: derived('missing') }, values, '$'],
    ['a prototype name is not a derived value', { expr: derived('toString') }, values, '$'],
    ['an undeclared state field', { expr: state('missing') }, values, '$'],
    ['division by zero, at the divisor', { expr: op('div', state('principal'), 0) }, values, 'args[1]'],
    ['a string where a number is needed', { expr: op('add', 1, op('concat', 'x')) }, values, 'args[1]'],
  ];
  it.each(failures)('throws UIExpressionError for %s', (_, value, derivedValues, path) => {
    expect(expressionError(() => resolveValue(value, initial, derivedValues)).path).toBe(path);
  });
});

// ---------------------------------------------------------------------------------------------------------
// resolveDocumentValue
// ---------------------------------------------------------------------------------------------------------

describe('resolveDocumentValue: only the derived fields a value uses (seed 002 §3, §6, §8)', () => {
  // seed 002 §3: "一个允许取 0 的分母被改成 0". `bad` is declared first, so computing everything would hit it.
  const ISOLATION = documentWith(
    {
      den: { type: 'number', initial: 1, min: 0, max: 10, step: 1 },
      x: { type: 'number', initial: 2, min: -100, max: 100, step: 1 },
    },
    {
      bad: op('div', 10, state('den')),
      good: op('mul', state('x'), 3),
      label: op('concat', 'x = ', state('x')),
    },
  );
  const initial = initialState(ISOLATION);
  const zero = updateState(ISOLATION, initial, 'den', 0);

  it('the domain allows 0, and computing every derived field now fails at bad', () => {
    expect(zero.den).toBe(0);
    expect(expressionError(() => evaluateDerived(ISOLATION, zero)).path).toBe('derived.bad.args[1]');
  });

  const resolved: [string, Value, Scalar][] = [
    ['a literal is returned as is', 'bad', 'bad'],
    ['a literal number', 7, 7],
    ['an unrelated derived value', { expr: derived('good') }, 6],
    ['another unrelated derived value', { expr: derived('label') }, 'x = 2'],
    ['a state value', { expr: state('den') }, 0],
    [
      'if computes only the chosen branch',
      { expr: op('if', op('gt', state('den'), 0), derived('bad'), -1) },
      -1,
    ],
  ];
  it.each(resolved)('still resolves %s', (_, value, expected) => {
    expect(resolveDocumentValue(ISOLATION, zero, value)).toBe(expected);
  });

  const failing: [string, Value, string][] = [
    ['a value that is the failing field', { expr: derived('bad') }, '$'],
    ['a value using the failing field', { expr: op('add', derived('good'), derived('bad')) }, 'args[1]'],
  ];
  it.each(failing)('throws UIExpressionError for %s, at its reference', (_, value, path) => {
    expect(expressionError(() => resolveDocumentValue(ISOLATION, zero, value)).path).toBe(path);
  });

  it('recovers once another control sets a valid denominator', () => {
    const recovered = updateState(ISOLATION, zero, 'den', 2);
    expect(resolveDocumentValue(ISOLATION, recovered, { expr: derived('bad') })).toBe(5);
    expect(evaluateDerived(ISOLATION, recovered)).toStrictEqual({ bad: 5, good: 6, label: 'x = 2' });
  });

  it('agrees with evaluateDerived on the fixtures', () => {
    const state: UIState = updateState(COMPOUND, initialState(COMPOUND), 'years', 20);
    const values = evaluateDerived(COMPOUND, state);
    expect(resolveDocumentValue(COMPOUND, state, { expr: derived('gain') })).toBe(values.gain);
    expect(resolveDocumentValue(COMPOUND, state, { expr: derived('total') })).toBe(values.total);
  });
});
