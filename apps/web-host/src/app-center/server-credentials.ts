/**
 * Access tokens of MCP servers, kept in this browser (its own IndexedDB database, `lineup-mcp-credentials`) per
 * server URL, and handed to the runtime's MCP client for requests to that URL only (`auth` of `createMcpConnector`):
 * the SDK's transport sends it as `Authorization: Bearer …` to that server. No view, MiniApp page or agent ever gets
 * one: views and pages run in sandboxed frames of opaque origins (no access to this database or this page's memory),
 * and nothing sent to an agent names a token.
 *
 * A token is what the server's owner gave the user: printable ASCII of the bearer token syntax (RFC 6750 §2.1), at
 * most 4,096 characters; anything else is refused with why and changes nothing.
 */
import type { McpServerAuth } from '@lineup/runtime/mcp';
import { type IDBPDatabase, openDB } from 'idb';

/** The most characters of a token kept. */
export const MAX_TOKEN_LENGTH = 4_096;
/** RFC 6750 §2.1 `b64token`. */
const TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Why `token` cannot be kept, or undefined when it can. */
export function tokenProblem(token: string): string | undefined {
  if (token.length === 0) return 'The access token is empty.';
  if (token.length > MAX_TOKEN_LENGTH)
    return `The access token is ${token.length} characters; at most ${MAX_TOKEN_LENGTH} are kept.`;
  if (!TOKEN_PATTERN.test(token))
    return 'An access token is letters, digits and - . _ ~ + / (then = signs), with no spaces: copy it again as the server gave it.';
  return undefined;
}

interface TokenRecord {
  readonly url: string;
  readonly token: string;
  readonly savedAt: number;
}

const DATABASE = 'lineup-mcp-credentials';

/** The tokens of this browser's MCP servers; `load()` before use. */
export class ServerCredentials {
  #db: IDBPDatabase | null = null;
  readonly #tokens = new Map<string, string>();

  /** Opens the database and reads every token (kept in memory for the client's requests). */
  async load(name = DATABASE): Promise<void> {
    this.#db = await openDB(name, 1, {
      upgrade(database) {
        database.createObjectStore('tokens', { keyPath: 'url' });
      },
    });
    for (const record of (await this.#db.getAll('tokens')) as TokenRecord[])
      this.#tokens.set(record.url, record.token);
  }

  /** Whether the server at `url` has a token here. */
  has(url: string): boolean {
    return this.#tokens.has(url);
  }

  /** The token of the server at `url`, if it has one. */
  token(url: string): string | undefined {
    return this.#tokens.get(url);
  }

  /** Keeps `token` for the server at `url` (replacing one it had). Throws a `TypeError` that says why for a token that cannot be one. */
  async set(url: string, token: string): Promise<void> {
    const problem = tokenProblem(token);
    if (problem !== undefined) throw new TypeError(problem);
    await this.#database().put('tokens', { url, token, savedAt: Date.now() } satisfies TokenRecord);
    this.#tokens.set(url, token);
  }

  /** Forgets the token of the server at `url`; its next request goes without. */
  async remove(url: string): Promise<void> {
    await this.#database().delete('tokens', url);
    this.#tokens.delete(url);
  }

  /** The runtime connector's `auth`: the token of exactly that URL, read at each request. */
  readonly auth = (url: string): McpServerAuth | undefined => ({
    token: async () => this.#tokens.get(url),
  });

  close(): void {
    this.#db?.close();
    this.#db = null;
  }

  #database(): IDBPDatabase {
    if (this.#db === null) throw new Error('The credentials are not loaded.');
    return this.#db;
  }
}
