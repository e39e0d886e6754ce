import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * An MCP server of the test's own, on 127.0.0.1 (node:http around the official SDK's `createMcpHandler`, or its
 * stateful transport with session ids, with the CORS a browser page needs): its tools and its views are what a test
 * gives, and it records every `tools/call` it got, so a test can tell what reached it and how often.
 */

export interface TestTool {
  readonly name: string;
  readonly description?: string;
  readonly input?: z.ZodObject;
  readonly visibility?: readonly ('model' | 'app')[];
  readonly view?: string;
  /** The tool's annotations (`readOnlyHint`, `destructiveHint`, …): what the server claims of it. */
  readonly annotations?: Readonly<Record<string, boolean>>;
  /** The answer; may wait (a slow tool). */
  readonly run: (args: Record<string, unknown>) => unknown | Promise<unknown>;
}

export interface TestMcpServer {
  readonly url: string;
  /** The names of the tools called, in order (counted when the call reached the server). */
  readonly calls: string[];
  /** The `Authorization` header of each request but preflights (`null`: none), in order. */
  readonly authorizations: (string | null)[];
  /** The bearer token requests must carry from now on (`undefined`: none needed). */
  setToken(token: string | undefined): void;
  /** Lists other tools from now on (a server that changes a tool after the user trusted it). */
  setTools(tools: readonly TestTool[]): void;
  /** The HTTP status of each answer of its MCP endpoint (not preflights, metadata or 401s), in order. */
  readonly statuses: number[];
  /** A stateful server forgets every session, as a restarted process does: a request naming one is answered 404. */
  restart(): void;
  close(): Promise<void>;
}

const VIEW_MIME = 'text/html;profile=mcp-app';

export async function startTestMcpServer(spec: {
  readonly name: string;
  readonly tools: readonly TestTool[];
  readonly views?: Readonly<Record<string, string>>;
  /** A view's resource `_meta` (what it declares: `ui.csp`, `ui.permissions`), by its URI. */
  readonly viewMeta?: Readonly<Record<string, Record<string, unknown>>>;
  /** A bearer token every request must carry; without it or with another, the server answers 401. */
  readonly token?: string;
  /**
   * Sessions as the SDK's stateful transport keeps them (a session id from `initialize` on, one server per session;
   * no standing GET stream: 405). Default: stateless, as `createMcpHandler` serves.
   */
  readonly stateful?: boolean;
  /**
   * Protected by an OAuth authorization server (RFC 9728): every request needs an access token it issued for this
   * server (checked by `verify`), else 401 pointing at the server's protected resource metadata. `resource` is what
   * that metadata names (default this server's URL: another one is a metadata document that lies).
   */
  readonly oauth?: {
    readonly issuer: string;
    readonly verify: (token: string, audience: string) => Promise<Record<string, unknown> | null>;
    readonly resource?: string;
  };
}): Promise<TestMcpServer> {
  const calls: string[] = [];
  const authorizations: (string | null)[] = [];
  let token = spec.token;
  let tools = spec.tools;
  const statuses: number[] = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const build = () => {
    const server = new McpServer({ name: spec.name, version: '1.0.0' });
    for (const tool of tools)
      server.registerTool(
        tool.name,
        {
          description: tool.description ?? `The ${tool.name} tool.`,
          inputSchema: tool.input ?? z.object({}),
          ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
          _meta: {
            ui: {
              ...(tool.view === undefined ? {} : { resourceUri: tool.view }),
              ...(tool.visibility === undefined ? {} : { visibility: [...tool.visibility] }),
            },
          },
        },
        (async (args: Record<string, unknown>) => {
          calls.push(tool.name);
          return tool.run(args ?? {});
        }) as never,
      );
    for (const [uri, html] of Object.entries(spec.views ?? {}))
      server.registerResource(uri, uri, { mimeType: VIEW_MIME }, async () => ({
        contents: [
          {
            uri,
            mimeType: VIEW_MIME,
            text: html,
            ...(spec.viewMeta?.[uri] === undefined ? {} : { _meta: spec.viewMeta[uri] }),
          },
        ],
      }));
    return server;
  };
  const handler = createMcpHandler(build);
  const serve = async (request: Request): Promise<Response> => {
    if (spec.stateful !== true) return handler.fetch(request);
    if (request.method === 'GET') return new Response(null, { status: 405 });
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const known = sessions.get(id);
      if (known !== undefined) return known.handleRequest(request);
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
        { status: 404 },
      );
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (session) => {
        sessions.set(session, transport);
      },
    });
    await build().connect(transport);
    return transport.handleRequest(request);
  };
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*, authorization',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  };
  let url = '';
  const metadataPath = '/.well-known/oauth-protected-resource/mcp';
  const http = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
      return;
    }
    const oauth = spec.oauth;
    if (
      oauth !== undefined &&
      request.method === 'GET' &&
      request.url?.startsWith('/.well-known/oauth-protected-resource')
    ) {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(
        JSON.stringify({
          resource: oauth.resource ?? url,
          authorization_servers: [oauth.issuer],
          bearer_methods_supported: ['header'],
          scopes_supported: ['mcp'],
        }),
      );
      return;
    }
    const authorization = request.headers.authorization ?? null;
    authorizations.push(authorization);
    if (oauth !== undefined) {
      const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7) : null;
      const claims = bearer === null ? null : await oauth.verify(bearer, url);
      if (claims === null) {
        const metadata = `${new URL(url).origin}${metadataPath}`;
        response
          .writeHead(401, {
            ...cors,
            'content-type': 'application/json',
            'www-authenticate': `Bearer resource_metadata="${metadata}"${bearer === null ? '' : ', error="invalid_token"'}`,
          })
          .end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
    }
    if (token !== undefined && authorization !== `Bearer ${token}`) {
      response
        .writeHead(401, {
          ...cors,
          'content-type': 'application/json',
          'www-authenticate': 'Bearer error="invalid_token"',
        })
        .end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = new Headers();
      for (const [key, value] of Object.entries(request.headers))
        if (typeof value === 'string') headers.set(key, value);
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      void serve(
        new Request(`http://127.0.0.1${request.url ?? '/'}`, {
          method: request.method ?? 'GET',
          headers,
          ...(body === undefined || request.method === 'GET' ? {} : { body }),
        }),
      )
        .then(async (answer) => {
          statuses.push(answer.status);
          const out: Record<string, string> = { ...cors };
          answer.headers.forEach((value, key) => {
            out[key] = value;
          });
          response.writeHead(answer.status, out);
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(500, cors).end());
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    calls,
    authorizations,
    setToken(next) {
      token = next;
    },
    setTools(next) {
      tools = next;
    },
    statuses,
    restart() {
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
