/**
 * The runtime database's connection across pages. IndexedDB upgrades a database only once every other open
 * connection to it has closed, so a page left open by an older LineUp would hold an upgrade back for ever, and
 * a page of this version would do the same to the next one. Three rules keep that from happening:
 *
 * - **versionchange** (this connection blocks a newer version, or the database's deletion): the connection is
 *   closed at once, so the other page proceeds; the host is told (`onVersionChange`) and should ask the user to
 *   reload: the runtime of this page can no longer read or write.
 * - **blocked** (an older page does not close): the host is told (`onBlocked`) so it can say what is waiting
 *   and ask to close the other tabs; opening waits at most `blockedTimeoutMs` for them, then rejects with
 *   `RuntimeStorageError` `storage_blocked` (a connection that opens after that is closed at once, so it never
 *   blocks anything itself).
 * - **terminated** (the browser closed the connection: storage cleared, a disk error): the host is told
 *   (`onTerminated`); as after a version change, the page needs a reload.
 */
import { LineUpError } from '@lineup/shared';

/** Why the runtime database could not be opened. */
export type RuntimeStorageErrorCode = 'storage_blocked';

/** The runtime database could not be opened (`storage_blocked`: other pages kept it open past the wait). */
export class RuntimeStorageError extends LineUpError<RuntimeStorageErrorCode> {
  override readonly name = 'RuntimeStorageError';
}

/** How long opening waits for other pages to close the database before `storage_blocked` (ms). */
export const RUNTIME_DATABASE_BLOCKED_TIMEOUT_MS = 30_000;

/** What a host hears about the runtime database's connection, and how long opening may wait. */
export interface RuntimeDatabaseLifecycle {
  /**
   * Another page wants a newer version of the database (`newVersion`), or deletes it (`null`). This page's
   * connection is already closed when this is called: show "LineUp was updated in another tab — reload".
   */
  readonly onVersionChange?: (change: {
    readonly oldVersion: number;
    readonly newVersion: number | null;
  }) => void;
  /**
   * Opening waits: another page holds the database open at `currentVersion` and does not let go. Called once per
   * open; show "close the other LineUp tabs". Opening resolves if they close within `blockedTimeoutMs`.
   */
  readonly onBlocked?: (wait: { readonly currentVersion: number; readonly requestedVersion: number }) => void;
  /** The browser closed the connection abnormally (storage cleared, a disk error): the page needs a reload. */
  readonly onTerminated?: () => void;
  /**
   * How long opening waits while blocked before rejecting with `storage_blocked` (ms); default
   * `RUNTIME_DATABASE_BLOCKED_TIMEOUT_MS`. `Infinity` waits as long as the other pages stay open.
   */
  readonly blockedTimeoutMs?: number;
}

/** The callbacks `idb`'s `openDB` takes, wired to a lifecycle. */
export interface OpenCallbacks {
  blocked(currentVersion: number, blockedVersion: number | null): void;
  blocking(currentVersion: number, blockedVersion: number | null, event: IDBVersionChangeEvent): void;
  terminated(): void;
}

/**
 * Runs `open` (an `openDB` call given the callbacks) under the rules above; resolves with its connection, or
 * rejects with `storage_blocked` once blocked for longer than the lifecycle allows.
 */
export function openWithLifecycle<Connection extends { close(): void }>(
  requestedVersion: number,
  lifecycle: RuntimeDatabaseLifecycle,
  open: (callbacks: OpenCallbacks) => Promise<Connection>,
): Promise<Connection> {
  const waitMs = lifecycle.blockedTimeoutMs ?? RUNTIME_DATABASE_BLOCKED_TIMEOUT_MS;
  return new Promise<Connection>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gaveUp = false;
    const callbacks: OpenCallbacks = {
      blocked(currentVersion) {
        if (timer !== undefined || gaveUp) return;
        lifecycle.onBlocked?.({ currentVersion, requestedVersion });
        if (!Number.isFinite(waitMs)) return;
        timer = setTimeout(() => {
          gaveUp = true;
          reject(
            new RuntimeStorageError(
              'storage_blocked',
              `The LineUp database stayed open in another page at version ${currentVersion} for ${waitMs} ms; close the other LineUp tabs and reload.`,
            ),
          );
        }, waitMs);
      },
      blocking(oldVersion, newVersion, event) {
        // Close first: the other page's upgrade or deletion must not wait on this one.
        (event.target as IDBDatabase).close();
        lifecycle.onVersionChange?.({ oldVersion, newVersion });
      },
      terminated() {
        lifecycle.onTerminated?.();
      },
    };
    open(callbacks).then(
      (connection) => {
        clearTimeout(timer);
        // Opened after we gave up: let it go at once, or it would block the next upgrade in turn.
        if (gaveUp) connection.close();
        else resolve(connection);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!gaveUp) reject(error);
      },
    );
  });
}
