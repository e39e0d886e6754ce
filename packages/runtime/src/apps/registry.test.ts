/** The app registry against fake-indexeddb; the web host's Playwright tests prove it in Chromium's IndexedDB. */
import 'fake-indexeddb/auto';
import { LineUpProtocolError } from '@lineup/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { pomodoroManifest, pomodoroTool } from '../../test/manifests.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { AppRegistry } from './registry.js';

const manifest = pomodoroManifest;

let db: RuntimeDatabase;
let registry: AppRegistry;
let time = 1_000;
let name = 0;
const clock = { now: () => time++ };

beforeEach(async () => {
  db = await openRuntimeDatabase(`registry-test-${name++}`);
  registry = new AppRegistry(db, { clock });
});

const counts = async () => ({
  apps: await db.count('apps'),
  audit: await db.count('audit'),
  outbox: await db.count('outbox'),
  revision: (await registry.inventory()).revision,
});

describe('AppRegistry', () => {
  it('starts with an empty inventory of revision 0 that lists the DSL renderer', async () => {
    expect(await registry.inventory()).toEqual({
      revision: 'inventory-0',
      standard_components: [{ id: 'intelligent_ui', version: '1.1' }],
      applications: [],
      capabilities: [],
    });
  });

  it('installs an app: its record, a new inventory with its tools, an audit entry and an outbox row', async () => {
    expect(await registry.install(manifest(), { bundleUrl: '/apps/pomodoro/' })).toBe('installed');
    const [record] = await registry.list();
    expect(record).toMatchObject({ id: 'com.lineup.pomodoro', enabled: true, bundleUrl: '/apps/pomodoro/' });
    const inventory = await registry.inventory();
    expect(inventory.revision).toBe('inventory-1');
    expect(inventory.applications).toEqual([{ id: 'com.lineup.pomodoro', version: '1.0.0', surfaces: [] }]);
    expect(inventory.tools?.map((entry) => entry.name)).toEqual(['pomodoro.start', 'pomodoro.interrupt']);
    expect(inventory.tools?.[0]).not.toHaveProperty('executor');
    const [outbox] = await db.getAll('outbox');
    expect(outbox).toMatchObject({
      type: 'lineup.v1.client.inventory',
      pending: 1,
      payload: inventory,
    });
    expect(await db.getAll('audit')).toEqual([
      expect.objectContaining({ type: 'app_installed', appId: 'com.lineup.pomodoro', version: '1.0.0' }),
    ]);
  });

  it('writes nothing for the same manifest again; a new version is an update with a new revision', async () => {
    await registry.install(manifest(), { bundleUrl: '/apps/pomodoro/' });
    expect(await registry.install(manifest(), { bundleUrl: '/apps/pomodoro/' })).toBe('unchanged');
    expect(await counts()).toEqual({ apps: 1, audit: 1, outbox: 1, revision: 'inventory-1' });
    expect(await registry.install(manifest({ version: '1.1.0' }), { bundleUrl: '/apps/pomodoro/' })).toBe(
      'updated',
    );
    expect(await counts()).toEqual({ apps: 1, audit: 2, outbox: 2, revision: 'inventory-2' });
    expect((await registry.inventory()).applications[0]?.version).toBe('1.1.0');
  });

  it('refuses an invalid manifest and a clashing app scope, writing nothing', async () => {
    await registry.install(manifest(), { bundleUrl: '/apps/pomodoro/' });
    const before = await counts();
    await expect(
      registry.install({ ...manifest(), handler: 'alert(1)' }, { bundleUrl: '/x/' }),
    ).rejects.toBeInstanceOf(LineUpProtocolError);
    await expect(
      registry.install(manifest({ id: 'com.example.other' }), { bundleUrl: '/apps/other/' }),
    ).rejects.toThrow(/app scope/);
    expect(await counts()).toEqual(before);
  });

  it('publishes a new inventory when an app is disabled or enabled, and only then', async () => {
    await registry.install(manifest(), { bundleUrl: '/apps/pomodoro/' });
    expect(await registry.setEnabled('com.lineup.pomodoro', false)).toBe(true);
    let inventory = await registry.inventory();
    expect(inventory.revision).toBe('inventory-2');
    expect(inventory.applications).toEqual([]);
    expect(inventory).not.toHaveProperty('tools');
    expect(await registry.setEnabled('com.lineup.pomodoro', false)).toBe(false);
    expect(await registry.setEnabled('com.lineup.pomodoro', true)).toBe(true);
    inventory = await registry.inventory();
    expect(inventory.revision).toBe('inventory-3');
    expect(inventory.tools).toHaveLength(2);
    await expect(registry.setEnabled('com.example.none', true)).rejects.toBeInstanceOf(LineUpProtocolError);
    expect((await db.getAll('audit')).map((entry) => entry.type)).toEqual([
      'app_installed',
      'app_disabled',
      'app_enabled',
    ]);
  });

  it('keeps everything across a reopen of the database', async () => {
    const dbName = `registry-reopen-${name++}`;
    const first = await openRuntimeDatabase(dbName);
    await new AppRegistry(first, { clock }).install(manifest(), { bundleUrl: '/apps/pomodoro/' });
    first.close();
    const second = await openRuntimeDatabase(dbName);
    const reopened = new AppRegistry(second, { clock });
    expect((await reopened.list()).map((app) => app.id)).toEqual(['com.lineup.pomodoro']);
    expect((await reopened.inventory()).revision).toBe('inventory-1');
    second.close();
  });

  it('writes nothing when the new inventory would break a limit of the wire (all or nothing)', async () => {
    // 64 tools per app, and an inventory holds at most 256: the fifth such app cannot be published.
    const bigApp = (index: number) =>
      manifest({
        id: `com.example.app${index}`,
        app_scope: `app${index}`,
        tools: Array.from({ length: 64 }, (_, tool) => ({
          ...pomodoroTool(`tool${tool}`),
          app_scope: `app${index}`,
        })),
      });
    for (let index = 0; index < 4; index++)
      await registry.install(bigApp(index), { bundleUrl: `/apps/app${index}/` });
    const before = await counts();
    expect((await registry.inventory()).tools).toHaveLength(256);
    await expect(registry.install(bigApp(4), { bundleUrl: '/apps/app4/' })).rejects.toBeInstanceOf(
      LineUpProtocolError,
    );
    expect(await counts()).toEqual(before);
    expect(await db.get('apps', 'com.example.app4')).toBeUndefined();
  });
});
