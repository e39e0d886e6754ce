/**
 * The origins a user grants an MCP server's view to connect to (`AppRegistry.setViewNetwork`): nothing by default,
 * all or nothing per view, only what the view declared and can be granted, audited, revocable, and never more after
 * a refresh that declares more.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { sdkServer } from '../../test/mcp-servers.js';
import { AppRegistry } from '../apps/registry.js';
import { installMcpServer, refreshMcpServer } from '../mcp/install.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';

let db: RuntimeDatabase;
let databases = 0;

beforeEach(async () => {
  db = await openRuntimeDatabase(`view-network-${databases++}`);
});

const VIEW = '<!doctype html><html><body><p>Map</p></body></html>';

/** A server with a map view that declares the origins it needs, and a plain view that declares none. */
function mapServer(connectDomains: readonly string[]) {
  return sdkServer({
    name: 'Maps',
    tools: [
      {
        name: 'show-map',
        description: 'Shows a map.',
        _meta: { ui: { resourceUri: 'ui://maps/map.html' } },
        run: () => ({ content: [{ type: 'text', text: 'map' }] }),
      },
      {
        name: 'show-plain',
        description: 'Shows a plain view.',
        _meta: { ui: { resourceUri: 'ui://maps/plain.html' } },
        run: () => ({ content: [{ type: 'text', text: 'plain' }] }),
      },
    ],
    resources: [
      {
        uri: 'ui://maps/map.html',
        text: VIEW,
        _meta: {
          ui: {
            csp: { connectDomains: [...connectDomains], resourceDomains: ['https://tiles.example.com'] },
          },
        },
      },
      { uri: 'ui://maps/plain.html', text: VIEW },
    ],
  });
}

async function installed(connectDomains: readonly string[]) {
  const registry = new AppRegistry(db);
  const server = mapServer(connectDomains);
  const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
  const view = (uri: string) => manifest.views.find((candidate) => candidate.uri === uri)?.id as string;
  return {
    registry,
    server,
    appId: manifest.id,
    map: view('ui://maps/map.html'),
    plain: view('ui://maps/plain.html'),
  };
}

