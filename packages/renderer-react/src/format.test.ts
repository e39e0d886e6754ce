import { afterEach, describe, expect, it } from 'vitest';
import { countNumberFormats } from '../test/number-formats.js';
import { chartNumberFormat } from './chart.js';
import { formatResult, NUMBER_FORMATS_KEPT, numberFormat } from './format.js';

let counter: ReturnType<typeof countNumberFormats> | undefined;
afterEach(() => counter?.restore());

describe('numberFormat', () => {
  it('keeps one formatter per locale and key', () => {
    counter = countNumberFormats();
    const first = numberFormat('sv-SE', { maximumFractionDigits: 1 }, 'test|one');
    expect(numberFormat('sv-SE', { maximumFractionDigits: 1 }, 'test|one')).toBe(first);
    expect(numberFormat('nb-NO', { maximumFractionDigits: 1 }, 'test|one')).not.toBe(first);
    expect(numberFormat('sv-SE', { maximumFractionDigits: 3 }, 'test|three')).not.toBe(first);
    expect(counter.made).toEqual(['sv-SE', 'nb-NO', 'sv-SE']);
  });

  it(`keeps at most ${NUMBER_FORMATS_KEPT}, dropping the least recently used`, () => {
    counter = countNumberFormats();
    const kept = numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|kept');
    for (let index = 0; index < NUMBER_FORMATS_KEPT - 1; index++) {
      numberFormat('en-GB', { maximumFractionDigits: 0 }, `test|filler${index}`);
      // Used again each time: never the least recently used.
      expect(numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|kept')).toBe(kept);
    }
    const dropped = numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|filler0');
    numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|one-more');
    // filler1 was the least recently used: it goes, filler0 and the one used all along stay.
    expect(numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|kept')).toBe(kept);
    expect(numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|filler0')).toBe(dropped);
    const made = counter.made.length;
    numberFormat('en-GB', { maximumFractionDigits: 0 }, 'test|filler1');
    expect(counter.made.length).toBe(made + 1);
  });
});

describe('formatResult and chartNumberFormat', () => {
  it('format as their options say, reusing one formatter per format', () => {
    counter = countNumberFormats();
    expect(formatResult(123456.5, { style: 'decimal', digits: 1 }, 'en-IN')).toBe('1,23,456.5');
    expect(formatResult(0.05, { style: 'percent', digits: 0 }, 'en-IN')).toBe('5%');
    expect(formatResult(3, { style: 'currency', currency: 'EUR', digits: 2 }, 'en-IN')).toBe('€3.00');
    expect(formatResult(99, { style: 'decimal', digits: 1 }, 'en-IN')).toBe('99.0');
    expect(counter.made).toEqual(['en-IN', 'en-IN', 'en-IN']);

    const small = chartNumberFormat([0.01234, -0.5], 'en-IN');
    expect(small.format(0.01234)).toBe('0.0123');
    const large = chartNumberFormat([12.345, null], 'en-IN');
    expect(large.format(12.345)).toBe('12.35');
    // Every later chart of either kind finds its formatter made.
    expect(chartNumberFormat([0.2], 'en-IN')).toBe(small);
    expect(chartNumberFormat([0, 7], 'en-IN')).toBe(large);
    expect(counter.made).toEqual(['en-IN', 'en-IN', 'en-IN', 'en-IN', 'en-IN']);
  });
});
