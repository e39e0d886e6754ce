/**
 * Access tokens of MCP servers — one the user gave, or a sign-in's (server-sign-in.ts) — kept in this browser (its
 * own IndexedDB database, `lineup-mcp-credentials`) per server URL, and handed to the runtime's MCP client for requests to that URL only (`auth` of `createMcpConnector`):
 * the SDK's transport sends it as `Authorization: Bearer …` to that server. No view, MiniApp page or agent ever gets
 * one: views and pages run in sandboxed frames of opaque origins (no access to this database or this page's memory),
 * and nothing sent to an agent names a token.
 *
 * A token is what the server's owner gave the user: printable ASCII of the bearer token syntax (RFC 6750 §2.1), at
 * most 4,096 characters; anything else is refused with why and changes nothing.
 */
import type { McpCallOutcome, McpServerAuth } from '@lineup/runtime/mcp';
import { type IDBPDatabase, openDB } from 'idb';
import { type OAuthRecord, ServerSignIn } from './server-sign-in.ts';

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
  readonly #signIns = new Map<string, ServerSignIn>();
  /**
   * The token each server last refused, and when (in this page): it counts while that token is the one kept, so a
   * new token ends it, and a failed replacement that puts the old token back brings it back; a call it takes ends it.
   */
  readonly #refused = new Map<string, { readonly token: string; readonly at: number }>();
  readonly #listeners = new Set<() => void>();

  /** Opens the database and reads every token and sign-in (kept in memory for the client's requests). */
  async load(name = DATABASE): Promise<void> {
    this.#db = await openDB(name, 2, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) database.createObjectStore('tokens', { keyPath: 'url' });
        if (oldVersion < 2) database.createObjectStore('oauth', { keyPath: 'url' });
      },
    });
    for (const record of (await this.#db.getAll('tokens')) as TokenRecord[])
      this.#tokens.set(record.url, record.token);
    for (const record of (await this.#db.getAll('oauth')) as OAuthRecord[])
      this.#signIns.set(record.url, this.#provider(record));
  }

  /** Whether the server at `url` has a token here (given, or a sign-in's, even one to renew). */
  has(url: string): boolean {
    return this.#tokens.has(url) || this.#signIns.has(url);
  }

  /** How the server at `url` proves who it is here: a token the user gave, a sign-in (`oauth`), or nothing. */
  kind(url: string): 'token' | 'oauth' | 'expired' | undefined {
    if (this.#tokens.has(url)) return 'token';
    const signIn = this.#signIns.get(url);
    if (signIn === undefined) return undefined;
    return signIn.expired ? 'expired' : 'oauth';
  }

  /** The sign-in of the server at `url` (a new one when it has none): `signIn(popup)` runs it. */
  signInTo(url: string): ServerSignIn {
    const existing = this.#signIns.get(url);
    if (existing !== undefined) return existing;
    const created = this.#provider({ url });
    this.#signIns.set(url, created);
    return created;
  }

  /**
   * What a call of the server at `url` ended with, made with `sent`, the token it had when the call began: a 401 or 403
   * while that token is still the one kept means the server no longer takes it (`refusedAt` says when, until a new
   * token or a call it takes); listeners hear each change.
   */
  callEnded(url: string, outcome: McpCallOutcome, at: number, sent: string | undefined): void {
    const refused =
      outcome.status === 'refused' && (outcome.httpStatus === 401 || outcome.httpStatus === 403);
    const taken = outcome.status === 'ok' || outcome.status === 'tool_error';
    const token = this.#tokens.get(url);
    if (refused && token !== undefined && token === sent) this.#refused.set(url, { token, at });
    else if (!(taken && this.#refused.delete(url))) return;
    for (const listener of [...this.#listeners]) listener();
  }

  /** When the server at `url` last refused the token the user gave it, or undefined. */
  refusedAt(url: string): number | undefined {
    const refused = this.#refused.get(url);
    return refused !== undefined && refused.token === this.#tokens.get(url) ? refused.at : undefined;
  }

  /** Hears when a server starts or stops refusing its token (`callEnded`). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The token of the server at `url`, if it has one. */
  token(url: string): string | undefined {
    return this.#tokens.get(url);
  }

  /**
   * Keeps `token` for the server at `url` (replacing one it had, or its sign-in). Throws a `TypeError` that says why
   * for a token that cannot be one.
   */
  async set(url: string, token: string): Promise<void> {
    const problem = tokenProblem(token);
    if (problem !== undefined) throw new TypeError(problem);
    await this.#database().put('tokens', { url, token, savedAt: Date.now() } satisfies TokenRecord);
    await this.#database().delete('oauth', url);
    this.#signIns.get(url)?.forget();
    this.#signIns.delete(url);
    this.#tokens.set(url, token);
  }

  /** Forgets the token and the sign-in of the server at `url` (signs out); its next request goes without. */
  async remove(url: string): Promise<void> {
    await this.#database().delete('tokens', url);
    await this.#database().delete('oauth', url);
    this.#tokens.delete(url);
    this.#signIns.get(url)?.forget();
    this.#signIns.delete(url);
    this.#refused.delete(url);
  }

  /**
   * The runtime connector's `auth`: for exactly that URL, its sign-in (the SDK's OAuth client: tokens, refresh), or
   * the token the user gave, read at each request.
   */
  readonly auth = (url: string): McpServerAuth | undefined =>
    this.#signIns.get(url) ?? { token: async () => this.#tokens.get(url) };

  #provider(record: OAuthRecord): ServerSignIn {
    const provider: ServerSignIn = new ServerSignIn(record, async (changed) => {
      // A sign-in forgotten (or replaced by a token) meanwhile is not written back.
      if (this.#signIns.get(changed.url) !== provider) return;
      await this.#database().put('oauth', { ...changed });
    });
    return provider;
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
  }

  #database(): IDBPDatabase {
    if (this.#db === null) throw new Error('The credentials are not loaded.');
    return this.#db;
  }
}
