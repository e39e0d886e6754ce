/**
 * Reading an MCP server for install: the real SDK client against a real SDK server (Streamable HTTP through a
 * `fetch` to the server's handler), and every refusal — unreachable, off-spec answers, views that cannot be kept —
 * with a reason that names what is wrong.
 */
import {
  MCP_CONTENT_OUTPUT_SCHEMA,
  MCP_SERVER_LIMITS,
  parseMcpServerManifest,
} from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawSession, sdkServer, VIEW_MIME, viewAnswer } from '../../test/mcp-servers.js';
import { McpServerError, readMcpServer } from './read-server.js';
import { createMcpConnector, readMcpChallenge } from './session.js';

const VIEW =
  '<!doctype html><html><body><p>Time</p><script type="module">document.body.dataset.ok = "1";</script></body></html>';

function timeServer() {
  return sdkServer({
    name: 'Basic MCP App Server (React)',
    tools: [
      {
        name: 'get-time',
        description: 'Returns the current server time.',
        annotations: { readOnlyHint: true },
        _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } },
        run: () => ({ content: [{ type: 'text', text: '2026-12-04T00:00:00Z' }] }),
      },
      {
        name: 'refresh-time',
        description: 'For the view only.',
        inputSchema: z.object({ zone: z.string() }),
        _meta: { ui: { visibility: ['app'] } },
        run: () => ({ content: [] }),
      },
      {
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
        _meta: { ui: { visibility: ['model'] } },
        run: (args) => ({
          content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }],
          structuredContent: { sum: Number(args.a) + Number(args.b) },
        }),
      },
    ],
    resources: [
      {
        uri: 'ui://get-time/mcp-app.html',
        text: VIEW,
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } },
      },
    ],
  });
}

const refusal = async (run: Promise<unknown>) => {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpServerError);
  return error as McpServerError;
};

