/**
 * The fences of replaced inventory counters (`inventory_fences`, from version 11): a step that reads nothing asserts,
 * with a request that succeeds, that the inventory counter it assumes was not replaced meanwhile. And the registry's
 * stamp: a step that reads one small row knows whether the apps and the inventory it read before are still the ones
 * stored, instead of reading every app again.
 */
import type { InventoryFenceRecord } from './app-records.js';
import { issue } from './transactions.js';

/** The key of the guard row of `inventory_fences`. */
const INVENTORY_GUARD_KEY = 'guard';

/** The key of the registry stamp row of `inventory_fences`. */
const REGISTRY_STAMP_KEY = 'registry';

/** A transaction that writes `inventory_fences`. */
interface FenceTransaction {
  objectStore(name: 'inventory_fences'): {
    put(value: InventoryFenceRecord): Promise<unknown>;
    delete(key: string): Promise<unknown>;
  };
}

/** A transaction that reads `inventory_fences`. */
interface FenceReadTransaction {
  objectStore(name: 'inventory_fences'): { get(key: string): Promise<InventoryFenceRecord | undefined> };
}

/**
 * The apps or the inventory change in this transaction: the registry gets a new stamp, so that every reader that
 * keeps what it read under the old one reads again (`registryStampIn`). Every transaction that writes the `apps`
 * store or publishes an inventory calls it; issued, not awaited.
 */
export function stampRegistry(transaction: FenceTransaction): void {
  issue(
    transaction.objectStore('inventory_fences').put({ key: REGISTRY_STAMP_KEY, stamp: crypto.randomUUID() }),
  );
}

/** The registry's stamp as this transaction sees it; undefined in a database no change has stamped yet. */
export async function registryStampIn(transaction: FenceReadTransaction): Promise<string | undefined> {
  return (await transaction.objectStore('inventory_fences').get(REGISTRY_STAMP_KEY))?.stamp;
}

/**
 * The inventory counter `counter` is replaced (the registry publishes a newer one): its fence is written, so that
 * no step that assumes it can commit from now on (`guardInventory`). The guard row, which may hold `counter` from a
 * step committed earlier, is dropped first. Issued, not awaited, in the publishing transaction.
 */
export function writeInventoryFence(transaction: FenceTransaction, counter: number): void {
  const store = transaction.objectStore('inventory_fences');
  issue(store.delete(INVENTORY_GUARD_KEY), store.put({ key: `retired\n${counter}`, retired: counter }));
}

/**
 * Asserts, without a read, that the inventory counter is still `counter` — the registry as a step that reads nothing
 * last saw it: the guard row takes `counter` under the unique `by_retired` index, which refuses it once that counter
 * has a fence (`writeInventoryFence`). A request that succeeds when the assertion holds, so the step can commit at
 * once (`commitNow`); when it does not, the request fails and the transaction aborts, keeping nothing.
 */
export function guardInventory(transaction: FenceTransaction, counter: number): void {
  issue(transaction.objectStore('inventory_fences').put({ key: INVENTORY_GUARD_KEY, retired: counter }));
}
