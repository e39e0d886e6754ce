/** Formats a remaining duration for the timer display: `mm:ss`, rounding partial seconds up. */
export function formatRemaining(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) {
    throw new RangeError('formatRemaining: expected a finite, non-negative number of milliseconds.');
  }
  const totalSeconds = Math.ceil(milliseconds / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
