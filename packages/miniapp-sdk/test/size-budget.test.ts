/**
 * The size budget: what a MiniApp page pays for the SDK on top of its own zod schemas. Two tiny pages are built
 * with Vite as an app builds them (the SDK page with the plugin) — one declares its tools and starts the client,
 * the other only builds and uses the same schemas — and the gzip sizes of their JavaScript are compared.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { pageBytes } from './size/page-bytes.js';

/**
 * The most the SDK may add to a page, gzip bytes: 5.75 KiB (a guard against growth with room for small changes, not
 * the target). Measured: 15,563 B when the page converted JSON Schemas
 * and validated descriptors at load; 10,374 B with build-time descriptors; 5,443 B since the page checks the
 * channel's messages with the zod-free parsers (`parseMiniAppMessage…Compact` of `@lineup/shared/bridge`) instead
 * of the runtime's zod ones; 6,843 B once a refused value's located issues went to the runtime; 6,436 B since the
 * page maps zod's issues to codes and paths without `fromZodIssue`'s messages and the compact parsers read their
 * bounds as constants a bundler inlines (budget 8 KiB until then); 5,602 B since the limits, the error codes and
 * the channel's error bounds of `@lineup/shared` are constants a bundler writes in place (no frozen limit object
 * in the page), `zodIssuePlace` is the one mapping of zod's issues, and the parser, client and dispatcher shed a
 * few code paths (budget 6.5 KiB until then). Issue 45 asks for 4 KiB: `bench/page-size.mjs` prints the figure
 * against that target.
 */
const BUDGET_BYTES = 5.75 * 1024;

const outDirs: string[] = [];

async function gzipBytesOf(page: 'sdk' | 'schemas'): Promise<number> {
  const outDir = fileURLToPath(new URL(`./.out/size-${page}/`, import.meta.url));
  outDirs.push(outDir);
  return (await pageBytes(page, outDir)).gzip;
}

afterAll(async () => {
  for (const dir of outDirs) await rm(dir, { recursive: true, force: true });
});

it(`a page pays at most ${BUDGET_BYTES} gzip bytes for the SDK beyond its own zod schemas`, async () => {
  const withSdk = await gzipBytesOf('sdk');
  const schemasOnly = await gzipBytesOf('schemas');
  const paid = withSdk - schemasOnly;
  console.log(
    `size budget: SDK page ${withSdk} B gzip, schemas-only page ${schemasOnly} B gzip, the SDK costs ${paid} B (budget ${BUDGET_BYTES} B)`,
  );
  expect(schemasOnly).toBeGreaterThan(10_000); // the baseline really carries zod
  expect(paid).toBeLessThanOrEqual(BUDGET_BYTES);
});
