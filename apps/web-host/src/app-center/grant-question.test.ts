/**
 * The question an install asks (grant-question.ts) and its answer through the app center, over a real registry
 * (fake-indexeddb): asked after an install, add, update or refresh that declares something new; never for what was
 * declared before or is granted; "Allow" grants what was shown (audited), "Not now" grants nothing; an answer to a
 * question the app outgrew grants nothing and asks again.
 */
import 'fake-indexeddb/auto';
import { type AppRecord, AppRegistry, openRuntimeDatabase } from '@lineup/runtime';
import type { McpConnector } from '@lineup/runtime/mcp';
import {
  bundleIntegrity,
  fileIntegrity,
  MINIAPP_MANIFEST_FILE_NAME,
  type MiniAppManifest,
} from '@lineup/shared/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCenter } from './app-center.ts';
import { grantQuestion, stillAsked } from './grant-question.ts';

const ORIGIN = 'https://host.example';
const BUNDLE_URL = `${ORIGIN}/bundles/weather/`;
const encoder = new TextEncoder();
let databases = 0;

/** Weather at `version`, whose page declares `connect`: one page, no tools. */
function weather(version: string, connect: readonly string[]) {
  const page = encoder.encode(`<!doctype html><title>Weather ${version}</title>`);
  const files = [{ path: 'index.html', size: page.length, integrity: fileIntegrity(page) }];
  const manifest: MiniAppManifest = {
    manifest_version: 1,
    id: 'com.example.weather',
    name: 'Weather',
    version,
    integrity: bundleIntegrity(files),
    files,
    app_scope: 'weather',
    entry: 'index.html',
    surfaces: [],
    permissions: [],
    tools: [],
    ...(connect.length > 0 ? { connect_domains: [...connect] } : {}),
  };
  return { manifest, page };
}

/** Serves Weather at BUNDLE_URL through the global fetch. */
function serve(version: string, connect: readonly string[]) {
  const { manifest, page } = weather(version, connect);
  vi.stubGlobal('fetch', async (input: URL | string) => {
    const path = String(input).slice(BUNDLE_URL.length);
    if (path === MINIAPP_MANIFEST_FILE_NAME) return new Response(JSON.stringify(manifest));
    if (path === 'index.html') return new Response(page as Uint8Array<ArrayBuffer>);
    return new Response(null, { status: 404 });
  });
}

/** An MCP server of one tool whose view declares `state.meta` (`_meta.ui` of its resource). */
function server(state: { meta: Record<string, unknown>; view?: string }): McpConnector {
  return async () => ({
    server: { name: 'Maps', version: '1.0.0' },
    protocolVersion: '2025-11-25',
    listTools: async () => ({
      tools: [
        {
          name: 'show-map',
          description: 'Shows a map.',
          inputSchema: { type: 'object', properties: {} },
          _meta: { ui: { resourceUri: 'ui://maps/view.html' } },
        },
      ],
    }),
    readResource: async (uri: string) => ({
      contents: [
        {
          uri,
          mimeType: 'text/html;profile=mcp-app',
          text: state.view ?? '<!doctype html><p>map</p>',
          _meta: { ui: state.meta },
        },
      ],
    }),
    callTool: async () => ({ content: [] }),
    close: async () => {},
  });
}

