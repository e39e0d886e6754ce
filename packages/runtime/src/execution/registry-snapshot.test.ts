/**
 * The registry a step keeps between steps (`RegistryReader`): a step that finds the stamp it last read reads no app
 * and no inventory, and a change made anywhere — this page's registry or another page's on the same database — is
 * seen by the very next step, whether or not it published a new inventory.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { countRequests } from '../../test/idb-requests.js';
import { focusManifest } from '../../test/manifests.js';
import { toolCall } from '../../test/utils.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { ToolRuntime } from './tool-runtime.js';

const CONVERSATION = 'conv_stamp';
let databases = 0;
const opened: RuntimeDatabase[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** The reads of the apps and of the inventory while `body` runs. */
const registryReads = (body: () => Promise<void>) =>
  countRequests((request) => request === 'apps.getAll' || request === 'inventory.get', body);

/** Two pages on one database: this page's runtime, and another page's registry. */
async function twoPages() {
  const name = `registry-snapshot-${databases++}`;
  const db = await openRuntimeDatabase(name);
  const other = await openRuntimeDatabase(name);
  opened.push(db, other);
  const registry = new AppRegistry(db);
  await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
  return { runtime: new ToolRuntime(db, registry), db, otherRegistry: new AppRegistry(other) };
}

async function resultOf(db: RuntimeDatabase, callId: string) {
  return (await db.get('tool_calls', `${CONVERSATION}\n${callId}`))?.latest;
}

describe('the registry a step keeps', () => {
  it('reads the apps and the inventory once, then only the stamp while nothing changes', async () => {
    const { runtime, db } = await twoPages();
    expect(
      await registryReads(() =>
        runtime.receive(CONVERSATION, toolCall('c1', 'focus.interrupt')).then(() => {}),
      ),
    ).toBe(2);
    expect(
      await registryReads(async () => {
        for (let index = 2; index <= 5; index++)
          await runtime.receive(CONVERSATION, toolCall(`c${index}`, 'focus.interrupt'));
      }),
    ).toBe(0);
    for (let index = 1; index <= 5; index++)
      expect(await resultOf(db, `c${index}`)).toMatchObject({ payload: { outcome: 'completed' } });
  });

  it('sees a consent setting another page changed without a new inventory, at the next call', async () => {
    const { runtime, db, otherRegistry } = await twoPages();
    await runtime.receive(CONVERSATION, toolCall('before', 'focus.interrupt'));
    expect(await resultOf(db, 'before')).toMatchObject({ payload: { outcome: 'completed' } });
    const revision = (await otherRegistry.inventory()).revision;
    await otherRegistry.setToolPolicy('com.example.focus', 'interrupt', 'ask');
    // Asking changes no tool the agent sees: the revision stays, only the app's record (and the stamp) changed.
    expect((await otherRegistry.inventory()).revision).toBe(revision);
    expect(
      await registryReads(() =>
        runtime.receive(CONVERSATION, toolCall('asked', 'focus.interrupt')).then(() => {}),
      ),
    ).toBe(2);
    // This runtime has no way to ask the user: the call is refused, never run on the stale setting.
    expect(await resultOf(db, 'asked')).toMatchObject({
      payload: { outcome: 'error', error: { code: 'permission_denied' } },
    });
    await otherRegistry.setToolPolicy('com.example.focus', 'interrupt', undefined);
    await runtime.receive(CONVERSATION, toolCall('after', 'focus.interrupt'));
    expect(await resultOf(db, 'after')).toMatchObject({ payload: { outcome: 'completed' } });
  });

  it('sees an app another page disabled, and the inventory it published, at the next call', async () => {
    const { runtime, db, otherRegistry } = await twoPages();
    await runtime.receive(CONVERSATION, toolCall('before', 'focus.interrupt'));
    await otherRegistry.setEnabled('com.example.focus', false);
    const { revision } = await otherRegistry.inventory();
    expect(revision).not.toBe('inventory-1');
    const stale = await runtime.receive(CONVERSATION, toolCall('stale', 'focus.interrupt'));
    expect(stale.answer).toMatchObject({ payload: { outcome: 'error', error: { code: 'stale_inventory' } } });
    const gone = await runtime.receive(CONVERSATION, {
      ...toolCall('gone', 'focus.interrupt'),
      inventory_revision: revision,
    });
    expect(gone.answer).toMatchObject({ payload: { outcome: 'error', error: { code: 'unsupported' } } });
    expect(await resultOf(db, 'gone')).toMatchObject({ payload: { error: { code: 'unsupported' } } });
  });

  it('sees an app this page uninstalled and installed again', async () => {
    const { runtime, db } = await twoPages();
    const registry = new AppRegistry(db);
    await runtime.receive(CONVERSATION, toolCall('before', 'focus.interrupt'));
    await registry.uninstall('com.example.focus');
    await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
    const { revision } = await registry.inventory();
    const again = await runtime.receive(CONVERSATION, {
      ...toolCall('again', 'focus.interrupt'),
      inventory_revision: revision,
    });
    expect(again.disposition).toBe('accepted');
    expect(await resultOf(db, 'again')).toMatchObject({ payload: { outcome: 'completed' } });
  });
});
