#!/usr/bin/env node
// The two quick-start commands of the README, for a fresh machine that has only Node.js 20 and npm:
//
//   npm start   installs the workspace, builds the Web Reference Host and serves it (prints the URL)
//   npm test    installs the workspace (and Debian's Chromium when missing), then runs every check and test
//               and ends with one line "N passed, N failed"
//
// Plain Node (no dependencies) so that it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = rootPackage.packageManager.replace(/^pnpm@/, '');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reportsDir = join(root, '.lineup-test-reports');

// Tools installed in the workspace (turbo, vitest, biome, and pnpm itself, which turbo calls to run tasks).
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
};

const startedAt = Date.now();

function log(message) {
  console.log(`\n[lineup] ${message} (at ${Math.round((Date.now() - startedAt) / 1000)} s)`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function runOrExit(command, args, what) {
  const status = run(command, args);
  if (status !== 0) {
    console.error(`\n[lineup] ${what} failed (exit ${status}).`);
    process.exit(status);
  }
}

function installDependencies() {
  log(`Installing workspace dependencies with pnpm ${pnpmVersion}…`);
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  // npx fetches the pinned pnpm from the npm registry once; after that it comes from npx's cache.
  runOrExit('npx', ['-y', `pnpm@${pnpmVersion}`, 'install', ...frozen], 'pnpm install');
}

/** Debian's Noto CJK fonts, so that Chinese text in screenshots and pages is not drawn as boxes. */
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

function ensureChromium() {
  if (existsSync(chromiumPath) && (existsSync(CJK_FONT) || process.env.CHROMIUM_PATH)) return;
  log(`Chromium or its CJK fonts are missing; installing Debian's chromium and fonts-noto-cjk packages…`);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const [command, ...prefix] = isRoot ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'],
  ]) {
    const result = spawnSync(command, [...prefix, ...args], {
      stdio: 'inherit',
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.error || result.status !== 0) break;
  }
  if (!existsSync(chromiumPath)) {
    console.error(
      `\n[lineup] Could not install Chromium. Install Debian's "chromium" package (apt-get install chromium),` +
        ` or point CHROMIUM_PATH at a Chromium binary, then run npm test again.`,
    );
    process.exit(1);
  }
}

/**
 * A PostgreSQL server for the agent host's store tests (LINEUP_TEST_POSTGRES_URL): one already named is used as it
 * is; otherwise Debian's postgresql package (installed when missing) runs a private, throw-away cluster in the temp
 * folder, on 127.0.0.1 only, port 54329, trust authentication for local connections. Returns its URL and a stop.
 */
function ensurePostgres() {
  if (process.env.LINEUP_TEST_POSTGRES_URL) return { url: process.env.LINEUP_TEST_POSTGRES_URL, stop() {} };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const binaries = () => {
    const base = '/usr/lib/postgresql';
    if (!existsSync(base)) return undefined;
    const version = readdirSync(base)
      .filter((name) => existsSync(join(base, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))[0];
    return version === undefined ? undefined : join(base, version, 'bin');
  };
  if (binaries() === undefined) {
    log("PostgreSQL is missing; installing Debian's postgresql package…");
    const [command, ...prefix] = isRoot ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', 'postgresql'],
    ]) {
      const result = spawnSync(command, [...prefix, ...args], {
        stdio: 'inherit',
        env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      if (result.error || result.status !== 0) break;
    }
  }
  const bin = binaries();
  if (bin === undefined) {
    console.error(
      `\n[lineup] Could not install PostgreSQL. Install Debian's "postgresql" package, or set LINEUP_TEST_POSTGRES_URL` +
        ` to a server the tests may create databases on, then run npm test again.`,
    );
    process.exit(1);
  }
  const port = 54329;
  const dir = join(tmpdir(), 'lineup-test-postgres');
  // initdb and postgres refuse to run as root: the cluster belongs to Debian's postgres user then.
  const as = isRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  const pg = (tool, args, options = {}) => {
    const [command, ...rest] = [...as, join(bin, tool), ...args];
    return spawnSync(command, rest, { stdio: 'inherit', env, ...options });
  };
  if (pg('pg_ctl', ['status', '-D', dir], { stdio: 'ignore' }).status !== 0) {
    log(`Starting a private PostgreSQL server on 127.0.0.1:${port} for the agent host's tests…`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    if (isRoot) spawnSync('chown', ['postgres:postgres', dir]);
    const init = pg('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync'], { stdio: 'ignore' });
    const start = pg('pg_ctl', [
      'start',
      '-w',
      '-D',
      dir,
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off`,
    ]);
    if (init.status !== 0 || start.status !== 0) {
      console.error(`\n[lineup] Could not start PostgreSQL in ${dir} (see ${join(dir, 'server.log')}).`);
      process.exit(1);
    }
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg('pg_ctl', ['stop', '-D', dir, '-m', 'fast'], { stdio: 'ignore' }),
  };
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Counts from the Vitest JSON report; undefined when the run produced no report. */
function unitCounts() {
  const report = readJson(join(reportsDir, 'unit.json'));
  if (!report) return undefined;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests ?? 0,
  };
}

/** "file › test: first line of the error" for each failed Vitest test, so CI's last lines name them. */
function unitFailures() {
  const report = readJson(join(reportsDir, 'unit.json'));
  const failures = [];
  for (const file of report?.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const message = String(test.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failures.push(`${relative(root, file.name)} › ${test.fullName}: ${message}`);
    }
  }
  return failures;
}

/** Terminal colour codes in Playwright's error messages. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The same for each failed or flaky Playwright test of the given workspaces. */
function e2eFailures(workspaces) {
  const failures = [];
  const walk = (workspace, suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'expected' || test.status === 'skipped') continue;
        const error = test.results?.find((result) => result.error)?.error?.message ?? '';
        const message = error.replace(ANSI_COLOUR, '').split('\n')[0].slice(0, 300);
        failures.push(`${workspace}/${spec.file}:${spec.line} › ${spec.title} (${test.status}): ${message}`);
      }
    }
    for (const child of suite.suites ?? []) walk(workspace, child);
  };
  for (const workspace of workspaces)
    for (const report of e2eReports(workspace))
      for (const suite of report.suites ?? []) walk(workspace, suite);
  return failures;
}

/** A workspace's Playwright JSON reports: `playwright-report/*.json` (a suite run in parts writes one per part). */
function e2eReports(workspace) {
  const directory = join(root, workspace, 'playwright-report');
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readJson(join(directory, name)))
    .filter((report) => report !== undefined && report !== null);
}

/** Counts from each workspace's Playwright JSON reports. */
function e2eCounts(workspaces) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const workspace of workspaces) {
    const reports = e2eReports(workspace);
    if (reports.length === 0) return undefined;
    for (const report of reports) {
      total.passed += report.stats.expected;
      total.failed += report.stats.unexpected + report.stats.flaky;
      total.skipped += report.stats.skipped;
    }
  }
  return total;
}

function start() {
  installDependencies();
  log('Building the packages, Pomodoro and the Web Reference Host…');
  runOrExit(
    'turbo',
    ['run', 'build', '--filter=@lineup/web-host...', '--filter=@lineup/pomodoro...'],
    'build',
  );
  const port = process.env.PORT ?? '4173';
  log(`Starting the Web Reference Host at http://127.0.0.1:${port}/ (Ctrl+C stops it)`);
  process.exit(run('pnpm', ['--filter', '@lineup/web-host', 'exec', 'vite', 'preview', '--port', port]));
}

async function test() {
  installDependencies();
  ensureChromium();
  const postgres = ensurePostgres();
  env.LINEUP_TEST_POSTGRES_URL = postgres.url;
  rmSync(reportsDir, { recursive: true, force: true });
  // The Web Reference Host's end-to-end tests, and the hostile-Surface suite of @lineup/surface-host.
  const e2eWorkspaces = ['apps/web-host', 'packages/surface-host'];
  for (const workspace of e2eWorkspaces)
    rmSync(join(root, workspace, 'playwright-report'), { recursive: true, force: true });

  log('Build, typecheck and lint (publint and attw for published packages)…');
  runOrExit('turbo', ['run', 'build', 'typecheck', 'lint'], 'build/typecheck/lint');
  runOrExit('biome', ['check', '.'], 'biome check of the repository');

  // The packed-package check runs beside the unit tests, in two processes (the rows, and the SDK guide with npm
  // and pnpm): most of its time is npm installing from the registry. Their output goes to files, printed whole once
  // they are done.
  log(
    'The packed packages in a fresh app outside the workspace (npm install, typecheck, build) and the SDK guide as written, beside the unit tests…',
  );
  mkdirSync(reportsDir, { recursive: true });
  const packParts = ['--rows-only', '--guide-only'].map((flag) => {
    const file = join(reportsDir, `pack-smoke${flag.replace('--', '.').replace('-only', '')}.log`);
    const out = openSync(file, 'w');
    const child = spawn(process.execPath, [join(root, 'scripts', 'pack-smoke.mjs'), flag], {
      cwd: root,
      env,
      stdio: ['ignore', out, out],
    });
    const done = new Promise((resolve) => {
      child.on('error', () => resolve(1));
      child.on('exit', (code) => resolve(code ?? 1));
    });
    return { file, out, done };
  });
  const packDone = Promise.all(packParts.map((part) => part.done)).then((codes) =>
    codes.every((code) => code === 0) ? 0 : 1,
  );

  log('Unit tests (Vitest, every workspace project)…');
  const unitStatus = run('vitest', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(reportsDir, 'unit.json')}`,
  ]);

  const packStatus = await packDone;
  for (const part of packParts) closeSync(part.out);
  log(`The packed packages in a fresh app: ${packStatus === 0 ? 'passed' : 'failed'}`);
  for (const part of packParts) console.log(readFileSync(part.file, 'utf8'));

  log('End-to-end tests (Playwright in Chromium against the built host)…');
  // --continue: every suite runs and reports, also after another one failed. As in CI (set or not): two workers,
  // no test.only, no traces (LINEUP_E2E_TRACE=1 keeps the failures' traces; see playwright.shared.ts).
  const e2eStatus = run('turbo', ['run', 'test:e2e', '--concurrency=1', '--continue'], {
    env: { ...env, CI: process.env.CI || '1', CHROMIUM_PATH: chromiumPath },
  });

  postgres.stop();
  const unit = unitCounts();
  const e2e = e2eCounts(e2eWorkspaces);
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  console.log('');
  console.log(`[lineup] unit: ${unit ? `${unit.passed} passed, ${unit.failed} failed` : 'no report'}`);
  console.log(`[lineup] e2e:  ${e2e ? `${e2e.passed} passed, ${e2e.failed} failed` : 'no report'}`);
  console.log(`[lineup] packed packages in a fresh app: ${packStatus === 0 ? 'passed' : 'failed'}`);
  for (const failure of [...unitFailures(), ...e2eFailures(e2eWorkspaces)])
    console.log(`[lineup] failed: ${failure}`);
  if (packStatus !== 0) console.log('[lineup] failed: scripts/pack-smoke.mjs (see its output above)');
  console.log(`[lineup] wall time: ${seconds}s`);
  const passed = (unit?.passed ?? 0) + (e2e?.passed ?? 0) + (packStatus === 0 ? 1 : 0);
  // A suite that exited non-zero counts at least one failure, and a missing report counts as one: never zero.
  const unitFailed = unit ? Math.max(unit.failed, unitStatus === 0 ? 0 : 1) : 1;
  const e2eFailed = e2e ? Math.max(e2e.failed, e2eStatus === 0 ? 0 : 1) : 1;
  const failed = unitFailed + e2eFailed + (packStatus === 0 ? 0 : 1);
  const skipped = (unit?.skipped ?? 0) + (e2e?.skipped ?? 0);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}

const command = process.argv[2];
if (command === 'start') start();
else if (command === 'test') await test();
else {
  console.error('usage: node scripts/quickstart.mjs start|test');
  process.exit(2);
}
