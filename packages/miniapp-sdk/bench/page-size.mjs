// What a MiniApp page pays for the SDK beyond its own zod schemas (issue 45: at most 4 KiB gzip). It builds the two
// pages of the size-budget test (test/size/: `sdk.html` declares its tools and starts the client, with the
// `lineupMiniApp` plugin; `schemas.html` only builds and uses the same zod schemas) with Vite, as an app builds
// them, and compares the gzip sizes of their one script each. The plugin and the SDK come from their TypeScript
// sources (no build needed), as in the test:
//   pnpm --filter @lineup/miniapp-sdk bench:size      or      node packages/miniapp-sdk/bench/page-size.mjs
// It prints the figures and whether the target is met; it exits non-zero only when a build fails.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions, runnerImport, version } from 'vite';

/** The target of issue 45, gzip bytes (the test suite holds a budget above it against growth: test/size-budget.test.ts). */
const TARGET_BYTES = 4 * 1024;
/** Workspace packages resolve to their TypeScript sources through this condition (vitest.shared.ts). */
const SOURCE = '@lineup/source';

const sdk = fileURLToPath(new URL('..', import.meta.url));

// The build of the two pages, shared with the test, from its TypeScript source through Vite's module runner (Node alone
// does not run TypeScript).
const { module: sizes } = await runnerImport(join(sdk, 'test/size/page-bytes.ts'), {
  configFile: false,
  logLevel: 'silent',
  resolve: { conditions: [SOURCE, ...defaultServerConditions] },
});
const { pageBytes } = sizes;

const out = await mkdtemp(join(tmpdir(), 'lineup-page-size-'));
try {
  const withSdk = await pageBytes('sdk', join(out, 'sdk'));
  const schemasOnly = await pageBytes('schemas', join(out, 'schemas'));
  const cost = withSdk.gzip - schemasOnly.gzip;
  const number = (value) => value.toLocaleString('en-US');
  const width = Math.max(number(withSdk.gzip).length, number(schemasOnly.gzip).length);
  const line = (label, value, note) =>
    console.log(`  ${label.padEnd(18)} ${number(value).padStart(width)} B ${note}`);
  console.log(`MiniApp page size (Vite ${version} production build, gzip -9 of the page's one script)`);
  line('SDK page', withSdk.gzip, `gzip (${number(withSdk.raw)} B minified)`);
  line('schemas-only page', schemasOnly.gzip, `gzip (${number(schemasOnly.raw)} B minified): the baseline`);
  line('the SDK costs', cost, `gzip (${number(withSdk.raw - schemasOnly.raw)} B minified)`);
  const met = cost <= TARGET_BYTES;
  console.log(
    `  ${((cost / TARGET_BYTES) * 100).toFixed(1)}% of the ${number(TARGET_BYTES)} B target: ${
      met
        ? `met, ${number(TARGET_BYTES - cost)} B to spare`
        : `NOT met, ${number(cost - TARGET_BYTES)} B over`
    }`,
  );
} finally {
  await rm(out, { recursive: true, force: true });
}
