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
import { writeFileSync } from 'node:fs';
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
      minify: false,
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


test('profile', async ({ page }) => {
  test.setTimeout(180_000);
  const { script, style } = await bundle();
  await page.setContent('<!doctype html><html lang="en"><head></head><body></body></html>');
  await page.addStyleTag({ content: style });
  await page.addScriptTag({ content: script });
  for (let v = 0; v < 3; v++) await page.evaluate((v) => window.lineupBench.deliver(window.lineupBench.documentText(v)), v);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let v = 10; v < 16; v++) await page.evaluate((v) => window.lineupBench.deliver(window.lineupBench.documentText(v)), v);
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const self = new Map<string, number>();
  const counts = new Map<number, number>();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  for (const [id, c] of counts) { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`; self.set(k, (self.get(k) ?? 0) + c); }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log('TOTAL', total);
  for (const [k, c] of top) console.log('SELF', (100 * c / total).toFixed(1), k);
  writeFileSync('/tmp/prof.cpuprofile', JSON.stringify(profile));
});
