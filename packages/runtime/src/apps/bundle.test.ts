/**
 * Verified bundles (seed 000 §2.7, §6 M2): a bundle is installed only when every file it lists matches its size
 * and SHA-256; a tampered, missing or unreachable file is refused with the file and both digests, and nothing is
 * kept. The kept files are checked again before a mount: a changed byte in storage is caught.
 */
import 'fake-indexeddb/auto';
import { defineAgentTools, generateManifest } from '@lineup/miniapp-sdk';
import {
  bundleSignatureMessage,
  fileIntegrity,
  MINIAPP_MANIFEST_FILE_NAME,
  type MiniAppManifest,
  manifestDigest,
} from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { openRuntimeDatabase } from '../storage/database.js';
import { BundleIntegrityError, digestIntegrity } from './bundle.js';
import { AppRegistry } from './registry.js';

let databases = 0;
const BASE = 'https://host.example/apps/notes/';
const encoder = new TextEncoder();
const tools = defineAgentTools({ appScope: 'notes', tools: {} });

function bundle(version = '1.0.0', texts: Record<string, string> = {}) {
  const sources: Record<string, string> = {
    'index.html': '<!doctype html><title>Notes</title><script type="module" src="./assets/app.js"></script>',
    'assets/app.js': 'console.log("notes")',
    ...texts,
  };
  const bytes = new Map(Object.entries(sources).map(([path, text]) => [path, encoder.encode(text)]));
  const files = [...bytes].map(([path, data]) => ({
    path,
    size: data.length,
    integrity: fileIntegrity(data),
  }));
  const manifest = generateManifest({ id: 'com.example.notes', name: 'Notes', version }, tools, files);
  return { manifest, bytes };
}

/** A fetch that serves `served` under BASE, and records what was asked. */
function server(
  manifest: MiniAppManifest | object,
  served: Map<string, Uint8Array>,
  failing = new Set<string>(),
  signature?: string,
) {
  const asked: string[] = [];
  const fetch = async (url: URL) => {
    asked.push(url.href);
    const path = url.href.slice(BASE.length);
    if (failing.has(path)) throw new TypeError('network down');
    if (path === MINIAPP_MANIFEST_FILE_NAME) return new Response(JSON.stringify(manifest));
    if (path === 'lineup.manifest.sig')
      return signature === undefined ? new Response('not found', { status: 404 }) : new Response(signature);
    const data = served.get(path);
    return data === undefined
      ? new Response('not found', { status: 404 })
      : new Response(data as Uint8Array<ArrayBuffer>);
  };
  return { fetch, asked };
}

async function setUp() {
  const db = await openRuntimeDatabase(`bundles-${databases++}`);
  return { db, registry: new AppRegistry(db) };
}

async function refusal(promise: Promise<unknown>): Promise<BundleIntegrityError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BundleIntegrityError) return error;
    throw error;
  }
  throw new Error('expected a BundleIntegrityError');
}

describe('digestIntegrity (WebCrypto)', () => {
  it('agrees with the shared synchronous digest on random bytes of many lengths', async () => {
    for (const length of [0, 1, 2, 3, 55, 56, 63, 64, 65, 1000, 4096]) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      expect(await digestIntegrity(bytes)).toBe(fileIntegrity(bytes));
    }
  });
});

