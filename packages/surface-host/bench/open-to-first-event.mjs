#!/usr/bin/env node
// Containment must not make Surfaces slower: the median time from mounting a Surface to its first event
// reaching the host, contained (`mountSurface`) versus a bare `<iframe sandbox="allow-scripts" srcdoc>` under
// the seed's CSP, paired in one browser and alternating which goes first. Target: ratio ≤ 1.2.
//
//   pnpm --filter @lineup/surface-host bench        (builds the package's harness page first)
//
// Uses the e2e harness (e2e/harness) built against dist/, and Debian's Chromium (CHROMIUM_PATH).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build, preview } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const config = join(here, '..', 'e2e', 'vite.config.ts');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = 5;

await build({ configFile: config });
const server = await preview({ configFile: config, preview: { port: 0, strictPort: false } });
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error('the harness server has no URL');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
  ],
});
const page = await browser.newPage();

const BUNDLE = {
  html: '<main><h1>hello</h1></main>',
  css: 'main { padding: 8px }',
  js: "LineUpSurface.event('hello', {});",
};

/** Mounts one Surface (contained or bare), waits for its first event, removes it; returns the delay in ms. */
async function once(kind, id) {
  return page.evaluate(
    async ({ kind, id, bundle }) => {
      const harness = window.harness;
      if (kind === 'contained') harness.mount(id, bundle);
      else harness.mountControl(id, bundle, 'seed');
      const started = performance.now();
      while (harness.firstEventDelay(id) === null) {
        if (performance.now() - started > 10_000) throw new Error(`no first event from ${kind}`);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const delay = harness.firstEventDelay(id);
      harness.close(id);
      return delay;
    },
    { kind, id, bundle: BUNDLE },
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Paired rounds in a fresh page: `warm` lets `mountSurface` use the spare frame it keeps loaded (what a host
 * gets from the second Surface on, or from the first after `prepareSurfaceFrame`); `cold` loads a frame per
 * mount (`?cold`).
 */
async function measure(mode) {
  await page.goto(mode === 'cold' ? `${url}?cold` : url);
  await page.waitForFunction(() => 'harness' in window);
  const samples = { contained: [], bare: [] };
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    const order = round % 2 === 0 ? ['contained', 'bare'] : ['bare', 'contained'];
    for (const kind of order) {
      const delay = await once(kind, `${kind}-${round}`);
      if (round >= WARMUP) samples[kind].push(delay);
    }
    // A host's Surfaces open seconds apart, not back to back: give the spare frame its idle time.
    await page.waitForTimeout(100);
  }
  return { contained: median(samples.contained), bare: median(samples.bare) };
}

console.log(`open → first event, median of ${ROUNDS} paired rounds (target: contained ≤ 1.2 × bare):`);
for (const mode of ['warm', 'cold']) {
  const { contained, bare } = await measure(mode);
  console.log(
    `  ${mode}: bare sandboxed srcdoc ${bare.toFixed(2)} ms, contained ${contained.toFixed(2)} ms, ratio ${(contained / bare).toFixed(3)}`,
  );
}
await browser.close();
await new Promise((resolve) => server.httpServer.close(resolve));
