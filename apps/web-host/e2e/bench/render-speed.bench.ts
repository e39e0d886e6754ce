/**
 * Render benchmark in Chromium: a maximum-size document (262,144 bytes, 200 components, 66 Markdown blocks)
 * delivered on freshly loaded pages, from Deliver until every node, every Markdown block filled in, is in the DOM,
 * against `JSON.parse` + `parseDocument` of the same text measured in the same page; then the same document
 * delivered again in that page, and the components one Slider keystroke renders. It reports; it does not assert
 * timings (the machine decides them). Run from apps/web-host:
 *
 *   npx playwright test -c e2e/bench/playwright.config.ts render-speed
 *
 * Each fresh page (and each prepared one: a fresh page that first ran `prepareRenderer`, as a host does at idle
 * after load, given the document at once or SETTLE_MS later) is a new browser context whose script differs by a
 * comment, so nothing compiled or cached by an earlier page is reused.
 * `LINEUP_RENDERER_BASELINE=<folder with another version's src/ and styles/>` benchmarks that version instead (the folder must sit inside packages/renderer-react, so its imports resolve), to compare
 * two versions on one machine. `LINEUP_RENDERER_COMPARE=<such a folder>` runs a second test instead of the first:
 * the settled delivery only (the document SETTLE_MS after `prepareRenderer`), on LINEUP_RENDERER_PAGES (15) fresh
 * pages of each version, alternating page by page (separate runs of 7 pages cannot tell 25 ms apart on a busy
 * 2-core machine).
 */
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { build, defaultClientConditions } from 'vite';
import { SOURCE_CONDITIONS } from '../../../../vitest.shared.ts';
import { MARKDOWN_BLOCKS } from './max-markdown-document.ts';
import type { RenderCount, RenderTiming } from './render-speed-page.tsx';

const ENTRY = fileURLToPath(new URL('./render-speed-page.tsx', import.meta.url));
/** Freshly loaded pages, each delivering the document once (an odd count, so the median is one of them). */
const FRESH_PAGES = 7;
/** Deliveries of the same document again, in the last fresh page. */
const WARM_RUNS = 3;
const KEYSTROKES = 10;
const PARSE_RUNS = 15;
/**
 * How long after `prepareRenderer` the settled pages get their document: sooner than any host gets one (in the
 * built Web Reference Host an agent's first message arrives about a second after navigation, host-delivery.bench.ts).
 * A document delivered the moment the page's script ran pays costs that are gone a few hundred milliseconds later
 * even with nothing run in between (measured here: about 60 ms of 200; not traced to one cause — V8's background
 * compilation of the code just run is the likeliest).
 */
const SETTLE_MS = 300;

/**
 * A stand-in for React DevTools' global hook, installed before React loads: React then reports every commit,
 * and the page counts the components that rendered (render-speed-page.tsx).
 */
