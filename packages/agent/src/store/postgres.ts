/** A PostgreSQL server, through `pg`'s connection pool. */
import pg from 'pg';
import { redactedUrl, type SqlDatabase, type SqlQueryable, type SqlResult } from './sql.js';

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  readonly maxConnections?: number;
}

/** Connects to `url` (`postgres://user:password@host:port/database`) and checks the server answers. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<SqlDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const location = redactedUrl(url);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      `Could not connect to PostgreSQL at ${location}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const on = (client: pg.Pool | pg.PoolClient): SqlQueryable => ({
    async query<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
      const result = await client.query(text, params as unknown[]);
      return { rows: result.rows as Row[] };
    },
  });
  return {
    kind: 'postgres',
    location,
    query: on(pool).query,
    async transaction(work) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
