/**
 * What compiling adds to the semantics pinned by expression.test.ts (seed 002 §3, §9): compiled code is reused
 * only for immutable expressions, compiling is lazy (a hostile DAG or nesting costs no more than evaluating it),
 * and the fast paths for documents (state snapshots, derived values by position) agree with the general ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UIExpressionError } from '../errors/errors.js';
import { deepFreeze } from '../json/freeze.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { UI_EXPRESSION_OPERATORS } from './catalog.js';
import { parseDocument } from './document.js';
import { type EvaluationContext, evaluateExpression, evaluateWith, StepBudget } from './expression.js';
import { compileExpression, isImmutableNode } from './expression-compile.js';
import { createStateLayout, snapshotState } from './expression-evaluation.js';
import { initialState, updateState } from './state.js';
import type { Expr, Scalar, UIDocument, UIState } from './types.js';
import { createDerivedResolver, evaluateDerived } from './values.js';

const op = (name: string, ...args: unknown[]): Expr => ({ op: name, args }) as unknown as Expr;
const STATE: UIState = { n: 3, s: 'hi', b: true };

/** A deep copy that keeps NaN, -0 and infinities (unlike JSON). */
function clone(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(clone);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clone(item)]));
}

/** The value, or the error's class, message and path: what a caller can observe of one evaluation. */
function outcome(run: () => Scalar): unknown {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof UIExpressionError)) throw error;
    return { error: error.message, path: error.path };
  }
}

describe('compileExpression: reuse only for immutable expressions', () => {
  it('compiles a frozen expression once', () => {
    const expr = deepFreeze(op('add', { state: 'n' }, 1));
    expect(compileExpression(expr)).toBe(compileExpression(expr));
  });

  it('compiles a mutable expression afresh, so a change between two calls is seen', () => {
    const expr = { op: 'add', args: [1, 2] };
    expect(compileExpression(expr)).not.toBe(compileExpression(expr));
    expect(evaluateExpression(expr as Expr, STATE)).toBe(3);
    expr.args[1] = 5;
    expect(evaluateExpression(expr as Expr, STATE)).toBe(6);
    expr.op = 'mul';
    expect(evaluateExpression(expr as Expr, STATE)).toBe(5);
  });

  it('sees a change below a frozen node: a mutable args array or argument', () => {
    const args: unknown[] = [1, 2];
    const shallow = Object.freeze({ op: 'add', args });
    expect(evaluateExpression(shallow as Expr, STATE)).toBe(3);
    args[1] = 'x';
    expect(outcome(() => evaluateExpression(shallow as Expr, STATE))).toEqual({
      error: 'add takes numbers; this argument is a string.',
      path: 'args[1]',
    });

    const child = { op: 'mul', args: [2, 2] };
    const parent = deepFreeze({ op: 'add', args: Object.freeze([1, child]) });
    expect(Object.isFrozen(child)).toBe(true);
    const mutableChild = { op: 'mul', args: [2, 2] };
    const mixed = Object.freeze({ op: 'add', args: Object.freeze([1, mutableChild]) });
    expect(evaluateExpression(parent as Expr, STATE)).toBe(5);
    expect(evaluateExpression(mixed as Expr, STATE)).toBe(5);
    mutableChild.args[1] = 10;
    expect(evaluateExpression(mixed as Expr, STATE)).toBe(21);
  });

  it('judges what is immutable: frozen plain data only', () => {
    expect(isImmutableNode(1)).toBe(true);
    expect(isImmutableNode(deepFreeze({ op: 'not', args: [true] }))).toBe(true);
    expect(isImmutableNode(deepFreeze({ op: 'not', args: 'x' }))).toBe(true);
    expect(isImmutableNode({ state: 'n' })).toBe(false);
    expect(isImmutableNode(Object.freeze({ op: 'not', args: [true] }))).toBe(false);
    // A getter may answer differently on every read, frozen or not.
    let flip = false;
    const getter = Object.freeze({
      get state() {
        flip = !flip;
        return flip ? 'n' : 's';
      },
    });
    expect(isImmutableNode(getter)).toBe(false);
    expect(evaluateExpression(getter as unknown as Expr, STATE)).toBe(3);
    expect(evaluateExpression(getter as unknown as Expr, STATE)).toBe('hi');
    // So may a field inherited from a mutable prototype.
    const prototype = { state: 'n' };
    const inherited = Object.freeze(Object.create(prototype));
    expect(isImmutableNode(inherited)).toBe(false);
    expect(evaluateExpression(inherited, STATE)).toBe(3);
    prototype.state = 'b';
    expect(evaluateExpression(inherited, STATE)).toBe(true);
  });
});