describe('installBundle', () => {
  it('fetches the manifest and every listed file, verifies them, keeps them, and installs', async () => {
    const { db, registry } = await setUp();
    const { manifest, bytes } = bundle();
    const { fetch, asked } = server(manifest, bytes);
    expect(await registry.installBundle(BASE, { fetch })).toBe('installed');
    expect(asked).toEqual([`${BASE}lineup.manifest.json`, `${BASE}assets/app.js`, `${BASE}index.html`]);
    const kept = await db.getAll('bundle_files');
    expect(kept.map((file) => [file.path, file.version, file.integrity])).toEqual([
      ['assets/app.js', '1.0.0', manifest.files?.[0]?.integrity],
      ['index.html', '1.0.0', manifest.files?.[1]?.integrity],
    ]);
    await expect(registry.verifyInstalled('com.example.notes')).resolves.toBeUndefined();
    // The same bundle again changes nothing.
    expect(await registry.installBundle(BASE, { fetch })).toBe('unchanged');
  });

  it('refuses a tampered, resized, missing or unreachable file, naming it and both digests; nothing is kept', async () => {
    const { manifest, bytes } = bundle();
    const tampered = new Uint8Array(bytes.get('assets/app.js') as Uint8Array);
    tampered[3] = (tampered[3] as number) ^ 1;
    const cases: [string, ReturnType<typeof server>, object][] = [
      [
        'one changed byte',
        server(manifest, new Map([...bytes, ['assets/app.js', tampered]])),
        {
          code: 'digest_mismatch',
          path: 'assets/app.js',
          expected: manifest.files?.[0]?.integrity,
          actual: fileIntegrity(tampered),
        },
      ],
      [
        'one byte more',
        server(manifest, new Map([...bytes, ['index.html', encoder.encode('<!doctype html>!')]])),
        { code: 'size_mismatch', path: 'index.html' },
      ],
      [
        'a missing file',
        server(manifest, new Map([...bytes].filter(([path]) => path !== 'index.html'))),
        { code: 'missing_file', path: 'index.html' },
      ],
      [
        'the network failing',
        server(manifest, bytes, new Set(['assets/app.js'])),
        { code: 'fetch_failed', path: 'assets/app.js' },
      ],
      [
        'a manifest without a file list',
        server({ ...manifest, files: undefined, integrity: undefined }, bytes),
        { code: 'no_integrity' },
      ],
    ];
    for (const [, { fetch }, expected] of cases) {
      const { db, registry } = await setUp();
      const error = await refusal(registry.installBundle(BASE, { fetch }));
      expect(error).toMatchObject(expected);
      expect(await db.count('apps')).toBe(0);
      expect(await db.count('bundle_files')).toBe(0);
      expect((await db.getAll('audit')).map((entry) => entry.type)).toEqual(['bundle_rejected']);
    }
    const { registry } = await setUp();
    const error = await refusal(
      registry.installBundle(BASE, { fetch: (cases[0] as (typeof cases)[number])[1].fetch }),
    );
    expect(error.message).toBe(
      `assets/app.js does not match the manifest: expected ${manifest.files?.[0]?.integrity}, found ${fileIntegrity(tampered)}.`,
    );
  });
});

