/**
 * Installing an app (seed 003 §4.1): a MiniApp from its manifest, or from a verified bundle with its files, and an
 * MCP server from what was read of it. The manifest is validated first and every tool schema must be one the
 * runtime can validate with — an invalid one changes nothing —; then one transaction writes the app record, its
 * kept files, a new inventory revision, the audit entry and the `client.inventory` outbox row.
 */
import { canonicalJSONString, LineUpProtocolError } from '@lineup/shared';
import {
  agentToolName,
  type McpServerManifest,
  type MiniAppManifest,
  parseMcpServerManifest,
  parseMiniAppManifest,
} from '@lineup/shared/protocol';
import { withHeldChanges } from '../consent/settings.js';
import {
  type AppRecord,
  type McpServerRecord,
  type MiniAppRecord,
  REGISTRY_STORES,
  stampRegistry,
} from '../storage/database.js';
import { assertUsableSchema } from '../tools/schema-validator.js';
import { BundleIntegrityError, type BundlePolicy, fetchVerifiedBundle, verifyBundleFiles } from './bundle.js';
import { keepFiles, recordRejected } from './kept-files.js';
import { commit, dropStaleGrants, publish, type RegistryContext } from './registry-persistence.js';

export type InstallOutcome = 'installed' | 'updated' | 'unchanged';

/** Refuses (`SchemaUnusableError`) a tool whose input or output schema the runtime cannot validate with. */
function assertUsableToolSchemas(manifest: MiniAppManifest | McpServerManifest): void {
  for (const tool of manifest.tools) {
    const name = agentToolName(tool);
    assertUsableSchema(tool.input_schema, { kind: 'tool', name, schema: 'input' });
    assertUsableSchema(tool.output_schema, { kind: 'tool', name, schema: 'output' });
  }
}

/** See `AppRegistry.install`: a MiniApp from its manifest (untrusted JSON), validated first. */
export async function installManifest(
  context: RegistryContext,
  input: unknown,
  options: { readonly bundleUrl: string },
): Promise<InstallOutcome> {
  const manifest = parseMiniAppManifest(input);
  return installMiniApp(context, manifest, options.bundleUrl);
}

/** See `AppRegistry.installBundle`: the verified path, which also keeps the bundle's files. */
export async function installBundle(
  context: RegistryContext,
  bundleUrl: string | URL,
  options: { readonly fetch?: (url: URL) => Promise<Response>; readonly policy?: BundlePolicy } = {},
): Promise<InstallOutcome> {
  let bundle: Awaited<ReturnType<typeof fetchVerifiedBundle>>;
  try {
    bundle = await fetchVerifiedBundle(bundleUrl, options.fetch, options.policy);
  } catch (error) {
    if (error instanceof BundleIntegrityError) await recordRejected(context, String(bundleUrl), '', error);
    throw error;
  }
  return installMiniApp(context, bundle.manifest, String(bundleUrl), bundle.files);
}

/**
 * Installs `manifest` in one transaction: the app record, the verified files (when given), the new inventory
 * revision, its audit entry and outbox row.
 */
async function installMiniApp(
  context: RegistryContext,
  manifest: MiniAppManifest,
  bundleUrl: string,
  files?: ReadonlyMap<string, Uint8Array>,
): Promise<InstallOutcome> {
  // Before anything is written: a schema the validator cannot use would install and then refuse every call.
  assertUsableToolSchemas(manifest);
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const apps = transaction.objectStore('apps');
  const all = await apps.getAll();
  const found = all.find((app) => app.id === manifest.id);
  if (found?.kind === 'mcp_server') {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw new LineUpProtocolError([
      { path: 'id', code: 'duplicate_id', message: 'An MCP server is installed under this app id.' },
    ]);
  }
  const existing: MiniAppRecord | undefined = found;
  const clash = all.find((app) => app.id !== manifest.id && app.manifest.app_scope === manifest.app_scope);
  if (clash !== undefined) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw new LineUpProtocolError([
      {
        path: 'app_scope',
        code: 'duplicate_id',
        message: 'Another installed app uses this app scope; tool names would collide.',
      },
    ]);
  }
  const same =
    existing !== undefined &&
    existing.bundleUrl === bundleUrl &&
    canonicalJSONString(existing.manifest) === canonicalJSONString(manifest);
  // The version to go back to: the one running, or — over an upgrade that has not started yet — the one
  // before it, the last that did.
  const previous =
    existing === undefined || existing.manifest.version === manifest.version
      ? existing?.previous
      : (existing.previous ?? { manifest: existing.manifest, bundleUrl: existing.bundleUrl });
  const now = context.clock.now();
  const record: AppRecord = {
    id: manifest.id,
    manifest,
    bundleUrl,
    enabled: existing?.enabled ?? true,
    installedAt: existing?.installedAt ?? now,
    updatedAt: now,
    ...(previous === undefined || previous.manifest.version === manifest.version ? {} : { previous }),
    ...(existing?.consent === undefined ? {} : { consent: existing.consent }),
  };
  await commit(transaction, async () => {
    if (files !== undefined) {
      // The new files go in beside the running version's; files of any other version go.
      const store = transaction.objectStore('bundle_files');
      const keep = new Set([manifest.version, record.previous?.manifest.version]);
      for (const stored of await store.index('by_app').getAll(manifest.id))
        if (!keep.has(stored.version) || (stored.version === manifest.version && !files.has(stored.path)))
          await store.delete(stored.key);
      await keepFiles(transaction, manifest, files);
    }
    if (same) return;
    await apps.put(record);
    stampRegistry(transaction);
    await dropStaleGrants(transaction, manifest.id, record);
    await publish(context, transaction, [...all.filter((app) => app.id !== manifest.id), record], {
      at: now,
      type: existing === undefined ? 'app_installed' : 'app_updated',
      appId: manifest.id,
      version: manifest.version,
    });
  });
  return same ? 'unchanged' : existing === undefined ? 'installed' : 'updated';
}

