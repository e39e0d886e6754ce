/**
 * The app center's logic over a real registry (fake-indexeddb): every action goes through `AppRegistry`, is followed
 * by `host.appsChanged()` when it changed something, and the snapshot is read again from the database; refusals
 * keep the file and both digests; other origins are refused before anything is fetched; the catalogue installs at
 * a profile's first start only.
 */
import 'fake-indexeddb/auto';
import { AppRegistry, openRuntimeDatabase, type RuntimeDatabase } from '@lineup/runtime';
import type { McpConnector } from '@lineup/runtime/mcp';
import {
  bundleIntegrity,
  fileIntegrity,
  MINIAPP_MANIFEST_FILE_NAME,
  type MiniAppManifest,
} from '@lineup/shared/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCenter } from './app-center.ts';
import { pickedFolderFiles, sameOriginBundleUrl } from './bundle-sources.ts';
import { type CatalogueEntry, installCatalogueAtFirstStart } from './catalogue.ts';
import { formatBytes } from './installed-apps.ts';
import type { AppCenterSnapshot } from './snapshot.ts';

const ORIGIN = 'https://host.example';
const BASE_URI = `${ORIGIN}/`;
const NOTES_URL = `${ORIGIN}/bundles/notes/`;
const CATALOGUE: readonly CatalogueEntry[] = [
  { id: 'com.example.notes', name: 'Notes', bundleUrl: './bundles/notes/' },
];
const encoder = new TextEncoder();
let databases = 0;

/** A bundle of Notes at `version`: its manifest (one tool, one Surface) and its files. */
function notesBundle(version: string) {
  const bytes = new Map<string, Uint8Array>([
    ['index.html', encoder.encode(`<!doctype html><title>Notes ${version}</title>`)],
    ['card.html', encoder.encode('<!doctype html><title>Card</title>')],
  ]);
  const files = [...bytes].map(([path, data]) => ({
    path,
    size: data.length,
    integrity: fileIntegrity(data),
  }));
  const manifest: MiniAppManifest = {
    manifest_version: 1,
    id: 'com.example.notes',
    name: 'Notes',
    version,
    integrity: bundleIntegrity(files),
    files,
    app_scope: 'notes',
    entry: 'index.html',
    surfaces: [{ id: 'card', entry: 'card.html', events: ['note.saved'] }],
    permissions: [],
    tools: [
      {
        app_scope: 'notes',
        method: 'add',
        contract_version: '1.0',
        description: 'Adds a note.',
        input_schema: { type: 'object', properties: {}, additionalProperties: false },
        output_schema: { type: 'object' },
        call_model: 'command',
        idempotency: 'call_id',
        timeout_ms: 10_000,
        activation: 'app_ready',
        risk: 'user_confirmation',
        permissions: [],
        executor: { kind: 'miniapp_sdk' },
      },
    ],
  };
  return { manifest, bytes };
}

/** Serves one bundle at NOTES_URL through the global fetch; `tamper` changes a file after the manifest was made. */
function serve(version: string, tamper?: string) {
  const { manifest, bytes } = notesBundle(version);
  if (tamper !== undefined) {
    // One byte changed, the size kept: only the digest tells.
    const changed = new Uint8Array(bytes.get(tamper) as Uint8Array);
    changed[changed.length - 2] = (changed[changed.length - 2] as number) ^ 1;
    bytes.set(tamper, changed);
  }
  const fetch = vi.fn(async (input: URL | string) => {
    const url = String(input);
    if (!url.startsWith(NOTES_URL)) return new Response(null, { status: 404 });
    const path = url.slice(NOTES_URL.length);
    if (path === MINIAPP_MANIFEST_FILE_NAME) return new Response(JSON.stringify(manifest));
    const data = bytes.get(path);
    return data === undefined
      ? new Response(null, { status: 404 })
      : new Response(data as Uint8Array<ArrayBuffer>);
  });
  vi.stubGlobal('fetch', fetch);
  return { manifest, bytes, fetch };
}

