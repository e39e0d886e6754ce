/**
 * MCP servers for the runtime's tests, two kinds:
 * - `sdkServer`: a real server of the official SDK (`McpServer`, served by `createMcpHandler`), reached by the real
 *   client of `createMcpConnector` through a `fetch` that hands each request to the handler (the Streamable HTTP
 *   protocol end to end, without a socket). Every request is counted.
 * - `rawSession`: a session that answers exactly the JSON a test gives it, for servers that answer off-spec.
 */
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { createMcpConnector, type McpConnector, type McpSession } from '../src/mcp/index.js';

export const VIEW_MIME = 'text/html;profile=mcp-app';

export interface SdkTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: z.ZodObject;
  readonly outputSchema?: z.ZodObject;
  readonly annotations?: Record<string, boolean>;
  readonly _meta?: Record<string, unknown>;
  readonly run: (args: Record<string, unknown>) => unknown | Promise<unknown>;
}

export interface SdkResource {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text: string;
  readonly _meta?: Record<string, unknown>;
}

export interface SdkServer {
  readonly url: string;
  readonly connect: McpConnector;
  /** A `fetch` that serves the server (for code that opens its own connector). */
  readonly fetch: typeof fetch;
  /** JSON-RPC methods the server was asked, in order. */
  readonly methods: string[];
  /** Tool calls that reached the server, by tool name. */
  readonly calls: string[];
  /** Replaces what the server lists from now on (a server that changed). */
  change(spec: { tools?: readonly SdkTool[]; resources?: readonly SdkResource[] }): void;
  /** Makes every request fail from now on, as an unreachable server. */
  down(value: boolean): void;
  /**
   * Answers the next `times` `tools/call`s (every one by default) with this HTTP status and no JSON-RPC answer,
   * before the tool runs (`null`: answers them again).
   */
  answerCalls(status: number | null, times?: number): void;
  /** The `Authorization` header of each request (`null` when it had none), in order. */
  readonly authorizations: (string | null)[];
}

export function sdkServer(spec: {
  readonly name?: string;
  readonly version?: string;
  readonly tools: readonly SdkTool[];
  readonly resources?: readonly SdkResource[];
  readonly url?: string;
  /** A bearer token every request must carry; without it or with another, the server answers 401. */
  readonly token?: string;
}): SdkServer {
  let tools = spec.tools;
  let resources = spec.resources ?? [];
  let isDown = false;
  let callStatus: number | null = null;
  let callStatusTimes = 0;
  const methods: string[] = [];
  const calls: string[] = [];
  const authorizations: (string | null)[] = [];
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: spec.name ?? 'Test Server', version: spec.version ?? '1.0.0' });
    for (const tool of tools)
      server.registerTool(
        tool.name,
        {
          ...(tool.description === undefined ? {} : { description: tool.description }),
          ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
          ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
          ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
        },
        // biome-ignore lint/suspicious/noExplicitAny: the SDK's handler type depends on the schema given.
        (async (args: any) => {
          calls.push(tool.name);
          return tool.run(args ?? {});
        }) as never,
      );
    for (const resource of resources)
      server.registerResource(
        resource.uri,
        resource.uri,
        { mimeType: resource.mimeType ?? VIEW_MIME },
        async () => ({
          contents: [
            {
              uri: resource.uri,
              mimeType: resource.mimeType ?? VIEW_MIME,
              text: resource.text,
              ...(resource._meta === undefined ? {} : { _meta: resource._meta }),
            },
          ],
        }),
      );
    return server;
  });
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    if (isDown) throw new TypeError('fetch failed: connection refused');
    const request = new Request(input, init);
    authorizations.push(request.headers.get('authorization'));
    if (spec.token !== undefined && request.headers.get('authorization') !== `Bearer ${spec.token}`)
      return new Response(JSON.stringify({ error: 'invalid_token' }), {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
      });
    if (request.method === 'POST') {
      const body = (await request.clone().json()) as { method?: string } | { method?: string }[];
      const messages = Array.isArray(body) ? body : [body];
      for (const message of messages) if (typeof message.method === 'string') methods.push(message.method);
      if (
        callStatus !== null &&
        callStatusTimes > 0 &&
        messages.some((message) => message.method === 'tools/call')
      ) {
        callStatusTimes--;
        return new Response(JSON.stringify({ error: `answered ${callStatus}` }), {
          status: callStatus,
          headers: { 'content-type': 'application/json' },
        });
      }
    }
    return handler.fetch(request);
  }) as typeof fetch;
  return {
    url: spec.url ?? 'http://127.0.0.1:3999/mcp',
    connect: createMcpConnector({ fetch: fetchImpl }),
    fetch: fetchImpl,
    methods,
    calls,
    authorizations,
    change(next) {
      if (next.tools !== undefined) tools = next.tools;
      if (next.resources !== undefined) resources = next.resources;
    },
    down(value) {
      isDown = value;
    },
    answerCalls(status, times = Number.POSITIVE_INFINITY) {
      callStatus = status;
      callStatusTimes = times;
    },
  };
}

