/** The plugin in a real Vite build of a fixture MiniApp: the manifest is emitted, or the build fails with its issues. */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLineUpError } from '@lineup/shared';
import { bundleIntegrity, fileIntegrity, parseMiniAppManifest } from '@lineup/shared/protocol';
import { build, createServer, defaultClientConditions } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { HARNESS_PATH, lineupMiniApp, MiniAppBuildError } from './vite.js';

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
      /tools\.add\.contractVersion[\s\S]*tools\.add\.description[\s\S]*tools\.add\.timeoutMs/,
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

  it("loads the tools module with the app's config: its resolve.alias, define constants and plugins", async () => {
    const root = fixture('aliased');
    const outDir = fileURLToPath(new URL('../test/.out/aliased/', import.meta.url));
    outDirs.push(outDir);
    // As `vite build` does it: the app's config file.
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir } });
    const manifest = parseMiniAppManifest(
      JSON.parse(await readFile(`${outDir}lineup.manifest.json`, 'utf8')),
    );
    const [add] = manifest.tools;
    expect(add?.description).toBe('[from the app plugin] Adds a note.');
    expect(add?.input_schema).toMatchObject({ properties: { text: { maxLength: 42 } } });
    // The page got the descriptors the build computed, not a converter of its own.
    const page = (await readdir(join(outDir, 'assets'))).find((name) => name.endsWith('.js'));
    const script = await readFile(join(outDir, 'assets', page as string), 'utf8');
    expect(script).toContain('[from the app plugin] Adds a note.');
    expect(script).not.toContain('cannot be expressed as JSON Schema');
    expect(script).not.toContain('A tool served by the MiniApp SDK needs app_ready');
  });

  it('loads it with an inline config too (a programmatic build without a config file)', async () => {
    const root = fixture('aliased');
    const outDir = fileURLToPath(new URL('../test/.out/aliased-inline/', import.meta.url));
    outDirs.push(outDir);
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      publicDir: false,
      resolve: {
        alias: { '@/': join(root, 'src/') },
        conditions: ['@lineup/source', ...defaultClientConditions],
      },
      define: { __NOTE_LIMIT__: '7' },
      build: { outDir },
      plugins: [
        {
          name: 'note-prefix',
          resolveId: (id) => (id === 'virtual:note-prefix' ? '\0note-prefix' : null),
          load: (id) => (id === '\0note-prefix' ? "export default 'Inline:';" : null),
        },
        lineupMiniApp({
          app: { id: 'com.example.aliased', name: 'Aliased', version: '0.1.0' },
          tools: './src/tools.ts',
        }),
      ],
    });
    const manifest = parseMiniAppManifest(
      JSON.parse(await readFile(`${outDir}lineup.manifest.json`, 'utf8')),
    );
    expect(manifest.tools[0]?.description).toBe('Inline: Adds a note.');
    expect(manifest.tools[0]?.input_schema).toMatchObject({ properties: { text: { maxLength: 7 } } });
  });

  it('fails the build with a LineUp error naming the tools module when it touches the DOM (it runs in Node)', async () => {
    const failure = await buildFixture('dom').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      /\.\/src\/tools\.ts touched the DOM while it loaded \(document is not defined\)\. The tools module runs in Node at build time/,
    );
    // Vite reports the plugin's error as it was thrown, its own code kept as `pluginCode`.
    const [reported] = (failure as { errors?: unknown[] }).errors ?? [];
    expect(reported).toBeInstanceOf(MiniAppBuildError);
    expect(isLineUpError(reported)).toBe(true);
    expect((reported as { pluginCode?: unknown }).pluginCode).toBe('tools_module_uses_dom');
  });

  it('serves the manifest and the mock-runtime harness in dev, from the tools module', async () => {
    const server = await createServer({
      root: fixture('aliased'),
      configFile: join(fixture('aliased'), 'vite.config.ts'),
      logLevel: 'silent',
      server: { port: 0, strictPort: false, hmr: false },
    });
    await server.listen();
    try {
      const origin = server.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? '';
      const manifest = await (await fetch(`${origin}/lineup.manifest.json`)).json();
      expect(manifest.tools[0].description).toBe('[from the app plugin] Adds a note.');
      const harness = await (await fetch(`${origin}${HARNESS_PATH}`)).text();
      expect(harness).toContain('LineUp mock runtime');
      expect(harness).toContain('"entry":"index.html"');
    } finally {
      await server.close();
    }
  });
});
