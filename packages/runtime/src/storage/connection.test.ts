/**
 * The database connection across pages, against fake-indexeddb (which implements versionchange and blocked as
 * browsers do); the web host's strict-CSP Playwright spec proves the version change between two real tabs.
 */
import 'fake-indexeddb/auto';
import { isLineUpError } from '@lineup/shared';
import { forceCloseDatabase } from 'fake-indexeddb';
import { openDB, unwrap } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { RuntimeStorageError } from './connection.js';
import { openRuntimeDatabase, RUNTIME_DATABASE_VERSION } from './database.js';

let databases = 0;
const freshName = () => `connection-${databases++}`;

/** What a newer LineUp in another tab does: open the database at the next version. Resolves once opened. */
function openNewer(name: string, onBlocked: () => void = () => {}) {
  return openDB(name, RUNTIME_DATABASE_VERSION + 1, { blocked: onBlocked });
}

/**
 * An older page that never lets go: a raw connection at the previous version without a versionchange handler. Its
 * database has the stores that the current version's upgrade step changes (an older LineUp created them).
 */
async function holdOlder(name: string) {
  const request = indexedDB.open(name, RUNTIME_DATABASE_VERSION - 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore('inventory', { keyPath: 'key' });
    request.result.createObjectStore('tool_calls', { keyPath: 'key' });
    request.result.createObjectStore('inventory_fences', { keyPath: 'key' });
  };
  return new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('openRuntimeDatabase across pages', () => {
  it('closes itself for a newer version and says so: the newer page is never blocked', async () => {
    const name = freshName();
    const onVersionChange = vi.fn();
    const db = await openRuntimeDatabase(name, { onVersionChange });
    const blocked = vi.fn();
    const newer = await openNewer(name, blocked);
    expect(newer.version).toBe(RUNTIME_DATABASE_VERSION + 1);
    expect(blocked).not.toHaveBeenCalled();
    expect(onVersionChange).toHaveBeenCalledExactlyOnceWith({
      oldVersion: RUNTIME_DATABASE_VERSION,
      newVersion: RUNTIME_DATABASE_VERSION + 1,
    });
    // This page's runtime can no longer use it (the host asks for a reload).
    expect(() => db.transaction('apps')).toThrow();
    newer.close();
  });

  it('closes itself for a deletion of the database too', async () => {
    const name = freshName();
    const onVersionChange = vi.fn();
    await openRuntimeDatabase(name, { onVersionChange });
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onblocked = () => reject(new Error('blocked'));
      request.onsuccess = () => resolve();
    });
    expect(onVersionChange).toHaveBeenCalledExactlyOnceWith({
      oldVersion: RUNTIME_DATABASE_VERSION,
      newVersion: null,
    });
  });

  it('closes without a callback too: an upgrade is never held back by a page that did not listen', async () => {
    const name = freshName();
    await openRuntimeDatabase(name);
    const blocked = vi.fn();
    (await openNewer(name, blocked)).close();
    expect(blocked).not.toHaveBeenCalled();
  });

  it('says it is blocked by an older page, and opens once that page lets go', async () => {
    const name = freshName();
    const older = await holdOlder(name);
    const onBlocked = vi.fn(() => older.close());
    const db = await openRuntimeDatabase(name, { onBlocked, blockedTimeoutMs: 5_000 });
    expect(onBlocked).toHaveBeenCalledExactlyOnceWith({
      currentVersion: RUNTIME_DATABASE_VERSION - 1,
      requestedVersion: RUNTIME_DATABASE_VERSION,
    });
    expect(db.version).toBe(RUNTIME_DATABASE_VERSION);
    db.close();
  });

  it('gives up after the bounded wait with storage_blocked, and never holds a late connection', async () => {
    const name = freshName();
    const older = await holdOlder(name);
    const onBlocked = vi.fn();
    const opening = openRuntimeDatabase(name, { onBlocked, blockedTimeoutMs: 50 });
    const error = await opening.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RuntimeStorageError);
    expect(isLineUpError(error)).toBe(true);
    expect((error as RuntimeStorageError).code).toBe('storage_blocked');
    expect((error as RuntimeStorageError).message).toMatch(
      new RegExp(`another page at version ${RUNTIME_DATABASE_VERSION - 1} .* close the other LineUp tabs`),
    );
    expect(onBlocked).toHaveBeenCalledTimes(1);
    // The older page goes: the request still pending behind the refusal opens, and is closed at once, so the
    // next upgrade is not blocked by it.
    older.close();
    await vi.waitFor(async () => {
      const databases = await indexedDB.databases();
      expect(databases.find((database) => database.name === name)?.version).toBe(RUNTIME_DATABASE_VERSION);
    });
    const blocked = vi.fn();
    (await openNewer(name, blocked)).close();
    expect(blocked).not.toHaveBeenCalled();
  });

  it('reports a connection the browser closed abnormally', async () => {
    const name = freshName();
    const onTerminated = vi.fn();
    const db = await openRuntimeDatabase(name, { onTerminated });
    forceCloseDatabase(unwrap(db) as unknown as Parameters<typeof forceCloseDatabase>[0]);
    expect(onTerminated).toHaveBeenCalledTimes(1);
  });
});