/** A session answering exactly what the test gives: `tools` pages, resources by URI, one call answer. */
export function rawSession(spec: {
  readonly server?: { name: string; version: string; title?: string };
  readonly pages?: readonly unknown[];
  readonly resources?: Readonly<Record<string, unknown>>;
  readonly call?: (name: string, args: Readonly<Record<string, unknown>>) => Promise<unknown>;
}): { readonly connect: McpConnector; readonly closed: () => number } {
  let closed = 0;
  const session: McpSession = {
    server: spec.server ?? { name: 'Raw Server', version: '1.0.0' },
    protocolVersion: '2025-11-25',
    async listTools(cursor) {
      const pages = spec.pages ?? [{ tools: [] }];
      const index = cursor === undefined ? 0 : Number(cursor);
      return pages[index];
    },
    async readResource(uri) {
      const answer = spec.resources?.[uri];
      if (answer === undefined) throw new Error(`Resource ${uri} not found`);
      return answer;
    },
    callTool: (name, args) => (spec.call ?? (async () => ({ content: [] })))(name, args),
    async close() {
      closed++;
    },
  };
  return { connect: async () => session, closed: () => closed };
}

/** A view as a `resources/read` answer. */
export function viewAnswer(uri: string, text: string, extra: Record<string, unknown> = {}) {
  return { contents: [{ uri, mimeType: VIEW_MIME, text, ...extra }] };
}

/**
 * A stateful server of the official SDK (`WebStandardStreamableHTTPServerTransport` with session ids, one server
 * and transport per session, as the SDK documents it), whose `restart()` forgets every session as a restarted
 * process does. A request naming a session it does not know gets what `unknownSession` says: `404` (the MCP
 * specification's answer) or `400` with "No valid session ID provided" (what the SDK's example servers answer).
 */
export function statefulServer(spec: {
  readonly tools: readonly SdkTool[];
  readonly unknownSession: 404 | 400;
  readonly url?: string;
}) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const calls: string[] = [];
  const answers: number[] = [];
  let initializes = 0;
  const open = async () => {
    const server = new McpServer({ name: 'Stateful Server', version: '1.0.0' });
    for (const tool of spec.tools)
      server.registerTool(tool.name, { description: tool.description ?? tool.name }, (async () => {
        calls.push(tool.name);
        return tool.run({});
      }) as never);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await server.connect(transport);
    return transport;
  };
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const id = request.headers.get('mcp-session-id');
    let transport = id === null ? undefined : sessions.get(id);
    if (transport === undefined && id !== null) {
      answers.push(spec.unknownSession);
      return spec.unknownSession === 404
        ? Response.json(
            { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
            { status: 404 },
          )
        : Response.json(
            {
              jsonrpc: '2.0',
              error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
              id: null,
            },
            { status: 400 },
          );
    }
    if (transport === undefined) {
      initializes++;
      transport = await open();
    }
    const response = await transport.handleRequest(request);
    answers.push(response.status);
    return response;
  }) as typeof fetch;
  return {
    url: spec.url ?? 'http://127.0.0.1:3998/mcp',
    connect: createMcpConnector({ fetch: fetchImpl }),
    calls,
    /** The HTTP status of each answer, in order. */
    answers,
    initializes: () => initializes,
    /** Forgets every session, as a restarted server does. */
    restart() {
      sessions.clear();
    },
  };
}
