/** PGlite: PostgreSQL compiled to WebAssembly, in this process, its data in one folder (or in memory). */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import type { SqlDatabase, SqlQueryable, SqlResult } from './sql.js';

/** The file in a store folder that names the process holding it open. */
export const PGLITE_LOCK_FILE = 'lineup-agent.pid';

export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the folder for this process: PGlite is single-user PostgreSQL, and two processes writing one folder would
 * corrupt it. A lock left by a process that is gone is taken over.
 */
function lockFolder(folder: string): () => void {
  const file = join(folder, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && (holder === process.pid || isAlive(holder)))
        throw new StoreBusyError(
          `The store ${folder} is open ${holder === process.pid ? 'in this process already' : `in another process (pid ${holder})`}: an embedded store serves one process at a time. Stop that one first, or use a PostgreSQL server (--store postgres://…) for several.`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new StoreBusyError(`Could not take the store ${folder}.`);
}

/**
 * Opens (creating it when missing) the embedded database in `folder`, or a throw-away one in memory when `folder`
 * is `memory`. One process at a time may open a folder (`StoreBusyError` otherwise).
 */
export async function openPGlite(folder: string): Promise<SqlDatabase> {
  const inMemory = folder === 'memory' || folder === 'memory://';
  if (inMemory) return pgliteDatabase(await PGlite.create(), 'memory');
  const location = resolve(folder);
  mkdirSync(location, { recursive: true });
  const unlock = lockFolder(location);
  try {
    return pgliteDatabase(await PGlite.create(location), location, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Wraps an open PGlite instance (say, a `clone()` of another) as a `SqlDatabase`. */
export function pgliteDatabase(db: PGliteInterface, location = 'memory', onClose?: () => void): SqlDatabase {
  const on = (queryable: Pick<PGliteInterface, 'query'>): SqlQueryable => ({
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
      const result = await queryable.query<Row>(text, params as unknown[]);
      return { rows: result.rows };
    },
  });
  const self = on(db);
  return {
    kind: 'pglite',
    location,
    query: self.query,
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        onClose?.();
      }
    },
  };
}
