/**
 * The runtime database's schema: its name, the version this code writes, and each object store with its key, its
 * record and its indexes. The upgrade path that creates them is upgrade.ts.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { ActionLedgerRecord, ActionReceiptStatus } from './action-records.js';
import type { AppRecord, BundleFileRecord, InventoryFenceRecord, InventoryRecord } from './app-records.js';
import type { AuditRecord } from './audit-records.js';
import type {
  CapabilityCallRecord,
  CapabilityCallStage,
  CapabilityRecord,
  GrantRecord,
} from './capability-records.js';
import type { ToolGrantRecord } from './consent-records.js';
import type { ConversationRecord, StoredMessageRecord, ViewStateRecord } from './conversation-records.js';
import type {
  ActivationRecord,
  InstanceRecord,
  OperationRecord,
  SessionDataRecord,
  ToolCallRecord,
} from './execution-records.js';
import type { OutboxRecord } from './outbox-records.js';

/** The schema version this code writes. */
export const RUNTIME_DATABASE_VERSION = 13;

/** The default database name; a host with several profiles passes one name per profile. */
export const RUNTIME_DATABASE_NAME = 'lineup-runtime';

export interface RuntimeDatabaseSchema extends DBSchema {
  apps: { key: string; value: AppRecord };
  inventory: { key: 'current'; value: InventoryRecord };
  inventory_fences: { key: string; value: InventoryFenceRecord; indexes: { by_retired: number } };
  audit: { key: number; value: AuditRecord; indexes: { by_app: string } };
  outbox: { key: number; value: OutboxRecord; indexes: { by_pending: number; by_request_ended: string } };
  tool_calls: { key: string; value: ToolCallRecord; indexes: { by_due: number } };
  instances: { key: string; value: InstanceRecord };
  activations: { key: string; value: ActivationRecord; indexes: { by_due: number } };
  operations: { key: string; value: OperationRecord; indexes: { by_due: number } };
  session_data: { key: string; value: SessionDataRecord };
  conversations: { key: string; value: ConversationRecord; indexes: { by_updated: number } };
  messages: {
    key: number;
    value: StoredMessageRecord;
    indexes: {
      by_conversation: [string, number];
      by_envelope: [string, string];
      by_pending: number;
    };
  };
  view_states: { key: string; value: ViewStateRecord };
  /**
   * The envelope id of each message recorded from the agent among the last `RECENT_RECEIVED_KEPT` records,
   * keyed by the negated `seq` of its record (the newest first): what an agent may send again after a reload, read
   * in one request by `ConversationStore.recentlyReceived`.
   */
  received_recent: { key: number; value: string };
  capabilities: { key: string; value: CapabilityRecord };
  capability_calls: { key: string; value: CapabilityCallRecord; indexes: { by_stage: CapabilityCallStage } };
  grants: { key: string; value: GrantRecord };
  tool_grants: { key: string; value: ToolGrantRecord; indexes: { by_conversation: string } };
  bundle_files: { key: string; value: BundleFileRecord; indexes: { by_app: string } };
  action_ledger: {
    key: string;
    value: ActionLedgerRecord;
    indexes: { by_request: [string, string]; by_document: string; by_status: ActionReceiptStatus };
  };
}

export type RuntimeDatabase = IDBPDatabase<RuntimeDatabaseSchema>;
