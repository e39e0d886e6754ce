/**
 * An MCP server as an app of the runtime, on fake-indexeddb with the official SDK on both ends: install, refresh,
 * enable, disable and uninstall (each a new inventory revision, nothing written for a refusal), and why it is no
 * MiniApp.
 */
import 'fake-indexeddb/auto';
import { LineUpProtocolError } from '@lineup/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { pomodoroManifest } from '../../test/manifests.js';
import { clockServer, openMcpApps, VIEW } from '../../test/mcp-apps.js';
import type { AppRegistry } from '../apps/registry.js';
import type { RuntimeDatabase } from '../storage/database.js';
import { installMcpServer, refreshMcpServer } from './install.js';
import { McpServerError, readMcpServer } from './read-server.js';

let db: RuntimeDatabase;
let registry: AppRegistry;
const now = Date.parse('2026-12-04T08:00:00Z');
const clock = { now: () => now };

beforeEach(async () => {
  ({ db, registry } = await openMcpApps(clock));
});

describe('installing an MCP server', () => {
  it('keeps the server, its views and a new inventory with its agent tools in one transaction', async () => {
    const server = clockServer();
    const { outcome, manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    expect(outcome).toBe('installed');
    const [record] = await registry.list();
    expect(record).toMatchObject({ kind: 'mcp_server', id: 'mcp.clock_server', enabled: true });
    const inventory = await registry.inventory();
    expect(inventory.revision).toBe('inventory-1');
    expect(inventory.tools?.map((tool) => [tool.name, tool.risk, tool.call_model])).toEqual([
      ['clock_server.get_time', 'display_only', 'query'],
      ['clock_server.add', 'user_confirmation', 'command'],
    ]);
    // The view-only tool and every executor stay out of what the agent sees.
    expect(JSON.stringify(inventory)).not.toContain('tick');
    expect(JSON.stringify(inventory)).not.toContain('executor');
    expect(inventory.applications).toEqual([
      { id: 'mcp.clock_server', version: manifest.version, surfaces: [] },
    ]);
    const { files } = await registry.mcpViewFiles('mcp.clock_server');
    expect(new TextDecoder().decode(files.get(manifest.views[0]?.path as string))).toBe(VIEW);
    expect(await db.getAll('audit')).toEqual([
      expect.objectContaining({
        type: 'app_installed',
        appId: 'mcp.clock_server',
        version: manifest.version,
      }),
    ]);
    expect((await db.getAll('outbox')).map((row) => row.type)).toEqual(['lineup.v1.client.inventory']);
  });

  it('writes nothing when the server is unchanged, and a new version when its view changed', async () => {
    const server = clockServer();
    const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    const unchanged = await refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect });
    expect(unchanged.outcome).toBe('unchanged');
    expect((await registry.inventory()).revision).toBe('inventory-1');
    server.change({ resources: [{ uri: 'ui://clock/view.html', text: `${VIEW}<p>2</p>` }] });
    const changed = await refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect });
    expect(changed.outcome).toBe('updated');
    expect(changed.change).toMatchObject({
      from: manifest.version,
      addedTools: [],
      removedTools: [],
      changedViews: ['ui://clock/view.html'],
    });
    expect((await registry.inventory()).revision).toBe('inventory-2');
    // Only the new version's view is kept.
    const kept = await db.getAll('bundle_files');
    expect(kept.map((file) => file.version)).toEqual([changed.change.to]);
  });

  it('a refresh that cannot read the server keeps the installed version as it was', async () => {
    const server = clockServer();
    await installMcpServer(registry, server.url, { connect: server.connect });
    const before = await registry.list();
    server.down(true);
    await expect(
      refreshMcpServer(registry, 'mcp.clock_server', { connect: server.connect }),
    ).rejects.toMatchObject({
      code: 'unreachable',
    });
    expect(await registry.list()).toEqual(before);
  });

  it('refuses a server whose app scope another app uses, and changes nothing', async () => {
    await registry.install(pomodoroManifest(), { bundleUrl: '/apps/pomodoro/' });
    const server = clockServer();
    const error = await installMcpServer(registry, server.url, {
      connect: server.connect,
      appScope: 'pomodoro',
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).code).toBe('scope_taken');
    expect(await db.count('apps')).toBe(1);
    expect((await registry.inventory()).revision).toBe('inventory-1');
  });

  it('refuses views that do not match the manifest', async () => {
    const server = clockServer();
    const { manifest, files } = await readMcpServer(server.url, { connect: server.connect });
    const changed = new Map([...files].map(([path]) => [path, new TextEncoder().encode('<p>other</p>')]));
    await expect(registry.installMcpServer(manifest, changed)).rejects.toMatchObject({
      code: 'size_mismatch',
    });
    await expect(registry.installMcpServer({ ...manifest, kind: 'miniapp' }, files)).rejects.toBeInstanceOf(
      LineUpProtocolError,
    );
    expect(await db.count('apps')).toBe(0);
  });

  it('enable, disable and uninstall each publish a new revision; a disabled server has no tools', async () => {
    const server = clockServer();
    await installMcpServer(registry, server.url, { connect: server.connect });
    expect(await registry.setEnabled('mcp.clock_server', false)).toBe(true);
    expect((await registry.inventory()).tools).toBeUndefined();
    expect(await registry.setEnabled('mcp.clock_server', true)).toBe(true);
    expect((await registry.inventory()).tools).toHaveLength(2);
    await registry.uninstall('mcp.clock_server');
    expect((await registry.inventory()).revision).toBe('inventory-4');
    expect(await db.count('bundle_files')).toBe(0);
    expect(await registry.checkSurfaceReference({ app_id: 'mcp.clock_server', surface_id: 'x' })).toBe(
      'revoked',
    );
  });

  it('is no MiniApp: no bundle to mount, no Surface by reference', async () => {
    const server = clockServer();
    const { manifest } = await installMcpServer(registry, server.url, { connect: server.connect });
    await expect(registry.bundleFiles('mcp.clock_server')).rejects.toBeInstanceOf(LineUpProtocolError);
    expect(
      await registry.checkSurfaceReference({
        app_id: 'mcp.clock_server',
        surface_id: manifest.views[0]?.id as string,
      }),
    ).toBe('unknown_reference');
  });
});
