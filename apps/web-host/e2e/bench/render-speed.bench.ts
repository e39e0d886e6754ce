/**
 * Render benchmark in Chromium: a maximum-size document (262,144 bytes, 200 components, 66 Markdown blocks) from
 * Deliver to the DOM, against `parseDocument` of the same text measured in the same run. It reports; it does not
 * assert timings (the machine decides them). Run from apps/web-host:
 *
 *   npx playwright test -c e2e/bench/playwright.config.ts
 *
 * "cold" delivers texts the renderer has not seen (no Markdown cached), "warm" delivers the same document again
 * (a reload of a conversation, a second view). `LINEUP_RENDERER_BASELINE=<folder with another version's src/ and
 * styles/>` benchmarks that version instead (the folder must sit inside packages/renderer-react, so its imports
 * resolve), to compare two versions on one machine.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build, defaultClientConditions } from 'vite';
import { SOURCE_CONDITIONS } from '../../../../vitest.shared.ts';
import type { RenderTiming } from './render-speed-page.tsx';

const ENTRY = fileURLToPath(new URL('./render-speed-page.tsx', import.meta.url));
const COLD_RUNS = 5;
const WARM_RUNS = 3;

/** The page bundle (script and stylesheet), built from the workspace sources. */
async function bundle(): Promise<{ script: string; style: string }> {
  const baseline = process.env.LINEUP_RENDERER_BASELINE;
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

test('deliver → DOM of the maximum document, against parseDocument of the same text', async ({ page }) => {
  test.setTimeout(180_000);
  const { script, style } = await bundle();
  await page.setContent('<!doctype html><html lang="en"><head></head><body></body></html>');
  await page.addStyleTag({ content: style });
  await page.addScriptTag({ content: script });

  const cold: RenderTiming[] = [];
  // Run 0 warms the JIT and is not counted; each run renders Markdown texts not seen before.
  for (let variant = 0; variant <= COLD_RUNS; variant++) {
    const timing = await page.evaluate(
      (v) => window.lineupBench.deliver(window.lineupBench.documentText(v)),
      variant,
    );
    if (variant > 0) cold.push(timing);
  }
  const warm: RenderTiming[] = [];
  // The last cold document again: its Markdown is cached now.
  for (let run = 0; run < WARM_RUNS; run++)
    warm.push(
      await page.evaluate((v) => window.lineupBench.deliver(window.lineupBench.documentText(v)), COLD_RUNS),
    );
  const parse = await page.evaluate(() =>
    window.lineupBench.parseTime(window.lineupBench.documentText(1), 15),
  );

  const report = (name: string, timings: RenderTiming[]) => {
    const title = median(timings.map((timing) => timing.title));
    const first = median(timings.map((timing) => timing.firstDom));
    const complete = median(timings.map((timing) => timing.complete));
    const longest = median(timings.map((timing) => timing.longestTask));
    return `${name}: title ${ms(title)}, every component ${ms(first)} (${(first / parse).toFixed(1)}× parse), all Markdown ${ms(complete)} (${(complete / parse).toFixed(1)}× parse), longest task ${ms(longest)}`;
  };
  const lines = [
    `renderer: ${process.env.LINEUP_RENDERER_BASELINE ?? 'this checkout'}`,
    `document: ${cold[0]?.bytes} bytes, 200 components, 66 Markdown blocks`,
    `parseDocument(JSON.parse(text)): ${ms(parse)} (median of 15)`,
    report(`cold (median of ${COLD_RUNS})`, cold),
    report(`warm (median of ${WARM_RUNS})`, warm),
  ];
  console.log(`[render-speed]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: 'render-speed', description: lines.join(' | ') });
  // Not a timing assertion: the runs must have measured something.
  expect(
    cold.every(
      (timing) => timing.complete >= timing.firstDom && timing.firstDom >= timing.title && timing.title > 0,
    ),
  ).toBe(true);
});
