#!/usr/bin/env node
// The control that proves the consent suite can fail: it builds the host with the runtime's consent step switched
// off (e2e/controls/consent-steps-off.ts in place of packages/runtime/src/consent/consent-steps.ts, in a folder of
// its own), runs e2e/consent.spec.ts against that build, and succeeds only if the suite fails there.
//
//   pnpm --filter @lineup/web-host control:consent      (after `pnpm build`)
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(app, 'dist-consent-off');
const stub = join(app, 'e2e', 'controls', 'consent-steps-off.ts');

await rm(outDir, { recursive: true, force: true });
await build({
  root: app,
  configFile: join(app, 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
  plugins: [
    {
      name: 'consent-step-off',
      enforce: 'pre',
      resolveId(source, importer) {
        if (importer?.includes('/execution/tool-runtime') && source.endsWith('/consent/consent-steps.js'))
          return stub;
        return null;
      },
    },
  ],
});
const report = join(app, 'playwright-report', 'consent-off.json');
const run = spawnSync('npx', ['playwright', 'test', 'e2e/consent.spec.ts', '--reporter=json'], {
  cwd: app,
  env: { ...process.env, CI: '1', LINEUP_E2E_OUT_DIR: outDir, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const results = JSON.parse(await readFile(report, 'utf8'));
const { expected = 0, unexpected = 0 } = results.stats ?? {};
await rm(outDir, { recursive: true, force: true });
console.log(
  `Consent suite with the consent step switched off: ${unexpected} of ${expected + unexpected} tests failed (exit ${run.status}).`,
);
if (unexpected === 0) {
  console.error('The control passed: the consent suite cannot tell a host without consent from one with it.');
  process.exit(1);
}
