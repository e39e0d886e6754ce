/**
 * The runtime's IndexedDB database (DESIGN.md "Persistence"): one database per host profile, opened through
 * `idb`, with a versioned upgrade path. Each version's step only adds what that version introduced, so a
 * profile created by any earlier version upgrades in place and keeps its facts.
 *
 * Version 1 holds the app registry, the inventory revision, the audit log and the outbox; version 2 adds the
 * Agent Tool calls; version 3 indexes the pending outbox rows, so that finding what to send never reads the
 * delivered history. Later versions add the stores of activations, instances, session data, operations,
 * capability calls, the action ledger and stream records as their features land.
 */

import type {
  ClientInventoryPayload,
  MiniAppManifest,
  ToolCallPayload,
  ToolProgressPayload,
  ToolResultPayload,
} from '@lineup/shared/protocol';
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';

/** The schema version this code writes. */
export const RUNTIME_DATABASE_VERSION = 3;

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

export type AuditType =
  | 'app_installed'
  | 'app_updated'
  | 'app_enabled'
  | 'app_disabled'
  | 'tool_call_accepted'
  | 'tool_call_rejected';

/** One audit entry: what happened, to what, when; `id` is assigned by the store. */
export interface AuditRecord {
  readonly id?: number;
  readonly at: number;
  readonly type: AuditType;
  /** The app concerned (for a tool call, the app scope's app when known). */
  readonly appId: string;
  readonly version: string;
  /** For tool calls: the conversation and call id (the agent's identity comes with the transport). */
  readonly conversationId?: string;
  readonly callId?: string;
}

/**
 * A message for the agent side, written in the same transaction as its facts. While it waits it carries
 * `pending: 1`, which the `by_pending` index lists (IndexedDB cannot index a boolean, and a record without the
 * indexed field is left out of the index); once sent it carries `deliveredAt` instead.
 */
export type OutboxRecord = {
  readonly id?: number;
  readonly at: number;
  readonly pending?: typeof OUTBOX_PENDING;
  /** Unix milliseconds at which the transport accepted it. */
  readonly deliveredAt?: number;
  /** The conversation a tool answer goes to; inventories go to every conversation. */
  readonly conversationId?: string;
} & (
  | { readonly type: 'lineup.v1.client.inventory'; readonly payload: ClientInventoryPayload }
  | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
  | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload }
);

/**
 * One Agent Tool call (seed 003 §4.2): keyed by conversation and `call_id`, with a digest of its content (so a
 * reused `call_id` with other content is told apart), and the latest answer the runtime persisted for it —
 * a protocol receipt, or the one final result.
 */
export interface ToolCallRecord {
  readonly key: string;
  readonly conversationId: string;
  readonly callId: string;
  readonly call: ToolCallPayload;
  /** `hashCanonicalJSON` of the call's tool, inventory revision and arguments. */
  readonly contentHash: string;
  readonly status: 'accepted' | 'rejected';
  readonly latest:
    | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
    | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload };
  readonly receivedAt: number;
}

/** The value of `OutboxRecord.pending` while a row waits to be sent. */
export const OUTBOX_PENDING = 1;

export interface RuntimeDatabaseSchema extends DBSchema {
  apps: { key: string; value: AppRecord };
  inventory: { key: 'current'; value: InventoryRecord };
  audit: { key: number; value: AuditRecord; indexes: { by_app: string } };
  outbox: { key: number; value: OutboxRecord; indexes: { by_pending: number } };
  tool_calls: { key: string; value: ToolCallRecord };
}

export type RuntimeDatabase = IDBPDatabase<RuntimeDatabaseSchema>;

/** The stores a registry change writes together. */
export const REGISTRY_STORES = ['apps', 'inventory', 'audit', 'outbox'] as const;
export type RegistryTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof REGISTRY_STORES, 'readwrite'>;

/** The stores receiving a tool call writes together. */
export const TOOL_CALL_STORES = ['tool_calls', 'audit', 'outbox'] as const;

/**
 * Transactions that write a call record or a final result are `strict`: they complete only once the data is
 * on disk, so an `accepted` sent after the commit is never lost in a crash (the default lets the browser
 * report completion earlier).
 */
export const STRICT: IDBTransactionOptions = { durability: 'strict' };

/** Opens (creating or upgrading) the runtime database. */
export function openRuntimeDatabase(name: string = RUNTIME_DATABASE_NAME): Promise<RuntimeDatabase> {
  return openDB<RuntimeDatabaseSchema>(name, RUNTIME_DATABASE_VERSION, {
    async upgrade(database, oldVersion, _newVersion, transaction) {
      if (oldVersion < 1) {
        database.createObjectStore('apps', { keyPath: 'id' });
        database.createObjectStore('inventory', { keyPath: 'key' });
        database
          .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
          .createIndex('by_app', 'appId');
        database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      }
      if (oldVersion < 2) {
        database.createObjectStore('tool_calls', { keyPath: 'key' });
      }
      if (oldVersion < 3) {
        // Rows of versions 1–2 said `delivered: boolean`; they now say `pending` or `deliveredAt`.
        const outbox = transaction.objectStore('outbox');
        outbox.createIndex('by_pending', 'pending');
        let cursor = await outbox.openCursor();
        while (cursor) {
          const { delivered, ...row } = cursor.value as OutboxRecord & { delivered?: boolean };
          await cursor.update(
            delivered === false ? { ...row, pending: OUTBOX_PENDING } : { ...row, deliveredAt: row.at },
          );
          cursor = await cursor.continue();
        }
      }
    },
  });
}
