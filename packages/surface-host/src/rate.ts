/**
 * Rates on the host side of a Surface: a token bucket for what a Surface may send, and a tally that turns a
 * flood of refusals into at most one report per second, so neither the messages nor their reports can keep
 * the host busy.
 */

/** `capacity` at once, refilled at `perSecond`. */
export class TokenBucket {
  readonly #capacity: number;
  readonly #perSecond: number;
  readonly #now: () => number;
  #tokens: number;
  #refilledAt: number;

  constructor(capacity: number, perSecond: number, now: () => number) {
    this.#capacity = capacity;
    this.#perSecond = perSecond;
    this.#now = now;
    this.#tokens = capacity;
    this.#refilledAt = now();
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const at = this.#now();
    this.#tokens = Math.min(
      this.#capacity,
      this.#tokens + ((at - this.#refilledAt) / 1_000) * this.#perSecond,
    );
    this.#refilledAt = at;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** The window of one report, in milliseconds. */
export const REPORT_WINDOW_MS = 1_000;

/**
 * Counts occurrences and reports the first at once, then the rest of each second as one report with their
 * count (`detail` is the first occurrence's of that report).
 */
export class ReportTally<Detail> {
  readonly #report: (count: number, detail: Detail) => void;
  readonly #timers: Pick<Window, 'setTimeout' | 'clearTimeout'>;
  #pending = 0;
  #detail: Detail | undefined;
  #timer: ReturnType<Window['setTimeout']> | undefined;

  constructor(
    report: (count: number, detail: Detail) => void,
    timers: Pick<Window, 'setTimeout' | 'clearTimeout'>,
  ) {
    this.#report = report;
    this.#timers = timers;
  }

  add(detail: Detail): void {
    if (this.#timer === undefined) {
      this.#report(1, detail);
      this.#timer = this.#timers.setTimeout(() => this.#flush(), REPORT_WINDOW_MS);
      return;
    }
    if (this.#pending === 0) this.#detail = detail;
    this.#pending++;
  }

  #flush(): void {
    this.#timer = undefined;
    if (this.#pending === 0) return;
    const count = this.#pending;
    const detail = this.#detail as Detail;
    this.#pending = 0;
    this.#detail = undefined;
    this.#report(count, detail);
    // A report opens the next window: at most one report per window, however long the flood lasts.
    this.#timer = this.#timers.setTimeout(() => this.#flush(), REPORT_WINDOW_MS);
  }

  /** Stops without reporting what is pending. */
  dispose(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = 0;
  }
}
