/**
 * The runtime's seam to an MCP server: an `McpSession` lists tools, reads resources and calls tools; an
 * `McpConnector` opens one for a server URL. `createMcpConnector` opens sessions with the official MCP TypeScript
 * SDK's client over Streamable HTTP (`@modelcontextprotocol/client`): the protocol is the SDK's, never re-implemented
 * here. Everything a session returns is treated as untrusted data: the installer and the tool caller check its
 * shape themselves.
 */
import { MCP_APP_VIEW_MIME_TYPE, MCP_APPS_EXTENSION_ID } from '@lineup/shared/protocol';
import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';

/**
 * How the client proves who it is to one server: the MCP SDK's `AuthProvider` (`token()`: a bearer token sent with
 * every request to that server, such as one the user gave) or its `OAuthClientProvider` (OAuth 2.1: discovery, PKCE,
 * resource indicators, the `iss` check, refresh — the SDK's own client auth).
 */
export type McpServerAuth = AuthProvider | OAuthClientProvider;

/** How the server introduced itself in `initialize`. */
export interface McpServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** One open connection to an MCP server. Results are the server's, unchecked (`unknown`). */
export interface McpSession {
  readonly server: McpServerIdentity;
  /** The protocol version the two sides agreed on. */
  readonly protocolVersion: string;
  /** One page of `tools/list`. */
  listTools(cursor: string | undefined, signal?: AbortSignal): Promise<unknown>;
  /** `resources/read` of one URI. */
  readResource(uri: string, signal?: AbortSignal): Promise<unknown>;
  /** `tools/call`; rejects when the request fails (a transport error, a JSON-RPC error, the timeout). */
  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: { readonly signal?: AbortSignal; readonly timeoutMs: number },
  ): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens a session with the server at `url` (`initialize` done); rejects when it cannot be reached or refuses. */
export type McpConnector = (
  url: string,
  options?: { readonly signal?: AbortSignal | undefined },
) => Promise<McpSession>;

export interface McpConnectorOptions {
  /** The `fetch` the transport uses (default the global one). */
  readonly fetch?: typeof fetch;
  /** How the client names itself to servers (default `LineUp`, the runtime's version). */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** How long `initialize` and each list or read may take (default 30 s). */
  readonly requestTimeoutMs?: number;
  /**
   * The credentials of the server at `url`, if it has any (none by default). They go with the requests to that
   * server's URL only — the transport of one session talks to one server.
   */
  readonly auth?: (url: string) => McpServerAuth | undefined;
}

/**
 * The capabilities LineUp announces: it hosts MCP App views (`text/html;profile=mcp-app`). Nothing else — no
 * sampling, no roots, no elicitation: a server asking for them is answered with the SDK's method-not-found error.
 */
export const LINEUP_MCP_CLIENT_CAPABILITIES = Object.freeze({
  extensions: Object.freeze({
    [MCP_APPS_EXTENSION_ID]: Object.freeze({ mimeTypes: Object.freeze([MCP_APP_VIEW_MIME_TYPE]) }),
  }),
});

/**
 * An `McpConnector` on the official SDK's `Client` and `StreamableHTTPClientTransport`. The SDK is loaded when the
 * first session opens, so a host that never installs an MCP server never loads it.
 */
export function createMcpConnector(options: McpConnectorOptions = {}): McpConnector {
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  return async (url, { signal } = {}) => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client(
      { name: options.clientInfo?.name ?? 'LineUp', version: options.clientInfo?.version ?? '0.0.0' },
      // biome-ignore lint/suspicious/noExplicitAny: the SDK types extensions loosely across its versions.
      { capabilities: LINEUP_MCP_CLIENT_CAPABILITIES as any },
    );
    const authProvider = options.auth?.(url);
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(authProvider === undefined ? {} : { authProvider }),
    });
    try {
      await client.connect(transport, {
        ...(signal === undefined ? {} : { signal }),
        timeout: requestTimeoutMs,
      });
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    const info = client.getServerVersion();
    const request = (signalOf?: AbortSignal) => ({
      ...(signalOf === undefined ? {} : { signal: signalOf }),
      timeout: requestTimeoutMs,
      // Every read is fresh: an install or a refresh must see what the server says now.
      cacheMode: 'refresh' as const,
    });
    return {
      server: {
        name: typeof info?.name === 'string' ? info.name : '',
        version: typeof info?.version === 'string' ? info.version : '',
        ...(typeof info?.title === 'string' ? { title: info.title } : {}),
      },
      protocolVersion: client.getNegotiatedProtocolVersion() ?? '',
      listTools: (cursor, signalOf) =>
        client.listTools(cursor === undefined ? undefined : { cursor }, request(signalOf)),
      readResource: (uri, signalOf) => client.readResource({ uri }, request(signalOf)),
      callTool: (name, args, { signal: callSignal, timeoutMs }) =>
        client.callTool(
          { name, arguments: { ...args } },
          { ...(callSignal === undefined ? {} : { signal: callSignal }), timeout: timeoutMs },
        ),
      close: () => client.close(),
    };
  };
}

/** What a server's 401 says of how to sign in to it (`readMcpChallenge`). */
export interface McpChallenge {
  /** Where its protected resource metadata is (RFC 9728 §5.1): a server whose metadata is not at the well-known address says it only here. */
  readonly resourceMetadataUrl?: URL;
  /** The scope it asks for. */
  readonly scope?: string;
}

/**
 * Asks the server at `url` who it takes (an `initialize` without credentials) and reads its 401's `WWW-Authenticate`
 * with the MCP SDK (`extractWWWAuthenticateParams`): give it to the SDK's `auth` before a sign-in, so that discovery
 * starts where the server says. Empty when the server did not answer 401, says nothing, or could not be reached (a
 * page reads the header only if the server exposes it with CORS).
 */
export async function readMcpChallenge(
  url: string,
  options: {
    readonly fetch?: typeof fetch;
    readonly clientInfo?: { readonly name: string; readonly version: string };
  } = {},
): Promise<McpChallenge> {
  const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/client');
  try {
    const answer = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: options.clientInfo ?? { name: 'LineUp', version: '0.0.0' },
        },
      }),
    });
    if (answer.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(answer);
    return {
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      ...(scope === undefined || scope === '' ? {} : { scope }),
    };
  } catch {
    return {};
  }
}
