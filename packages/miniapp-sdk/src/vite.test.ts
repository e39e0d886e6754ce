/** The plugin in a real Vite build of a fixture MiniApp: the manifest is emitted, or the build fails with its issues. */
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseMiniAppManifest } from '@lineup/shared/protocol';
import { build, defaultClientConditions } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { lineupMiniApp } from './vite.js';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}/`, import.meta.url));
const outDirs: string[] = [];

async function buildFixture(name: string) {
  const root = fixture(name);
  const outDir = fileURLToPath(new URL(`../test/.out/${name}/`, import.meta.url));
  outDirs.push(outDir);
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    // As the workspace's apps do: LineUp packages from their TypeScript sources.
    resolve: { conditions: ['@lineup/source', ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true },
    plugins: [
      lineupMiniApp({
        app: { id: 'com.example.notes', name: 'Notes', version: '0.1.0' },
        tools: './src/tools.ts',
      }),
    ],
  });
  return outDir;
}

afterAll(async () => {
  for (const dir of outDirs) await rm(dir, { recursive: true, force: true });
});

describe('lineupMiniApp (Vite plugin)', () => {
  it('emits lineup.manifest.json next to the bundle, generated from the tools module', async () => {
    const outDir = await buildFixture('valid');
    const text = await readFile(`${outDir}lineup.manifest.json`, 'utf8');
    const manifest = parseMiniAppManifest(JSON.parse(text));
    expect(manifest).toMatchObject({ id: 'com.example.notes', app_scope: 'notes', version: '0.1.0' });
    expect(manifest.tools.map((tool) => tool.method)).toEqual(['add']);
    // The bundle itself does not carry the manifest's source module (the page never imported it).
    expect(await readFile(`${outDir}index.html`, 'utf8')).toContain('<title>Notes</title>');
  });

  it('fails the build with every located issue of an invalid tool', async () => {
    await expect(buildFixture('invalid')).rejects.toThrow(
      /tools\.add\.contract_version[\s\S]*tools\.add\.description[\s\S]*tools\.add\.timeout_ms/,
    );
  });
});
