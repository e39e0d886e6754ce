// What a MiniApp page pays for the SDK beyond its own zod schemas (issue 45: at most 4 KiB gzip). It builds the two
// pages of the size-budget test (test/size/: `sdk.html` declares its tools and starts the client, with the
// `lineupMiniApp` plugin; `schemas.html` only builds and uses the same zod schemas) with Vite, as an app builds
// them, and compares the gzip sizes of their one script each. The plugin and the SDK come from their TypeScript
// sources (no build needed), as in the test:
//   pnpm --filter @lineup/miniapp-sdk bench:size      or      node packages/miniapp-sdk/bench/page-size.mjs
// It prints the figures and whether the target is met; it exits non-zero only when a build fails.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defaultClientConditions, defaultServerConditions, runnerImport, version } from 'vite';

/** The target of issue 45, gzip bytes. The test suite holds the same figure (test/size-budget.test.ts). */
const TARGET_BYTES = 4 * 1024;
/** Workspace packages resolve to their TypeScript sources through this condition (vitest.shared.ts). */
const SOURCE = '@lineup/source';

const sdk = fileURLToPath(new URL('..', import.meta.url));
const root = join(sdk, 'test/size');

// The plugin from its source, loaded through Vite's module runner (Node alone does not run TypeScript).
const { module: plugin } = await runnerImport(join(sdk, 'src/vite.ts'), {
  configFile: false,
  logLevel: 'silent',
  resolve: { conditions: [SOURCE, ...defaultServerConditions] },
});
const { lineupMiniApp } = plugin;

/** Builds one page of test/size/ and returns the gzip bytes (level 9) of its one script. */
async function pageBytes(page, outDir) {
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    resolve: { conditions: [SOURCE, ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true, rollupOptions: { input: join(root, `${page}.html`) } },
    plugins:
      page === 'sdk'
        ? [
            lineupMiniApp({
              app: { id: 'com.example.notes', name: 'Notes', version: '0.1.0', entry: 'sdk.html' },
              tools: './tools.ts',
            }),
          ]
        : [],
  });
  const scripts = (await readdir(join(outDir, 'assets'))).filter((name) => name.endsWith('.js'));
  if (scripts.length !== 1) throw new Error(`${page}.html built ${scripts.length} scripts, expected one.`);
  const bytes = await readFile(join(outDir, 'assets', scripts[0]));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

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