/** A host that records `appsChanged` and tells its listeners, as HostRuntime does. */
function fakeHost() {
  const listeners = new Set<() => void>();
  const host = {
    changed: 0,
    async appsChanged() {
      host.changed += 1;
      for (const listener of listeners) listener();
    },
    onAppsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return host;
}

async function setUp() {
  const db = await openRuntimeDatabase(`app-center-${databases++}`);
  const registry = new AppRegistry(db);
  const host = fakeHost();
  const center = new AppCenter({ db, registry, host, catalogue: CATALOGUE, baseUri: BASE_URI });
  await center.refresh();
  return { db, registry, host, center };
}

const notes = (snapshot: AppCenterSnapshot) =>
  snapshot.apps.find((app) => app.record.id === 'com.example.notes');

/** A File as an `<input webkitdirectory>` gives it: its path starts with the picked folder's name. */
function pickedFile(relativePath: string, data: Uint8Array | string): File {
  const file = new File([data as BlobPart], relativePath.split('/').at(-1) as string);
  Object.defineProperty(file, 'webkitRelativePath', { value: relativePath });
  return file;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sameOriginBundleUrl', () => {
  const rows: [string, string, string][] = [
    ['a path', '/bundles/notes/', `${ORIGIN}/bundles/notes/`],
    ['a relative path', './bundles/notes', `${ORIGIN}/bundles/notes/`],
    ['the full URL', `${ORIGIN}/bundles/notes/`, `${ORIGIN}/bundles/notes/`],
    ['the manifest URL', `${ORIGIN}/bundles/notes/lineup.manifest.json`, `${ORIGIN}/bundles/notes/`],
    ['a query and a fragment dropped', ' /bundles/notes/?v=2#top ', `${ORIGIN}/bundles/notes/`],
    ['another site', 'https://evil.example/notes/', `other_origin ${ORIGIN}`],
    ['another port', 'https://host.example:8443/notes/', `other_origin ${ORIGIN}`],
    ['plain http of this host', 'http://host.example/notes/', `other_origin ${ORIGIN}`],
    ['a protocol-relative URL', '//evil.example/notes/', `other_origin ${ORIGIN}`],
    ['a script URL', 'javascript:alert(1)', 'invalid_url'],
    ['nothing', '  ', 'invalid_url'],
  ];
  for (const [rule, input, expected] of rows)
    it(rule, () => {
      const result = sameOriginBundleUrl(input, BASE_URI);
      expect(
        result instanceof URL
          ? result.href
          : `${result.kind}${'origin' in result ? ` ${result.origin}` : ''}`,
      ).toBe(expected);
    });
});

describe('pickedFolderFiles and formatBytes', () => {
  it('strips the picked folder’s own name from each path', () => {
    const picked = pickedFolderFiles([
      pickedFile('dist/lineup.manifest.json', '{}'),
      pickedFile('dist/assets/app.js', 'x'),
    ]);
    expect(picked.folder).toBe('dist');
    expect([...picked.files.keys()]).toEqual(['lineup.manifest.json', 'assets/app.js']);
    expect([...pickedFolderFiles([new File(['{}'], 'lineup.manifest.json')]).files.keys()]).toEqual([
      'lineup.manifest.json',
    ]);
  });

  it('words sizes for people', () => {
    expect([0, 1023, 1024, 154_160, 1_572_864].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '150.5 KiB',
      '1.5 MiB',
    ]);
  });
});

