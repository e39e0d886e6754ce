import { describe, expect, it } from 'vitest';
import { readMinutes } from './duration.js';
import { normalizeText } from './language.js';

describe('readMinutes', () => {
  it.each([
    ['start a 20 minute focus', 20],
    ['start a focus session for 25 minutes', 25],
    ['focus 45', 45],
    ['focus for 90 mins', 90],
    ['timer 5m', 5],
    ['focus for 2 hours', 120],
    ['focus for 1.5 hours', 90],
    ['set a timer for half an hour', 30],
    ['set a timer for an hour', 60],
    ['meditate for twenty-five minutes', 25],
    ['meditate for forty five minutes', 45],
    ['meditate for ten minutes', 10],
    ['现在开始 20 分钟的冥想，帮我计时', 20],
    ['专注２５分钟', 25],
    ['冥想十分钟', 10],
    ['冥想二十五分钟', 25],
    ['专注一百二十分钟', 120],
    ['专注一百零五分钟', 105],
    ['帮我计时一个小时', 60],
    ['帮我计时两小时', 120],
    ['帮我计时半小时', 30],
    ['帮我计时一个半小时', 90],
    // What was said, even when the agent will refuse it.
    ['start a 0 minute focus', 0],
    ['start a -5 minute focus', -5],
    ['start a 2.5 minute focus', 2.5],
    ['focus for 500 minutes', 500],
  ])('%s → %d', (text, minutes) => {
    expect(readMinutes(normalizeText(text))).toBe(minutes);
  });

  it.each(['start a focus session', 'start a meditation', '开始番茄钟', '帮我计时一下'])(
    '%s names no duration',
    (text) => {
      expect(readMinutes(normalizeText(text))).toBeUndefined();
    },
  );

  it('does not read a malformed Chinese numeral as a number with its unit', () => {
    // 二五 is not a numeral; the digits rule finds nothing either.
    expect(readMinutes(normalizeText('专注二五分钟'))).toBeUndefined();
  });
});
