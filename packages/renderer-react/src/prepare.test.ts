import { afterEach, describe, expect, it } from 'vitest';
import { formatResult } from './format.js';
import { markdownCacheSize } from './markdown.js';
import { prepareRenderer } from './prepare.js';

const NumberFormat = Intl.NumberFormat;
afterEach(() => {
  Intl.NumberFormat = NumberFormat;
});

/** Counts the number formats made from now on, by locale. */
function countNumberFormats(): string[] {
  const made: string[] = [];
  Intl.NumberFormat = class extends NumberFormat {
    constructor(locale?: string, options?: Intl.NumberFormatOptions) {
      super(locale, options);
      made.push(String(locale));
    }
  } as typeof Intl.NumberFormat;
  return made;
}

describe('prepareRenderer', () => {
  it('creates the number format a Result of that locale uses, once', () => {
    const made = countNumberFormats();
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