describe('AppCenter', () => {
  it('installs from a URL, disables, enables, checks for updates, upgrades, refuses a tampered update, uninstalls and re-installs from the catalogue', async () => {
    const { host, center } = await setUp();
    expect(center.snapshot.available.map((entry) => entry.id)).toEqual(['com.example.notes']);

    const first = serve('1.0.0');
    await center.installFromUrl('/bundles/notes/');
    expect(center.snapshot.url).toEqual({
      status: 'done',
      action: 'install',
      result: { kind: 'installed', name: 'Notes', version: '1.0.0' },
    });
    expect(host.changed).toBe(1);
    const installed = notes(center.snapshot);
    expect(installed).toMatchObject({
      bundleBytes: (first.manifest.files ?? []).reduce((sum, file) => sum + file.size, 0),
      picked: false,
      refused: undefined,
    });
    expect(installed?.audit.map((entry) => entry.type)).toEqual(['app_installed']);
    expect(center.snapshot.available).toEqual([]);
    expect(center.snapshot.inventory?.revision).toBe('inventory-1');

    await center.setEnabled('com.example.notes', false);
    expect(center.snapshot.actions.get('com.example.notes')).toMatchObject({
      status: 'done',
      result: { kind: 'disabled', name: 'Notes' },
    });
    expect(notes(center.snapshot)?.record.enabled).toBe(false);
    expect(center.snapshot.inventory).toMatchObject({ revision: 'inventory-2', applications: [] });
    await center.setEnabled('com.example.notes', true);
    expect(center.snapshot.inventory?.revision).toBe('inventory-3');
    expect(notes(center.snapshot)?.audit.map((entry) => entry.type)).toEqual([
      'app_enabled',
      'app_disabled',
      'app_installed',
    ]);
    expect(host.changed).toBe(3);

    // The same bundle again: up to date, nothing written, no change to announce.
    await center.checkForUpdate('com.example.notes');
    expect(center.snapshot.actions.get('com.example.notes')).toMatchObject({
      status: 'done',
      action: 'update',
      result: { kind: 'unchanged', name: 'Notes', version: '1.0.0' },
    });
    expect(host.changed).toBe(3);

    serve('2.0.0');
    await center.checkForUpdate('com.example.notes');
    expect(center.snapshot.actions.get('com.example.notes')).toMatchObject({
      status: 'done',
      result: { kind: 'updated', name: 'Notes', from: '1.0.0', to: '2.0.0' },
    });
    expect(notes(center.snapshot)?.record).toMatchObject({
      manifest: { version: '2.0.0' },
      previous: { manifest: { version: '1.0.0' } },
    });
    expect(host.changed).toBe(4);

    const tampered = serve('3.0.0', 'index.html');
    await center.checkForUpdate('com.example.notes');
    const expected = tampered.manifest.files?.find((file) => file.path === 'index.html')?.integrity;
    expect(center.snapshot.actions.get('com.example.notes')).toEqual({
      status: 'failed',
      action: 'update',
      problem: {
        kind: 'integrity',
        code: 'digest_mismatch',
        path: 'index.html',
        expected,
        actual: fileIntegrity(tampered.bytes.get('index.html') as Uint8Array),
        message: expect.stringMatching(/^index\.html does not match the manifest: expected sha256-/),
      },
    });
    // Nothing changed: still 2.0.0, its upgrade still pending; the refusal is on the record.
    expect(notes(center.snapshot)?.record.manifest.version).toBe('2.0.0');
    expect(notes(center.snapshot)?.refused).toMatchObject({
      type: 'bundle_rejected',
      detail: 'digest_mismatch index.html',
    });
    expect(host.changed).toBe(4);

    await center.uninstall('com.example.notes');
    expect(center.snapshot.apps).toEqual([]);
    expect(center.snapshot.available.map((entry) => entry.id)).toEqual(['com.example.notes']);
    expect(center.snapshot.actions.get('com.example.notes')).toMatchObject({
      status: 'done',
      result: { kind: 'uninstalled', name: 'Notes' },
    });
    expect(host.changed).toBe(5);

    serve('2.0.0');
    await center.installFromCatalogue(CATALOGUE[0] as CatalogueEntry);
    expect(notes(center.snapshot)?.record).toMatchObject({
      manifest: { version: '2.0.0' },
      bundleUrl: NOTES_URL,
      enabled: true,
    });
    expect(notes(center.snapshot)?.record).not.toHaveProperty('previous');
    expect(host.changed).toBe(6);
  });

  it('refuses another origin before anything is fetched', async () => {
    const { host, center } = await setUp();
    const { fetch } = serve('1.0.0');
    await center.installFromUrl('https://evil.example/bundles/notes/');
    expect(center.snapshot.url).toEqual({
      status: 'failed',
      action: 'install',
      problem: { kind: 'other_origin', origin: ORIGIN },
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(host.changed).toBe(0);
  });

  it('shows an invalid manifest’s issues, and a failure it did not expect as what it is', async () => {
    const { center } = await setUp();
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ manifest_version: 1, id: 'x' })));
    await center.installFromUrl('/bundles/broken/');
    expect(center.snapshot.url).toMatchObject({ status: 'failed', problem: { kind: 'protocol' } });
    const problem = center.snapshot.url.status === 'failed' ? center.snapshot.url.problem : undefined;
    expect(problem?.kind === 'protocol' && problem.issues.length).toBeGreaterThan(0);
    vi.stubGlobal('fetch', async () => new Response('not json'));
    await center.installFromUrl('/bundles/broken/');
    expect(center.snapshot.url).toMatchObject({
      status: 'failed',
      problem: { kind: 'failed', message: expect.stringMatching(/^SyntaxError: /) },
    });
  });

  it('installs from a picked folder (its name stripped), verifies it, and refuses a tampered picked file', async () => {
    const { host, center } = await setUp();
    const { manifest, bytes } = notesBundle('1.0.0');
    const folder = (changed?: string) => [
      pickedFile('notes-dist/lineup.manifest.json', JSON.stringify(manifest)),
      ...[...bytes].map(([path, data]) =>
        pickedFile(`notes-dist/${path}`, path === changed ? encoder.encode('changed') : data),
      ),
    ];
    await center.installFromFolder(folder('card.html'));
    expect(center.snapshot.folder).toMatchObject({
      status: 'failed',
      problem: { kind: 'integrity', code: 'size_mismatch', path: 'card.html' },
    });
    expect(center.snapshot.apps).toEqual([]);
    await center.installFromFolder(folder());
    expect(center.snapshot.folder).toMatchObject({
      status: 'done',
      result: { kind: 'installed', name: 'Notes', version: '1.0.0' },
    });
    expect(notes(center.snapshot)).toMatchObject({
      picked: true,
      record: { bundleUrl: 'https://picked.lineup.invalid/' },
    });
    expect(host.changed).toBe(1);
    // No URL to fetch again: an update is picking the folder again.
    await center.checkForUpdate('com.example.notes');
    expect(center.snapshot.actions.get('com.example.notes')).toMatchObject({
      status: 'failed',
      problem: { kind: 'no_bundle_url' },
    });
    await center.installFromFolder([pickedFile('other/index.html', 'x')]);
    expect(center.snapshot.folder).toMatchObject({
      status: 'failed',
      problem: { kind: 'no_manifest', folder: 'other' },
    });
    await center.installFromFolder([]);
    expect(center.snapshot.folder).toMatchObject({ problem: { kind: 'nothing_picked' } });
  });

  it('reads again when the host says the apps changed (a first start that confirmed an upgrade)', async () => {
    const { registry, host, center } = await setUp();
    serve('1.0.0');
    await center.installFromUrl('/bundles/notes/');
    serve('2.0.0');
    await center.checkForUpdate('com.example.notes');
    expect(notes(center.snapshot)?.record.previous).toBeDefined();
    const seen = new Promise<void>((resolve) => {
      const stop = center.subscribe(() => {
        if (notes(center.snapshot)?.record.previous === undefined) {
          stop();
          resolve();
        }
      });
    });
    await registry.confirmStarted('com.example.notes');
    await host.appsChanged();
    await seen;
    expect(notes(center.snapshot)?.audit[0]).toMatchObject({
      type: 'app_upgrade_confirmed',
      detail: 'from 1.0.0',
    });
  });
});

