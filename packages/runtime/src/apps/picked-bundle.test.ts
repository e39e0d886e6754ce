/**
 * A bundle from a folder the user picked: `pickedBundleFetch` serves the picked files by path under
 * `PICKED_BUNDLE_URL`, so `installBundle` verifies them exactly as it verifies a served bundle — every file against
 * the manifest's size and SHA-256 before anything is kept.
 */
import 'fake-indexeddb/auto';
import { defineAgentTools, generateManifest } from '@lineup/miniapp-sdk';
import { fileIntegrity, MINIAPP_MANIFEST_FILE_NAME } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { openRuntimeDatabase } from '../storage/database.js';
import { BundleIntegrityError, PICKED_BUNDLE_URL, pickedBundleFetch } from './bundle.js';
import { AppRegistry } from './registry.js';

let databases = 0;
const encoder = new TextEncoder();
const tools = defineAgentTools({ appScope: 'notes', tools: {} });

/** A picked folder's files by path: the manifest, the page and its script, as Blobs (what an input gives). */
function pickedFolder(version = '1.0.0') {
  const sources: Record<string, string> = {
    'index.html': '<!doctype html><title>Notes</title><script type="module" src="./assets/app.js"></script>',
    'assets/app.js': `console.log("notes ${version}")`,
  };
  const bytes = new Map(Object.entries(sources).map(([path, text]) => [path, encoder.encode(text)]));
  const manifest = generateManifest(
    { id: 'com.example.notes', name: 'Notes', version },
    tools,
    [...bytes].map(([path, data]) => ({ path, size: data.length, integrity: fileIntegrity(data) })),
  );
  const files = new Map<string, Blob>([
    [MINIAPP_MANIFEST_FILE_NAME, new Blob([JSON.stringify(manifest)], { type: 'application/json' })],
    ...[...bytes].map(([path, data]): [string, Blob] => [path, new Blob([data as Uint8Array<ArrayBuffer>])]),
  ]);
  return { manifest, files };
}

async function setUp() {
  const db = await openRuntimeDatabase(`picked-${databases++}`);
  return { db, registry: new AppRegistry(db) };
}

describe('pickedBundleFetch', () => {
  it('serves each picked file by its path under PICKED_BUNDLE_URL, and 404 for anything else', async () => {
    const { files } = pickedFolder();
    const fetch = pickedBundleFetch(files);
    const text = async (url: string) => {
      const response = await fetch(new URL(url));
      return `${response.status} ${response.ok ? await response.text() : ''}`.trim();
    };
    expect(PICKED_BUNDLE_URL).toBe('https://picked.lineup.invalid/');
    expect(await text(`${PICKED_BUNDLE_URL}assets/app.js`)).toBe('200 console.log("notes 1.0.0")');
    const rows: [string, string][] = [
      ['a path not picked', `${PICKED_BUNDLE_URL}assets/other.js`],
      ['the folder itself', PICKED_BUNDLE_URL],
      ['another origin', 'https://example.com/assets/app.js'],
      ['another scheme', 'http://picked.lineup.invalid/assets/app.js'],
      ['a query', `${PICKED_BUNDLE_URL}assets/app.js?v=2`],
      ['a broken escape', `${PICKED_BUNDLE_URL}assets/%E0%A4%A.js`],
    ];
    for (const [, url] of rows) expect(await text(url)).toBe('404');
  });

  it('serves what was picked: a change to the map afterwards is not served', async () => {
    const { files } = pickedFolder();
    const fetch = pickedBundleFetch(files);
    files.set('late.js', new Blob(['late']));
    files.delete('index.html');
    expect((await fetch(new URL(`${PICKED_BUNDLE_URL}late.js`))).status).toBe(404);
    expect((await fetch(new URL(`${PICKED_BUNDLE_URL}index.html`))).status).toBe(200);
  });

  it('installs a picked bundle through installBundle: verified, kept, published', async () => {
    const { db, registry } = await setUp();
    const { manifest, files } = pickedFolder();
    const fetch = pickedBundleFetch(files);
    expect(await registry.installBundle(PICKED_BUNDLE_URL, { fetch })).toBe('installed');
    expect(await registry.list()).toMatchObject([
      { id: 'com.example.notes', bundleUrl: PICKED_BUNDLE_URL, manifest: { version: '1.0.0' } },
    ]);
    expect((await db.getAll('bundle_files')).map((file) => `${file.path} ${file.integrity}`)).toEqual(
      manifest.files?.map((file) => `${file.path} ${file.integrity}`),
    );
    await expect(registry.verifyInstalled('com.example.notes')).resolves.toBeUndefined();
    expect((await registry.inventory()).applications).toEqual([
      { id: 'com.example.notes', version: '1.0.0', surfaces: [] },
    ]);
    // A newer version picked later is an upgrade, with the running version kept until its first start.
    const next = pickedFolder('1.1.0');
    expect(await registry.installBundle(PICKED_BUNDLE_URL, { fetch: pickedBundleFetch(next.files) })).toBe(
      'updated',
    );
    expect(await registry.list()).toMatchObject([
      { manifest: { version: '1.1.0' }, previous: { manifest: { version: '1.0.0' } } },
    ]);
  });

  it('refuses a tampered picked file with its path and both digests; nothing is kept', async () => {
    const { db, registry } = await setUp();
    const { manifest, files } = pickedFolder();
    const tampered = encoder.encode('console.log("notes 1.0.1")');
    files.set('assets/app.js', new Blob([tampered as Uint8Array<ArrayBuffer>]));
    const error = await registry.installBundle(PICKED_BUNDLE_URL, { fetch: pickedBundleFetch(files) }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BundleIntegrityError);
    const expected = manifest.files?.find((file) => file.path === 'assets/app.js')?.integrity;
    expect(error).toMatchObject({
      code: 'digest_mismatch',
      path: 'assets/app.js',
      expected,
      actual: fileIntegrity(tampered),
    });
    expect((error as BundleIntegrityError).message).toBe(
      `assets/app.js does not match the manifest: expected ${expected}, found ${fileIntegrity(tampered)}.`,
    );
    expect(await db.count('apps')).toBe(0);
    expect(await db.count('bundle_files')).toBe(0);
    expect(await db.getAll('audit')).toMatchObject([
      { type: 'bundle_rejected', appId: PICKED_BUNDLE_URL, detail: 'digest_mismatch assets/app.js' },
    ]);
  });

  it('a picked folder without a manifest is refused as fetch_failed, naming the manifest', async () => {
    const { registry } = await setUp();
    const { files } = pickedFolder();
    files.delete(MINIAPP_MANIFEST_FILE_NAME);
    await expect(
      registry.installBundle(PICKED_BUNDLE_URL, { fetch: pickedBundleFetch(files) }),
    ).rejects.toMatchObject({ code: 'fetch_failed', path: MINIAPP_MANIFEST_FILE_NAME });
  });
});
