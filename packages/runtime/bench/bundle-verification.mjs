#!/usr/bin/env node
// MiniApp bundle verification and install with the built package in Chromium, on its real WebCrypto and IndexedDB
// (a profile on disk), each figure against a baseline measured in the same run:
//
// 1. Verification of a 160 KiB bundle (an HTML page, a 140 KiB script, a 16 KiB stylesheet) against its manifest:
//    `verifyBundleFiles` of the bytes in memory, versus a bare `crypto.subtle.digest('SHA-256')` of each file.
//    Target (issue 12): ≤ 2 ms median. Also `AppRegistry.verifyInstalled` of the same bundle once installed (the
//    check before every mount: the kept files read back from IndexedDB and digested), versus the same records read
//    in one plain transaction and digested.
// 2. Install of a 1 MiB bundle (six files) end to end: `installBundle(url)` into a fresh database until committed,
//    versus plain `fetch` + `arrayBuffer()` of the manifest and the same files and one plain IndexedDB transaction
//    storing them (no checks). For diagnosis also `fetchVerifiedBundle(url)` alone (the requests and the checks).
//
//   pnpm --filter @lineup/runtime bench:bundle   (builds the package, then bench/bundle-page/ against dist/)
//
// The bundles are generated here (seeded, so every run serves the same bytes), listed in a manifest made with the
// shared helpers, and served by the page's own server with `Cache-Control: no-store`. The page is cross-origin
// isolated so that `performance.now()` has its fine resolution (5 µs instead of 100 µs).
//
// Reports medians and ratios; it exits non-zero on errors only, and says whether the target is met.
// BENCH_VERIFY_ITERATIONS and BENCH_INSTALL_RUNS change the sizes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUNDLE_LIMITS,
  bundleIntegrity,
  fileIntegrity,
  MINIAPP_MANIFEST_FILE_NAME,
  parseMiniAppManifest,
} from '@lineup/shared/protocol';
import { chromium } from '@playwright/test';
import { build, preview, runnerImport } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, 'bundle-page');
const size = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const VERIFY_ITERATIONS = size('BENCH_VERIFY_ITERATIONS', 200);
const VERIFY_WARMUP = 20;
const INSTALL_RUNS = size('BENCH_INSTALL_RUNS', 15);
const INSTALL_WARMUP = 2;
const TARGETS = { verifyMs: 2 };
const KIB = 1024;

// ── The bundles ───────────────────────────────────────────────────────────────────────────────────────

/** A seeded generator (mulberry32): the same bundle bytes on every run. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'focus session timer label minutes break round total state value items render update count index start stop ' +
  'pause resume reset notify title status level score player queue cache store entry field option panel'
).split(' ');

/** Text like a build's output (`kind`: js, css or html), ASCII, cut to exactly `bytes` bytes. */
function sourceText(kind, bytes, next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const name = () => `${pick(WORDS)}${Math.floor(next() * 4096).toString(36)}`;
  const number = () => (next() * 1000).toFixed(Math.floor(next() * 3));
  const color = () =>
    `#${Math.floor(next() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`;
  const chunk = {
    js: () =>
      `function ${name()}(${name()},${name()}){const ${name()}=${name()}.map((e)=>e*${number()}+${name()});` +
      `if(${name()}.length>${Math.floor(next() * 64)})return "${pick(WORDS)} ${pick(WORDS)}";` +
      `return ${name()}.filter((e)=>e.${pick(WORDS)}!==${number()})}\n`,
    css: () =>
      `.lu-${name()}{display:${pick(['flex', 'grid', 'block'])};padding:${number()}px ${number()}px;` +
      `color:${color()};background:${color()};border-radius:${Math.floor(next() * 16)}px}\n`,
    html: () => `<p class="lu-${name()}">${Array.from({ length: 12 }, () => pick(WORDS)).join(' ')}</p>\n`,
  }[kind];
  let text =
    kind === 'html' ? '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>\n' : '';
  while (text.length < bytes) text += chunk();
  return new TextEncoder().encode(text.slice(0, bytes));
}

/** Bytes that do not compress, as an image's would not. */
function binary(bytes, next) {
  return Uint8Array.from({ length: bytes }, () => Math.floor(next() * 256));
}

/** A bundle of `files` (path → [kind, bytes]) and its manifest, made and checked with the shared helpers. */
function makeBundle(id, appScope, seed, files) {
  const next = random(seed);
  const bytes = new Map(
    Object.entries(files).map(([path, [kind, length]]) => [
      path,
      kind === 'binary' ? binary(length, next) : sourceText(kind, length, next),
    ]),
  );
  const listed = [...bytes].map(([path, data]) => ({
    path,
    size: data.length,
    integrity: fileIntegrity(data),
  }));
  const total = listed.reduce((sum, file) => sum + file.size, 0);
  if (total > BUNDLE_LIMITS.maxBundleBytes) throw new Error(`${id} is larger than a bundle may be`);
  const manifest = parseMiniAppManifest({
    manifest_version: 1,
    id,
    name: `Bench ${appScope}`,
    version: '1.0.0',
    integrity: bundleIntegrity(listed),
    files: listed,
    app_scope: appScope,
    entry: 'index.html',
    surfaces: [],
    permissions: [],
    tools: [],
  });
  const served = new Map(bytes);
  served.set(MINIAPP_MANIFEST_FILE_NAME, new TextEncoder().encode(JSON.stringify(manifest)));
  return { manifest, served, total };
}