describe('readMcpServer with the official SDK on both ends', () => {
  it('lists the tools, reads the view once, and builds a manifest the parser takes', async () => {
    const server = timeServer();
    const { manifest, files } = await readMcpServer(server.url, { connect: server.connect });
    expect(manifest.id).toBe('mcp.basic_mcp_app_server_react');
    expect(manifest.app_scope).toBe('basic_mcp_app_server_react');
    expect(manifest.version).toMatch(/^1\.0\.0\+[0-9a-f]{12}$/);
    expect(manifest.server).toMatchObject({
      url: server.url,
      name: 'Basic MCP App Server (React)',
      version: '1.0.0',
    });
    // The agent sees get_time and add; refresh-time is the view's alone.
    expect(
      manifest.tools.map((tool) => [tool.method, tool.executor.tool, tool.risk, tool.call_model]),
    ).toEqual([
      ['get_time', 'get-time', 'display_only', 'query'],
      ['add', 'add', 'user_confirmation', 'command'],
    ]);
    expect(manifest.app_tools.map((tool) => tool.tool)).toEqual(['refresh-time']);
    expect(manifest.agent_only).toEqual(['add']);
    const [time, add] = manifest.tools;
    expect(time?.output_schema).toEqual(MCP_CONTENT_OUTPUT_SCHEMA);
    expect(add?.output_schema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } });
    expect(time?.activation).toBe('activation_not_required');
    // The view: kept by path, what it declared, named by its URI.
    expect(manifest.views).toHaveLength(1);
    const view = manifest.views[0];
    expect(view?.uri).toBe('ui://get-time/mcp-app.html');
    expect(view?.id).toMatch(/^view_[0-9a-f]{12}$/);
    expect(time?.executor.view).toBe(view?.id);
    expect(view?.declared.connect_domains).toEqual(['https://api.example.com']);
    expect(view?.prefers_border).toBe(true);
    expect(new TextDecoder().decode(files.get(view?.path as string))).toBe(VIEW);
    expect(() => parseMcpServerManifest(manifest)).not.toThrow();
    expect(server.methods.filter((method) => method === 'resources/read')).toHaveLength(1);
    expect(server.calls).toEqual([]);
  });

  it('the same server read twice is the same manifest; a changed view is another version', async () => {
    const server = timeServer();
    const first = await readMcpServer(server.url, { connect: server.connect });
    const again = await readMcpServer(server.url, { connect: server.connect });
    expect(again.manifest).toEqual(first.manifest);
    server.change({ resources: [{ uri: 'ui://get-time/mcp-app.html', text: `${VIEW}<!-- 2 -->` }] });
    const changed = await readMcpServer(server.url, { connect: server.connect });
    expect(changed.manifest.version).not.toBe(first.manifest.version);
    expect(changed.manifest.views[0]?.id).toBe(first.manifest.views[0]?.id);
  });

  it('takes the app scope it is given', async () => {
    const server = timeServer();
    const { manifest } = await readMcpServer(server.url, { connect: server.connect, appScope: 'clock' });
    expect(manifest.id).toBe('mcp.clock');
    expect(manifest.tools.map((tool) => tool.app_scope)).toEqual(['clock', 'clock']);
  });

  it('refuses a server that cannot be reached', async () => {
    const server = timeServer();
    server.down(true);
    const error = await refusal(readMcpServer(server.url, { connect: server.connect }));
    expect(error.code).toBe('unreachable');
    expect(error.message).toContain(server.url);
  });

  it('refuses a URL an MCP server may not have, before connecting', async () => {
    const server = timeServer();
    const error = await refusal(readMcpServer('http://example.com/mcp', { connect: server.connect }));
    expect(error.code).toBe('invalid_url');
    expect(server.methods).toEqual([]);
  });

  it('refuses a view larger than the host keeps, saying both sizes', async () => {
    const server = timeServer();
    const error = await refusal(readMcpServer(server.url, { connect: server.connect, maxViewBytes: 64 }));
    expect(error.code).toBe('view_refused');
    expect(error.message).toContain(`${new TextEncoder().encode(VIEW).length} bytes`);
    expect(error.message).toContain(
      `at most 64 bytes (the limit can be raised up to ${MCP_SERVER_LIMITS.maxViewBytes})`,
    );
    expect(error.subject).toBe('ui://get-time/mcp-app.html');
  });

  it('says the UTF-8 size of a text view too long to encode, and no raise past the maximum', async () => {
    // Three-byte characters: the text is under the bound in code units' terms only for a third of its bytes.
    const text = `<!doctype html><p>${'€'.repeat(1_000)}</p>`;
    const server = sdkServer({
      name: 'Euro',
      tools: [
        {
          name: 'show',
          description: 'Shows.',
          _meta: { ui: { resourceUri: 'ui://euro/view.html' } },
          run: () => ({ content: [] }),
        },
      ],
      resources: [{ uri: 'ui://euro/view.html', text }],
    });
    const error = await refusal(readMcpServer(server.url, { connect: server.connect, maxViewBytes: 500 }));
    expect(error.message).toContain(`is ${new TextEncoder().encode(text).length} bytes`);
    const max = MCP_SERVER_LIMITS.maxViewBytes;
    const huge = sdkServer({
      name: 'Huge',
      tools: [
        {
          name: 'show',
          description: 'Shows.',
          _meta: { ui: { resourceUri: 'ui://huge/view.html' } },
          run: () => ({ content: [] }),
        },
      ],
      resources: [{ uri: 'ui://huge/view.html', text: 'é'.repeat(max + 1) }],
    });
    const refused = await refusal(readMcpServer(huge.url, { connect: huge.connect }));
    expect(refused.message).toContain(
      `is ${2 * (max + 1)} bytes; this host keeps views of at most ${max} bytes.`,
    );
  });

  it('keeps a view of 8 MiB by default (the largest ext-apps example is 4.1 MiB), and refuses one byte more', async () => {
    const sized = (bytes: number) => {
      const head = '<!doctype html><html><body><p>Large</p><!--';
      const tail = '--></body></html>';
      return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
    };
    const serve = (html: string) =>
      sdkServer({
        name: 'Large view',
        tools: [
          {
            name: 'show',
            description: 'Shows the large view.',
            _meta: { ui: { resourceUri: 'ui://large/view.html' } },
            run: () => ({ content: [{ type: 'text', text: 'shown' }] }),
          },
        ],
        resources: [{ uri: 'ui://large/view.html', text: html }],
      });
    expect(MCP_SERVER_LIMITS.defaultMaxViewBytes).toBe(8_388_608);
    const largest = serve(sized(MCP_SERVER_LIMITS.defaultMaxViewBytes));
    const { files } = await readMcpServer(largest.url, { connect: largest.connect });
    expect([...files.values()].map((bytes) => bytes.byteLength)).toEqual([
      MCP_SERVER_LIMITS.defaultMaxViewBytes,
    ]);
    const over = serve(sized(MCP_SERVER_LIMITS.defaultMaxViewBytes + 1));
    const error = await refusal(readMcpServer(over.url, { connect: over.connect }));
    expect(error.code).toBe('view_refused');
    expect(error.message).toContain('at most 8388608 bytes.');
  });

  it("passes the host's view check, and refuses what it refuses", async () => {
    const server = timeServer();
    const seen: string[] = [];
    await readMcpServer(server.url, {
      connect: server.connect,
      checkView: (_html, uri) => void seen.push(uri),
    });
    expect(seen).toEqual(['ui://get-time/mcp-app.html']);
    const error = await refusal(
      readMcpServer(server.url, {
        connect: server.connect,
        checkView: () => {
          throw new Error('its script comes from https://cdn.example.com/app.js');
        },
      }),
    );
    expect(error.code).toBe('view_refused');
    expect(error.message).toContain(
      'cannot run contained: its script comes from https://cdn.example.com/app.js',
    );
  });

  it('refuses a host bound outside what a host may set', async () => {
    const server = timeServer();
    await expect(
      readMcpServer(server.url, {
        connect: server.connect,
        maxViewBytes: MCP_SERVER_LIMITS.maxViewBytes + 1,
      }),
    ).rejects.toThrow(RangeError);
  });
});

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

