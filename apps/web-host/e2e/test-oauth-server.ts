import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OAuth 2.1 authorization server for the tests (`oidc-provider`, a certified implementation, not a stub that
 * accepts anything), on 127.0.0.1: dynamic client registration, PKCE required, resource indicators (RFC 8707: each
 * access token is a JWT whose audience is the one resource asked for), the `iss` authorization response parameter
 * (RFC 9207), refresh tokens, and its development login and consent pages (any name, any password). `verify` checks
 * an access token as a resource server would: signature against the server's JWKS, issuer, audience, expiry.
 */
export interface TestAuthorizationServer {
  readonly issuer: string;
  /** Checks a bearer token for `audience`; the payload, or null when it is not one this server issued for it. */
  verify(token: string, audience: string): Promise<Record<string, unknown> | null>;
  /** Access tokens issued from now on live this many seconds. */
  setAccessTokenTtl(seconds: number): void;
  close(): Promise<void>;
}

export async function startTestAuthorizationServer(): Promise<TestAuthorizationServer> {
  let ttl = 300;
  // The issuer needs its port: listen first on a plain server, then mount the provider's callback.
  const { createServer } = await import('node:http');
  let handler: ((request: never, response: never) => void) | null = null;
  const http = createServer((request, response) => {
    if (handler === null) {
      response.writeHead(503).end();
      return;
    }
    // This authorization server lets browser clients register themselves (dynamic client registration from a page):
    // `oidc-provider` answers CORS for its other endpoints, not for registration, so it is allowed here.
    const origin = request.headers.origin;
    if (request.url?.startsWith('/reg') && origin !== undefined) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('access-control-allow-headers', 'content-type, authorization');
      response.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
      if (request.method === 'OPTIONS') {
        response.writeHead(204).end();
        return;
      }
    }
    handler(request as never, response as never);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context, resource) => ({
          scope: 'mcp',
          audience: resource,
          accessTokenTTL: ttl,
          accessTokenFormat: 'jwt',
        }),
      },
    },
    pkce: { required: () => true },
    // A browser page registers itself and asks for tokens from its own origin.
    clientBasedCORS: () => true,
    scopes: ['openid', 'offline_access', 'mcp'],
    issueRefreshToken: async (_context, client) => client.grantTypeAllowed('refresh_token'),
    // The access token's lifetime is the resource server's (`accessTokenTTL` above).
    ttl: { RefreshToken: 3_600, Session: 3_600, Grant: 3_600, Interaction: 600 },
  });
  handler = provider.callback() as never;
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  return {
    issuer,
    async verify(token, audience) {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer, audience });
        return payload as Record<string, unknown>;
      } catch {
        return null;
      }
    },
    setAccessTokenTtl(seconds) {
      ttl = seconds;
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