const COMMIT_HOOK = `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject() { return 1; },
  onCommitFiberRoot(_id, root) { window.lineupOnCommit?.(root); },
  onCommitFiberUnmount() {},
  onPostCommitFiberRoot() {},
};`;
/** The page bundle (script and stylesheet), built from the workspace sources. */
async function bundle(
  baseline = process.env.LINEUP_RENDERER_BASELINE,
): Promise<{ script: string; style: string }> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    resolve: {
      conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions],
      alias:
        baseline === undefined
          ? []
          : [
              {
                find: /^@lineup\/renderer-react\/styles\.css$/,
                replacement: `${baseline}/styles/renderer.css`,
              },
              { find: /^@lineup\/renderer-react$/, replacement: `${baseline}/src/index.ts` },
            ],
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry: ENTRY, formats: ['iife'], name: 'renderSpeedPage', cssFileName: 'page' },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const text = (item: (typeof outputs)[number]) => ('code' in item ? item.code : String(item.source));
  const script = outputs.find((item) => item.fileName.endsWith('.js'));
  const style = outputs.find((item) => item.fileName.endsWith('.css'));
  if (script === undefined || style === undefined) throw new Error('The benchmark page did not build.');
  return { script: text(script), style: text(style) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;

/** A page with nothing run in it yet but the bench's script (unique by `label`, so no compiled code is reused). */
async function freshPage(browser: Browser, script: string, style: string, label: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<!doctype html><html lang="en"><head></head><body></body></html>');
  await page.addStyleTag({ content: style });
  await page.addScriptTag({ content: COMMIT_HOOK });
  await page.addScriptTag({ content: `/* ${label} */\n${script}` });
  return page;
}

const COMPARE = process.env.LINEUP_RENDERER_COMPARE;

test('deliver → DOM of the maximum document on fresh pages, against JSON.parse + parseDocument', async ({
  browser,
}) => {
  test.skip(COMPARE !== undefined, 'LINEUP_RENDERER_COMPARE runs the comparison instead');
  test.setTimeout(300_000);
  const { script, style } = await bundle();

  const fresh: { timing: RenderTiming; parse: number }[] = [];
  /** Fresh pages that ran `prepareRenderer` (what a host does at idle after load) before the document came. */
  const prepared: { timing: RenderTiming; parse: number }[] = [];
  /** The same, the document coming SETTLE_MS after `prepareRenderer` (as it does in a host: see SETTLE_MS). */
  const settled: { timing: RenderTiming; parse: number }[] = [];
  const warm: RenderTiming[] = [];
  /** Settled pages: ms from `prepareRenderer` to its render passes done, as the document came (null: not done). */
  const passesDone: (number | null)[] = [];
  const keystrokes: RenderCount[] = [];
  let warmParse = NaN;
  for (let run = 0; run < FRESH_PAGES; run++) {
    const page = await freshPage(browser, script, style, `fresh page ${run}`);
    // Each page its own Markdown texts; the first thing the page does is deliver the document.
    const timing = await page.evaluate(
      (v) => window.lineupBench.deliver(window.lineupBench.documentText(v)),
      run,
    );
    const parse = await page.evaluate(
      ([v, runs]) => window.lineupBench.parseTime(window.lineupBench.documentText(v), runs),
      [run, PARSE_RUNS] as const,
    );
    fresh.push({ timing, parse });
    if (run === FRESH_PAGES - 1) {
      // A second delivery of the same text in the same page (a reload of a conversation, another view).
      for (let again = 0; again < WARM_RUNS; again++)
        warm.push(
          await page.evaluate((v) => window.lineupBench.deliver(window.lineupBench.documentText(v)), run),
        );
      warmParse = parse;
      // One Slider's keystrokes: the components each one renders.
      await page.evaluate((v) => window.lineupBench.mount(window.lineupBench.documentText(v)), run);
      const slider = page.getByRole('slider').first();
      await slider.focus();
      for (let key = 0; key < KEYSTROKES; key++) {
        await page.evaluate(() => window.lineupBench.startCounting());
        await slider.press('ArrowRight');
        // Two frames: the keystroke's render and anything it scheduled have committed.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        keystrokes.push(await page.evaluate(() => window.lineupBench.stopCounting()));
      }
    }
    await page.context().close();

    // The same on other fresh pages, after what the host does when the page is idle (prepareRenderer): the
    // document at once, and SETTLE_MS later.
    for (const [into, wait, label] of [
      [prepared, 0, 'prepared'],
      [settled, SETTLE_MS, 'settled'],
    ] as const) {
      const preparedPage = await freshPage(browser, script, style, `${label} page ${run}`);
      if (await preparedPage.evaluate(() => window.lineupBench.prepare())) {
        const variant = (label === 'prepared' ? 100 : 200) + run;
        await preparedPage.waitForTimeout(wait);
        if (label === 'settled')
          passesDone.push(await preparedPage.evaluate(() => window.lineupBench.preparedAfter()));
        into.push({
          timing: await preparedPage.evaluate(
            (v) => window.lineupBench.deliver(window.lineupBench.documentText(v)),
            variant,
          ),
          parse: await preparedPage.evaluate(
            ([v, runs]) => window.lineupBench.parseTime(window.lineupBench.documentText(v), runs),
            [variant, PARSE_RUNS] as const,
          ),
        });
      }
      await preparedPage.context().close();
    }
  }

  const parse = median(fresh.map((run) => run.parse));
  const firstDom = fresh.map((run) => run.timing.firstDom);
  const complete = fresh.map((run) => run.timing.complete);
  const ratio = median(fresh.map((run) => run.timing.complete / run.parse));
  const warmComplete = median(warm.map((timing) => timing.complete));
  const perKey = (pick: (count: RenderCount) => number) => median(keystrokes.map(pick));
  const lines = [
    `renderer: ${process.env.LINEUP_RENDERER_BASELINE ?? 'this checkout'}`,
    `document: ${fresh[0]?.timing.bytes} bytes, 200 components, ${MARKDOWN_BLOCKS} Markdown blocks`,
    `JSON.parse + parseDocument in the same page: ${ms(parse)} (median of ${PARSE_RUNS} per page, median of pages)`,
    `fresh page (median of ${FRESH_PAGES}): every node, Markdown filled in, ${ms(median(complete))} (${range(complete)}), ${ratio.toFixed(1)}× parse; every component (Markdown maybe pending) ${ms(median(firstDom))}; longest task ${ms(median(fresh.map((run) => run.timing.longestTask)))}`,
    prepared.length === 0
      ? 'fresh page after prepareRenderer: (this renderer has no prepareRenderer)'
      : `fresh page after prepareRenderer (median of ${prepared.length}): every node, Markdown filled in, ${ms(median(prepared.map((run) => run.timing.complete)))} (${range(prepared.map((run) => run.timing.complete))}), ${median(prepared.map((run) => run.timing.complete / run.parse)).toFixed(1)}× parse`,
    settled.length === 0
      ? `fresh page after prepareRenderer, the document ${SETTLE_MS} ms later: (this renderer has no prepareRenderer)`
      : `fresh page after prepareRenderer, the document ${SETTLE_MS} ms later (median of ${settled.length}): every node, Markdown filled in, ${ms(median(settled.map((run) => run.timing.complete)))} (${range(settled.map((run) => run.timing.complete))}), ${median(settled.map((run) => run.timing.complete / run.parse)).toFixed(1)}× parse`,
    passesDone.length === 0 || passesDone.every((done) => done === null)
      ? 'prepareRenderer render passes: (none in this renderer)'
      : `prepareRenderer render passes done ${passesDone.map((done) => (done === null ? 'not yet' : ms(done))).join(', ')} after the call (settled pages, as their document came)`,
    `same document again in that page (median of ${WARM_RUNS}): ${ms(warmComplete)} (${(warmComplete / warmParse).toFixed(1)}× parse)`,
    `Slider keystroke (median of ${KEYSTROKES}): ${perKey((count) => count.components)} component renders in ${perKey((count) => count.commits)} commit(s), ${perKey((count) => count.markdownBlocks)} of ${MARKDOWN_BLOCKS} Markdown blocks (${perKey((count) => count.markdownComponents)} of their components)`,
  ];
  console.log(`[render-speed]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: 'render-speed', description: lines.join(' | ') });
  // Not a timing assertion: the runs must have measured something.
  expect(
    fresh.every(
      ({ timing }) =>
        timing.complete >= timing.firstDom && timing.firstDom >= timing.title && timing.title > 0,
    ),
  ).toBe(true);
  expect(keystrokes.every((count) => count.commits > 0 && count.components > 0)).toBe(true);
});

test('the settled first delivery, this version against LINEUP_RENDERER_COMPARE, page by page', async ({
  browser,
}) => {
  test.skip(COMPARE === undefined, 'set LINEUP_RENDERER_COMPARE to a baseline folder');
  const pages = Number(process.env.LINEUP_RENDERER_PAGES ?? 15);
  test.setTimeout(60_000 + pages * 20_000);
  const versions = [
    { label: 'this checkout', bundle: await bundle(undefined), complete: [] as number[] },
    { label: `baseline ${COMPARE}`, bundle: await bundle(COMPARE), complete: [] as number[] },
  ];
  for (let run = 0; run < pages; run++)
    // Each version goes first in every other pair: a page's place in its pair does not fall on one version.
    for (const version of run % 2 === 0 ? versions : [...versions].reverse()) {
      const page = await freshPage(
        browser,
        version.bundle.script,
        version.bundle.style,
        `${version.label} ${run}`,
      );
      if (await page.evaluate(() => window.lineupBench.prepare())) await page.waitForTimeout(SETTLE_MS);
      const timing = await page.evaluate(
        (v) => window.lineupBench.deliver(window.lineupBench.documentText(v)),
        300 + run,
      );
      version.complete.push(timing.complete);
      await page.context().close();
    }
  const [current, baseline] = versions as [(typeof versions)[0], (typeof versions)[0]];
  const lines = [
    ...versions.map(
      (version) =>
        `${version.label}: every node, Markdown filled in, ${SETTLE_MS} ms after prepareRenderer (median of ${pages}): ${ms(median(version.complete))} (${range(version.complete)})`,
    ),
    `baseline − this, page by page (median of ${pages} pairs): ${ms(median(current.complete.map((value, index) => (baseline.complete[index] ?? Number.NaN) - value)))}`,
  ];
  console.log(`[render-speed compare]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: 'render-speed compare', description: lines.join(' | ') });
  expect(
    versions.every((version) => version.complete.length === pages && version.complete.every((v) => v > 0)),
  ).toBe(true);
});
