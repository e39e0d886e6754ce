import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPORT_WINDOW_MS, ReportTally, TokenBucket } from './rate.js';

describe('TokenBucket', () => {
  it('gives the capacity at once, then refills at the rate, never above the capacity', () => {
    let now = 0;
    const bucket = new TokenBucket(3, 2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 500;
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now += 60_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});

describe('ReportTally', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the first at once and the rest of each window as one report with a count', () => {
    const report = vi.fn();
    const tally = new ReportTally<string>(report, window);
    tally.add('a');
    tally.add('b');
    tally.add('c');
    expect(report.mock.calls).toEqual([[1, 'a']]);
    vi.advanceTimersByTime(REPORT_WINDOW_MS);
    expect(report.mock.calls).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    vi.advanceTimersByTime(REPORT_WINDOW_MS * 3);
    tally.add('d');
    expect(report).toHaveBeenLastCalledWith(1, 'd');
    tally.add('e');
    tally.dispose();
    vi.advanceTimersByTime(REPORT_WINDOW_MS * 3);
    expect(report).toHaveBeenCalledTimes(3);
  });
});
