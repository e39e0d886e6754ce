/**
 * The fences of replaced inventory counters (`inventory_fences`, from version 11): a step that reads nothing asserts,
 * with a request that succeeds, that the inventory counter it assumes was not replaced meanwhile.
 */
import type { InventoryFenceRecord } from './app-records.js';
import { issue } from './transactions.js';

/** The key of the guard row of `inventory_fences`. */
const INVENTORY_GUARD_KEY = 'guard';

/** A transaction that writes `inventory_fences`. */
interface FenceTransaction {
  objectStore(name: 'inventory_fences'): {
    put(value: InventoryFenceRecord): Promise<unknown>;
    delete(key: string): Promise<unknown>;
  };
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
