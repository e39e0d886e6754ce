import { parseDocument, UI_COMPONENT_TYPES, type UINode } from '@lineup/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { countNumberFormats } from '../test/number-formats.js';
import { formatResult } from './format.js';
import { markdownCacheSize } from './markdown.js';
import { prepareRenderer, sampleDocument } from './prepare.js';

let counter: ReturnType<typeof countNumberFormats> | undefined;
afterEach(() => counter?.restore());

describe('prepareRenderer', () => {
  it('creates the number format a Result of that locale uses, once', () => {
    counter = countNumberFormats();
    const { made } = counter;
    prepareRenderer({ locale: 'de-DE' });
    expect(made).toEqual(['de-DE']);
    // The document's Result finds it made; a second call makes nothing new.
    expect(formatResult(1234.5, { style: 'decimal' }, 'de-DE')).toBe('1.234,50');
    prepareRenderer({ locale: 'de-DE' });
    expect(made).toEqual(['de-DE']);
  });

  it('takes one entry of the Markdown cache, however often it is called', () => {
    const before = markdownCacheSize();
    prepareRenderer();
    const after = markdownCacheSize();
    expect(after - before).toBeLessThanOrEqual(1);
    expect(after).toBeGreaterThan(0);
    prepareRenderer();
    expect(markdownCacheSize()).toBe(after);
  });
});

describe('sampleDocument', () => {
  it('is a valid document of every component type, its size in proportion to its cards', () => {
    const types = new Set<string>();
    const visit = (node: UINode) => {
      types.add(node.type);
      if ('children' in node) for (const child of node.children) visit(child);
    };
    const document = parseDocument(sampleDocument(9));
    visit(document.root);
    expect([...types].sort()).toEqual([...UI_COMPONENT_TYPES].sort());
    const bytes = JSON.stringify(sampleDocument(9)).length;
    expect(bytes).toBeGreaterThan(20_000);
    expect(bytes).toBeLessThan(60_000);
    expect(JSON.stringify(sampleDocument(1)).length).toBeLessThan(bytes / 6);
  });

  it('is a new object each time (a validated document is cached by identity)', () => {
    expect(sampleDocument(1)).not.toBe(sampleDocument(1));
    expect(sampleDocument(1)).toEqual(sampleDocument(1));
  });
});
