// The suite in two runs (playwright.config.ts): the `@parallel` attacks on two workers, then everything whose
// outcome depends on the host page's pace alone, on one. Both always run; each writes its own JSON report, and the
// exit status is the worse of the two. Arguments are passed to both runs (a file, `-g`).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const extra = process.argv.slice(2);
rmSync('playwright-report', { recursive: true, force: true });
let status = 0;
for (const [project, workers] of [
  ['parallel', '2'],
  ['hold', '1'],
]) {
  const result = spawnSync(
    'playwright',
    ['test', `--project=${project}`, `--workers=${workers}`, '--pass-with-no-tests', ...extra],
    {
      stdio: 'inherit',
      shell: process.platform === 'win32',
      env: { ...process.env, LINEUP_E2E_REPORT: `playwright-report/${project}.json` },
    },
  );
  status = Math.max(status, result.status ?? 1);
}
process.exit(status);
