#!/usr/bin/env node
// The runtime in Chromium on its real IndexedDB, each figure against a baseline measured in the same run:
//
// 1. End-to-end tool calls per second: `ToolRuntime.receive` of a new `focus.interrupt` call (a MiniApp's
//    `activation_not_required` command whose built-in returns at once) — received, persisted, routed, its final
//    `tool.result` in the outbox — versus one bare `idb` `put` transaction per call (`durability: 'strict'`, as
//    the runtime writes call records). Target: time per call ≤ 2 × the baseline's. The same call with 10 and 50
//    MiniApps installed beside the focus app: a call pays nothing for apps it does not touch — 50 apps ≤ 1.1 ×
//    the time with 1.
// 2. Start-up reconciliation: `new ToolRuntime(db, registry).recover()` and `new OutboxDelivery(db).deliver()`
//    on a freshly opened database holding 100,000 delivered outbox rows and 10,000 finished calls, versus one
//    with no history. Target: ≤ 1.5 × the empty one.
// 3. The IndexedDB transactions one such `receive` starts.
// 4. The consent step on such a call (its risk, `display_only`, runs it without a question): the step's own work
//    per call (`effectivePolicy` on the tool, as the receiving step computes it), against the rest of the
//    pipeline's time per call measured above. Target: ≤ 5 % of it.
//
//   pnpm --filter @lineup/runtime bench        (builds the package, then the benchmark page against dist/)
//
// Reports ratios, never absolute limits: it exits non-zero on errors only, and says whether each target is met.
// BENCH_CALLS, BENCH_ROUNDS, BENCH_STARTUP_ROUNDS, BENCH_OUTBOX_ROWS and BENCH_HISTORY_CALLS change the sizes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build, preview, runnerImport } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const size = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const CALLS = size('BENCH_CALLS', 500);
const ROUNDS = size('BENCH_ROUNDS', 3);
const WARMUP_CALLS = 100;
/** Calls per block of the runtime and of the baseline, and of each diagnostic. */
const BLOCK = 50;
const DIAGNOSTIC_BLOCK = 10;
const STARTUP_ROUNDS = size('BENCH_STARTUP_ROUNDS', 15);
const OUTBOX_ROWS = size('BENCH_OUTBOX_ROWS', 100_000);
const HISTORY_CALLS = size('BENCH_HISTORY_CALLS', 10_000);
/** Rows a previous page left pending, in both start-up databases alike, so that delivery sends something. */
const PENDING_AT_START = 5;
const TARGETS = { calls: 2, installedApps: 1.1, startUp: 1.5, consentShare: 0.05 };
/** Evaluations of the consent step's policy per timed batch. */
const CONSENT_WORK = 10_000;

// The workspace's one home for how Chromium is launched (executable, flags); it is TypeScript, so load it
// through Vite's module runner.
const { module: shared } = await runnerImport(join(here, '..', '..', '..', 'playwright.shared.ts'));
const { CHROMIUM_LAUNCH_OPTIONS } = shared;

const work = await mkdtemp(join(tmpdir(), 'lineup-runtime-bench-'));
const outDir = join(work, 'page');
// A persistent profile on disk: a default (incognito-like) Playwright context keeps IndexedDB in memory, where
// a strict commit costs nothing.
const profile = join(work, 'profile');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 2) => value.toFixed(digits);
const met = (ratio, target) => (ratio <= target ? `met (≤ ${target})` : `NOT met (target ≤ ${target})`);

