import { describe, expect, it } from 'vitest';
import { formatRemaining } from './format.ts';

describe('formatRemaining', () => {
  it.each([
    [25 * 60_000, '25:00'],
    [0, '00:00'],
    [1, '00:01'],
    [59_001, '01:00'],
    [61_000, '01:01'],
  ])('formats %d ms as %s', (milliseconds, expected) => {
    expect(formatRemaining(milliseconds)).toBe(expected);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects %d', (milliseconds) => {
    expect(() => formatRemaining(milliseconds)).toThrow(RangeError);
  });
});