describe('upgrade, rollback and uninstall (M4)', () => {
  const files = async (db: Awaited<ReturnType<typeof setUp>>['db']) =>
    (await db.getAll('bundle_files')).map((file) => `${file.version} ${file.path}`).sort();
  const app = async (registry: AppRegistry) => (await registry.list())[0];
  const ID = 'com.example.notes';

  async function upgraded() {
    const set = await setUp();
    const first = bundle('1.0.0');
    await set.registry.installBundle(BASE, { fetch: server(first.manifest, first.bytes).fetch });
    // The app's data: session data of an instance of it, which no upgrade or rollback may touch.
    await set.db.put('instances', {
      key: 'conv\nnotes',
      instanceId: 'i1',
      appSessionId: 's1',
      conversationId: 'conv',
      appScope: 'notes',
      appId: ID,
      state: 'open',
      foreground: false,
      createdAt: 1,
    });
    await set.db.put('session_data', { key: 'notes\ns1', revision: 3, data: { draft: 'keep me' } });
    const second = bundle('1.1.0', { 'assets/app.js': 'console.log("notes 1.1")' });
    expect(
      await set.registry.installBundle(BASE, { fetch: server(second.manifest, second.bytes).fetch }),
    ).toBe('updated');
    return { ...set, first, second };
  }

  it('an upgrade keeps the new files beside the running version’s until the new one has started once', async () => {
    const { db, registry, first } = await upgraded();
    expect(await files(db)).toEqual([
      '1.0.0 assets/app.js',
      '1.0.0 index.html',
      '1.1.0 assets/app.js',
      '1.1.0 index.html',
    ]);
    expect(await app(registry)).toMatchObject({
      manifest: { version: '1.1.0' },
      previous: { manifest: first.manifest },
    });
    expect((await registry.inventory()).applications).toEqual([{ id: ID, version: '1.1.0', surfaces: [] }]);
    const { files: kept } = await registry.bundleFiles(ID);
    expect(new TextDecoder().decode(kept.get('assets/app.js'))).toBe('console.log("notes 1.1")');
    expect(await registry.confirmStarted(ID)).toBe(true);
    expect(await files(db)).toEqual(['1.1.0 assets/app.js', '1.1.0 index.html']);
    expect(await app(registry)).not.toHaveProperty('previous');
    expect(await registry.confirmStarted(ID)).toBe(false);
    expect(await registry.rollback(ID, 'too late')).toBe(false);
    expect((await db.getAll('audit')).map((entry) => entry.type)).toEqual([
      'app_installed',
      'app_updated',
      'app_upgrade_confirmed',
    ]);
  });

  it('a failed first start rolls back in one step: old manifest, a new revision, the new files gone, data intact', async () => {
    const { db, registry, first } = await upgraded();
    const before = (await registry.inventory()).revision;
    expect(await registry.rollback(ID, 'it could not start (boot_failed)')).toBe(true);
    expect(await app(registry)).toMatchObject({ manifest: first.manifest, bundleUrl: BASE });
    expect(await app(registry)).not.toHaveProperty('previous');
    const inventory = await registry.inventory();
    expect(inventory.revision).not.toBe(before);
    expect(inventory.applications).toEqual([{ id: ID, version: '1.0.0', surfaces: [] }]);
    expect(await files(db)).toEqual(['1.0.0 assets/app.js', '1.0.0 index.html']);
    await expect(registry.verifyInstalled(ID)).resolves.toBeUndefined();
    expect(await db.get('session_data', 'notes\ns1')).toEqual({
      key: 'notes\ns1',
      revision: 3,
      data: { draft: 'keep me' },
    });
    expect((await db.getAll('audit')).at(-1)).toMatchObject({
      type: 'app_rolled_back',
      version: '1.0.0',
      detail: 'from 1.1.0: it could not start (boot_failed)',
    });
    const outbox = await db.getAll('outbox');
    expect(outbox.at(-1)).toMatchObject({ type: 'lineup.v1.client.inventory', payload: inventory });
  });

  it('an upgrade whose bundle fails verification changes nothing: the old version keeps running', async () => {
    const { db, registry } = await setUp();
    const first = bundle('1.0.0');
    await registry.installBundle(BASE, { fetch: server(first.manifest, first.bytes).fetch });
    const before = {
      files: await files(db),
      app: await app(registry),
      inventory: await registry.inventory(),
    };
    const second = bundle('2.0.0', { 'assets/app.js': 'console.log("notes 2")' });
    const tampered = new Map(second.bytes);
    tampered.set('assets/app.js', encoder.encode('console.log("notes 3")'));
    expect(
      await refusal(registry.installBundle(BASE, { fetch: server(second.manifest, tampered).fetch })),
    ).toMatchObject({ code: 'digest_mismatch', path: 'assets/app.js' });
    expect(await files(db)).toEqual(before.files);
    expect(await app(registry)).toEqual(before.app);
    expect(await registry.inventory()).toEqual(before.inventory);
    await expect(registry.verifyInstalled(ID)).resolves.toBeUndefined();
  });

  it('two upgrades before a start roll back to the last version that started', async () => {
    const { db, registry, first } = await upgraded();
    const third = bundle('1.2.0', { 'assets/app.js': 'console.log("notes 1.2")' });
    await registry.installBundle(BASE, { fetch: server(third.manifest, third.bytes).fetch });
    expect(await files(db)).toEqual([
      '1.0.0 assets/app.js',
      '1.0.0 index.html',
      '1.2.0 assets/app.js',
      '1.2.0 index.html',
    ]);
    expect(await registry.rollback(ID, 'failed')).toBe(true);
    expect((await app(registry))?.manifest).toEqual(first.manifest);
  });

  it('uninstall removes the record, every kept file and the session data, and publishes a revision without it', async () => {
    const { db, registry } = await upgraded();
    const before = (await registry.inventory()).revision;
    await registry.uninstall(ID);
    expect(await registry.list()).toEqual([]);
    expect(await files(db)).toEqual([]);
    expect(await db.get('session_data', 'notes\ns1')).toBeUndefined();
    const inventory = await registry.inventory();
    expect(inventory.revision).not.toBe(before);
    expect(inventory.applications).toEqual([]);
    expect((await db.getAll('audit')).at(-1)).toMatchObject({
      type: 'app_uninstalled',
      appId: ID,
      version: '1.1.0',
    });
    await expect(registry.uninstall(ID)).rejects.toMatchObject({
      issues: [expect.objectContaining({ code: 'unknown_reference' })],
    });
    await expect(registry.bundleFiles(ID)).rejects.toMatchObject({
      issues: [expect.objectContaining({ code: 'unknown_reference' })],
    });
  });
});

