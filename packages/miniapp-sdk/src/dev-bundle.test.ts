/**
 * The dev bundle in a real `vite` dev server: a verified build of a fixture app at `/__lineup/bundle/`, rebuilt on
 * save, readable by loopback origins only, and no file outside it.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIntegrity, fileIntegrity, parseMiniAppManifest } from '@lineup/shared/protocol';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_BUNDLE_PATH } from './vite.js';

const root = fileURLToPath(new URL('../test/.out/dev-bundle/', import.meta.url));
let server: ViteDevServer;
let origin: string;

beforeAll(async () => {
  await rm(root, { recursive: true, force: true });
  await cp(fileURLToPath(new URL('../test/fixtures/aliased/', import.meta.url)), root, { recursive: true });
  server = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'silent',
    server: { port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  origin = server.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? '';
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const get = (path: string, from = 'http://127.0.0.1:4173') =>
  fetch(`${origin}${DEV_BUNDLE_PATH}${path}`, { headers: { origin: from } });

async function manifest() {
  const response = await get('lineup.manifest.json');
  expect(response.status).toBe(200);
  return parseMiniAppManifest(await response.json());
}

describe('the dev bundle (/__lineup/bundle/)', () => {
  it('is the built app: every file the manifest lists, with its SHA-256', async () => {
    const built = await manifest();
    expect(built.tools[0]?.description).toBe('[from the app plugin] Adds a note.');
    const files = built.files ?? [];
    expect(files.map((file) => file.path)).toContain('index.html');
    for (const file of files) {
      const bytes = new Uint8Array(await (await get(file.path)).arrayBuffer());
      expect([file.path, fileIntegrity(bytes)]).toEqual([file.path, file.integrity]);
    }
    expect(built.integrity).toBe(bundleIntegrity(files));
  }, 60_000);

  it('is rebuilt on save: the next manifest has the change', async () => {
    const before = await manifest();
    const tools = join(root, 'src', 'tools.ts');
    await writeFile(tools, (await readFile(tools, 'utf8')).replace('Adds a note.', 'Adds a note, now.'));
    let after = before;
    for (let attempt = 0; attempt < 100 && after.integrity === before.integrity; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await manifest();
    }
    expect(after.tools[0]?.description).toBe('[from the app plugin] Adds a note, now.');
    expect(after.integrity).not.toBe(before.integrity);
  }, 60_000);

  it('lets loopback pages read it across origins, and no other site', async () => {
    const host = await get('lineup.manifest.json', 'http://127.0.0.1:4173');
    expect(host.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    const local = await get('lineup.manifest.json', 'http://localhost:8080');
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const elsewhere = await get('lineup.manifest.json', 'https://attacker.example');
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(host.headers.get('cache-control')).toBe('no-store');
  });

  it('serves nothing outside the bundle', async () => {
    // Sent as written (fetch would resolve the dots first): a path that leaves the bundle's folder is refused.
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${origin}${DEV_BUNDLE_PATH}`, { path: `${DEV_BUNDLE_PATH}${path}` });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    expect(await raw('..%2f..%2fvite.config.ts')).toBe(400);
    expect(await raw('assets%2f..%2f..%2f..%2fvite.config.ts')).toBe(400);
    expect(await raw('%00index.html')).toBe(400);
    expect(await raw('missing.js')).toBe(404);
    expect(await raw('')).toBe(200);
  });
});
