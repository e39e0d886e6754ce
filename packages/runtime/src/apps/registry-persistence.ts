/**
 * How a change of the registry is stored (DESIGN.md "Persistence"): in one transaction over `REGISTRY_STORES`, the
 * records it changes, a new inventory revision, its audit entry and the `client.inventory` outbox row — all of them
 * or none. No await inside the transaction waits on anything but the transaction itself.
 */
import type { ToolPolicyRule } from '../consent/policy.js';
import { consentToolOf, toolDefinitionHash } from '../consent/tool-consent.js';
import {
  type AppRecord,
  type AuditRecord,
  type CapabilityRecord,
  OUTBOX_PENDING,
  type RegistryTransaction,
  type RuntimeDatabase,
  stampRegistry,
  writeInventoryFence,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { buildInventory } from './inventory.js';

/** What every part of the registry works with: its database, its clock and the host's consent rules. */
export interface RegistryContext {
  readonly db: RuntimeDatabase;
  readonly clock: Clock;
  /** The host's consent rules for Agent Tools (`AppRegistryOptions.toolPolicy`), checked. */
  readonly rules: readonly ToolPolicyRule[];
}

/**
 * Runs the writes of one change and waits for the commit. If anything throws on the way (an inventory the
 * wire schema refuses, say), the transaction is aborted, so the writes already issued are undone too.
 */
export async function commit(transaction: RegistryTransaction, writes: () => Promise<void>): Promise<void> {
  try {
    await writes();
  } catch (error) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw error;
  }
  await transaction.done;
}

/** The new inventory, its audit entry and its outbox row, inside the caller's transaction. */
export async function publish(
  context: RegistryContext,
  transaction: RegistryTransaction,
  apps: readonly AppRecord[],
  audit: Omit<AuditRecord, 'id'>,
  capabilities?: readonly CapabilityRecord[],
): Promise<void> {
  const inventoryStore = transaction.objectStore('inventory');
  const [current, declared] = await Promise.all([
    inventoryStore.get('current'),
    capabilities ?? transaction.objectStore('capabilities').getAll(),
  ]);
  const counter = (current?.counter ?? 0) + 1;
  const inventory = buildInventory(counter, apps, declared, context.rules);
  // A step that assumes the replaced inventory cannot commit any more (`guardInventory`).
  if (current !== undefined) writeInventoryFence(transaction, current.counter);
  await inventoryStore.put({ key: 'current', counter, inventory });
  stampRegistry(transaction);
  await transaction.objectStore('audit').add(audit);
  await transaction.objectStore('outbox').add({
    at: audit.at,
    type: 'lineup.v1.client.inventory',
    payload: inventory,
    pending: OUTBOX_PENDING,
  });
}

/**
 * A change of an app drops the allowances remembered for its tools that no longer hold: a tool gone, or defined
 * otherwise (its description, schemas, the server's claims, the server's URL) — the user is asked again. Without
 * `record` (uninstalled), every allowance of the app goes.
 */
export async function dropStaleGrants(
  transaction: RegistryTransaction,
  appId: string,
  record: AppRecord | undefined,
): Promise<void> {
  const store = transaction.objectStore('tool_grants');
  const hashes = new Map(
    (record?.manifest.tools ?? []).map((tool) => [
      `${tool.app_scope}.${tool.method}`,
      toolDefinitionHash(record as AppRecord, consentToolOf(tool)),
    ]),
  );
  for (const grant of await store.getAll())
    if (grant.appId === appId && hashes.get(grant.tool) !== grant.definitionHash)
      await store.delete(grant.key);
}
