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

/** How many number formats are kept for reuse (`numberFormat`); the least recently used goes first. */
export const NUMBER_FORMATS_KEPT = 32;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An `Intl.NumberFormat` for `locale` and `options`, kept for reuse under `key` (which must say everything
 * `options` says). A new formatter's first few numbers are slow in Chromium — the engine builds its formatting
 * pipeline anew for each of them before it keeps one (about 0.1 ms a number on a 2-core machine) — so a formatter
 * made for each render costs a document of 24 Charts about 2 ms, where a kept one formats in microseconds. At
 * most `NUMBER_FORMATS_KEPT` are kept (a document chooses currencies and digits: what it can ask for is bounded).
 */
export function numberFormat(
  locale: string | undefined,
  options: Intl.NumberFormatOptions,
  key: string,
): Intl.NumberFormat {
  const id = `${locale ?? ''}|${key}`;
  let formatter = formatters.get(id);
  if (formatter !== undefined) {
    // The most recently used goes last.
    formatters.delete(id);
  } else {
    formatter = new Intl.NumberFormat(locale, options);
    if (formatters.size >= NUMBER_FORMATS_KEPT) formatters.delete(formatters.keys().next().value as string);
  }
  formatters.set(id, formatter);
  return formatter;
}

/**
 * Formats a Result value (seed 002 §5 ResultFormat) with `Intl.NumberFormat` in `locale` (the page's locale
 * when undefined): `digits` fraction digits (default 2), `percent` with Intl's ratio semantics (0.05 → 5.00%),
 * `currency` with its ISO code.
 */
export function formatResult(value: number, format: ResultFormat, locale?: string): string {
  const digits = format.digits ?? UI_DEFAULT_RESULT_DIGITS;
  const options: Intl.NumberFormatOptions = {
    style: format.style,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  };
  if (format.style === 'currency' && format.currency !== undefined) options.currency = format.currency;
  return numberFormat(locale, options, `${format.style}|${format.currency ?? ''}|${digits}`).format(value);
}

/** Progress shown within [0, max] (seed 002 §5): the state keeps its value, only the bar is clamped. */
export function clampProgress(value: number, max: number): number {
  return Math.min(Math.max(value, 0), max);
}
