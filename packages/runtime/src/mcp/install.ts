/**
 * Installing and refreshing an MCP server in one call: read it (`readMcpServer`), then keep what was read
 * (`AppRegistry.installMcpServer`, one transaction). `mcpServerChange` says what a refresh changed, for a host to
 * show it.
 */
import { LineUpProtocolError } from '@lineup/shared';
import type { McpServerManifest } from '@lineup/shared/protocol';
import type { AppRegistry, InstallOutcome } from '../apps/registry.js';
import { McpServerError, type ReadMcpServerOptions, readMcpServer } from './read-server.js';

/** Reads the server at `url` and installs it; throws `McpServerError` (nothing is written then). */
export async function installMcpServer(
  registry: AppRegistry,
  url: string,
  options: ReadMcpServerOptions,
): Promise<{ readonly outcome: InstallOutcome; readonly manifest: McpServerManifest }> {
  const { manifest, files } = await readMcpServer(url, options);
  try {
    return { outcome: await registry.installMcpServer(manifest, files), manifest };
  } catch (error) {
    if (error instanceof LineUpProtocolError && error.issues[0]?.path === 'app_scope')
      throw new McpServerError(
        'scope_taken',
        `Another installed app uses the app scope ${manifest.app_scope}; install this server under another one.`,
        { cause: error },
      );
    throw error;
  }
}

/** What a refresh changed: tools added and removed (by the agent's name), views changed, the new version. */
export interface McpServerChange {
  readonly from: string;
  readonly to: string;
  readonly addedTools: readonly string[];
  readonly removedTools: readonly string[];
  readonly changedTools: readonly string[];
  readonly changedViews: readonly string[];
}

/** Compares two versions of one server's manifest. */
export function mcpServerChange(before: McpServerManifest, after: McpServerManifest): McpServerChange {
  const name = (tool: McpServerManifest['tools'][number]) => `${tool.app_scope}.${tool.method}`;
  const oldTools = new Map(before.tools.map((tool) => [name(tool), JSON.stringify(tool)]));
  const newTools = new Map(after.tools.map((tool) => [name(tool), JSON.stringify(tool)]));
  const oldViews = new Map(before.files.map((file) => [file.path, file.integrity]));
  const viewOf = new Map(after.views.map((view) => [view.path, view.uri]));
  return {
    from: before.version,
    to: after.version,
    addedTools: [...newTools.keys()].filter((tool) => !oldTools.has(tool)),
    removedTools: [...oldTools.keys()].filter((tool) => !newTools.has(tool)),
    changedTools: [...newTools]
      .filter(([tool, text]) => oldTools.has(tool) && oldTools.get(tool) !== text)
      .map(([tool]) => tool),
    changedViews: after.files
      .filter((file) => oldViews.get(file.path) !== file.integrity)
      .map((file) => viewOf.get(file.path) ?? file.path),
  };
}

/**
 * Reads the installed server `appId` again from its URL, under its app scope, and keeps what changed as a new
 * version (`updated`, with what changed) — or nothing (`unchanged`). Throws `McpServerError` when the server cannot
 * be read (the installed version stays as it was), `LineUpProtocolError` for an app that is no MCP server.
 */
export async function refreshMcpServer(
  registry: AppRegistry,
  appId: string,
  options: Omit<ReadMcpServerOptions, 'appScope'>,
): Promise<{ readonly outcome: InstallOutcome; readonly change: McpServerChange }> {
  const installed = (await registry.list()).find((app) => app.id === appId);
  if (installed?.kind !== 'mcp_server')
    throw new LineUpProtocolError([
      { path: 'appId', code: 'unknown_reference', message: 'No MCP server with this app id is installed.' },
    ]);
  const { manifest, files } = await readMcpServer(installed.manifest.server.url, {
    ...options,
    appScope: installed.manifest.app_scope,
  });
  const outcome = await registry.installMcpServer(manifest, files);
  return { outcome, change: mcpServerChange(installed.manifest, manifest) };
}
