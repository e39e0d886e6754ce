import { openPGlite } from './pglite.js';
import { openPostgres } from './postgres.js';
import { isPostgresUrl, type SqlDatabase } from './sql.js';

/**
 * Opens the database `location` names: a `postgres://…` URL is a PostgreSQL server; anything else is a folder
 * for the embedded PGlite database (`memory` keeps it in memory, for tests).
 */
export function openDatabase(location: string): Promise<SqlDatabase> {
  if (typeof location !== 'string' || location.trim() === '')
    throw new TypeError('openDatabase: give a folder for the embedded database or a postgres:// URL.');
  return isPostgresUrl(location) ? openPostgres(location) : openPGlite(location);
}
