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
import { buildFailure } from './dev-bundle.js';
import { DEV_BUNDLE_PATH } from './vite.js';

/**
 * A copy of the fixture app in `root` (`prepare` may change it first), served by a real `vite` dev server whose
 * terminal lines go to `lines`; its origin.
 */
async function serveFixture(
  root: string,
  lines: string[],
  prepare?: (root: string) => Promise<void>,
): Promise<{ readonly server: ViteDevServer; readonly origin: string }> {
  await rm(root, { recursive: true, force: true });
  await cp(fileURLToPath(new URL('../test/fixtures/aliased/', import.meta.url)), root, { recursive: true });
  await prepare?.(root);
  const record = (message: string) => {
    lines.push(message);
  };
  const server = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'silent',
    customLogger: {
      info: record,
      warn: record,
      warnOnce: record,
      error: record,
      clearScreen: () => {},
      hasErrorLogged: () => false,
      hasWarned: false,
    },
    server: { port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  return { server, origin: server.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? '' };
}

const root = fileURLToPath(new URL('../test/.out/dev-bundle/', import.meta.url));
let server: ViteDevServer;
let origin: string;
/** What the dev server printed (its terminal). */
const logged: string[] = [];

beforeAll(async () => {
  ({ server, origin } = await serveFixture(root, logged));
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

  it('answers a failed rebuild with 503 and its message on every request, until a good build replaces it', async () => {
    const tools = join(root, 'src', 'tools.ts');
    const good = await readFile(tools, 'utf8');
    const before = await manifest();
    const builtLines = logged.filter((line) => line.includes('dev bundle built')).length;
    await writeFile(tools, good.replace("      risk: 'display_only',\n", ''));
    let failed = await get('lineup.manifest.json');
    for (let attempt = 0; attempt < 100 && failed.status === 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      failed = await get('lineup.manifest.json');
    }
    expect(failed.status).toBe(503);
    const message = await failed.text();
    expect(message).toContain('tools.add.risk');
    expect(message).toContain("one of 'display_only'");
    // Every request, any file, and for as long as the source stays broken (no stale 200, no 404).
    for (const path of ['lineup.manifest.json', 'index.html', '']) {
      const again = await get(path);
      expect([path, again.status]).toEqual([path, 503]);
      expect(await again.text()).toBe(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await get('lineup.manifest.json')).status).toBe(503);
    expect(logged.some((line) => line.includes('tools.add.risk'))).toBe(true);
    expect(logged.filter((line) => line.includes('dev bundle built')).length).toBe(builtLines);

    // The fix: the next good build answers again, and says so.
    await writeFile(tools, good.replace('Adds a note', 'Adds a fixed note'));
    let after = await get('lineup.manifest.json');
    for (let attempt = 0; attempt < 100 && after.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await get('lineup.manifest.json');
    }
    expect(after.status).toBe(200);
    const fixed = parseMiniAppManifest(await after.json());
    expect(fixed.tools[0]?.description).toContain('Adds a fixed note');
    expect(fixed.integrity).not.toBe(before.integrity);
    expect(logged.filter((line) => line.includes('dev bundle built')).length).toBe(builtLines + 1);
  }, 90_000);

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

describe('the dev bundle of an app broken before the first request', () => {
  const brokenRoot = fileURLToPath(new URL('../test/.out/dev-bundle-broken/', import.meta.url));
  let broken: ViteDevServer;
  let address: string;
  const lines: string[] = [];

  beforeAll(async () => {
    ({ server: broken, origin: address } = await serveFixture(brokenRoot, lines, async (copy) => {
      const tools = join(copy, 'src', 'tools.ts');
      await writeFile(tools, (await readFile(tools, 'utf8')).replace("      risk: 'display_only',\n", ''));
    }));
  }, 60_000);

  afterAll(async () => {
    await broken?.close();
    await rm(brokenRoot, { recursive: true, force: true });
  });

  it('answers 503 with the message to every request (never 404), then the fixed build', async () => {
    const first = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    expect(first.status).toBe(503);
    const message = await first.text();
    expect(message).toMatch(/^The build failed: /);
    expect(message).toContain("tools.add.risk: Required: one of 'display_only'");
    expect(message).not.toMatch(/^\s+at /m);
    for (const path of ['lineup.manifest.json', 'index.html', 'assets/missing.js']) {
      const again = await fetch(`${address}${DEV_BUNDLE_PATH}${path}`);
      expect([path, again.status, await again.text()]).toEqual([path, 503, message]);
    }
    // The terminal says it did not build — once per failed build, never "built".
    expect(lines.filter((line) => line.includes('[lineup] dev bundle not built'))).toHaveLength(1);
    expect(lines.some((line) => line.includes('dev bundle built'))).toBe(false);

    const tools = join(brokenRoot, 'src', 'tools.ts');
    await writeFile(
      tools,
      (await readFile(tools, 'utf8')).replace(
        "      activation: 'app_ready',\n",
        "$&      risk: 'display_only',\n",
      ),
    );
    let fixed = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    for (let attempt = 0; attempt < 100 && fixed.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      fixed = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    }
    expect(fixed.status).toBe(200);
    expect(parseMiniAppManifest(await fixed.json()).tools[0]?.risk).toBe('display_only');
    expect(lines.filter((line) => line.includes('[lineup] dev bundle built (2)'))).toHaveLength(1);

    // A syntax error: the message names the file and the place, and the fix builds again.
    const fixedSource = await readFile(tools, 'utf8');
    await writeFile(tools, fixedSource.replace("callModel: 'command',", "callModel: 'command',,"));
    let syntax = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    for (let attempt = 0; attempt < 100 && syntax.status !== 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      syntax = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    }
    expect(syntax.status).toBe(503);
    const said = await syntax.text();
    expect(said).toMatch(/^The build failed: /);
    expect(said).toContain('tools.ts');
    expect(said).not.toMatch(/\n\s+at /);
    await writeFile(tools, fixedSource);
    let again = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    for (let attempt = 0; attempt < 100 && again.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      again = await fetch(`${address}${DEV_BUNDLE_PATH}lineup.manifest.json`);
    }
    expect(again.status).toBe(200);
  }, 90_000);
});

describe('buildFailure', () => {
  it("keeps the plugin's message, drops the stack, Vite's summary and a cause that repeats it", () => {
    const error = new Error(
      [
        'Build failed with 1 error:',
        '',
        '[plugin lineup-miniapp-manifest]',
        'MiniAppBuildError: The MiniApp manifest of ./src/tools.ts is not valid:',
        "  tools.add.risk: Required: one of 'display_only'. (missing_property)",
        '    at loadError (file:///app/vite.config.ts:439:29)',
        'Caused by:',
        "  LineUpProtocolError: tools.add.risk: Required: one of 'display_only'.",
        '      at defineAgentTools (/app/define.ts:188:31)',
      ].join('\n'),
    );
    expect(buildFailure(error)).toBe(
      [
        'The build failed: [plugin lineup-miniapp-manifest]',
        'MiniAppBuildError: The MiniApp manifest of ./src/tools.ts is not valid:',
        "  tools.add.risk: Required: one of 'display_only'. (missing_property)",
        'The host keeps the last good build; fix the file and save to build again.',
      ].join('\n'),
    );
  });

  it("drops a terminal's colours, which would otherwise hide a stack line", () => {
    const coloured = new Error(
      '\x1b[31mBuild failed with 1 error:\x1b[39m\n\x1b[31mtools.add.risk: Required.\x1b[39m\n\x1b[90m    at x (y.js:1:1)\x1b[39m',
    );
    expect(buildFailure(coloured)).toBe(
      'The build failed: tools.add.risk: Required.\nThe host keeps the last good build; fix the file and save to build again.',
    );
  });

  it('keeps a cause that says something new', () => {
    const text = buildFailure(
      new Error('Could not load ./src/tools.ts\nCaused by:\n  Error: ENOENT: no such file'),
    );
    expect(text).toContain('Caused by:\n  Error: ENOENT: no such file');
    expect(buildFailure('plain')).toBe(
      'The build failed: plain\nThe host keeps the last good build; fix the file and save to build again.',
    );
  });
});
