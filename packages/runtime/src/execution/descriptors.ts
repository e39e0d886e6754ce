/**
 * What a step of the pipeline knows of the registry's apps (`registry-snapshot.ts` reads them): every tool of every
 * enabled app by its name, each app scope's app id, record and (for an MCP server) URL. The execution steps and the
 * consent step share it.
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { AppRecord } from '../storage/database.js';

/**
 * The tools by name, the app id of each app scope, the URL of each MCP server's app scope, and each app scope's
 * record (the consent step reads the user's settings from it).
 */
export type Descriptors = Map<string, AgentToolDescriptor> & {
  readonly appIds: ReadonlyMap<string, string>;
  readonly servers: ReadonlyMap<string, string>;
  readonly apps: ReadonlyMap<string, AppRecord>;
};

/** Every tool of every enabled app of `apps` by its name (`pomodoro.start`), with its executor, and each app scope's app id. */
export function descriptorsOf(apps: readonly AppRecord[]): Descriptors {
  const map = new Map<string, AgentToolDescriptor>() as Descriptors;
  const appIds = new Map<string, string>();
  const servers = new Map<string, string>();
  const records = new Map<string, AppRecord>();
  for (const app of apps) {
    if (!app.enabled) continue;
    appIds.set(app.manifest.app_scope, app.id);
    records.set(app.manifest.app_scope, app);
    if (app.kind === 'mcp_server') servers.set(app.manifest.app_scope, app.manifest.server.url);
    for (const tool of app.manifest.tools) map.set(`${tool.app_scope}.${tool.method}`, tool);
  }
  return Object.assign(map, { appIds, servers, apps: records });
}