describe('readMcpServer against servers that answer off-spec', () => {
  const read = (spec: Parameters<typeof rawSession>[0]) => {
    const raw = rawSession(spec);
    return refusal(readMcpServer('https://mcp.example.com/mcp', { connect: raw.connect }));
  };

  it.each<[string, Parameters<typeof rawSession>[0], string, string]>([
    ['no tools array', { pages: [{}] }, 'off_spec', 'no tools array'],
    [
      'a tool without a name',
      { pages: [{ tools: [{ inputSchema: { type: 'object' } }] }] },
      'off_spec',
      'has no name',
    ],
    ['a tool name with spaces', { pages: [{ tools: [tool('get time')] }] }, 'off_spec', '"get time"'],
    [
      'a tool without an object input schema',
      { pages: [{ tools: [tool('a', { inputSchema: { type: 'string' } })] }] },
      'off_spec',
      'inputSchema of type object',
    ],
    ['the same tool twice', { pages: [{ tools: [tool('a'), tool('a')] }] }, 'off_spec', 'twice'],
    [
      'a hint that is no boolean',
      { pages: [{ tools: [tool('a', { annotations: { readOnlyHint: 'yes' } })] }] },
      'off_spec',
      'readOnlyHint',
    ],
    [
      'a view URI that is not ui://',
      { pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'https://example.com/v.html' } } })] }] },
      'off_spec',
      'not a ui:// URI',
    ],
    [
      'a visibility that is not model or app',
      { pages: [{ tools: [tool('a', { _meta: { ui: { visibility: ['everyone'] } } })] }] },
      'off_spec',
      'visibility',
    ],
    ['a cursor that is no string', { pages: [{ tools: [tool('a')], nextCursor: 7 }] }, 'off_spec', 'cursor'],
    [
      'an endless tool list',
      {
        pages: Array.from({ length: 40 }, (_, index) => ({
          tools: [tool(`t${index}`)],
          nextCursor: String(index + 1),
        })),
      },
      'too_many',
      `${MCP_SERVER_LIMITS.maxListPages} pages`,
    ],
    [
      'more tools than LineUp keeps',
      {
        pages: [
          { tools: Array.from({ length: MCP_SERVER_LIMITS.maxTools + 1 }, (_, index) => tool(`t${index}`)) },
        ],
      },
      'too_many',
      `at most ${MCP_SERVER_LIMITS.maxTools}`,
    ],
    [
      'a description with a script URL',
      { pages: [{ tools: [tool('a', { description: 'javascript:alert(1)' })] }] },
      'off_spec',
      'cannot be kept',
    ],
    [
      'an input schema the runtime cannot use',
      {
        pages: [
          { tools: [tool('a', { inputSchema: { type: 'object', $ref: 'https://example.com/s.json' } })] },
        ],
      },
      'schema_unusable',
      'Tool a: The input schema of tool',
    ],
    [
      'a view of another MIME type',
      {
        pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
        resources: {
          'ui://a/v.html': { contents: [{ uri: 'ui://a/v.html', mimeType: 'text/html', text: '<p>' }] },
        },
      },
      'view_refused',
      'is text/html, not text/html;profile=mcp-app',
    ],
    [
      'a view that is not there',
      { pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }], resources: {} },
      'view_refused',
      'could not be read',
    ],
    [
      'a view of two resources',
      {
        pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
        resources: {
          'ui://a/v.html': {
            contents: [
              viewAnswer('ui://a/v.html', '<p>').contents[0],
              viewAnswer('ui://a/v.html', '<p>').contents[0],
            ],
          },
        },
      },
      'view_refused',
      'exactly one resource',
    ],
    [
      'a view with neither text nor blob',
      {
        pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
        resources: { 'ui://a/v.html': { contents: [{ uri: 'ui://a/v.html', mimeType: VIEW_MIME }] } },
      },
      'off_spec',
      'neither text nor blob',
    ],
    [
      'a view blob that is not UTF-8',
      {
        pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
        resources: {
          'ui://a/v.html': {
            contents: [{ uri: 'ui://a/v.html', mimeType: VIEW_MIME, blob: btoa('\xff\xfe') }],
          },
        },
      },
      'view_refused',
      'not UTF-8',
    ],
    [
      'a declared CSP that is no list',
      {
        pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
        resources: {
          'ui://a/v.html': viewAnswer('ui://a/v.html', '<p>', {
            _meta: { ui: { csp: { connectDomains: 'all' } } },
          }),
        },
      },
      'off_spec',
      'connectDomains',
    ],
  ])('refuses %s', async (_name, spec, code, words) => {
    const error = await read(spec);
    expect(error.code).toBe(code);
    expect(error.message).toContain(words);
    expect(error.message.length).toBeLessThanOrEqual(600);
  });

  it('reads a blob view, and keeps what a view declared without granting it', async () => {
    const raw = rawSession({
      pages: [{ tools: [tool('a', { _meta: { ui: { resourceUri: 'ui://a/v.html' } } })] }],
      resources: {
        'ui://a/v.html': {
          contents: [
            {
              uri: 'ui://a/v.html',
              mimeType: VIEW_MIME,
              blob: btoa('<p>blob</p>'),
              _meta: {
                ui: {
                  permissions: { camera: {}, clipboardWrite: {} },
                  csp: { resourceDomains: ['https://cdn.example.com'] },
                },
              },
            },
          ],
        },
      },
    });
    const { manifest, files } = await readMcpServer('https://mcp.example.com/mcp', { connect: raw.connect });
    expect(new TextDecoder().decode([...files.values()][0])).toBe('<p>blob</p>');
    expect(manifest.views[0]?.declared).toMatchObject({
      resource_domains: ['https://cdn.example.com'],
      camera: true,
      microphone: false,
      clipboard_write: true,
    });
    expect(raw.closed()).toBe(1);
  });

  it('closes the session after a refusal too', async () => {
    const raw = rawSession({ pages: [{}] });
    await refusal(readMcpServer('https://mcp.example.com/mcp', { connect: raw.connect }));
    expect(raw.closed()).toBe(1);
  });

  it('reads a tool list of several pages, and names colliding tools apart', async () => {
    const raw = rawSession({
      pages: [{ tools: [tool('get-time')], nextCursor: '1' }, { tools: [tool('get_time')] }],
    });
    const { manifest } = await readMcpServer('https://mcp.example.com/mcp', { connect: raw.connect });
    expect(manifest.tools.map((entry) => entry.executor.tool)).toEqual(['get-time', 'get_time']);
    const methods = manifest.tools.map((entry) => entry.method);
    expect(new Set(methods).size).toBe(2);
    for (const method of methods) expect(method).toMatch(/^get_time_[0-9a-f]{6}$/);
  });

  it('a server that asks who you are: refused as unauthorized without a token it takes, read with one, sent only there', async () => {
    const server = sdkServer({
      name: 'Private',
      token: 'secret-1',
      tools: [
        {
          name: 'whoami',
          description: 'Says who.',
          run: () => ({ content: [{ type: 'text', text: 'you' }] }),
        },
      ],
    });
    const none = await refusal(readMcpServer(server.url, { connect: server.connect }));
    expect(none.code).toBe('unauthorized');
    expect(none.message).toMatch(/asks who you are \(401\)/);
    const tokens = new Map([[server.url, 'wrong']]);
    const auth = (url: string) => {
      const token = tokens.get(url);
      return token === undefined ? undefined : { token: async () => token };
    };
    const connect = createMcpConnector({ fetch: server.fetch, auth });
    expect((await refusal(readMcpServer(server.url, { connect }))).code).toBe('unauthorized');
    tokens.set(server.url, 'secret-1');
    const { manifest } = await readMcpServer(server.url, { connect });
    expect(manifest.tools.map((tool) => tool.method)).toEqual(['whoami']);
    // Each request to that server carried its token; another server's URL is given none.
    expect(server.authorizations.filter((value) => value === 'Bearer secret-1').length).toBeGreaterThan(1);
    expect(auth('http://127.0.0.1:4000/mcp')).toBeUndefined();
  });

  it("readMcpChallenge reads a 401's WWW-Authenticate: where the metadata is and the scope; nothing otherwise", async () => {
    const seen: Request[] = [];
    const answering = (response: Response) =>
      (async (input: string | URL | Request, init?: RequestInit) => {
        seen.push(new Request(input, init));
        return response;
      }) as typeof fetch;
    const challenge = await readMcpChallenge('http://127.0.0.1:3999/mcp', {
      fetch: answering(
        new Response('{}', {
          status: 401,
          headers: {
            'www-authenticate':
              'Bearer error="invalid_token", resource_metadata="http://127.0.0.1:3999/meta/prm", scope="files:read files:write"',
          },
        }),
      ),
    });
    expect(challenge.resourceMetadataUrl?.href).toBe('http://127.0.0.1:3999/meta/prm');
    expect(challenge.scope).toBe('files:read files:write');
    // It asked without credentials, with an initialize.
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(await seen[0]?.json()).toMatchObject({ method: 'initialize' });
    expect(
      await readMcpChallenge('http://127.0.0.1:3999/mcp', { fetch: answering(new Response('{}')) }),
    ).toEqual({});
    expect(
      await readMcpChallenge('http://127.0.0.1:3999/mcp', {
        fetch: answering(new Response('{}', { status: 401 })),
      }),
    ).toEqual({});
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect(await readMcpChallenge('http://127.0.0.1:3999/mcp', { fetch: down })).toEqual({});
  });
});
