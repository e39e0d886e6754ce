/**
 * prepareRenderer: the one-time costs of a page's first document that do not depend on the document, paid
 * ahead, when the page is idle.
 */
import { initialState, parseDocument } from '@lineup/shared';
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { deriveAll } from './context.js';
import { IntelligentUIView } from './document-view.js';
import { formatResult } from './format.js';
import { guessDocumentLanguage } from './language.js';
import { renderMarkdown, renderText } from './markdown.js';

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

type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };

/** Cards in the sample document, and how often it is validated: about 29 KB, four times (measured, README). */
const SAMPLE_CARDS = 9;
const SAMPLE_RUNS = 4;
/**
 * How often a one-card sample (22 components, every type) is rendered into a detached root, each pass in a task of
 * its own: three passes took the maximum document's first delivery from about 130 to 112 ms; six did no better
 * (measured, README).
 */
const RENDER_PASSES = 3;
/**
 * Markdown renders after the passes, at idle: MARKDOWN_WARM_TASKS tasks of one render each (about 0.3 ms), each
 * when the page has nothing else to do. The parser runs only as fast as the engine has compiled it: in a fresh
 * Chromium page the maximum document's 66 blocks took 27 ms after one parse and 5–9 ms after about 200 (measured),
 * the engine having optimized the parser by then. One render a task: work that runs between the steps of a chain of
 * short asynchronous steps (a database opening, a connection starting) delays each step by at most one render.
 */
export const MARKDOWN_WARM_TASKS = 200;
/** The warm-up's text: the sample, then a paragraph of prose as long as a typical block's. */
const MARKDOWN_WARM_TEXT = `${MARKDOWN_SAMPLE}\n\n${'The figures were checked against the *latest* price list and the **review** notes. '.repeat(8)}`;

/**
 * A valid document of every component type, with state, derived values and expressions, `cards` times over: what
 * `prepareRenderer` validates so that the document checks a first document runs through (`parseDocument`, the
 * derived values) are not run for the first time on it. A new object each call (a validated one is cached).
 */
export function sampleDocument(cards: number): { [key: string]: JSONValue } {
  const children: JSONValue[] = [];
  for (let card = 0; card < cards; card++) {
    const id = (name: string) => `${name}-${card}`;
    const rows: JSONValue[] = [];
    for (let row = 0; row < 12; row++)
      rows.push({ name: `Item ${card}.${row}`, price: 100 + row * 7.5, stock: row % 3 === 0, note: 'kept' });
    children.push({
      id: id('card'),
      type: 'Card',
      props: { title: `Sample ${card}`, gap: 'sm' },
      children: [
        { id: id('heading'), type: 'Heading', props: { text: `Sample heading ${card}`, level: 3 } },
        { id: id('text'), type: 'Text', props: { text: { expr: { derived: 'greeting' } } } },
        {
          id: id('markdown'),
          type: 'Markdown',
          props: { text: `Some **notes** for ${card}.\n\n- one\n- two` },
        },
        {
          id: id('row'),
          type: 'Row',
          props: { gap: 'sm' },
          children: [
            {
              id: id('badge'),
              type: 'Badge',
              props: {
                text: { expr: { op: 'if', args: [{ derived: 'many' }, 'Many', 'Few'] } },
                tone: 'success',
              },
            },
            {
              id: id('progress'),
              type: 'Progress',
              props: { value: { expr: { state: 'count' } }, max: 10, label: 'Count' },
            },
            { id: id('loading'), type: 'Loading', props: { label: 'Waiting' } },
          ],
        },
        {
          id: id('grid'),
          type: 'Grid',
          props: { gap: 'md', columns: 2 },
          children: [
            {
              id: id('result'),
              type: 'Result',
              props: {
                label: 'Total',
                value: { expr: { derived: 'total' } },
                format: { style: 'decimal', digits: 2 },
              },
            },
            {
              id: id('error'),
              type: 'Error',
              props: { message: { expr: { op: 'if', args: [{ state: 'agree' }, '', 'Not agreed.'] } } },
            },
          ],
        },
        {
          id: id('table'),
          type: 'Table',
          props: {
            columns: [
              { key: 'name', label: 'Name' },
              { key: 'price', label: 'Price' },
              { key: 'stock', label: 'In stock' },
              { key: 'note', label: 'Note' },
            ],
            rows,
          },
        },
        {
          id: id('chart'),
          type: 'Chart',
          props: {
            kind: 'bar',
            label: 'Prices',
            data: [
              { id: 'a', label: 'A', value: { expr: { state: 'count' } } },
              { id: 'b', label: 'B', value: { expr: { derived: 'total' } } },
              { id: 'c', label: 'C', value: 3 },
            ],
          },
        },
        {
          id: id('column'),
          type: 'Column',
          props: { gap: 'sm' },
          children: [
            {
              id: id('form'),
              type: 'Form',
              props: { submitLabel: 'Send', action: { type: 'set', key: 'agree', value: true }, gap: 'sm' },
              children: [
                {
                  id: id('input'),
                  type: 'Input',
                  props: { label: 'Name', bind: 'name', placeholder: 'Your name' },
                },
                {
                  id: id('number'),
                  type: 'NumberInput',
                  props: { label: 'Count', bind: 'count', min: 0, max: 10, step: 1 },
                },
                {
                  id: id('select'),
                  type: 'Select',
                  props: {
                    label: 'Plan',
                    bind: 'plan',
                    options: [
                      { label: 'Basic', value: 'basic' },
                      { label: 'Plus', value: 'plus' },
                    ],
                  },
                },
                {
                  id: id('slider'),
                  type: 'Slider',
                  props: { label: 'Share', bind: 'share', min: 0, max: 1, step: 0.1 },
                },
                { id: id('checkbox'), type: 'Checkbox', props: { label: 'Agree', bind: 'agree' } },
              ],
            },
            {
              id: id('button'),
              type: 'Button',
              props: {
                label: 'More',
                action: {
                  type: 'set',
                  key: 'count',
                  value: { expr: { op: 'min', args: [{ op: 'add', args: [{ state: 'count' }, 1] }, 10] } },
                },
                variant: 'secondary',
              },
            },
          ],
        },
      ],
    });
  }
  return {
    version: '1.0',
    id: 'prepare-sample',
    mode: 'interactive_ui',
    title: 'Sample',
    state: {
      name: { type: 'string', initial: '', maxLength: 64 },
      count: { type: 'number', initial: 2, min: 0, max: 10, step: 1 },
      plan: { type: 'string', initial: 'basic', maxLength: 16 },
      share: { type: 'number', initial: 0.5, min: 0, max: 1, step: 0.1 },
      agree: { type: 'boolean', initial: false },
    },
    derived: {
      total: {
        op: 'round',
        args: [
          {
            op: 'mul',
            args: [
              { state: 'count' },
              { op: 'if', args: [{ op: 'eq', args: [{ state: 'plan' }, 'plus'] }, 12.5, 9.9] },
            ],
          },
          2,
        ],
      },
      many: {
        op: 'and',
        args: [
          { op: 'gte', args: [{ state: 'count' }, 5] },
          { op: 'not', args: [{ state: 'agree' }] },
        ],
      },
      greeting: {
        op: 'concat',
        args: [
          'Hello, ',
          { op: 'if', args: [{ op: 'eq', args: [{ state: 'name' }, ''] }, 'guest', { state: 'name' }] },
          '.',
        ],
      },
      percent: { op: 'round', args: [{ op: 'mul', args: [{ state: 'share' }, 100] }, 0] },
    },
    root: { id: 'root', type: 'Column', props: { gap: 'md' }, children },
  };
}