describe('installCatalogueAtFirstStart', () => {
  async function database(): Promise<{ db: RuntimeDatabase; registry: AppRegistry }> {
    const db = await openRuntimeDatabase(`catalogue-${databases++}`);
    return { db, registry: new AppRegistry(db) };
  }

  it('installs at the first start only: an app the user uninstalled stays uninstalled', async () => {
    const { db, registry } = await database();
    const { fetch } = serve('1.0.0');
    expect(await installCatalogueAtFirstStart(db, registry, CATALOGUE, BASE_URI)).toEqual([]);
    expect((await registry.list()).map((app) => app.id)).toEqual(['com.example.notes']);
    const asked = fetch.mock.calls.length;
    // A later start fetches nothing and changes nothing.
    await installCatalogueAtFirstStart(db, registry, CATALOGUE, BASE_URI);
    expect(fetch.mock.calls.length).toBe(asked);
    await registry.uninstall('com.example.notes');
    await installCatalogueAtFirstStart(db, registry, CATALOGUE, BASE_URI);
    expect(await registry.list()).toEqual([]);
  });

  it('a first install that failed is reported with the file and both digests, and tried again next start', async () => {
    const { db, registry } = await database();
    serve('1.0.0', 'card.html');
    const problems = await installCatalogueAtFirstStart(db, registry, CATALOGUE, BASE_URI);
    expect(problems).toMatchObject([
      {
        bundleUrl: './bundles/notes/',
        problem: { kind: 'integrity', code: 'digest_mismatch', path: 'card.html' },
      },
    ]);
    expect(await registry.list()).toEqual([]);
    serve('1.0.0');
    expect(await installCatalogueAtFirstStart(db, registry, CATALOGUE, BASE_URI)).toEqual([]);
    expect((await registry.list()).map((app) => app.id)).toEqual(['com.example.notes']);
  });
});