describe('AppRegistry.setViewNetwork', () => {
  it('grants nothing by default; a grant gives the view every origin it declared that can be granted', async () => {
    const { registry, appId, map, plain } = await installed([
      'https://API.example.com/',
      'wss://live.example.com',
      "'self'",
      'http://example.com',
    ]);
    expect((await registry.mcpViewFiles(appId)).connectSources.size).toBe(0);
    await registry.setViewNetwork(appId, map, true);
    const { connectSources } = await registry.mcpViewFiles(appId);
    // 'self' and plain http to another machine cannot be granted; resourceDomains are not connect origins.
    expect([...connectSources]).toEqual([[map, ['https://api.example.com', 'wss://live.example.com']]]);
    expect(connectSources.has(plain)).toBe(false);
  });

  it('is audited, revocable, and the revocation is audited too', async () => {
    const { registry, appId, map } = await installed(['https://api.example.com']);
    await registry.setViewNetwork(appId, map, true);
    await registry.setViewNetwork(appId, map, false);
    expect((await registry.mcpViewFiles(appId)).connectSources.size).toBe(0);
    const details = (await db.getAll('audit'))
      .filter((entry) => entry.type === 'consent_settings')
      .map((entry) => entry.detail);
    expect(details).toEqual([
      'view ui://maps/map.html may connect to https://api.example.com and load images, styles, fonts and media from https://tiles.example.com',
      'view ui://maps/map.html may connect to nothing',
    ]);
    expect((await registry.list()).find((app) => app.id === appId)?.consent?.network).toBeUndefined();
  });

  it('refuses a view that declares nothing to grant, a view the server lacks, and a MiniApp; nothing changes', async () => {
    const { registry, appId, plain } = await installed(["'self'"]);
    const audited = await db.count('audit');
    await expect(registry.setViewNetwork(appId, plain, true)).rejects.toThrow(/declares no origin/);
    await expect(registry.setViewNetwork(appId, 'no-such-view', true)).rejects.toThrow(/no view of this id/);
    await expect(registry.setViewNetwork('com.example.none', plain, true)).rejects.toThrow();
    expect(await db.count('audit')).toBe(audited);
    expect((await registry.mcpViewFiles(appId)).connectSources.size).toBe(0);
  });

  it('after a refresh that declares more, the view keeps only what was granted (and still declared)', async () => {
    const first = await installed(['https://api.example.com', 'https://old.example.com']);
    await first.registry.setViewNetwork(first.appId, first.map, true);
    // The server now declares one origin fewer and one more.
    const next = mapServer(['https://api.example.com', 'https://new.example.com']);
    await refreshMcpServer(first.registry, first.appId, { connect: next.connect });
    const { manifest, connectSources } = await first.registry.mcpViewFiles(first.appId);
    const map = manifest.views.find((view) => view.uri === 'ui://maps/map.html')?.id as string;
    expect(connectSources.get(map)).toEqual(['https://api.example.com']);
  });

  it('grants its declared resource origins with it, each kind read against its own list', async () => {
    const { registry, appId, map } = await installed(['https://api.example.com']);
    expect((await registry.mcpViewFiles(appId)).resourceSources.size).toBe(0);
    await registry.setViewNetwork(appId, map, true);
    const { connectSources, resourceSources } = await registry.mcpViewFiles(appId);
    expect(connectSources.get(map)).toEqual(['https://api.example.com']);
    // The tiles origin may be loaded from (images, styles, fonts, media), not connected to; the API the reverse.
    expect(resourceSources.get(map)).toEqual(['https://tiles.example.com']);
    await registry.setViewNetwork(appId, map, false);
    expect((await registry.mcpViewFiles(appId)).resourceSources.size).toBe(0);
  });

  it('grants a view that declares only resource origins', async () => {
    const { registry, appId, map } = await installed([]);
    await registry.setViewNetwork(appId, map, true);
    const { connectSources, resourceSources } = await registry.mcpViewFiles(appId);
    expect(connectSources.size).toBe(0);
    expect(resourceSources.get(map)).toEqual(['https://tiles.example.com']);
    const details = (await db.getAll('audit'))
      .filter((entry) => entry.type === 'consent_settings')
      .map((entry) => entry.detail);
    expect(details).toEqual([
      'view ui://maps/map.html may load images, styles, fonts and media from https://tiles.example.com',
    ]);
  });

  it('grants the geolocation and clipboard writing a view declares with it, never camera or microphone', async () => {
    const server = sdkServer({
      name: 'Places',
      tools: [
        {
          name: 'show-place',
          description: 'Shows a place.',
          _meta: { ui: { resourceUri: 'ui://places/view.html' } },
          run: () => ({ content: [{ type: 'text', text: 'place' }] }),
        },
      ],
      resources: [
        {
          uri: 'ui://places/view.html',
          text: VIEW,
          _meta: { ui: { permissions: { geolocation: {}, clipboardWrite: {}, camera: {}, microphone: {} } } },
        },
      ],
    });
    const registry = new AppRegistry(db);
    const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    const view = manifest.views[0]?.id as string;
    expect((await registry.mcpViewFiles(manifest.id)).devices.size).toBe(0);
    await registry.setViewNetwork(manifest.id, view, true);
    const { devices, connectSources, resourceSources } = await registry.mcpViewFiles(manifest.id);
    expect(devices.get(view)).toEqual(['geolocation', 'clipboard-write']);
    expect(connectSources.size + resourceSources.size).toBe(0);
    const details = (await db.getAll('audit'))
      .filter((entry) => entry.type === 'consent_settings')
      .map((entry) => entry.detail);
    expect(details).toEqual(['view ui://places/view.html may use geolocation, clipboard-write']);
    await registry.setViewNetwork(manifest.id, view, false);
    expect((await registry.mcpViewFiles(manifest.id)).devices.size).toBe(0);
  });
});