let server;
let context;
try {
  await build({
    configFile: false,
    root: here,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
    // The package as an outside host uses it: its build.
    resolve: { alias: { '@lineup/runtime': join(here, '..', 'dist', 'index.js') } },
  });
  server = await preview({
    configFile: false,
    root: here,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the benchmark page has no URL');

  context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH_OPTIONS, headless: true });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  const load = async () => {
    await page.goto(url);
    await page.waitForFunction(() => 'bench' in window);
  };
  await load();
  const chromiumVersion = context.browser()?.version() ?? 'unknown';
  console.log(`@lineup/runtime benchmark — Chromium ${chromiumVersion}, IndexedDB on disk (${profile})`);

  // ── 1. Calls per second ─────────────────────────────────────────────────────────────────────────────
  // Each round interleaves the kinds in blocks, alternating which goes first, so that they share whatever
  // else the machine is doing; the diagnostics (intake alone, two strict puts) run smaller blocks.
  const KINDS = ['runtime', 'baseline', 'facts', 'runtime10', 'runtime50', 'intake', 'baseline2'];
  const blockOf = {
    runtime: BLOCK,
    baseline: BLOCK,
    facts: BLOCK,
    runtime10: BLOCK,
    runtime50: BLOCK,
    intake: DIAGNOSTIC_BLOCK,
    baseline2: DIAGNOSTIC_BLOCK,
  };
  const throughput = (kind, prefix, count) =>
    page.evaluate(({ kind, prefix, count }) => window.bench.throughput(kind, prefix, count), {
      kind,
      prefix,
      count,
    });
  for (const kind of KINDS) await throughput(kind, 'warmup', WARMUP_CALLS);
  const perCall = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  const ratios = [];
  const appRatios = { runtime10: [], runtime50: [] };
  const factsRatios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const totals = Object.fromEntries(KINDS.map((kind) => [kind, { ms: 0, calls: 0 }]));
    for (let block = 0; block * BLOCK < CALLS; block++) {
      const order = block % 2 === 0 ? KINDS : [...KINDS].reverse();
      for (const kind of order) {
        const count = Math.min(blockOf[kind], CALLS - block * BLOCK);
        totals[kind].ms += await throughput(kind, `r${round}b${block}`, count);
        totals[kind].calls += count;
      }
    }
    for (const kind of KINDS) perCall[kind].push(totals[kind].ms / totals[kind].calls);
    ratios.push(totals.runtime.ms / totals.baseline.ms);
    for (const kind of Object.keys(appRatios)) appRatios[kind].push(totals[kind].ms / totals.runtime.ms);
    factsRatios.push(totals.facts.ms / totals.baseline.ms);
  }
  const received = WARMUP_CALLS + ROUNDS * CALLS;
  for (const kind of ['runtime', 'runtime10', 'runtime50']) {
    const outbox = await page.evaluate((kind) => window.bench.outboxSummary(kind), kind);
    if (
      outbox.calls !== received ||
      outbox.pendingResults !== received ||
      outbox.pendingProgress !== received
    )
      throw new Error(
        `${kind}: the runtime's stores do not hold one accepted and one result per call: ${JSON.stringify(outbox)}`,
      );
  }

  // ── 4. The consent step's own work ──────────────────────────────────────────────────────────────────
  await page.evaluate((count) => window.bench.consentWork(count), CONSENT_WORK);
  const consentBatches = [];
  for (let round = 0; round < 5; round++)
    consentBatches.push(
      (await page.evaluate((count) => window.bench.consentWork(count), CONSENT_WORK)) / CONSENT_WORK,
    );

  // ── 3. Transactions per call ────────────────────────────────────────────────────────────────────────
  const transactions = await page.evaluate(() => window.bench.transactionsPerReceive('counted_1'));

  // ── 2. Start-up reconciliation ──────────────────────────────────────────────────────────────────────
  const DATABASES = { empty: 'bench-start-empty', history: 'bench-start-history' };
  const writeMs = await page.evaluate(
    async ({ databases, outboxRows, calls }) => [
      await window.bench.createHistory(databases.empty, 0, 0),
      await window.bench.createHistory(databases.history, outboxRows, calls),
    ],
    { databases: DATABASES, outboxRows: OUTBOX_ROWS, calls: HISTORY_CALLS },
  );
  const startUps = { empty: [], history: [] };
  const startRatios = [];
  // One round untimed, then the timed ones; each start-up in a freshly loaded page, alternating which goes first.
  for (let round = -1; round < STARTUP_ROUNDS; round++) {
    await page.evaluate(
      async ({ databases, pending }) => {
        for (const name of Object.values(databases)) await window.bench.addPending(name, pending);
      },
      { databases: DATABASES, pending: PENDING_AT_START },
    );
    const order = round % 2 === 0 ? ['empty', 'history'] : ['history', 'empty'];
    const times = {};
    for (const kind of order) {
      await load();
      const result = await page.evaluate((name) => window.bench.startUp(name), DATABASES[kind]);
      if (result.delivered !== PENDING_AT_START)
        throw new Error(`${kind}: delivered ${result.delivered} rows, not ${PENDING_AT_START}`);
      times[kind] = result;
    }
    if (round < 0) continue;
    for (const kind of order) startUps[kind].push(times[kind]);
    startRatios.push(times.history.reconcileMs / times.empty.reconcileMs);
  }
  if (errors.length > 0) throw errors[0];

  // ── Report ──────────────────────────────────────────────────────────────────────────────────────────
  const ms = Object.fromEntries(KINDS.map((kind) => [kind, median(perCall[kind])]));
  const callsRatio = median(ratios);
  const row = (label, perCallMs, note = '') =>
    `  ${label.padEnd(46)} ${fixed(perCallMs, 3).padStart(8)} ms ${fixed(1000 / perCallMs, 0).padStart(7)} /s  ${note}`;
  console.log(
    `\n1. Tool calls, one after another: median of ${ROUNDS} rounds of ${CALLS} calls each, in interleaved blocks of ${BLOCK} (diagnostics: ${DIAGNOSTIC_BLOCK} a block), after ${WARMUP_CALLS} warm-up calls`,
  );
  console.log(`  ${''.padEnd(46)} ${'per call'.padStart(11)} ${'calls'.padStart(9)}`);
  console.log(row('ToolRuntime.receive (focus.interrupt, to result)', ms.runtime));
  console.log(row('baseline: one bare strict put transaction', ms.baseline));
  console.log(
    row(
      "  the floor of the call's facts (same requests, bare)",
      ms.facts,
      `${fixed(median(factsRatios))} × baseline; the runtime ${fixed(ms.runtime / ms.facts)} × it`,
    ),
  );
  console.log(
    row(
      '  the same call, 10 apps installed',
      ms.runtime10,
      `${fixed(ms.runtime10 / ms.runtime)} × with 1 app`,
    ),
  );
  console.log(
    row(
      '  the same call, 50 apps installed',
      ms.runtime50,
      `${fixed(ms.runtime50 / ms.runtime)} × with 1 app`,
    ),
  );
  console.log(
    row(
      '  (intake alone: ToolCallIntake.receive)',
      ms.intake,
      `${fixed(ms.intake / ms.baseline)} × baseline`,
    ),
  );
  console.log(
    row(
      '  (two bare strict put transactions)',
      ms.baseline2,
      `${fixed(ms.baseline2 / ms.baseline)} × baseline`,
    ),
  );
  console.log(
    `  runtime / baseline, time per call: ${fixed(callsRatio)} × (rounds: ${ratios.map((r) => fixed(r)).join(', ')}) — target ${met(callsRatio, TARGETS.calls)}`,
  );
  // The medians of time per call (each over every round's calls), not the median of the rounds' ratios: a round's
  // ratio moves with the machine far more than the medians do.
  const appsRatio = ms.runtime50 / ms.runtime;
  console.log(
    `  50 apps / 1 app installed, median time per call: ${fixed(appsRatio)} × (rounds: ${appRatios.runtime50.map((r) => fixed(r)).join(', ')}) — target ${met(appsRatio, TARGETS.installedApps)}`,
  );

  const consentMs = median(consentBatches);
  const consentShare = consentMs / (ms.runtime - consentMs);
  console.log(
    `\n4. The consent step on a display_only call: ${fixed(consentMs * 1000, 2)} µs per call (median of 5 batches of ${CONSENT_WORK}), ${fixed(consentShare * 100, 3)} % of the rest of the pipeline's ${fixed(ms.runtime - consentMs, 3)} ms — target ${consentShare <= TARGETS.consentShare ? 'met' : 'NOT met'} (≤ ${TARGETS.consentShare * 100} %)`,
  );

  console.log('\n3. IndexedDB transactions per receive of a new focus.interrupt call');
  console.log(`  ${transactions.count} transactions, ${transactions.strict} of them strict:`);
  for (const started of transactions.started) console.log(`    ${started}`);
  console.log(`  ${transactions.requests.length} requests: ${transactions.requests.join(', ')}`);

  const startMedian = (kind, field) => median(startUps[kind].map((result) => result[field]));
  const FIELDS = { open: 'openMs', reconcile: 'reconcileMs', recover: 'recoverMs', deliver: 'deliverMs' };
  const start = Object.fromEntries(
    ['empty', 'history'].map((kind) => [
      kind,
      Object.fromEntries(Object.entries(FIELDS).map(([name, field]) => [name, startMedian(kind, field)])),
    ]),
  );
  const startRatio = median(startRatios);
  const history = startUps.history[0];
  console.log(
    `\n2. Start-up: median of ${STARTUP_ROUNDS} page loads each (after one untimed), ${PENDING_AT_START} pending outbox rows each time`,
  );
  const columns = (cells) => cells.map((cell) => cell.padStart(12)).join('');
  console.log(`  ${''.padEnd(46)}${columns(['open', 'recover', 'deliver', 'both'])}`);
  const startRow = (label, times) =>
    console.log(
      `  ${label.padEnd(46)}${columns([times.open, times.recover, times.deliver, times.reconcile].map((t) => `${fixed(t)} ms`))}`,
    );
  startRow('no history', start.empty);
  startRow(`history: ${history.outbox} outbox rows, ${history.toolCalls} calls`, start.history);
  console.log(
    `  history / none, recover + deliver: ${fixed(startRatio)} × (rounds: ${startRatios.map((r) => fixed(r)).join(', ')}) — target ${met(startRatio, TARGETS.startUp)}`,
  );
  console.log(`  (writing the history took ${fixed(writeMs[1] / 1000, 1)} s)`);

  const figures = {
    chromium: chromiumVersion,
    calls: {
      n: CALLS,
      rounds: ROUNDS,
      runtimeMsPerCall: ms.runtime,
      baselineMsPerCall: ms.baseline,
      runtimeCallsPerSecond: 1000 / ms.runtime,
      baselineCallsPerSecond: 1000 / ms.baseline,
      intakeMsPerCall: ms.intake,
      twoStrictPutsMsPerCall: ms.baseline2,
      ratio: callsRatio,
      target: TARGETS.calls,
      met: callsRatio <= TARGETS.calls,
      factsFloorMsPerCall: ms.facts,
      factsFloorRatio: median(factsRatios),
      runtimeToFactsFloor: ms.runtime / ms.facts,
      roundRatios: ratios,
      tenAppsMsPerCall: ms.runtime10,
      fiftyAppsMsPerCall: ms.runtime50,
      fiftyAppsRatio: appsRatio,
      fiftyAppsTarget: TARGETS.installedApps,
      fiftyAppsMet: appsRatio <= TARGETS.installedApps,
    },
    startUp: {
      outboxRows: history.outbox,
      toolCalls: history.toolCalls,
      rounds: STARTUP_ROUNDS,
      emptyMs: start.empty.reconcile,
      historyMs: start.history.reconcile,
      emptyRecoverMs: start.empty.recover,
      historyRecoverMs: start.history.recover,
      emptyOpenMs: start.empty.open,
      historyOpenMs: start.history.open,
      ratio: startRatio,
      target: TARGETS.startUp,
      met: startRatio <= TARGETS.startUp,
    },
    transactionsPerReceive: {
      total: transactions.count,
      strict: transactions.strict,
      requests: transactions.requests.length,
    },
    consent: {
      stepMsPerCall: consentMs,
      share: consentShare,
      target: TARGETS.consentShare,
      met: consentShare <= TARGETS.consentShare,
    },
  };
  console.log(`\n${JSON.stringify(figures)}`);
} finally {
  await context?.close();
  if (server) await new Promise((resolve) => server.httpServer.close(resolve));
  await rm(work, { recursive: true, force: true });
}
