import { describe, expect, it } from 'vitest';
import calculator from '../../fixtures/compound-interest.json' with { type: 'json' };
import { deepFreeze } from '../json/freeze.js';
import { adoptEquivalentDocument, documentIndex, parseDocument } from './document.js';
import { initialState } from './state.js';
import type { UIDocument } from './types.js';

describe('adoptEquivalentDocument', () => {
  it('lets helpers use an equal, structurally shared document as is', () => {
    const validated = parseDocument(calculator);
    const shared = deepFreeze(JSON.parse(JSON.stringify(validated))) as UIDocument;
    // Not yet known: the helpers validate a copy and hand that back.
    expect(documentIndex(shared).document).not.toBe(shared);
    adoptEquivalentDocument(shared, validated);
    const { document, index } = documentIndex(shared);
    expect(document).toBe(shared);
    expect(index.nodes.get('calculator-card')).toBe(shared.root);
    expect(initialState(shared)).toEqual(initialState(validated));
  });

  it('refuses a reference document that parseDocument did not return', () => {
    const unvalidated = deepFreeze(JSON.parse(JSON.stringify(calculator))) as UIDocument;
    expect(() => adoptEquivalentDocument(unvalidated, unvalidated)).not.toThrow();
    expect(() => adoptEquivalentDocument({ ...unvalidated }, unvalidated)).toThrow(TypeError);
  });
});
