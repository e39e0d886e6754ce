/**
 * How values become text. Agent values are always shown as text (seed 002 §5 "普通文本，无 HTML 执行"): the
 * functions here return strings that React inserts as text nodes, never markup.
 */
import { type ResultFormat, type Scalar, UI_DEFAULT_RESULT_DIGITS } from '@lineup/shared';

/**
 * A Scalar as text: strings as they are, numbers in their shortest exact form (no rounding; a Result with a
 * `format` is the way to round), booleans as `true` / `false`, and `null` as an empty string.
 */
export function scalarText(value: Scalar): string {
  if (value === null) return '';
  return typeof value === 'string' ? value : String(value);
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats a Result value (seed 002 §5 ResultFormat) with `Intl.NumberFormat` in `locale` (the page's locale
 * when undefined): `digits` fraction digits (default 2), `percent` with Intl's ratio semantics (0.05 → 5.00%),
 * `currency` with its ISO code.
 */
export function formatResult(value: number, format: ResultFormat, locale?: string): string {
  const digits = format.digits ?? UI_DEFAULT_RESULT_DIGITS;
  const key = `${locale ?? ''}|${format.style}|${format.currency ?? ''}|${digits}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    const options: Intl.NumberFormatOptions = {
      style: format.style,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    };
    if (format.style === 'currency' && format.currency !== undefined) options.currency = format.currency;
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter.format(value);
}

/** Progress shown within [0, max] (seed 002 §5): the state keeps its value, only the bar is clamped. */
export function clampProgress(value: number, max: number): number {
  return Math.min(Math.max(value, 0), max);
}