describe('verifyInstalled (before every mount)', () => {
  it('catches a kept file changed or removed in storage, and an app installed without a file list', async () => {
    const { db, registry } = await setUp();
    const { manifest, bytes } = bundle();
    await registry.installBundle(BASE, { fetch: server(manifest, bytes).fetch });
    const key = 'com.example.notes\n1.0.0\nassets/app.js';
    const stored = await db.get('bundle_files', key);
    const changed = new Uint8Array(stored?.bytes as Uint8Array);
    changed[0] = (changed[0] as number) ^ 0x20;
    await db.put('bundle_files', { ...(stored as NonNullable<typeof stored>), bytes: changed });
    expect(await refusal(registry.verifyInstalled('com.example.notes'))).toMatchObject({
      code: 'digest_mismatch',
      path: 'assets/app.js',
      expected: manifest.files?.[0]?.integrity,
      actual: fileIntegrity(changed),
    });
    await db.delete('bundle_files', key);
    expect(await refusal(registry.verifyInstalled('com.example.notes'))).toMatchObject({
      code: 'missing_file',
      path: 'assets/app.js',
    });
    const plain = generateManifest(
      { id: 'com.example.plain', name: 'Plain', version: '1.0.0' },
      defineAgentTools({ appScope: 'plain', tools: {} }),
    );
    await registry.install(plain, { bundleUrl: '/apps/plain/' });
    expect(await refusal(registry.verifyInstalled('com.example.plain'))).toMatchObject({
      code: 'no_integrity',
    });
    expect((await db.getAll('audit')).filter((entry) => entry.type === 'bundle_rejected')).toHaveLength(3);
  });
});

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** An Ed25519 publisher: its public key (base64 raw) and a signature file for a manifest. */
async function publisher() {
  const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const key = base64(await crypto.subtle.exportKey('raw', keys.publicKey));
  const sign = async (manifest: unknown) =>
    JSON.stringify({
      alg: 'Ed25519',
      key,
      signature: base64(
        await crypto.subtle.sign(
          { name: 'Ed25519' },
          keys.privateKey,
          new TextEncoder().encode(bundleSignatureMessage(manifest)),
        ),
      ),
    });
  return { key, sign };
}

describe('a host policy (production): allow-listed or signed manifests only', () => {
  it('accepts a manifest signed by a trusted key, and checks the policy before fetching any file', async () => {
    const { registry } = await setUp();
    const { manifest, bytes } = bundle();
    const trusted = await publisher();
    const { fetch, asked } = server(manifest, bytes, new Set(), await trusted.sign(manifest));
    expect(await registry.installBundle(BASE, { fetch, policy: { trustedKeys: [trusted.key] } })).toBe(
      'installed',
    );
    expect(asked.slice(0, 2)).toEqual([`${BASE}lineup.manifest.json`, `${BASE}lineup.manifest.sig`]);
  });

  it('accepts an allow-listed manifest without a signature', async () => {
    const { registry } = await setUp();
    const { manifest, bytes } = bundle();
    const { fetch } = server(manifest, bytes);
    expect(
      await registry.installBundle(BASE, { fetch, policy: { allowedManifests: [manifestDigest(manifest)] } }),
    ).toBe('installed');
  });

  it('refuses an unsigned, foreign-signed, altered or badly signed manifest before fetching its files', async () => {
    const { manifest, bytes } = bundle();
    const trusted = await publisher();
    const stranger = await publisher();
    // The same files, another tool description: the signature covered the whole manifest.
    const altered = { ...manifest, name: 'Notes Pro' };
    const cases: [string, object, string | undefined, object][] = [
      [
        'unsigned, not allow-listed',
        manifest,
        undefined,
        { code: 'not_allowed', actual: manifestDigest(manifest) },
      ],
      [
        'signed by a stranger',
        manifest,
        await stranger.sign(manifest),
        { code: 'not_allowed', actual: stranger.key },
      ],
      ['altered after signing', altered, await trusted.sign(manifest), { code: 'signature_invalid' }],
      ['a malformed signature file', manifest, '{"alg":"RSA"}', { code: 'signature_invalid' }],
      [
        'a signature of the right size that is wrong',
        manifest,
        JSON.stringify({ ...JSON.parse(await trusted.sign(manifest)), signature: `${'A'.repeat(86)}==` }),
        { code: 'signature_invalid' },
      ],
    ];
    for (const [, served, signature, expected] of cases) {
      const { db, registry } = await setUp();
      const { fetch, asked } = server(served, bytes, new Set(), signature);
      const error = await refusal(
        registry.installBundle(BASE, {
          fetch,
          policy: {
            trustedKeys: [trusted.key],
            allowedManifests: ['sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='],
          },
        }),
      );
      expect(error).toMatchObject(expected);
      expect(asked.every((url) => url.endsWith('.json') || url.endsWith('.sig'))).toBe(true);
      expect(await db.count('apps')).toBe(0);
      expect(await db.count('bundle_files')).toBe(0);
    }
  });
});
