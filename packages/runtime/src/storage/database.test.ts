/** The versioned upgrade path: a version-1 profile opens at the current version and keeps its facts. */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { openRuntimeDatabase, RECENT_RECEIVED_ON_UPGRADE, RUNTIME_DATABASE_VERSION } from './database.js';

/** A database as version 1 or 2 of the runtime created it, before any later upgrade step. */
function openOldVersion(name: string, version: 1 | 2) {
  return openDB(name, version, {
    upgrade(database) {
      database.createObjectStore('apps', { keyPath: 'id' });
      database.createObjectStore('inventory', { keyPath: 'key' });
      database
        .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
        .createIndex('by_app', 'appId');
      database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      if (version === 2) database.createObjectStore('tool_calls', { keyPath: 'key' });
    },
  });
}

describe('openRuntimeDatabase', () => {
  it('creates every store of the current version', async () => {
    const db = await openRuntimeDatabase('db-fresh');
    expect(db.version).toBe(RUNTIME_DATABASE_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([
      'action_ledger',
      'activations',
      'apps',
      'audit',
      'bundle_files',
      'capabilities',
      'capability_calls',
      'conversations',
      'grants',
      'instances',
      'inventory',
      'inventory_fences',
      'messages',
      'operations',
      'outbox',
      'received_recent',
      'session_data',
      'tool_calls',
      'tool_grants',
      'view_states',
    ]);
    expect(RUNTIME_DATABASE_VERSION).toBe(13);
    db.close();
  });

  it('indexes the pending outbox rows, and the MCP request a final result ended', async () => {
    const db = await openRuntimeDatabase('db-index');
    expect([...db.transaction('outbox').store.indexNames]).toEqual(['by_pending', 'by_request_ended']);
    db.close();
  });

  it('upgrades a version-2 outbox: undelivered rows become pending, delivered ones leave the index', async () => {
    const v2 = await openOldVersion('db-upgrade-2', 2);
    await v2.add('outbox', { at: 10, delivered: true, type: 'lineup.v1.client.inventory', payload: {} });
    await v2.add('outbox', { at: 20, delivered: false, type: 'lineup.v1.client.inventory', payload: {} });
    v2.close();
    const db = await openRuntimeDatabase('db-upgrade-2');
    expect(await db.getAll('outbox')).toEqual([
      { id: 1, at: 10, deliveredAt: 10, type: 'lineup.v1.client.inventory', payload: {} },
      { id: 2, at: 20, pending: 1, type: 'lineup.v1.client.inventory', payload: {} },
    ]);
    expect((await db.getAllFromIndex('outbox', 'by_pending')).map((row) => row.id)).toEqual([2]);
    db.close();
  });

  it('upgrades a version-1 database in place, keeping its records', async () => {
    const v1 = await openOldVersion('db-upgrade', 1);
    await v1.put('apps', { id: 'com.example.kept', enabled: true });
    v1.close();
    const db = await openRuntimeDatabase('db-upgrade');
    expect(db.version).toBe(RUNTIME_DATABASE_VERSION);
    expect(db.objectStoreNames.contains('tool_calls')).toBe(true);
    expect(await db.get('apps', 'com.example.kept')).toMatchObject({ enabled: true });
    db.close();
  });

  it('upgrades a version-2 database with an inventory and calls: fences and request ends indexed, nothing lost', async () => {
    const v2 = await openOldVersion('db-upgrade-11', 2);
    await v2.put('inventory', { key: 'current', counter: 4, inventory: {} });
    await v2.put('tool_calls', { key: 'conv\ncall_1', stage: 'finished' });
    v2.close();
    const db = await openRuntimeDatabase('db-upgrade-11');
    expect(await db.get('inventory', 'current')).toMatchObject({ counter: 4 });
    expect(await db.count('tool_calls')).toBe(1);
    // No fence yet; the registry's stamp, written by version 13's step.
    expect(await db.getAll('inventory_fences')).toEqual([{ key: 'registry', stamp: expect.any(String) }]);
    const stores = db.transaction(['inventory', 'inventory_fences', 'outbox', 'tool_calls']);
    expect(stores.objectStore('inventory_fences').index('by_retired').unique).toBe(true);
    expect(stores.objectStore('outbox').index('by_request_ended').unique).toBe(true);
    // Version 9's assertion indexes are gone: nothing writes or reads them any more.
    expect([...stores.objectStore('inventory').indexNames]).toEqual([]);
    expect([...stores.objectStore('tool_calls').indexNames]).toEqual(['by_due']);
    db.close();
  });

  it('upgrades an older database: the tool grants come, indexed by conversation, and the calls stay', async () => {
    const old = await openOldVersion('db-upgrade-12', 2);
    await old.put('tool_calls', { key: 'conv\ncall_1', stage: 'finished' });
    old.close();
    const db = await openRuntimeDatabase('db-upgrade-12');
    expect(await db.count('tool_calls')).toBe(1);
    await db.put('tool_grants', {
      key: 'conv\nnotes.delete',
      conversationId: 'conv',
      tool: 'notes.delete',
      appId: 'com.example.notes',
      definitionHash: 'h',
      grantedAt: 1,
    });
    expect(await db.getAllFromIndex('tool_grants', 'by_conversation', 'conv')).toHaveLength(1);
    db.close();
  });
});

/** A database as version 5 of the runtime created it (the conversations came then), with some messages. */
async function openVersion5(name: string, messages: readonly { direction: 'in' | 'out'; id: string }[]) {
  const db = await openDB(name, 5, {
    upgrade(database) {
      database.createObjectStore('apps', { keyPath: 'id' });
      database.createObjectStore('inventory', { keyPath: 'key' });
      database
        .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
        .createIndex('by_app', 'appId');
      database
        .createObjectStore('outbox', { keyPath: 'id', autoIncrement: true })
        .createIndex('by_pending', 'pending');
      database.createObjectStore('tool_calls', { keyPath: 'key' }).createIndex('by_due', 'dueAt');
      database.createObjectStore('instances', { keyPath: 'key' });
      database.createObjectStore('activations', { keyPath: 'activationId' }).createIndex('by_due', 'dueAt');
      database.createObjectStore('operations', { keyPath: 'operationId' }).createIndex('by_due', 'dueAt');
      database.createObjectStore('session_data', { keyPath: 'key' });
      database.createObjectStore('conversations', { keyPath: 'id' }).createIndex('by_updated', 'updatedAt');
      const store = database.createObjectStore('messages', { keyPath: 'seq', autoIncrement: true });
      store.createIndex('by_conversation', ['conversationId', 'seq']);
      store.createIndex('by_envelope', ['direction', 'id']);
      store.createIndex('by_pending', 'pending');
      database.createObjectStore('view_states', { keyPath: 'key' });
    },
  });
  for (const { direction, id } of messages)
    await db.add('messages', {
      conversationId: 'conv_1',
      direction,
      id,
      type: 'lineup.v1.chat.agent_message',
      message: { id },
      at: 1,
    });
  db.close();
}

describe('version 10', () => {
  it('takes the ids of the envelopes received last from the newest messages already kept', async () => {
    const kept = Array.from({ length: RECENT_RECEIVED_ON_UPGRADE + 2 }, (_, index) => ({
      direction: index % 2 === 0 ? ('in' as const) : ('out' as const),
      id: `m${index}`,
    }));
    await openVersion5('db-version-5', kept);
    const db = await openRuntimeDatabase('db-version-5');
    const recent = await db.getAll('received_recent');
    // Newest first: the messages from the agent among the last RECENT_RECEIVED_ON_UPGRADE records.
    expect(recent[0]).toBe(`m${RECENT_RECEIVED_ON_UPGRADE}`);
    expect(recent).toHaveLength(RECENT_RECEIVED_ON_UPGRADE / 2);
    expect(recent.at(-1)).toBe('m2');
    expect(await db.count('messages')).toBe(RECENT_RECEIVED_ON_UPGRADE + 2);
    db.close();
  });

  it('is refused by code of version 9, which cannot read a message kept as its text', async () => {
    const db = await openRuntimeDatabase('db-version-10');
    db.close();
    const opened = new Promise<string>((resolve, reject) => {
      const request = indexedDB.open('db-version-10', 9);
      request.onsuccess = () => {
        request.result.close();
        resolve('opened');
      };
      request.onerror = () => reject(request.error);
    });
    await expect(opened).rejects.toMatchObject({ name: 'VersionError' });
  });
});

describe('OutboxRecord.requestEnded', () => {
  it('is unique: a second final result for the same MCP request cannot be written', async () => {
    const db = await openRuntimeDatabase('db-request-ended');
    const row = (requestEnded: string) =>
      ({
        at: 1,
        type: 'lineup.v1.tool.result',
        payload: { call_id: 'call_1', outcome: 'error', error: { code: 'timeout', message: 'late' } },
        requestEnded,
      }) as const;
    await db.add('outbox', row('inv_1'));
    await expect(db.add('outbox', row('inv_1'))).rejects.toMatchObject({ name: 'ConstraintError' });
    await db.add('outbox', row('inv_2'));
    // Rows without one (inventories, receipts, other tools' results) are not indexed.
    await db.add('outbox', { at: 2, type: 'lineup.v1.client.inventory', payload: {} as never });
    await db.add('outbox', { at: 3, type: 'lineup.v1.client.inventory', payload: {} as never });
    expect(await db.count('outbox')).toBe(4);
    expect(await db.countFromIndex('outbox', 'by_request_ended')).toBe(2);
    db.close();
  });
});