describe('compiling is lazy (seed 002 §9)', () => {
  /** A frozen DAG that unfolds to 16^levels nodes while holding only `levels` objects. */
  function wideDag(levels: number): Expr {
    let expr: Expr = 1;
    for (let level = 0; level < levels; level++) {
      expr = deepFreeze(op('add', ...Array.from({ length: 16 }, () => expr)));
    }
    return expr;
  }

  it('does not unfold a shared subtree that evaluation never reaches', () => {
    const huge = wideDag(UI_LIMITS.maxExpressionDepth - 2);
    const guarded = deepFreeze(op('if', true, 1, huge));
    expect(evaluateExpression(guarded, STATE)).toBe(1);
    expect(evaluateExpression(guarded, STATE)).toBe(1);
  });

  it('stops a shared subtree at the step budget, at the same path every time', () => {
    const huge = wideDag(UI_LIMITS.maxExpressionDepth - 2);
    const first = outcome(() => evaluateExpression(huge, STATE));
    expect(first).toMatchObject({ error: expect.stringContaining(String(UI_LIMITS.maxEvaluationSteps)) });
    expect(outcome(() => evaluateExpression(huge, STATE))).toEqual(first);
  });

  it('reports a malformed node only when evaluation reaches it', () => {
    const expr = deepFreeze(op('if', { state: 'b' }, 1, { bogus: true }));
    expect(evaluateExpression(expr, STATE)).toBe(1);
    expect(outcome(() => evaluateExpression(expr, { ...STATE, b: false }))).toEqual({
      error: 'An expression is a scalar, { state }, { derived } or { op, args }.',
      path: 'args[2]',
    });
  });
});

