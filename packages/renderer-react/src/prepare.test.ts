import { afterEach, describe, expect, it } from 'vitest';
import { countNumberFormats } from '../test/number-formats.js';
import { formatResult } from './format.js';
import { markdownCacheSize } from './markdown.js';
import { prepareRenderer } from './prepare.js';

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
