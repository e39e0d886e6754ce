/**
 * The databases every store test runs on: PGlite in memory always, and a PostgreSQL server when
 * LINEUP_TEST_POSTGRES_URL names one (a fresh database per `open`, dropped by `cleanup`). `.ci/run` starts
 * Debian's PostgreSQL on 127.0.0.1 and sets it, so CI runs both.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPGlite, pgliteDatabase } from '../src/store/pglite.js';
import { openPostgres } from '../src/store/postgres.js';
import type { SqlDatabase } from '../src/store/sql.js';

export interface Backend {
  readonly name: 'pglite' | 'postgres';
  /** A new, empty database. */
  open(): Promise<SqlDatabase>;
  /** A new, empty database that `reopen` can open again (PGlite: in a folder, not in memory). */
  openFolder(): Promise<SqlDatabase>;
  /** The URL (with credentials) or folder another process opens the database with. */
  locationOf(db: SqlDatabase): string;
  /** Reopens the database `open` made last (as a restarted process would). */
  reopen(db: SqlDatabase): Promise<SqlDatabase>;
  cleanup(): Promise<void>;
}

export const POSTGRES_URL = process.env.LINEUP_TEST_POSTGRES_URL;

function pgliteBackend(): Backend {
  const folders: string[] = [];
  // An empty in-memory database made once per test file and cloned for each test: a clone takes about a quarter
  // of the time of a new database.
  let template: Promise<PGlite> | undefined;
  return {
    name: 'pglite',
    async open() {
      template ??= PGlite.create();
      return pgliteDatabase(await (await template).clone());
    },
    async openFolder() {
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const folder = mkdtempSync(join(tmpdir(), 'lineup-agent-test-'));
      folders.push(folder);
      return openPGlite(folder);
    },
    locationOf: (db) => db.location,
    reopen: (db) => openPGlite(db.location),
    async cleanup() {
      await (await template)?.close();
      template = undefined;
      const { rmSync } = await import('node:fs');
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    },
  };
}

function postgresBackend(url: string): Backend {
  const made: string[] = [];
  const urls = new Map<string, string>();
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    async open() {
      const name = `lineup_test_${randomBytes(6).toString('hex')}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      made.push(name);
      const target = new URL(url);
      target.pathname = `/${name}`;
      const db = await openPostgres(target.toString());
      urls.set(db.location, target.toString());
      return db;
    },
    openFolder() {
      return this.open();
    },
    locationOf: (db) => urls.get(db.location) as string,
    reopen: (db) => openPostgres(urls.get(db.location) as string),
    async cleanup() {
      for (const name of made.splice(0))
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export const BACKENDS: readonly Backend[] = [
  pgliteBackend(),
  ...(POSTGRES_URL === undefined || POSTGRES_URL === '' ? [] : [postgresBackend(POSTGRES_URL)]),
];