describe('compiled code behaves the same whether reused or not (property)', () => {
  const names = fc.constantFrom('n', 's', 'b', 'd', 'dn', 'missing', 'toString');
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null)),
      fc.string({ maxLength: 3 }),
      fc.record({ state: names }),
      fc.record({ derived: names }),
      fc.record({
        op: fc.oneof(fc.constantFrom(...UI_EXPRESSION_OPERATORS), fc.constant('plus')),
        args: fc.oneof(fc.array(tie('node'), { maxLength: 4 }), fc.constant('x')),
      }),
    ),
  }));
  const DERIVED: Record<string, Scalar> = { d: 2, dn: null };

  /** The outcome and the steps spent, with a budget small enough to run out inside most expressions. */
  function run(expr: unknown, limit: number): unknown {
    const context: EvaluationContext = {
      state: { n: 3, s: 'hi', b: true },
      budget: new StepBudget(limit),
      resolveDerived(name) {
        if (!Object.hasOwn(DERIVED, name)) throw new UIExpressionError('unknown', 'args[7]');
        return DERIVED[name] as Scalar;
      },
    };
    return { outcome: outcome(() => evaluateWith(expr as Expr, context)), steps: context.budget.used };
  }

  it('gives the same value or error, at the same path, after the same number of steps', () => {
    fc.assert(
      fc.property(node, fc.integer({ min: 1, max: 40 }), (expr, limit) => {
        const mutable = run(clone(expr), limit);
        const frozen = deepFreeze(clone(expr));
        expect(run(frozen, limit)).toEqual(mutable);
        // Again, now from the cache and with children compiled on the first run.
        expect(run(frozen, limit)).toEqual(mutable);
        expect(run(frozen, UI_LIMITS.maxEvaluationSteps)).toEqual(run(expr, UI_LIMITS.maxEvaluationSteps));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('snapshotState: the state read once (seed 002 §4)', () => {
  const layout = createStateLayout(['a', 'b']);

  it('reads a frozen state whose own keys are the layout, in order', () => {
    expect(snapshotState(Object.freeze({ a: 1, b: 'x' }), layout)?.values).toEqual([1, 'x']);
  });

  it('declines anything else, which then reads key by key', () => {
    expect(snapshotState({ a: 1, b: 'x' }, layout)).toBeUndefined();
    expect(snapshotState(Object.freeze({ b: 'x', a: 1 }), layout)).toBeUndefined();
    expect(snapshotState(Object.freeze({ a: 1 }), layout)).toBeUndefined();
    expect(snapshotState(Object.freeze({ a: 1, b: 'x', c: true }), layout)).toBeUndefined();
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 'x', enumerable: false });
    expect(snapshotState(Object.freeze(hidden), layout)).toBeUndefined();
  });
});

describe('documents: the fast paths agree with the general ones (seed 002 §3, §8)', () => {
  const DOCUMENT: UIDocument = parseDocument({
    version: '1.0',
    id: 'fast-paths',
    mode: 'interactive_ui',
    title: 'Fast paths',
    state: {
      price: { type: 'number', initial: 10, min: 0, max: 1000 },
      count: { type: 'number', initial: 2, min: 0, max: 10, step: 1 },
      name: { type: 'string', initial: 'Ada', maxLength: 20 },
    },
    derived: {
      total: op('mul', { state: 'price' }, { state: 'count' }),
      each: op('div', { derived: 'total' }, { state: 'count' }),
      label: op('concat', { state: 'name' }, ': ', { derived: 'each' }),
    },
    root: {
      id: 'root',
      type: 'Column',
      props: {},
      children: [
        { id: 'count', type: 'NumberInput', props: { label: 'Count', bind: 'count' } },
        { id: 'label', type: 'Text', props: { text: { expr: { derived: 'label' } } } },
      ],
    },
  });

  /** The same state as a frozen object in another key order, and as a mutable copy: no snapshot for either. */
  const variants = (state: UIState): UIState[] => [
    state,
    Object.freeze(Object.fromEntries(Object.entries(state).reverse())),
    { ...state },
  ];

  it('computes the same derived values from any copy of the state', () => {
    const state = updateState(DOCUMENT, initialState(DOCUMENT), 'count', 4);
    for (const variant of variants(state)) {
      expect(evaluateDerived(DOCUMENT, variant)).toEqual({ total: 40, each: 10, label: 'Ada: 10' });
    }
  });

  it('fails the same way from any copy of the state', () => {
    const state = updateState(DOCUMENT, initialState(DOCUMENT), 'count', 0);
    for (const variant of variants(state)) {
      expect(outcome(() => evaluateDerived(DOCUMENT, variant).total as Scalar)).toEqual({
        error: 'div cannot divide by zero; the divisor must not be 0.',
        path: 'derived.each.args[1]',
      });
    }
  });

  it('resolves derived references by position and by name alike', () => {
    const state = initialState(DOCUMENT);
    const resolver = createDerivedResolver(DOCUMENT, state);
    expect(resolver.derived('label')).toBe('Ada: 10');
    // A generic context over the same document reads derived values by name only.
    const byName: EvaluationContext = {
      state,
      budget: new StepBudget(),
      resolveDerived: (name) => createDerivedResolver(DOCUMENT, state).derived(name),
    };
    expect(evaluateWith(DOCUMENT.derived.label as Expr, byName)).toBe('Ada: 10');
    expect(outcome(() => resolver.evaluate({ derived: 'missing' }))).toEqual({
      error: 'This derived field is not declared.',
      path: '$',
    });
  });
});
