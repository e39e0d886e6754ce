/**
 * Structural sharing of received snapshots (seed 002 §12: unchanged branches keep object identity).
 */
import { describe, expect, it } from 'vitest';
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { parseDocument } from '../dsl/document.js';
import { jsonEqual, shareStructure } from './sharing.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('jsonEqual', () => {
  it.each([
    [1, 1, true],
    [0, -0, true],
    ['a', 'b', false],
    [null, {}, false],
    [[], {}, false],
    [{}, [], false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [1], false],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: 1, b: 2 }, { a: 1, c: 2 }, false],
    [{ a: { b: [true] } }, { a: { b: [false] } }, false],
    [{ b: undefined, c: 1 }, { c: 1, d: 2 }, false],
    // An own `__proto__` member (JSON.parse makes one) against an object that only inherits `__proto__`.
    [JSON.parse('{"__proto__":{}}'), { a: {} }, false],
    [JSON.parse('{"__proto__":{"a":[1]}}'), JSON.parse('{"__proto__":{"a":[1]}}'), true],
    [JSON.parse('{"__proto__":{"a":[1]}}'), JSON.parse('{"__proto__":{"a":[2]}}'), false],
    [JSON.parse('{"toString":1,"a":1}'), { a: 1, b: 1 }, false],
  ])('jsonEqual(%j, %j) is %s', (a, b, expected) => {
    expect(jsonEqual(a, b)).toBe(expected);
    expect(jsonEqual(b, a)).toBe(expected);
  });
});

describe('shareStructure', () => {
  it('returns the base document itself when nothing changed', () => {
    const base = parseDocument(clone(formControls));
    expect(shareStructure(base, parseDocument(clone(formControls)))).toBe(base);
  });

  it('keeps every unchanged node, props object and dictionary, and copies only the changed path', () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.root.children[5].children[1].props.title = 'Renamed';
    const next = parseDocument(edited);
    const shared = shareStructure(base, next) as J;
    const old = base as J;
    expect(shared).toEqual(next);
    expect(shared).not.toBe(base);
    expect(shared.state).toBe(old.state);
    expect(shared.derived).toBe(old.derived);
    expect(shared.root).not.toBe(old.root);
    for (const index of [0, 1, 2, 3, 4, 6])
      expect(shared.root.children[index]).toBe(old.root.children[index]);
    const grid = shared.root.children[5];
    expect(grid).not.toBe(old.root.children[5]);
    expect(grid.props).toBe(old.root.children[5].props);
    expect(grid.children[0]).toBe(old.root.children[5].children[0]);
    expect(grid.children[2]).toBe(old.root.children[5].children[2]);
    const card = grid.children[1];
    expect(card).not.toBe(old.root.children[5].children[1]);
    card.children.forEach((child: J, index: number) => {
      expect(child).toBe(old.root.children[5].children[1].children[index]);
    });
    expect(Object.isFrozen(shared)).toBe(true);
    expect(Object.isFrozen(card)).toBe(true);
    expect(Object.isFrozen(card.children)).toBe(true);
    expect(parseDocument(clone(shared))).toEqual(next);
  });

  it('finds a moved node by id and keeps it', () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    const moved = edited.root.children[5].children[1].children.pop();
    edited.root.children.push(moved);
    const shared = shareStructure(base, parseDocument(edited)) as J;
    const old = base as J;
    expect(shared.root.children.at(-1)).toBe(old.root.children[5].children[1].children.at(-1));
  });

  it("uses the new snapshot's own objects for new nodes", () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.root.children.push({ id: 'fresh', type: 'Text', props: { text: 'New' } });
    const next = parseDocument(edited) as J;
    const shared = shareStructure(base, next) as J;
    expect(shared.root.children.at(-1)).toBe(next.root.children.at(-1));
  });
});