async function setUp(state: { meta: Record<string, unknown>; view?: string } = { meta: {} }) {
  const db = await openRuntimeDatabase(`grant-question-${databases++}`);
  const registry = new AppRegistry(db);
  let changed = 0;
  const listeners = new Set<() => void>();
  const host = {
    async appsChanged() {
      changed += 1;
      for (const listener of listeners) listener();
    },
    onAppsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const center = new AppCenter({
    db,
    registry,
    host,
    catalogue: [],
    baseUri: `${ORIGIN}/`,
    mcp: { connect: server(state), checkView: () => {} },
  });
  await center.refresh();
  const record = async (id: string) => (await registry.list()).find((app) => app.id === id) as AppRecord;
  const audit = async (id: string) => {
    await center.refresh();
    const app = center.snapshot.apps.find((candidate) => candidate.record.id === id);
    return (app?.audit ?? [])
      .filter((entry) => entry.type === 'consent_settings')
      .map((entry) => entry.detail);
  };
  return { db, registry, center, record, audit, changes: () => changed };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const MAP_META = {
  csp: { connectDomains: ['https://tiles.example.com'], resourceDomains: ['https://fonts.example.com'] },
  permissions: { geolocation: {} },
};

describe('the question an install asks', () => {
  it('a MiniApp whose page declares origins: asked at install, nothing granted until "Allow", which is audited', async () => {
    const { center, record, audit } = await setUp();
    serve('1.0.0', ['https://api.example.com/']);
    await center.installFromUrl('/bundles/weather/');
    const question = center.snapshot.grantQuestion;
    expect(question).toEqual({
      appId: 'com.example.weather',
      name: 'Weather',
      kind: undefined,
      asks: [{ part: 'page', connect: ['https://api.example.com'], resources: [], devices: [] }],
    });
    expect((await record('com.example.weather')).consent?.network).toBeUndefined();
    await center.answerGrantQuestion(question as NonNullable<typeof question>, true);
    expect(center.snapshot.grantQuestion).toBeUndefined();
    expect((await record('com.example.weather')).consent?.network).toEqual({
      page: ['https://api.example.com'],
    });
    expect(await audit('com.example.weather')).toEqual(['page may connect to https://api.example.com']);
  });

  it('"Not now" grants nothing and writes nothing; the same bundle again asks nothing', async () => {
    const { center, record, audit, changes } = await setUp();
    serve('1.0.0', ['https://api.example.com']);
    await center.installFromUrl('/bundles/weather/');
    const before = changes();
    await center.answerGrantQuestion(center.snapshot.grantQuestion as never, false);
    expect(center.snapshot.grantQuestion).toBeUndefined();
    expect((await record('com.example.weather')).consent).toBeUndefined();
    expect(await audit('com.example.weather')).toEqual([]);
    expect(changes()).toBe(before);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.url).toMatchObject({ status: 'done', result: { kind: 'unchanged' } });
    expect(center.snapshot.grantQuestion).toBeUndefined();
  });

  it('an update asks again only for what it newly declares, and "Allow" then grants all it declares', async () => {
    const { center, record } = await setUp();
    serve('1.0.0', ['https://api.example.com']);
    await center.installFromUrl('/bundles/weather/');
    await center.answerGrantQuestion(center.snapshot.grantQuestion as never, true);
    // The same declarations in a new version (a dev rebuild): nothing new, nothing asked.
    serve('1.0.1', ['https://api.example.com']);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.url).toMatchObject({ status: 'done', result: { kind: 'updated' } });
    expect(center.snapshot.grantQuestion).toBeUndefined();
    // One more origin: the page keeps what was granted, gets nothing more, and is asked.
    serve('1.1.0', ['https://api.example.com', 'https://radar.example.com']);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.grantQuestion?.asks).toEqual([
      {
        part: 'page',
        connect: ['https://api.example.com', 'https://radar.example.com'],
        resources: [],
        devices: [],
      },
    ]);
    expect((await record('com.example.weather')).consent?.network).toEqual({
      page: ['https://api.example.com'],
    });
    await center.answerGrantQuestion(center.snapshot.grantQuestion as never, true);
    expect((await record('com.example.weather')).consent?.network).toEqual({
      page: ['https://api.example.com', 'https://radar.example.com'],
    });
  });

  it('an app that declares nothing grantable asks nothing', async () => {
    const { center } = await setUp();
    serve('1.0.0', []);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.url).toMatchObject({ status: 'done', result: { kind: 'installed' } });
    expect(center.snapshot.grantQuestion).toBeUndefined();
  });

  it('an MCP server whose view declares origins and a device: asked when added, granted as shown', async () => {
    const meta = {
      csp: {
        ...MAP_META.csp,
        connectDomains: [...MAP_META.csp.connectDomains, "'self'"],
        frameDomains: ['https://embed.example.com'],
      },
      permissions: { ...MAP_META.permissions, camera: {} },
    };
    const { center, record, audit } = await setUp({ meta });
    await center.installMcpServer('http://127.0.0.1:3001/mcp');
    const question = center.snapshot.grantQuestion;
    expect(question).toMatchObject({
      appId: 'mcp.maps',
      name: 'Maps',
      kind: 'mcp_server',
      asks: [
        {
          uri: 'ui://maps/view.html',
          connect: ['https://tiles.example.com'],
          resources: ['https://fonts.example.com'],
          devices: ['geolocation'],
          // Said beside the question, never granted.
          withheld: { domains: ["'self'", 'https://embed.example.com'], media: true },
        },
      ],
    });
    const part = question?.asks[0]?.part as string;
    await center.answerGrantQuestion(question as never, true);
    expect((await record('mcp.maps')).consent?.network).toEqual({
      [part]: ['https://tiles.example.com', 'https://fonts.example.com', 'geolocation'],
    });
    expect(await audit('mcp.maps')).toHaveLength(1);
  });

  it('a refresh that declares more asks again; one that changed only the markup does not', async () => {
    const state = { meta: MAP_META, view: '<!doctype html><p>map</p>' } as {
      meta: Record<string, unknown>;
      view: string;
    };
    const { center } = await setUp(state);
    await center.installMcpServer('http://127.0.0.1:3001/mcp');
    await center.answerGrantQuestion(center.snapshot.grantQuestion as never, true);
    state.view = '<!doctype html><p>map 2</p>';
    await center.checkForUpdate('mcp.maps');
    expect(center.snapshot.actions.get('mcp.maps')).toMatchObject({
      status: 'done',
      result: { kind: 'updated' },
    });
    expect(center.snapshot.grantQuestion).toBeUndefined();
    state.meta = { ...MAP_META, permissions: { geolocation: {}, clipboardWrite: {} } };
    await center.checkForUpdate('mcp.maps');
    expect(center.snapshot.grantQuestion?.asks[0]?.devices).toEqual(['geolocation', 'clipboard-write']);
  });

  it('an answer to a question the app outgrew grants nothing and asks what it declares now', async () => {
    const { center, record } = await setUp();
    serve('1.0.0', ['https://api.example.com']);
    await center.installFromUrl('/bundles/weather/');
    const first = center.snapshot.grantQuestion as NonNullable<typeof center.snapshot.grantQuestion>;
    // Updated behind the question's back (its own question replaced it; the old one is answered late).
    serve('1.1.0', ['https://api.example.com', 'https://radar.example.com']);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.grantQuestion).not.toBe(first);
    await center.answerGrantQuestion(first, true);
    expect((await record('com.example.weather')).consent?.network).toBeUndefined();
    // What the app declares now is what the pure check compares against.
    expect(stillAsked(first, await record('com.example.weather'))).toBe(false);
    const current = center.snapshot.grantQuestion as NonNullable<typeof center.snapshot.grantQuestion>;
    expect(stillAsked(current, await record('com.example.weather'))).toBe(true);
    await center.answerGrantQuestion(current, true);
    expect((await record('com.example.weather')).consent?.network).toEqual({
      page: ['https://api.example.com', 'https://radar.example.com'],
    });
  });

  it('a question whose app was uninstalled is withdrawn', async () => {
    const { center } = await setUp();
    serve('1.0.0', ['https://api.example.com']);
    await center.installFromUrl('/bundles/weather/');
    expect(center.snapshot.grantQuestion).toBeDefined();
    await center.uninstall('com.example.weather');
    expect(center.snapshot.grantQuestion).toBeUndefined();
  });
});

