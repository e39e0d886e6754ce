/**
 * The app registry and the inventory it publishes (seed 000 §5.1, seed 003 §4.1). Installing validates the
 * manifest with the shared parser first — an invalid one changes nothing — then writes, in one transaction,
 * the app record, a new inventory revision, the audit entry and the `client.inventory` outbox row: either all
 * of them are stored or none (DESIGN.md "Persistence"). No await inside the transaction waits on anything but
 * the transaction itself.
 *
 * The inventory lists enabled apps only, with their declared Surfaces and their Agent Tools as inventory
 * entries (the contract, not the executor). Its revision is `inventory-<n>` with `n` growing by one on every
 * change and never reused. Policy, conversation and agent scoping, and the capability registry, come later;
 * today every conversation sees the same inventory and it declares no capability.
 */
import { canonicalJSONString, LineUpProtocolError } from '@lineup/shared';
import {
  type ClientInventoryPayload,
  ClientInventoryPayloadSchema,
  type MiniAppManifest,
  parseMiniAppManifest,
  type StandardComponent,
  toAgentToolInventoryEntry,
} from '@lineup/shared/protocol';
import {
  type AppRecord,
  type AuditType,
  OUTBOX_PENDING,
  REGISTRY_STORES,
  type RegistryTransaction,
  type RuntimeDatabase,
} from '../storage/database.js';

/** The standard components this host renders itself: the Intelligent UI DSL, versions 1.0 and 1.1. */
export const HOST_STANDARD_COMPONENTS: readonly StandardComponent[] = Object.freeze([
  Object.freeze({ id: 'intelligent_ui', version: '1.1' }),
]);

/** The clock the registry stamps records with (a test passes its own). */
export interface Clock {
  now(): number;
}

export type InstallOutcome = 'installed' | 'updated' | 'unchanged';

/** Builds the inventory of the enabled apps; validated with the wire schema before anything stores it. */
export function buildInventory(counter: number, apps: readonly AppRecord[]): ClientInventoryPayload {
  const enabled = apps.filter((app) => app.enabled).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tools = enabled.flatMap((app) => app.manifest.tools.map(toAgentToolInventoryEntry));
  const inventory = {
    revision: `inventory-${counter}`,
    standard_components: [...HOST_STANDARD_COMPONENTS],
    applications: enabled.map((app) => ({
      id: app.id,
      version: app.manifest.version,
      surfaces: app.manifest.surfaces.map((surface) => ({ id: surface.id, events: [...surface.events] })),
    })),
    capabilities: [],
    ...(tools.length > 0 ? { tools } : {}),
  };
  const checked = ClientInventoryPayloadSchema.safeParse(inventory);
  if (!checked.success)
    throw new LineUpProtocolError([
      {
        path: 'inventory',
        code: 'invalid_value',
        message: 'The enabled apps do not form a valid inventory.',
      },
    ]);
  return inventory;
}

export class AppRegistry {
  readonly #db: RuntimeDatabase;
  readonly #clock: Clock;

  constructor(db: RuntimeDatabase, options: { readonly clock?: Clock } = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date;
  }

  /**
   * Installs or updates an app from its manifest (untrusted JSON). Throws `LineUpProtocolError` for an invalid
   * manifest, or one whose app scope another installed app already uses; nothing is written then. The same
   * manifest again is `unchanged` and writes nothing.
   */
  async install(input: unknown, options: { readonly bundleUrl: string }): Promise<InstallOutcome> {
    const manifest = parseMiniAppManifest(input);
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const existing = all.find((app) => app.id === manifest.id);
    if (
      existing !== undefined &&
      existing.bundleUrl === options.bundleUrl &&
      canonicalJSONString(existing.manifest) === canonicalJSONString(manifest)
    ) {
      await transaction.done;
      return 'unchanged';
    }
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
    const now = this.#clock.now();
    const record: AppRecord = {
      id: manifest.id,
      manifest,
      bundleUrl: options.bundleUrl,
      enabled: existing?.enabled ?? true,
      installedAt: existing?.installedAt ?? now,
      updatedAt: now,
    };
    const others = all.filter((app) => app.id !== manifest.id);
    await this.#commit(transaction, async () => {
      await apps.put(record);
      await this.#publish(
        transaction,
        [...others, record],
        existing === undefined ? 'app_installed' : 'app_updated',
        manifest,
        now,
      );
    });
    return existing === undefined ? 'installed' : 'updated';
  }

  /** Enables or disables an installed app; a change publishes a new inventory. Returns whether it changed. */
  async setEnabled(appId: string, enabled: boolean): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const existing = all.find((app) => app.id === appId);
    if (existing === undefined) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw new LineUpProtocolError([
        { path: 'appId', code: 'unknown_reference', message: 'No app with this id is installed.' },
      ]);
    }
    if (existing.enabled === enabled) {
      await transaction.done;
      return false;
    }
    const now = this.#clock.now();
    const record: AppRecord = { ...existing, enabled, updatedAt: now };
    const next = all.map((app) => (app.id === appId ? record : app));
    await this.#commit(transaction, async () => {
      await apps.put(record);
      await this.#publish(
        transaction,
        next,
        enabled ? 'app_enabled' : 'app_disabled',
        existing.manifest,
        now,
      );
    });
    return true;
  }

  /** Every installed app, by id. */
  async list(): Promise<AppRecord[]> {
    return this.#db.getAll('apps');
  }

  /** The last published inventory, or the empty one of revision 0 before anything was installed. */
  async inventory(): Promise<ClientInventoryPayload> {
    const current = await this.#db.get('inventory', 'current');
    return current?.inventory ?? buildInventory(0, []);
  }

  /**
   * Runs the writes of one change and waits for the commit. If anything throws on the way (an inventory the
   * wire schema refuses, say), the transaction is aborted, so the writes already issued are undone too.
   */
  async #commit(transaction: RegistryTransaction, writes: () => Promise<void>): Promise<void> {
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
  async #publish(
    transaction: RegistryTransaction,
    apps: readonly AppRecord[],
    type: AuditType,
    manifest: MiniAppManifest,
    now: number,
  ): Promise<void> {
    const inventoryStore = transaction.objectStore('inventory');
    const current = await inventoryStore.get('current');
    const counter = (current?.counter ?? 0) + 1;
    const inventory = buildInventory(counter, apps);
    await inventoryStore.put({ key: 'current', counter, inventory });
    await transaction
      .objectStore('audit')
      .add({ at: now, type, appId: manifest.id, version: manifest.version });
    await transaction
      .objectStore('outbox')
      .add({ at: now, type: 'lineup.v1.client.inventory', payload: inventory, pending: OUTBOX_PENDING });
  }
}
