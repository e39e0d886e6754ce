/** The inventory fences: a step that assumes a replaced inventory counter cannot commit. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openRuntimeDatabase } from './database.js';
import { guardInventory, registryStampIn, stampRegistry, writeInventoryFence } from './inventory-fence.js';
import { commitNow, issue, STRICT } from './transactions.js';

describe('guardInventory and writeInventoryFence', () => {
  /** One transaction that assumes `counter`, with a write beside it: whether it committed, and the write was kept. */
  async function attempt(
    db: Awaited<ReturnType<typeof openRuntimeDatabase>>,
    counter: number,
  ): Promise<{ committed: boolean; kept: boolean }> {
    const transaction = db.transaction(['inventory_fences', 'audit'], 'readwrite', STRICT);
    guardInventory(transaction, counter);
    issue(transaction.objectStore('audit').add({ at: 1, type: 'ui_action', appId: 'a', version: '' }));
    commitNow(transaction);
    const committed = await transaction.done.then(
      () => true,
      () => false,
    );
    const kept = (await db.count('audit')) > 0;
    await db.clear('audit');
    return { committed, kept };
  }

  async function fence(db: Awaited<ReturnType<typeof openRuntimeDatabase>>, counter: number) {
    const transaction = db.transaction('inventory_fences', 'readwrite', STRICT);
    writeInventoryFence(transaction, counter);
    await transaction.done;
  }

  it('commits a step that assumes a counter with no fence, as often as it likes', async () => {
    const db = await openRuntimeDatabase('db-guard-holds');
    for (const counter of [3, 3, 4, 3])
      expect(await attempt(db, counter)).toEqual({ committed: true, kept: true });
    // Beside the guard, only the registry's stamp, which the database was created with.
    expect(await db.getAll('inventory_fences')).toEqual([
      { key: 'guard', retired: 3 },
      { key: 'registry', stamp: expect.any(String) },
    ]);
    db.close();
  });

  it('aborts a step that assumes a replaced counter: nothing of it is kept; newer counters still commit', async () => {
    const db = await openRuntimeDatabase('db-guard-fenced');
    expect((await attempt(db, 3)).committed).toBe(true);
    // The guard holds 3 when 3 is replaced: the fence is written all the same.
    await fence(db, 3);
    expect(await attempt(db, 3)).toEqual({ committed: false, kept: false });
    expect((await attempt(db, 4)).committed).toBe(true);
    await fence(db, 4);
    for (const counter of [3, 4]) expect((await attempt(db, counter)).committed).toBe(false);
    expect((await attempt(db, 5)).committed).toBe(true);
    expect(await db.getAllKeys('inventory_fences')).toEqual([
      'guard',
      'registry',
      'retired\n3',
      'retired\n4',
    ]);
    db.close();
  });

  it('does not hide a write that fails beside it: the transaction still aborts', async () => {
    const db = await openRuntimeDatabase('db-guard-other-failure');
    await db.put('tool_calls', { key: 'conv\ncall_1', stage: 'running' } as never);
    const transaction = db.transaction(['inventory_fences', 'tool_calls'], 'readwrite', STRICT);
    guardInventory(transaction, 3);
    issue(transaction.objectStore('tool_calls').add({ key: 'conv\ncall_1', stage: 'finished' } as never));
    commitNow(transaction);
    await expect(transaction.done).rejects.toThrow();
    expect(await db.get('tool_calls', 'conv\ncall_1')).toMatchObject({ stage: 'running' });
    expect(await db.getAllKeys('inventory_fences')).toEqual(['registry']);
    db.close();
  });
});

describe('stampRegistry and registryStampIn', () => {
  it('stamps a new database, and every stamp differs from the one before', async () => {
    const db = await openRuntimeDatabase('db-registry-stamp');
    const read = async () => {
      const transaction = db.transaction('inventory_fences');
      const stamp = await registryStampIn(transaction);
      await transaction.done;
      return stamp;
    };
    const first = await read();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    const seen = new Set([first]);
    for (let change = 0; change < 5; change++) {
      const transaction = db.transaction('inventory_fences', 'readwrite');
      stampRegistry(transaction);
      await transaction.done;
      const stamp = await read();
      expect(seen.has(stamp)).toBe(false);
      seen.add(stamp);
    }
    db.close();
  });
});
