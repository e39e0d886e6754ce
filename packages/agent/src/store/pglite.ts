/** PGlite: PostgreSQL compiled to WebAssembly, in this process, its data in one folder (or in memory). */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import type { SqlDatabase, SqlQueryable, SqlResult } from './sql.js';

/**
 * Opens (creating it when missing) the embedded database in `folder`, or a throw-away one in memory when `folder`
 * is `memory`. One process at a time may open a folder: PGlite is single-user PostgreSQL.
 */
export async function openPGlite(folder: string): Promise<SqlDatabase> {
  const inMemory = folder === 'memory' || folder === 'memory://';
  const location = inMemory ? 'memory' : resolve(folder);
  if (!inMemory) mkdirSync(location, { recursive: true });
  return pgliteDatabase(await PGlite.create(inMemory ? undefined : location), location);
}

/** Wraps an open PGlite instance (say, a `clone()` of another) as a `SqlDatabase`. */
export function pgliteDatabase(db: PGliteInterface, location = 'memory'): SqlDatabase {
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
    close: () => db.close(),
  };
}
