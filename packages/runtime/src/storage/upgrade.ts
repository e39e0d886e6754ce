/**
 * The runtime database's versioned upgrade path. Each version's step only adds what that version introduced, so a
 * profile created by any earlier version upgrades in place and keeps its facts.
 *
 * Version 1 holds the app registry, the inventory revision, the audit log and the outbox; version 2 adds the
 * Agent Tool calls; version 3 indexes the pending outbox rows, so that finding what to send never reads the
 * delivered history; version 4 adds what executing a call needs: MiniApp instances (with their app
 * sub-session), activations, operations and session data, and indexes of what falls due (an activation's
 * foreground deadline, an operation's deadline, a call's timeout); version 5 adds conversations: their
 * messages in and out (with the user's queued ones), and the local state of the interfaces a host shows; version
 * 6 adds capabilities: what the host declared, every `app.call` with its decision and result, and the grants a
 * user chose to remember; version 7 adds the DSL action ledger; version 8 keeps the files of verified bundles and
 * of MCP servers' views; version 9 indexed, uniquely, the inventory's counter and a call's MCP request in flight
 * (assertions of version 9's steps that read nothing, which version 11 replaced); version 10 keeps an envelope from
 * the agent as the JSON text it came in (`StoredMessageRecord`), which code of version 9 could not read, and the ids
 * of the envelopes recorded from the agent last (`received_recent`); version 11 fences the inventory counters that
 * were replaced (`inventory_fences`) and indexes, uniquely, the MCP request each final result ended
 * (`OutboxRecord.requestEnded`): what the steps that read nothing assert, with requests that succeed (see
 * `writeInventoryFence`); version 12 keeps the consent of Agent Tool calls: the grants a user remembered for a
 * conversation (`tool_grants`, bound to the tool's definition), and — in records of existing stores, needing no
 * upgrade step of their own — a call's open question (`ToolCallRecord.consent`, stage `awaiting_consent`) and each
 * app's consent settings (`AppRecord.consent`); version 13 stamps the registry (the `registry` row of
 * `inventory_fences`), so a step knows from one small row whether the apps it read before are still the stored ones.
 */
import { type IDBPDatabase, type IDBPTransaction, type StoreNames, unwrap } from 'idb';
import { stampRegistry } from './inventory-fence.js';
import { OUTBOX_PENDING, type OutboxRecord } from './outbox-records.js';
import type { RuntimeDatabaseSchema } from './schema.js';

/**
 * The upgrade to version 10 takes the ids of `received_recent` from this many of the newest records: what an agent
 * may send again is what it has no acknowledgement for, at most a batch of the client's (256 messages). A message
 * older than that and sent again right after the upgrade is caught by the journal's transaction (recorded once).
 */
export const RECENT_RECEIVED_ON_UPGRADE = 256;

/** The upgrade from `oldVersion` (0 for a new database) to `RUNTIME_DATABASE_VERSION`, in the open's transaction. */
export async function upgradeRuntimeDatabase(
  database: IDBPDatabase<RuntimeDatabaseSchema>,
  oldVersion: number,
  _newVersion: number | null,
  transaction: IDBPTransaction<RuntimeDatabaseSchema, StoreNames<RuntimeDatabaseSchema>[], 'versionchange'>,
): Promise<void> {
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
  if (oldVersion < 4) {
    transaction.objectStore('tool_calls').createIndex('by_due', 'dueAt');
    database.createObjectStore('instances', { keyPath: 'key' });
    database.createObjectStore('activations', { keyPath: 'activationId' }).createIndex('by_due', 'dueAt');
    database.createObjectStore('operations', { keyPath: 'operationId' }).createIndex('by_due', 'dueAt');
    database.createObjectStore('session_data', { keyPath: 'key' });
  }
  if (oldVersion < 5) {
    database.createObjectStore('conversations', { keyPath: 'id' }).createIndex('by_updated', 'updatedAt');
    const messages = database.createObjectStore('messages', { keyPath: 'seq', autoIncrement: true });
    messages.createIndex('by_conversation', ['conversationId', 'seq']);
    messages.createIndex('by_envelope', ['direction', 'id']);
    messages.createIndex('by_pending', 'pending');
    database.createObjectStore('view_states', { keyPath: 'key' });
  }
  if (oldVersion < 6) {
    database.createObjectStore('capabilities', { keyPath: 'name' });
    database.createObjectStore('capability_calls', { keyPath: 'key' }).createIndex('by_stage', 'stage');
    database.createObjectStore('grants', { keyPath: 'key' });
  }
  if (oldVersion < 7) {
    const ledger = database.createObjectStore('action_ledger', { keyPath: 'operationId' });
    ledger.createIndex('by_request', ['conversationId', 'requestId'], { unique: true });
    ledger.createIndex('by_document', 'documentKey');
    ledger.createIndex('by_status', 'status');
  }
  if (oldVersion < 8) {
    database.createObjectStore('bundle_files', { keyPath: 'key' }).createIndex('by_app', 'appId');
  }
  if (oldVersion < 9) {
    // Version 9's assertions (dropped again by version 11). The database's own schema, not the typed one.
    const raw = unwrap(transaction as never) as unknown as IDBTransaction;
    raw.objectStore('inventory').createIndex('by_counter', 'counter', { unique: true });
    raw.objectStore('tool_calls').createIndex('by_in_flight', 'mcpInFlight', { unique: true });
  }
  if (oldVersion < 10) {
    // Records of either form are read (`StoredMessageRecord`): nothing to rewrite. The number moves so that
    // code of version 9, which reads `message` only, refuses this database instead of failing on a record
    // kept as text. The ids of the last envelopes received are taken from the newest records already there
    // (`RECENT_RECEIVED_ON_UPGRADE`: each is read whole, and the page waits for its upgrade).
    const recent = database.createObjectStore('received_recent');
    if (database.objectStoreNames.contains('messages')) {
      let cursor = await transaction.objectStore('messages').openCursor(null, 'prev');
      let newest: number | undefined;
      while (cursor) {
        const record = cursor.value;
        newest ??= record.seq;
        if (record.seq <= newest - RECENT_RECEIVED_ON_UPGRADE) break;
        if (record.direction === 'in') await recent.put(record.id, -record.seq);
        cursor = await cursor.continue();
      }
    }
  }
  if (oldVersion < 11) {
    // The steps that read nothing assert with requests that succeed (see `writeInventoryFence`). No counter
    // needs a fence yet: every registry a runtime assumes is read after this upgrade, which closed every
    // connection of the version before.
    database.createObjectStore('inventory_fences', { keyPath: 'key' }).createIndex('by_retired', 'retired', {
      unique: true,
    });
    const raw = unwrap(transaction as never) as unknown as IDBTransaction;
    const stores = raw.objectStoreNames;
    if (stores.contains('outbox'))
      raw.objectStore('outbox').createIndex('by_request_ended', 'requestEnded', { unique: true });
    for (const [store, index] of [
      ['inventory', 'by_counter'],
      ['tool_calls', 'by_in_flight'],
    ] as const)
      if (stores.contains(store) && raw.objectStore(store).indexNames.contains(index))
        raw.objectStore(store).deleteIndex(index);
  }
  if (oldVersion < 12) {
    database
      .createObjectStore('tool_grants', { keyPath: 'key' })
      .createIndex('by_conversation', 'conversationId');
  }
  if (oldVersion < 13) {
    // The registry's stamp (`stampRegistry`), which every change of the apps or the inventory replaces from now on.
    // The number moves so that code of version 12, which changes the apps without a new stamp, refuses this database.
    stampRegistry(transaction as never);
  }
}
