/**
 * Signing in to an MCP server with OAuth 2.1, as the MCP authorization specification asks: the MCP SDK's own client
 * auth (`auth` of `@modelcontextprotocol/client`: the server's protected resource metadata, the authorization server's
 * metadata with its `issuer` checked, dynamic client registration, PKCE, the resource indicator, the `iss` of the
 * answer checked, refresh) drives an `OAuthClientProvider` of this page's: `ServerSignIn`, one per server URL, whose
 * registration, PKCE verifier, state and tokens are kept in this browser (server-credentials.ts) and sent to that
 * server only.
 *
 * The user signs in in a popup the page opens at their click (`signIn`): the authorization server's page, then the
 * host's `oauth-callback.html`, which hands the answer (code, state, iss) back to this page on a `BroadcastChannel`
 * and closes. The answer is taken only with the state this sign-in sent; the SDK checks `iss` against the server it
 * asked and redeems the code for tokens. A request later that finds its access token expired refreshes it; when that
 * fails the server has to be signed in to again (no popup ever opens without the user's click).
 */
import { readMcpChallenge } from '@lineup/runtime/mcp';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** What is kept of one server's sign-in. */
export interface OAuthRecord {
  readonly url: string;
  clientInformation?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  codeVerifier?: string;
  state?: string;
  /** Set when a request found the sign-in no longer valid and no refresh helped: sign in again. */
  expired?: boolean;
}

/** The channel `oauth-callback.html` answers on. */
export const SIGN_IN_CHANNEL = 'lineup-oauth';
/** How long a sign-in waits for the user in the popup (ms). */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** Why a sign-in did not happen, in a sentence (English; the app center words it per language by `reason`). */
export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    readonly reason: 'popup_blocked' | 'popup_closed' | 'timed_out' | 'refused' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** An `OAuthClientProvider` for the MCP server at `url`; see the module's comment. */
export class ServerSignIn implements OAuthClientProvider {
  readonly url: string;
  readonly #record: OAuthRecord;
  readonly #persist: (record: OAuthRecord) => Promise<void>;
  /** The popup of the sign-in under way, where `redirectToAuthorization` sends the user. */
  #popup: Window | null = null;

  constructor(record: OAuthRecord, persist: (record: OAuthRecord) => Promise<void>) {
    this.url = record.url;
    this.#record = record;
    this.#persist = persist;
  }

  /** Whether the server has tokens of a sign-in still taken as valid. */
  get signedIn(): boolean {
    return this.#record.tokens !== undefined && this.#record.expired !== true;
  }

  get expired(): boolean {
    return this.#record.expired === true;
  }

  get redirectUrl(): string {
    return new URL('oauth-callback.html', document.baseURI).href;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'LineUp Web Reference Host',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    } as OAuthClientMetadata;
  }

  async state(): Promise<string> {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const state = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    this.#record.state = state;
    await this.#persist(this.#record);
    return state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#record.clientInformation;
  }

  async saveClientInformation(information: StoredOAuthClientInformation): Promise<void> {
    this.#record.clientInformation = information;
    await this.#persist(this.#record);
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#record.expired === true ? undefined : this.#record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.#record.tokens = tokens;
    delete this.#record.expired;
    await this.#persist(this.#record);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.#record.codeVerifier = codeVerifier;
    await this.#persist(this.#record);
  }

  codeVerifier(): string {
    const verifier = this.#record.codeVerifier;
    if (verifier === undefined) throw new SignInError('failed', 'No sign-in is under way for this server.');
    return verifier;
  }

  /**
   * Sends the user to the authorization server: in the popup of the sign-in under way. Outside one (a request of a
   * call found the sign-in no longer valid), nothing opens: the server is marked to be signed in to again.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const popup = this.#popup;
    if (popup !== null && !popup.closed) {
      popup.location.href = authorizationUrl.href;
      return;
    }
    this.#record.expired = true;
    await this.#persist(this.#record);
  }

  /**
   * Signed out: everything it held is dropped at once, also for a session that still holds this provider (its next
   * request goes without a token).
   */
  forget(): void {
    delete this.#record.clientInformation;
    delete this.#record.tokens;
    delete this.#record.codeVerifier;
    delete this.#record.state;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') delete this.#record.clientInformation;
    if (scope === 'all' || scope === 'tokens') delete this.#record.tokens;
    if (scope === 'all' || scope === 'verifier') delete this.#record.codeVerifier;
    await this.#persist(this.#record);
  }

  /**
   * Signs in: `popup` is the window the page opened at the user's click (about:blank until the authorization
   * server's address is known). Resolves once the tokens are kept; throws `SignInError` otherwise.
   */
  async signIn(popup: Window | null): Promise<void> {
    if (popup === null) throw new SignInError('popup_blocked', 'The browser blocked the sign-in window.');
    this.#popup = popup;
    const { auth } = await import('@modelcontextprotocol/client');
    try {
      const challenge = await readMcpChallenge(this.url, {
        clientInfo: { name: 'LineUp Web Reference Host', version: '0.0.0' },
      });
      const started = await auth(this, { serverUrl: this.url, ...challenge });
      if (started === 'AUTHORIZED') return;
      const answer = await waitForAnswer(popup, () => this.#record.state);
      const error = answer.get('error');
      if (error !== null)
        throw new SignInError(
          'refused',
          `The authorization server refused the sign-in: ${error.slice(0, 64)}${answer.get('error_description') === null ? '' : ` (${(answer.get('error_description') ?? '').slice(0, 200)})`}.`,
        );
      const code = answer.get('code');
      if (code === null) throw new SignInError('failed', 'The sign-in came back without a code.');
      const iss = answer.get('iss');
      const done = await auth(this, {
        serverUrl: this.url,
        ...challenge,
        authorizationCode: code,
        ...(iss === null ? {} : { iss }),
      });
      if (done !== 'AUTHORIZED') throw new SignInError('failed', 'The sign-in did not end with tokens.');
    } catch (error) {
      if (error instanceof SignInError) throw error;
      throw new SignInError(
        'failed',
        `The sign-in failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`,
      );
    } finally {
      this.#popup = null;
      delete this.#record.state;
      delete this.#record.codeVerifier;
      await this.#persist(this.#record);
      if (!popup.closed) popup.close();
    }
  }
}

/**
 * The answer `oauth-callback.html` posts for this sign-in (the query of the address the authorization server sent
 * the popup to, with the state `expected()` says); an answer of another state is not this one's and is ignored.
 */
function waitForAnswer(popup: Window, expected: () => string | undefined): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
    const finish = () => {
      channel.close();
      clearInterval(watch);
      clearTimeout(timer);
    };
    channel.onmessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; search?: unknown } | null;
      if (data?.type !== 'lineup-oauth-callback' || typeof data.search !== 'string') return;
      const answer = new URLSearchParams(data.search.slice(0, 8_192));
      const state = expected();
      if (state === undefined || answer.get('state') !== state) return;
      finish();
      resolve(answer);
    };
    const watch = setInterval(() => {
      if (!popup.closed) return;
      // The answer may still be on its way: the callback page closes itself right after posting it.
      setTimeout(() => {
        finish();
        reject(new SignInError('popup_closed', 'The sign-in window was closed before the sign-in ended.'));
      }, 1_000);
      clearInterval(watch);
    }, 250);
    const timer = setTimeout(() => {
      finish();
      reject(new SignInError('timed_out', 'The sign-in took too long.'));
    }, SIGN_IN_TIMEOUT_MS);
  });
}
