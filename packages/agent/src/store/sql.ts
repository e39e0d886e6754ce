/**
 * The one seam between the agent host and its database: PostgreSQL's SQL, spoken either to PGlite (embedded
 * PostgreSQL in WebAssembly, a folder on disk) or to a PostgreSQL server through `pg`. Both run the same schema,
 * the same migrations and the same statements; nothing above this file knows which one it has.
 */

/** The rows of one statement. */
export interface SqlResult<Row> {
  readonly rows: Row[];
}

/** Runs one parameterised statement (`$1`, `$2`, …). */
export interface SqlQueryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
}

export type SqlKind = 'pglite' | 'postgres';

/** A database the agent host keeps its records in. */
export interface SqlDatabase extends SqlQueryable {
  readonly kind: SqlKind;
  /** Where it is, without credentials: a folder, `memory`, or `postgres://host:port/database`. */
  readonly location: string;
  /**
   * Runs `work` in one transaction (READ COMMITTED): committed when it resolves, rolled back when it throws.
   * Statements of a transaction go through the `tx` it receives, never through the database itself.
   */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Closes it; pending statements finish first. */
  close(): Promise<void>;
}

/** A `postgres://` or `postgresql://` URL, with the password (if any) replaced by `***` for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}
