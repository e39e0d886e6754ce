/**
 * The origins a user grants a MiniApp's page to connect to (`AppRegistry.setPageNetwork`): nothing by default, all
 * or nothing, only what its manifest declares in `connect_domains`, audited, revocable, and never more after an
 * upgrade that declares more (one that declares fewer loses the rest).
 */
import 'fake-indexeddb/auto';
import { defineAgentTools, generateManifest } from '@lineup/miniapp-sdk';
import { LineUpProtocolError } from '@lineup/shared';
import { fileIntegrity, MINIAPP_MANIFEST_FILE_NAME } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';

const BASE = 'https://host.example/apps/weather/';
const APP = 'com.example.weather';
const encoder = new TextEncoder();
const tools = defineAgentTools({ appScope: 'weather', tools: {} });

let db: RuntimeDatabase;
let registry: AppRegistry;
let databases = 0;

beforeEach(async () => {
  db = await openRuntimeDatabase(`page-network-${databases++}`);
  registry = new AppRegistry(db);
});

/** Installs (or upgrades to) a build of the weather app that declares `connectDomains`. */
async function install(version: string, connectDomains?: readonly string[]) {
  const bytes = new Map([
    ['index.html', encoder.encode('<!doctype html><script type="module" src="./app.js"></script>')],
    ['app.js', encoder.encode(`console.log(${JSON.stringify(version)})`)],
  ]);
  const files = [...bytes].map(([path, data]) => ({
    path,
    size: data.length,
    integrity: fileIntegrity(data),
  }));
  const manifest = generateManifest(
    { id: APP, name: 'Weather', version, ...(connectDomains === undefined ? {} : { connectDomains }) },
    tools,
    files,
  );
  const fetch = async (url: URL) => {
    const path = url.href.slice(BASE.length);
    if (path === MINIAPP_MANIFEST_FILE_NAME) return new Response(JSON.stringify(manifest));
    const data = bytes.get(path);
    return data === undefined
      ? new Response('not found', { status: 404 })
      : new Response(data as Uint8Array<ArrayBuffer>);
  };
  return registry.installBundle(BASE, { fetch });
}

const sources = async () => (await registry.bundleFiles(APP)).connectSources;
const details = async () =>
  (await db.getAll('audit'))
    .filter((entry) => entry.type === 'consent_settings')
    .map((entry) => entry.detail);

describe('AppRegistry.setPageNetwork', () => {
  it('grants nothing by default; a grant gives the page every origin it declares, and a revocation takes them', async () => {
    await install('1.0.0', ['https://API.example.com/', 'wss://live.example.com']);
    expect(await sources()).toEqual([]);
    await registry.setPageNetwork(APP, true);
    expect(await sources()).toEqual(['https://api.example.com', 'wss://live.example.com']);
    await registry.setPageNetwork(APP, false);
    expect(await sources()).toEqual([]);
    expect(await details()).toEqual([
      'page may connect to https://api.example.com, wss://live.example.com',
      'page may connect to nothing',
    ]);
    expect((await registry.list())[0]?.consent?.network).toBeUndefined();
  });

  it('an upgrade that declares more gets nothing more; one that declares fewer loses the rest', async () => {
    await install('1.0.0', ['https://api.example.com']);
    await registry.setPageNetwork(APP, true);
    await install('1.1.0', ['https://api.example.com', 'https://tracker.example.com']);
    expect(await sources()).toEqual(['https://api.example.com']);
    await install('1.2.0', ['https://other.example.com']);
    expect(await sources()).toEqual([]);
    await install('1.3.0');
    expect(await sources()).toEqual([]);
  });

  it('refuses a grant of a page that declares nothing, or of an app not installed; nothing changes', async () => {
    await install('1.0.0');
    await expect(registry.setPageNetwork(APP, true)).rejects.toThrow(LineUpProtocolError);
    await expect(registry.setPageNetwork(APP, true)).rejects.toThrow(
      'This app declares no origin its page connects to.',
    );
    await expect(registry.setPageNetwork('com.example.none', true)).rejects.toThrow(LineUpProtocolError);
    expect(await details()).toEqual([]);
    expect((await registry.list())[0]?.consent).toBeUndefined();
  });
});