const BUNDLES = {
  // 160 KiB: seed 000's budget for an inline Surface.
  verify: makeBundle('com.example.bench.verify', 'benchverify', 1, {
    'index.html': ['html', 4 * KIB],
    'assets/index.js': ['js', 140 * KIB],
    'assets/index.css': ['css', 16 * KIB],
  }),
  // 1 MiB: an installed app with a vendor chunk, a worker and an image.
  install: makeBundle('com.example.bench.install', 'benchinstall', 2, {
    'index.html': ['html', 4 * KIB],
    'assets/index.js': ['js', 448 * KIB],
    'assets/vendor.js': ['js', 320 * KIB],
    'assets/worker.js': ['js', 60 * KIB],
    'assets/index.css': ['css', 64 * KIB],
    'assets/hero.webp': ['binary', 128 * KIB],
  }),
};
if (BUNDLES.verify.total !== 160 * KIB || BUNDLES.install.total !== 1024 * KIB)
  throw new Error('the bundles do not have their intended sizes');

const CONTENT_TYPES = { html: 'text/html', js: 'text/javascript', css: 'text/css', json: 'application/json' };

/** Serves `/bundles/<name>/<path>` from memory, uncached, before Vite's static files. */
const serveBundles = {
  name: 'lineup-bench-bundles',
  configurePreviewServer(server) {
    server.middlewares.use((request, response, next) => {
      const match = /^\/bundles\/([a-z]+)\/([^?#]+)/.exec(request.url ?? '');
      if (match === null) return next();
      const data = BUNDLES[match[1]]?.served.get(match[2]);
      if (data === undefined) {
        response.statusCode = 404;
        return response.end('not found');
      }
      response.setHeader(
        'Content-Type',
        CONTENT_TYPES[match[2].split('.').pop()] ?? 'application/octet-stream',
      );
      response.setHeader('Content-Length', data.length);
      response.setHeader('Cache-Control', 'no-store');
      response.end(data);
    });
  },
};

// ── Figures ───────────────────────────────────────────────────────────────────────────────────────────

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 2) => value.toFixed(digits);
/** Paired ratios: `a[i] / b[i]` for every run both measured. */
const ratios = (a, b) => a.map((value, index) => value / b[index]);

// The workspace's one home for how Chromium is launched (executable, flags); it is TypeScript, so load it
// through Vite's module runner.
const { module: shared } = await runnerImport(join(here, '..', '..', '..', 'playwright.shared.ts'));
const { CHROMIUM_LAUNCH_OPTIONS } = shared;

const work = await mkdtemp(join(tmpdir(), 'lineup-bundle-bench-'));
const outDir = join(work, 'page');
// A persistent profile on disk: a default (incognito-like) Playwright context keeps IndexedDB in memory.
const profile = join(work, 'profile');

let server;
let context;
try {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
    // The package as an outside host uses it: its build.
    resolve: { alias: { '@lineup/runtime': join(here, '..', 'dist', 'index.js') } },
  });
  server = await preview({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [serveBundles],
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      // Cross-origin isolation: `performance.now()` at 5 µs rather than 100 µs.
      headers: {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      },
    },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the benchmark page has no URL');
  const bundleUrl = (name) => new URL(`bundles/${name}/`, url).href;

  context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH_OPTIONS, headless: true });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(url);
  await page.waitForFunction(() => 'bundleBench' in window);
  const chromiumVersion = context.browser()?.version() ?? 'unknown';

  // ── 1. Verification ─────────────────────────────────────────────────────────────────────────────────
  const prepared = await page.evaluate(
    (href) => window.bundleBench.prepareVerification(href),
    bundleUrl('verify'),
  );
  const verify = await page.evaluate(
    ({ iterations, warmup }) => window.bundleBench.verifyRounds(iterations, warmup),
    { iterations: VERIFY_ITERATIONS, warmup: VERIFY_WARMUP },
  );

  // ── 2. Install ──────────────────────────────────────────────────────────────────────────────────────
  const INSTALL_KINDS = ['installBundle', 'plain', 'fetchVerified'];
  const installs = Object.fromEntries(INSTALL_KINDS.map((kind) => [kind, []]));
  const plainFetches = [];
  const fileCount = BUNDLES.install.manifest.files.length;
  for (let run = -INSTALL_WARMUP; run < INSTALL_RUNS; run++) {
    const shift = (run + INSTALL_WARMUP) % INSTALL_KINDS.length;
    for (const kind of [...INSTALL_KINDS.slice(shift), ...INSTALL_KINDS.slice(0, shift)]) {
      const result = await page.evaluate(
        ({ kind, href, name }) => window.bundleBench.install(kind, href, name),
        { kind, href: bundleUrl('install'), name: `bench-install-${kind}-${run}` },
      );
      if (result.kept !== fileCount) throw new Error(`${kind} kept ${result.kept} files, not ${fileCount}`);
      if (run < 0) continue;
      installs[kind].push(result.ms);
      if (result.fetchMs !== undefined) plainFetches.push(result.fetchMs);
    }
  }
  if (errors.length > 0) throw errors[0];

  // ── Report ──────────────────────────────────────────────────────────────────────────────────────────
  const v = Object.fromEntries(Object.entries(verify).map(([kind, times]) => [kind, median(times)]));
  const verifyRatio = median(ratios(verify.verifyBundleFiles, verify.digest));
  const installedRatio = median(ratios(verify.verifyInstalled, verify.readAndDigest));
  const i = Object.fromEntries(Object.entries(installs).map(([kind, times]) => [kind, median(times)]));
  const installRatios = ratios(installs.installBundle, installs.plain);
  const installRatio = median(installRatios);
  const plainFetchMs = median(plainFetches);
  const row = (label, ms) => `  ${label.padEnd(66)} ${fixed(ms, 3).padStart(9)} ms`;

  console.log(
    `@lineup/runtime bundle benchmark — Chromium ${chromiumVersion}, IndexedDB on disk, ` +
      `crossOriginIsolated: ${prepared.crossOriginIsolated}`,
  );
  console.log(
    `\n1. Verifying a ${BUNDLES.verify.total / KIB} KiB bundle (${prepared.files.map((f) => `${f.path} ${f.bytes} B`).join(', ')}): ` +
      `median of ${VERIFY_ITERATIONS} iterations each, the kinds rotating, after ${VERIFY_WARMUP} untimed`,
  );
  console.log(row('verifyBundleFiles (bytes in memory → manifest)', v.verifyBundleFiles));
  console.log(row("baseline: crypto.subtle.digest('SHA-256') of each file", v.digest));
  console.log(row('verifyInstalled (kept files read from IndexedDB, digested)', v.verifyInstalled));
  console.log(row('baseline: same records in one readonly transaction, digested', v.readAndDigest));
  console.log(
    `  verifyBundleFiles: ${fixed(v.verifyBundleFiles, 3)} ms median — target ≤ ${TARGETS.verifyMs} ms ` +
      `${v.verifyBundleFiles <= TARGETS.verifyMs ? 'met' : 'NOT met'}; ${fixed(verifyRatio)} × the bare digest (paired median)`,
  );
  console.log(
    `  verifyInstalled: ${fixed(v.verifyInstalled, 3)} ms median, ${fixed(installedRatio)} × one plain read + digest (paired median)`,
  );

  console.log(
    `\n2. Installing a ${BUNDLES.install.total / KIB} KiB bundle of ${fileCount} files end to end: median of ` +
      `${INSTALL_RUNS} runs, each into a fresh database, the kinds rotating, after ${INSTALL_WARMUP} untimed`,
  );
  console.log(row('installBundle(url), to committed', i.installBundle));
  console.log(row('baseline: plain fetch + arrayBuffer(), one plain transaction', i.plain));
  console.log(row('  (of which the plain fetches)', plainFetchMs));
  console.log(row('  (fetchVerifiedBundle(url) alone: requests + checks, none kept)', i.fetchVerified));
  console.log(
    `  installBundle / baseline: ${fixed(installRatio)} × (paired median; runs ${installRatios.map((r) => fixed(r)).join(', ')})`,
  );

  const figures = {
    chromium: chromiumVersion,
    crossOriginIsolated: prepared.crossOriginIsolated,
    verify: {
      bytes: BUNDLES.verify.total,
      iterations: VERIFY_ITERATIONS,
      verifyBundleFilesMs: v.verifyBundleFiles,
      digestMs: v.digest,
      ratio: verifyRatio,
      targetMs: TARGETS.verifyMs,
      met: v.verifyBundleFiles <= TARGETS.verifyMs,
      verifyInstalledMs: v.verifyInstalled,
      readAndDigestMs: v.readAndDigest,
      installedRatio,
    },
    install: {
      bytes: BUNDLES.install.total,
      files: fileCount,
      runs: INSTALL_RUNS,
      installBundleMs: i.installBundle,
      plainMs: i.plain,
      plainFetchMs,
      fetchVerifiedMs: i.fetchVerified,
      ratio: installRatio,
    },
  };
  console.log(`\n${JSON.stringify(figures)}`);
} finally {
  await context?.close();
  if (server) await new Promise((resolve) => server.httpServer.close(resolve));
  await rm(work, { recursive: true, force: true });
}