/**
 * Installs, or refreshes, an MCP server from what `readMcpServer` (`@lineup/runtime/mcp`) read of it: in one
 * transaction the app record, its kept views, a new inventory revision, the audit entry and the outbox row. The
 * same manifest again is `unchanged` and writes nothing; another one (a changed tool list or view) is `updated`,
 * and the views of the version it replaces are let go. Throws `LineUpProtocolError` for an invalid manifest,
 * views that do not match it, an app scope another app uses (`duplicate_id` at `app_scope`), or a MiniApp under
 * the same id; nothing is written then.
 */
export async function installMcpServer(
  context: RegistryContext,
  input: unknown,
  files: ReadonlyMap<string, Uint8Array>,
): Promise<InstallOutcome> {
  const manifest = parseMcpServerManifest(input);
  assertUsableToolSchemas(manifest);
  for (const tool of manifest.app_tools)
    assertUsableSchema(tool.input_schema, { kind: 'tool', name: tool.tool, schema: 'input' });
  await verifyBundleFiles(manifest, async (path) => files.get(path));
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const apps = transaction.objectStore('apps');
  const all = await apps.getAll();
  const found = all.find((app) => app.id === manifest.id);
  const clash = all.find((app) => app.id !== manifest.id && app.manifest.app_scope === manifest.app_scope);
  if (clash !== undefined || (found !== undefined && found.kind !== 'mcp_server')) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw new LineUpProtocolError([
      clash !== undefined
        ? {
            path: 'app_scope',
            code: 'duplicate_id',
            message: 'Another installed app uses this app scope; install the server under another one.',
          }
        : { path: 'id', code: 'duplicate_id', message: 'A MiniApp is installed under this app id.' },
    ]);
  }
  const existing: McpServerRecord | undefined = found;
  if (existing !== undefined && canonicalJSONString(existing.manifest) === canonicalJSONString(manifest)) {
    await transaction.done;
    return 'unchanged';
  }
  const now = context.clock.now();
  const fresh: McpServerRecord = {
    kind: 'mcp_server',
    id: manifest.id,
    manifest,
    enabled: existing?.enabled ?? true,
    installedAt: existing?.installedAt ?? now,
    updatedAt: now,
    ...(existing?.consent === undefined ? {} : { consent: existing.consent }),
  };
  // A tool the refresh changed is held back until the user accepts the change: a server cannot change a tool the
  // user allowed or trusted and have the agent call it at once.
  const record = existing === undefined ? fresh : withHeldChanges(existing, fresh, now);
  await commit(transaction, async () => {
    const store = transaction.objectStore('bundle_files');
    for (const stored of await store.index('by_app').getAll(manifest.id))
      if (stored.version !== manifest.version) await store.delete(stored.key);
    await keepFiles(transaction, manifest, files);
    await apps.put(record);
    stampRegistry(transaction);
    await dropStaleGrants(transaction, manifest.id, record);
    await publish(context, transaction, [...all.filter((app) => app.id !== manifest.id), record], {
      at: now,
      type: existing === undefined ? 'app_installed' : 'app_updated',
      appId: manifest.id,
      version: manifest.version,
      ...(existing === undefined ? {} : { detail: `from ${existing.manifest.version}` }),
    });
  });
  return existing === undefined ? 'installed' : 'updated';
}
