/**
 * Builds one of the two size pages with Vite, as an app builds them (the SDK page with the `lineupMiniApp` plugin),
 * and measures its one script: what the size-budget test and `bench/page-size.mjs` both compare.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defaultClientConditions } from 'vite';
import { lineupMiniApp } from '../../src/vite.js';

const root = fileURLToPath(new URL('./', import.meta.url));
/** Workspace packages resolve to their TypeScript sources through this condition (vitest.shared.ts). */
const SOURCE = '@lineup/source';

/** The minified and the gzip (level 9) bytes of the one script of `sdk.html` or `schemas.html`, built into `outDir`. */
export async function pageBytes(
  page: 'sdk' | 'schemas',
  outDir: string,
): Promise<{ readonly raw: number; readonly gzip: number }> {
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
  const bytes = await readFile(join(outDir, 'assets', scripts[0] as string));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