describe('grantQuestion', () => {
  const page = (connect: readonly string[], granted?: readonly string[]): AppRecord => ({
    id: 'com.example.weather',
    manifest: weather('1.0.0', connect).manifest,
    bundleUrl: BUNDLE_URL,
    enabled: true,
    installedAt: 0,
    updatedAt: 0,
    ...(granted === undefined ? {} : { consent: { network: { page: granted } } }),
  });

  it.each<[string, AppRecord | undefined, AppRecord, boolean]>([
    ['a new app declaring an origin', undefined, page(['https://a.example']), true],
    ['a new app declaring none', undefined, page([]), false],
    ['a new app declaring only what cannot be granted', undefined, page(['http://a.example']), false],
    ['the same declarations again', page(['https://a.example']), page(['https://a.example']), false],
    ['one more origin', page(['https://a.example']), page(['https://a.example', 'https://b.example']), true],
    [
      'one fewer origin',
      page(['https://a.example', 'https://b.example']),
      page(['https://a.example']),
      false,
    ],
    [
      'one more origin, all of it granted already',
      page(['https://a.example']),
      page(['https://a.example', 'https://b.example'], ['https://a.example', 'https://b.example']),
      false,
    ],
  ])('%s: asks %s', (_name, before, after, asks) => {
    expect(grantQuestion(before, after) !== undefined).toBe(asks);
  });
});
