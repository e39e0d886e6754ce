/**
 * prepareRenderer: the one-time costs of a page's first document that do not depend on the document, paid
 * ahead, when the page is idle.
 */
import { formatResult } from './format.js';
import { renderMarkdown } from './markdown.js';

/** A short text through every Markdown construct the allowlist keeps (cached like any text, 1 entry). */
const MARKDOWN_SAMPLE = [
  '# Prepared',
  '',
  'Some **strong**, *emphasised*, ~~struck~~ and `coded` text, a [link](https://example.invalid) and a',
  'line break.  ',
  'After it.',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '',
  '> quoted',
  '',
  '```',
  'code',
  '```',
  '',
  '---',
].join('\n');

export interface PrepareRendererOptions {
  /** The locale the host will pass to `IntelligentUIView` (`locale`); the page's own when left out. */
  readonly locale?: string;
}

/**
 * Pays ahead the costs that a page's first document would otherwise pay on its way to the screen, whatever the
 * document: the engine's number formatting data (the first `Intl.NumberFormat` of a page takes about 50 ms in
 * a freshly loaded Chromium page, and a document with a Result or a Chart needs one) and the Markdown parser's
 * first run. Call it once when the page is idle after it loaded, such as in `requestIdleCallback`; calling it
 * again costs next to nothing. It renders nothing and changes nothing a document shows; it takes one entry of
 * the Markdown cache.
 */
export function prepareRenderer(options: PrepareRendererOptions = {}): void {
  formatResult(0, { style: 'decimal' }, options.locale);
  renderMarkdown(MARKDOWN_SAMPLE, 1);
}
