#!/usr/bin/env node
// Containment must not make Surfaces slower: the median time from mounting a Surface to its first event
// reaching the host, contained (`mountSurface`) versus a bare `<iframe sandbox="allow-scripts" srcdoc>` under
// the seed's CSP, paired in one browser and alternating which goes first. Targets: a frame loaded ahead ≤ 0.1 ×
// the bare frame, a frame loaded for the Surface ≤ 1.2 ×.
//
//   pnpm --filter @lineup/surface-host bench        (builds the package's harness page first)
//   BENCH_MODES=cold BENCH_ROUNDS=20 pnpm bench      (some of the modes below; fewer rounds)
//
// Three ways a Surface opens:
//   warm — in the spare frame the host keeps loaded (`prepareSurfaceFrame`), once it has loaded;
//   pool — POOL_FRAMES Surfaces at once, each in a spare of a pool of as many, against as many bare frames at
//          once (the time until the last first event);
//   cold — in a frame loaded for it (`?cold`: as in a browser without `Element.moveBefore`).
// The host waits on a promise for each first event (no timers in the measured path), and each Surface opens in
// the same place, in view (a frame out of view is throttled by Chromium).
//
// Uses the e2e harness (e2e/harness) built against dist/, and Debian's Chromium (CHROMIUM_PATH).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { launchChromium } from './chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const config = join(here, '..', 'e2e', 'vite.config.ts');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const POOL_ROUNDS = Math.ceil(ROUNDS / 2);
const WARMUP = 5;
const POOL_FRAMES = 4;
/** A host's Surfaces open seconds apart, not back to back: the spent spare is replaced in the meantime. */
const PAUSE_MS = 300;

/** `BENCH_MODES=warm,cold` runs only those (default: all three). */
const selected = process.env.BENCH_MODES?.split(',') ?? ['warm', 'pool', 'cold'];
for (const mode of selected)
  if (!['warm', 'pool', 'cold'].includes(mode))
    throw new Error(`BENCH_MODES: no mode "${mode}" (warm, pool, cold)`);

await build({ configFile: config });
const server = await preview({ configFile: config, preview: { port: 0, strictPort: false } });
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error('the harness server has no URL');

const browser = await launchChromium();
const page = await browser.newPage();

const BUNDLE = {
  html: '<main><h1>hello</h1></main>',
  css: 'main { padding: 8px }',
  js: "LineUpSurface.event('hello', {});",
};

/**
 * Opens `count` Surfaces at once (contained or bare), waits for every first event, removes them; returns the
 * delay to the last first event (ms) and whether every contained one got a frame loaded ahead.
 */
async function open(kind, ids) {
  return page.evaluate(
    async ({ kind, ids, bundle }) => {
      const harness = window.harness;
      for (const id of ids) {
        if (kind === 'contained') harness.mount(id, bundle);
        else harness.mountControl(id, bundle, 'seed');
      }
      const timeout = new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no first event from ${kind}`)), 10_000),
      );
      const delays = await Promise.race([Promise.all(ids.map((id) => harness.whenFirstEvent(id))), timeout]);
      const warm = ids.every((id) => harness.wasWarm(id));
      for (const id of ids) harness.discard(id);
      return { delay: Math.max(...delays), warm };
    },
    { kind, ids, bundle: BUNDLE },
  );
}

/** Waits (outside the measurement) until `count` spare frames have loaded. */
const sparesLoaded = (count) =>
  page.waitForFunction((count) => window.harness.sparesReady() >= count, count, { timeout: 10_000 });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const MODES = {
  warm: { query: '', rounds: ROUNDS, surfaces: 1, spares: 1 },
  pool: { query: `?frames=${POOL_FRAMES}`, rounds: POOL_ROUNDS, surfaces: POOL_FRAMES, spares: POOL_FRAMES },
  cold: { query: '?cold', rounds: ROUNDS, surfaces: 1, spares: 0 },
};

/** Paired rounds in a fresh page. */
async function measure(mode) {
  const { query, rounds, surfaces, spares } = MODES[mode];
  await page.goto(`${url}${query}`);
  await page.waitForFunction(() => 'harness' in window);
  const samples = { contained: [], bare: [] };
  let cold = 0;
  for (let round = 0; round < rounds + WARMUP; round++) {
    const order = round % 2 === 0 ? ['contained', 'bare'] : ['bare', 'contained'];
    for (const kind of order) {
      // Both start with the pool loaded: the browser's process for sandboxed frames is then running for either.
      if (spares > 0) await sparesLoaded(spares);
      const ids = Array.from({ length: surfaces }, (_, index) => `${kind}-${round}-${index}`);
      const { delay, warm } = await open(kind, ids);
      if (round < WARMUP) continue;
      samples[kind].push(delay);
      if (kind === 'contained' && spares > 0 && !warm) cold++;
    }
    await page.waitForTimeout(PAUSE_MS);
  }
  return { contained: median(samples.contained), bare: median(samples.bare), cold, rounds };
}

console.log('open → first event, median of paired rounds (targets: warm ≤ 0.1 × bare, cold ≤ 1.2 × bare):');
for (const mode of selected) {
  const { contained, bare, cold, rounds } = await measure(mode);
  const what = mode === 'pool' ? `${POOL_FRAMES} at once, until the last` : 'one';
  const missed = MODES[mode].spares > 0 ? `; ${cold} of ${rounds} found a frame still loading` : '';
  console.log(
    `  ${mode} (${what}, ${rounds} rounds): bare sandboxed srcdoc ${bare.toFixed(2)} ms, contained ${contained.toFixed(2)} ms, ratio ${(contained / bare).toFixed(3)}${missed}`,
  );
}
await browser.close();
await new Promise((resolve) => server.httpServer.close(resolve));
