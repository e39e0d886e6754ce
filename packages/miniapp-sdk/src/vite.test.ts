/** The plugin in a real Vite build of a fixture MiniApp: the manifest is emitted, or the build fails with its issues. */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIntegrity, fileIntegrity, parseMiniAppManifest } from '@lineup/shared/protocol';
import { build, defaultClientConditions } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { lineupMiniApp } from './vite.js';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}/`, import.meta.url));
const outDirs: string[] = [];

async function buildFixture(name: string, out = name, publicDir: string | false = false) {
  const root = fixture(name);
  const outDir = fileURLToPath(new URL(`../test/.out/${out}/`, import.meta.url));
  outDirs.push(outDir);
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    // As the workspace's apps do: LineUp packages from their TypeScript sources.
    resolve: { conditions: ['@lineup/source', ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true },
    publicDir,
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

  it('fails the build of a page that imports another chunk, naming it (pages run from their kept files)', async () => {
    await expect(buildFixture('split')).rejects.toThrow(
      /assets\/index-[\w-]+\.js imports assets\/later-[\w-]+\.js: a MiniApp page runs from its verified files/,
    );
  });

  it('lists every file of the bundle with its size and SHA-256, and the integrity of the list', async () => {
    const outDir = await buildFixture('valid', 'valid-files');
    const manifest = parseMiniAppManifest(
      JSON.parse(await readFile(`${outDir}lineup.manifest.json`, 'utf8')),
    );
    const written = (await readdir(outDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(outDir.length).split('\\').join('/'))
      .filter((path) => path !== 'lineup.manifest.json')
      .sort();
    expect(manifest.files?.map((file) => file.path)).toEqual(written);
    expect(written).toContain('index.html');
    for (const file of manifest.files ?? []) {
      const bytes = await readFile(join(outDir, file.path));
      expect(file).toEqual({ path: file.path, size: bytes.length, integrity: fileIntegrity(bytes) });
    }
    expect(manifest.integrity).toBe(bundleIntegrity(manifest.files ?? []));
  });

  it('is reproducible: the same sources built twice give the same manifest, integrity included', async () => {
    const first = await buildFixture('valid', 'valid-a');
    const second = await buildFixture('valid', 'valid-b');
    const a = await readFile(`${first}lineup.manifest.json`, 'utf8');
    const b = await readFile(`${second}lineup.manifest.json`, 'utf8');
    expect(a).toBe(b);
    expect(JSON.parse(a).integrity).toMatch(/^sha256-/);
  });

  it('lists the files Vite copies from publicDir too', async () => {
    const publicDir = fileURLToPath(new URL('../test/.out/public-src/', import.meta.url));
    outDirs.push(publicDir);
    await mkdir(join(publicDir, 'icons'), { recursive: true });
    await writeFile(join(publicDir, 'icons', 'app.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const outDir = await buildFixture('valid', 'valid-public', publicDir);
    const manifest = parseMiniAppManifest(
      JSON.parse(await readFile(`${outDir}lineup.manifest.json`, 'utf8')),
    );
    const icon = manifest.files?.find((file) => file.path === 'icons/app.svg');
    const copied = await readFile(join(outDir, 'icons', 'app.svg'));
    expect(copied.toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(icon).toEqual({ path: 'icons/app.svg', size: copied.length, integrity: fileIntegrity(copied) });
  });
});
