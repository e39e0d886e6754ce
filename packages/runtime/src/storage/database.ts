/**
 * The runtime's IndexedDB database (DESIGN.md "Persistence"): one database per host profile, opened through
 * `idb`, with a versioned upgrade path. Each version's step only adds what that version introduced, so a
 * profile created by any earlier version upgrades in place and keeps its facts.
 *
 * Version 1 holds the app registry, the inventory revision, the audit log and the outbox. Later versions add
 * the stores of tool calls, activations, instances, session data, operations, capability calls, the action
 * ledger and stream records as their features land.
 */

import type { ClientInventoryPayload, MiniAppManifest } from '@lineup/shared/protocol';
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';

/** The schema version this code writes. */
export const RUNTIME_DATABASE_VERSION = 1;

/** The default database name; a host with several profiles passes one name per profile. */
export const RUNTIME_DATABASE_NAME = 'lineup-runtime';

/** An installed MiniApp: its validated manifest and where its bundle is served from. */
export interface AppRecord {
  readonly id: string;
  readonly manifest: MiniAppManifest;
  /** Base URL of the bundle's files (the manifest's `entry` is relative to it). */
  readonly bundleUrl: string;
  readonly enabled: boolean;
  /** Unix milliseconds. */
  readonly installedAt: number;
  readonly updatedAt: number;
}

/** The one inventory record: a counter that only grows, and the inventory it last published. */
export interface InventoryRecord {
  readonly key: 'current';
  readonly counter: number;
  readonly inventory: ClientInventoryPayload;
}

export type AuditType = 'app_installed' | 'app_updated' | 'app_enabled' | 'app_disabled';

/** One audit entry: what happened, to what, when; `id` is assigned by the store. */
export interface AuditRecord {
  readonly id?: number;
  readonly at: number;
  readonly type: AuditType;
  readonly appId: string;
  readonly version: string;
}

/** A message waiting to be delivered to the agent side; written in the same transaction as its facts. */
export interface OutboxRecord {
  readonly id?: number;
  readonly at: number;
  readonly type: 'lineup.v1.client.inventory';
  readonly payload: ClientInventoryPayload;
  readonly delivered: boolean;
}

export interface RuntimeDatabaseSchema extends DBSchema {
  apps: { key: string; value: AppRecord };
  inventory: { key: 'current'; value: InventoryRecord };
  audit: { key: number; value: AuditRecord; indexes: { by_app: string } };
  outbox: { key: number; value: OutboxRecord };
}

export type RuntimeDatabase = IDBPDatabase<RuntimeDatabaseSchema>;

/** The stores a registry change writes together. */
export const REGISTRY_STORES = ['apps', 'inventory', 'audit', 'outbox'] as const;
export type RegistryTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof REGISTRY_STORES, 'readwrite'>;

/** Opens (creating or upgrading) the runtime database. */
export function openRuntimeDatabase(name: string = RUNTIME_DATABASE_NAME): Promise<RuntimeDatabase> {
  return openDB<RuntimeDatabaseSchema>(name, RUNTIME_DATABASE_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        database.createObjectStore('apps', { keyPath: 'id' });
        database.createObjectStore('inventory', { keyPath: 'key' });
        database
          .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
          .createIndex('by_app', 'appId');
        database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      }
    },
  });
}