describe('MCP servers', () => {
  const SERVER_URL = 'http://127.0.0.1:3001/mcp';
  const VIEW = '<!doctype html><p>clock</p>';

  /** A server of one tool with a view; `view` is what its resource says (changed by a test). */
  function server(state: { view: string; down?: boolean }): McpConnector {
    return async () => {
      if (state.down === true) throw new Error('connection refused');
      return {
        server: { name: 'Clock', version: '1.0.0' },
        protocolVersion: '2025-11-25',
        listTools: async () => ({
          tools: [
            {
              name: 'get-time',
              description: 'Returns the time.',
              inputSchema: { type: 'object', properties: {} },
              annotations: { readOnlyHint: true },
              _meta: { ui: { resourceUri: 'ui://clock/view.html' } },
            },
          ],
        }),
        readResource: async (uri: string) => ({
          contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: state.view }],
        }),
        callTool: async () => ({ content: [] }),
        close: async () => {},
      };
    };
  }

  async function setUpMcp(state: { view: string; down?: boolean }, checkView = (_html: string) => {}) {
    const db = await openRuntimeDatabase(`app-center-mcp-${databases++}`);
    const registry = new AppRegistry(db);
    const host = fakeHost();
    const center = new AppCenter({
      db,
      registry,
      host,
      catalogue: [],
      baseUri: BASE_URI,
      mcp: { connect: server(state), checkView },
    });
    await center.refresh();
    return { db, registry, host, center };
  }

  it('adds a server by URL: the app, its size (its views), a new inventory, and the host told', async () => {
    const { center, host } = await setUpMcp({ view: VIEW });
    await center.installMcpServer(SERVER_URL, ' ');
    const { mcp, apps, inventory } = center.snapshot;
    expect(mcp).toMatchObject({ status: 'done', result: { kind: 'installed', name: 'Clock' } });
    expect(apps).toHaveLength(1);
    expect(apps[0]?.record).toMatchObject({ kind: 'mcp_server', id: 'mcp.clock' });
    expect(apps[0]?.bundleBytes).toBe(encoder.encode(VIEW).length);
    expect(apps[0]?.picked).toBe(false);
    expect(inventory?.tools?.map((tool) => tool.name)).toEqual(['clock.get_time']);
    expect(host.changed).toBe(1);
    // The same server again changes nothing.
    await center.installMcpServer(SERVER_URL);
    expect(center.snapshot.mcp).toMatchObject({ status: 'done', result: { kind: 'unchanged' } });
    expect(host.changed).toBe(1);
  });

  it('adds it under the app scope the user typed', async () => {
    const { center } = await setUpMcp({ view: VIEW });
    await center.installMcpServer(SERVER_URL, 'time');
    expect(center.snapshot.apps[0]?.record.id).toBe('mcp.time');
  });

  it('refreshes: a changed view is a new version, with what changed; the same is up to date', async () => {
    const state = { view: VIEW };
    const { center, host } = await setUpMcp(state);
    await center.installMcpServer(SERVER_URL);
    await center.checkForUpdate('mcp.clock');
    expect(center.snapshot.actions.get('mcp.clock')).toMatchObject({
      status: 'done',
      result: { kind: 'unchanged' },
    });
    state.view = `${VIEW}<p>2</p>`;
    await center.checkForUpdate('mcp.clock');
    expect(center.snapshot.actions.get('mcp.clock')).toMatchObject({
      status: 'done',
      result: { kind: 'updated', change: { changedViews: ['ui://clock/view.html'], addedTools: [] } },
    });
    expect(host.changed).toBe(2);
  });

  it.each<[string, { view: string; down?: boolean }, (html: string) => void, string]>([
    ['a server that cannot be reached', { view: VIEW, down: true }, () => {}, 'unreachable'],
    [
      'a view the host cannot run',
      { view: '<script src="https://cdn.example.com/a.js"></script>' },
      () => {
        throw new Error('its script comes from a URL');
      },
      'view_refused',
    ],
  ])(
    'refuses %s with the runtime’s code and sentence, and keeps nothing',
    async (_name, state, check, code) => {
      const { center, host } = await setUpMcp(state, check);
      await center.installMcpServer(SERVER_URL);
      const failed = center.snapshot.mcp;
      expect(failed).toMatchObject({ status: 'failed', problem: { kind: 'mcp', code } });
      expect(center.snapshot.apps).toEqual([]);
      expect(host.changed).toBe(0);
    },
  );

  it('an access token: refused when it cannot be one, kept only once the server was added with it, forgotten on sign-out and uninstall', async () => {
    const db = await openRuntimeDatabase(`app-center-mcp-${databases++}`);
    const tokens = new Map<string, string>();
    const credentials = {
      has: (url: string) => tokens.has(url),
      kind: (url: string) => (tokens.has(url) ? ('token' as const) : undefined),
      token: (url: string) => tokens.get(url),
      set: async (url: string, token: string) => void tokens.set(url, token),
      remove: async (url: string) => void tokens.delete(url),
    };
    const open = server({ view: VIEW });
    // The server answers only with the token "right": as the SDK's 401 surfaces, an UnauthorizedError.
    const connect: McpConnector = async (url, options) => {
      if (tokens.get(url) !== 'right')
        throw Object.assign(new Error('Unauthorized'), { name: 'UnauthorizedError' });
      return open(url, options);
    };
    const center = new AppCenter({
      db,
      registry: new AppRegistry(db),
      host: fakeHost(),
      catalogue: [],
      baseUri: BASE_URI,
      mcp: { connect, checkView: () => {}, credentials },
    });
    await center.refresh();
    await center.installMcpServer(SERVER_URL, '', 'has spaces');
    expect(center.snapshot.mcp).toMatchObject({ status: 'failed', problem: { kind: 'bad_token' } });
    await center.installMcpServer(SERVER_URL);
    expect(center.snapshot.mcp).toMatchObject({
      status: 'failed',
      problem: { kind: 'mcp', code: 'unauthorized' },
    });
    await center.installMcpServer(SERVER_URL, '', 'wrong');
    expect(center.snapshot.mcp).toMatchObject({
      status: 'failed',
      problem: { kind: 'mcp', code: 'unauthorized' },
    });
    expect(tokens.size).toBe(0);
    await center.installMcpServer(SERVER_URL, '', ' right ');
    expect(center.snapshot.mcp).toMatchObject({ status: 'done', result: { kind: 'installed' } });
    expect(tokens.get(SERVER_URL)).toBe('right');
    expect(center.credentialKind('mcp.clock')).toBe('token');
    // A wrong token given again leaves the one that works.
    await center.installMcpServer(SERVER_URL, '', 'wrong');
    expect(tokens.get(SERVER_URL)).toBe('right');
    await center.forgetToken('mcp.clock');
    expect(center.snapshot.actions.get('mcp.clock')).toMatchObject({
      status: 'done',
      result: { kind: 'token_forgotten', name: 'Clock' },
    });
    expect(center.credentialKind('mcp.clock')).toBeUndefined();
    await center.installMcpServer(SERVER_URL, '', 'right');
    expect(center.credentialKind('mcp.clock')).toBe('token');
    await center.uninstall('mcp.clock');
    expect(tokens.size).toBe(0);
  });

  it('says so when the host was started without a way to reach MCP servers', async () => {
    const { center } = await setUp();
    await center.installMcpServer(SERVER_URL);
    expect(center.snapshot.mcp).toMatchObject({ status: 'failed', problem: { kind: 'mcp_unavailable' } });
  });
});