let checked = false;
/** The render passes, started by the first call that had a DOM; later calls return the same promise. */
let rendering: Promise<void> | undefined;

export interface PrepareRendererOptions {
  /** The locale the host will pass to `IntelligentUIView` (`locale`); the page's own when left out. */
  readonly locale?: string;
}

/**
 * Pays ahead the costs that a page's first document would otherwise pay on its way to the screen, whatever the
 * document: the engine's number formatting data (the first `Intl.NumberFormat` of a page takes about 50 ms in
 * a freshly loaded Chromium page, and a document with a Result or a Chart needs one), the Markdown parser's
 * first run, the first runs of the checks every document goes through (`parseDocument`, the derived values,
 * the language guess) over a sample document of every component type, and the first renders of every component
 * type. Call it once when the page is idle after it loaded, such as in `requestIdleCallback`.
 *
 * The checks run before it returns (50–100 ms the first time on a 2-core machine). The renders then run in
 * tasks of their own right after it (`setTimeout`), one pass each: a one-card sample rendered with React into a
 * root that is never attached to the page, then unmounted; the first pass is the longest (about 25–75 ms), the
 * others 5–15 ms. The promise resolves when they are done; it resolves at once where there is no DOM (a server),
 * and every later call returns the first call's promise. Calling it again costs next to nothing. It shows nothing
 * and changes nothing a document shows; it takes two entries of the Markdown cache.
 */
export function prepareRenderer(options: PrepareRendererOptions = {}): Promise<void> {
  formatResult(0, { style: 'decimal' }, options.locale);
  renderMarkdown(MARKDOWN_SAMPLE, 1);
  if (!checked) {
    checked = true;
    for (let run = 0; run < SAMPLE_RUNS; run++) {
      const document = parseDocument(sampleDocument(SAMPLE_CARDS));
      deriveAll(document, initialState(document));
      guessDocumentLanguage(document);
    }
  }
  if (typeof globalThis.document?.createElement !== 'function') return Promise.resolve();
  rendering ??= renderPasses(options.locale);
  return rendering;
}

/**
 * RENDER_PASSES renders of the one-card sample, each in a task of its own, into a detached root; then the Markdown
 * warm-up (MARKDOWN_WARM_TASKS), which takes no entry of the cache.
 */
async function renderPasses(locale: string | undefined): Promise<void> {
  const container = globalThis.document.createElement('div');
  const root = createRoot(container);
  try {
    for (let pass = 0; pass < RENDER_PASSES; pass++) {
      await nextTask();
      const document = parseDocument(sampleDocument(1));
      // A new key each pass: the whole tree mounts again, as a new document's does.
      flushSync(() =>
        root.render(
          createElement(IntelligentUIView, {
            key: pass,
            document,
            ...(locale === undefined ? {} : { locale }),
          }),
        ),
      );
    }
  } finally {
    root.unmount();
  }
  for (let task = 0; task < MARKDOWN_WARM_TASKS; task++) {
    await backgroundTask();
    renderText(MARKDOWN_WARM_TEXT, 1);
  }
}

/**
 * The next task, through `setTimeout` (input waiting meanwhile goes first). Not `requestIdleCallback`: the
 * passes then ran later, and the first document, 300 ms after the call, gained about half as much (measured).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A task that runs when the page has nothing else to do (`scheduler.postTask`, background), else `nextTask`. */
function backgroundTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { postTask?(task: () => void, options: object): unknown } })
    .scheduler;
  if (typeof scheduler?.postTask !== 'function') return nextTask();
  return new Promise((resolve) => {
    scheduler.postTask?.(resolve, { priority: 'background' });
  });
}
