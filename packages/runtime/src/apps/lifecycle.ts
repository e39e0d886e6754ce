/**
 * What happens to an installed app after its install (seed 003 §4.1): it is enabled or disabled, its new version
 * is confirmed once it started or rolled back to the one it replaced, and it is uninstalled. Each change that
 * alters what the agent may use is one transaction with a new inventory revision, its audit entry and outbox row.
 */
import { type AppRecord, REGISTRY_STORES, stampRegistry } from '../storage/database.js';
import { deleteFiles } from './kept-files.js';
import { notInstalled } from './registry-errors.js';
import { commit, dropStaleGrants, publish, type RegistryContext } from './registry-persistence.js';

/** See `AppRegistry.setEnabled`: a change publishes a new inventory. */
export async function setEnabled(
  context: RegistryContext,
  appId: string,
  enabled: boolean,
): Promise<boolean> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const apps = transaction.objectStore('apps');
  const all = await apps.getAll();
  const existing = all.find((app) => app.id === appId);
  if (existing === undefined) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw notInstalled();
  }
  if (existing.enabled === enabled) {
    await transaction.done;
    return false;
  }
  const now = context.clock.now();
  const record: AppRecord = { ...existing, enabled, updatedAt: now };
  const next = all.map((app) => (app.id === appId ? record : app));
  await commit(transaction, async () => {
    await apps.put(record);
    stampRegistry(transaction);
    await publish(context, transaction, next, {
      at: now,
      type: enabled ? 'app_enabled' : 'app_disabled',
      appId: existing.manifest.id,
      version: existing.manifest.version,
    });
  });
  return true;
}

/** See `AppRegistry.confirmStarted`: the version replaced, and its files, are let go. */
export async function confirmStarted(context: RegistryContext, appId: string): Promise<boolean> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const existing = await transaction.objectStore('apps').get(appId);
  if (existing?.kind === 'mcp_server' || existing?.previous === undefined) {
    await transaction.done;
    return false;
  }
  const { previous, ...record } = existing;
  await commit(transaction, async () => {
    await transaction.objectStore('apps').put({ ...record, updatedAt: context.clock.now() });
    stampRegistry(transaction);
    await deleteFiles(transaction, appId, previous.manifest.version);
    await transaction.objectStore('audit').add({
      at: context.clock.now(),
      type: 'app_upgrade_confirmed',
      appId,
      version: existing.manifest.version,
      detail: `from ${previous.manifest.version}`,
    });
  });
  return true;
}

/** See `AppRegistry.rollback`: back to the version replaced, in one transaction; its data is untouched. */
export async function rollback(context: RegistryContext, appId: string, reason: string): Promise<boolean> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const all = await transaction.objectStore('apps').getAll();
  const existing = all.find((app) => app.id === appId);
  if (existing?.kind === 'mcp_server' || existing?.previous === undefined) {
    await transaction.done;
    return false;
  }
  const { previous, ...current } = existing;
  const now = context.clock.now();
  const record: AppRecord = {
    ...current,
    manifest: previous.manifest,
    bundleUrl: previous.bundleUrl,
    updatedAt: now,
  };
  await commit(transaction, async () => {
    await transaction.objectStore('apps').put(record);
    stampRegistry(transaction);
    await deleteFiles(transaction, appId, existing.manifest.version);
    await dropStaleGrants(transaction, appId, record);
    await publish(
      context,
      transaction,
      all.map((app) => (app.id === appId ? record : app)),
      {
        at: now,
        type: 'app_rolled_back',
        appId,
        version: previous.manifest.version,
        detail: `from ${existing.manifest.version}: ${reason.slice(0, 200)}`,
      },
    );
  });
  return true;
}

/** See `AppRegistry.uninstall`: its record, kept files, session data, and a new inventory without it. */
export async function uninstall(context: RegistryContext, appId: string): Promise<void> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const all = await transaction.objectStore('apps').getAll();
  const existing = all.find((app) => app.id === appId);
  if (existing === undefined) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw notInstalled();
  }
  await commit(transaction, async () => {
    await transaction.objectStore('apps').delete(appId);
    stampRegistry(transaction);
    await deleteFiles(transaction, appId);
    await dropStaleGrants(transaction, appId, undefined);
    const sessions = transaction.objectStore('session_data');
    for (const instance of await transaction.objectStore('instances').getAll())
      if (instance.appId === appId) await sessions.delete(`${instance.appScope}\n${instance.appSessionId}`);
    await publish(
      context,
      transaction,
      all.filter((app) => app.id !== appId),
      {
        at: context.clock.now(),
        type: 'app_uninstalled',
        appId,
        version: existing.manifest.version,
      },
    );
  });
}
