/**
 * The copy parseDocument returns, and structural sharing of stream snapshots (seed 002 §12: unchanged
 * branches keep object identity).
 */
import { describe, expect, it } from 'vitest';
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { clone } from '../../test/utils.js';
import { UISchemaError } from '../errors/errors.js';
import { jsonEqual } from '../json/equal.js';
import { parseEnvelope } from '../protocol/envelope.js';
import { parseDocument, parseDocumentSharing } from './document.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

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

describe('parseDocumentSharing', () => {
  it('returns the base document itself when nothing changed', () => {
    const base = parseDocument(clone(formControls));
    expect(parseDocumentSharing(clone(formControls), base)).toBe(base);
  });

  it('keeps every unchanged node, props object and dictionary, and copies only the changed path', () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.root.children[5].children[1].props.title = 'Renamed';
    const next = parseDocument(edited);
    const shared = parseDocumentSharing(edited, base) as J;
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
    const shared = parseDocumentSharing(edited, base) as J;
    const old = base as J;
    expect(shared.root.children.at(-1)).toBe(old.root.children[5].children[1].children.at(-1));
  });

  it('copies and freezes new nodes, never keeping an object of the input', () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    const fresh = { id: 'fresh', type: 'Text', props: { text: 'New' } };
    edited.root.children.push(fresh);
    const shared = parseDocumentSharing(edited, base) as J;
    const node = shared.root.children.at(-1);
    expect(node).toEqual(fresh);
    expect(node).not.toBe(fresh);
    expect(node.props).not.toBe(fresh.props);
    expect(Object.isFrozen(node) && Object.isFrozen(node.props)).toBe(true);
    fresh.props.text = 'Changed later';
    expect(node.props.text).toBe('New');
    expect(parseDocument(shared)).toBe(shared);
  });

  it('does not keep a node whose id now names another component type', () => {
    const base = parseDocument(clone(productComparison)) as J;
    const edited = clone(productComparison) as J;
    const text = edited.root.children.findIndex((child: J) => child.type === 'Markdown');
    edited.root.children[text] = { ...edited.root.children[text], type: 'Text' };
    const shared = parseDocumentSharing(edited, base) as J;
    expect(shared.root.children[text].type).toBe('Text');
    expect(shared.root.children[text]).not.toBe(base.root.children[text]);
    expect(shared.root.children[text].props).toBe(base.root.children[text].props);
  });

  it('reports the same issues as parseDocument and shares nothing on failure', () => {
    const base = parseDocument(clone(productComparison));
    const edited = clone(productComparison) as J;
    edited.root.children[0].props.bogus = true;
    let expected: unknown;
    try {
      parseDocument(edited);
    } catch (error) {
      expected = error;
    }
    expect(expected).toBeInstanceOf(UISchemaError);
    expect(() => parseDocumentSharing(edited, base)).toThrow(UISchemaError);
    try {
      parseDocumentSharing(edited, base);
    } catch (error) {
      expect((error as UISchemaError).issues).toEqual((expected as UISchemaError).issues);
    }
  });

  it('refuses a base document parseDocument did not return', () => {
    const unvalidated = Object.freeze(clone(productComparison)) as J;
    expect(() => parseDocumentSharing(clone(productComparison), unvalidated)).toThrow(TypeError);
  });
});

describe('a document an envelope reader made', () => {
  /** The `payload.document` of a `ui.document` as `parseEnvelope` returns it: deep-frozen, copied and measured. */
  function fromEnvelope(document: unknown): unknown {
    const read = parseEnvelope(
      {
        v: 1,
        id: 'msg_1',
        type: 'lineup.v1.ui.document',
        conversation_id: 'conv_1',
        sender: { kind: 'agent', id: 'agent_1' },
        payload: { document },
      },
      { direction: 'agent_to_client' },
    );
    if (read.kind !== 'message' || read.message.type !== 'lineup.v1.ui.document') throw new Error('not read');
    return read.message.payload.document;
  }

  it('is adopted as it is: validated, not copied again', () => {
    const read = fromEnvelope(clone(productComparison));
    expect(Object.isFrozen(read)).toBe(true);
    const document = parseDocument(read);
    expect(document).toBe(read);
    expect(document).toEqual(parseDocument(clone(productComparison)));
    // Known from then on, as any document parseDocument returned.
    expect(parseDocument(document)).toBe(document);
  });

  it('is copied when it holds a -0, which the copy stores as 0', () => {
    const withZero = clone(formControls) as J;
    withZero.state.zero = { type: 'number', initial: -0 };
    const read = fromEnvelope(withZero) as J;
    expect(Object.is(read.state.zero.initial, -0)).toBe(true);
    const document = parseDocument(read) as J;
    expect(document).not.toBe(read);
    expect(Object.is(document.state.zero.initial, 0)).toBe(true);
  });

  it('is refused exactly as a plain copy is when it is over the budget asked for', () => {
    const read = fromEnvelope(clone(productComparison));
    const issuesOf = (input: unknown) => {
      try {
        parseDocument(input, { maxDocumentBytes: 1_024 });
      } catch (error) {
        return (error as UISchemaError).issues;
      }
      return [];
    };
    expect(issuesOf(read)).toEqual(issuesOf(clone(productComparison)));
    expect(issuesOf(read).map((issue) => issue.code)).toEqual(['too_large']);
    // An invalid document is refused with the same issues, whoever copied it.
    const broken = clone(productComparison) as J;
    broken.root.type = 'Nope';
    expect(() => parseDocument(fromEnvelope(broken))).toThrow(UISchemaError);
  });
});
