import { describe, expect, it } from 'vitest';
import { normalizeText } from '../conversation/language.js';
import { POMODORO_LIMITS, readFocusRequest } from './request.js';

const read = (text: string) => readFocusRequest(normalizeText(text));

describe('readFocusRequest', () => {
  it.each([
    ['start a 20 minute focus', 20, 'focus'],
    ['meditate for 10 minutes', 10, 'meditation'],
    ['现在开始 20 分钟的冥想，帮我计时', 20, 'meditation'],
    ['start a 50 minute study session', 50, 'study'],
    ['学习 45 分钟', 45, 'study'],
    ['start a 30 minute reading timer', 30, 'reading'],
    ['阅读 30 分钟', 30, 'reading'],
    ['start a 25 minute work session', 25, 'work'],
    ['专注工作 25 分钟', 25, 'work'],
    ['start a 1 minute focus', POMODORO_LIMITS.minMinutes, 'focus'],
    ['start a 180 minute focus', POMODORO_LIMITS.maxMinutes, 'focus'],
  ])('%s → %d minutes of %s', (text, minutes, focus) => {
    expect(read(text)).toEqual({ kind: 'start', minutes, focus, defaulted: false });
  });

  it('starts a classic 25 minutes when no length is named', () => {
    expect(read('start a pomodoro')).toEqual({
      kind: 'start',
      minutes: POMODORO_LIMITS.defaultMinutes,
      focus: 'focus',
      defaulted: true,
    });
  });

  it.each([
    ['start a 0 minute focus', 0],
    ['start a 181 minute focus', 181],
    ['focus for 500 minutes', 500],
    ['focus for 4 hours', 240],
    ['start a -5 minute focus', -5],
    ['start a 2.5 minute focus', 2.5],
    ['冥想零分钟', 0],
    ['冥想两百分钟', 200],
  ])('refuses %s (%d minutes)', (text, minutes) => {
    expect(read(text)).toEqual({ kind: 'out_of_range', minutes });
  });
});
