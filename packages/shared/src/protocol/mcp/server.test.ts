/**
 * MCP servers as apps: the names, call models and risks derived from what a server lists, the URL rule, and the
 * manifest a runtime keeps — valid ones pass, and every rule between its parts refuses with a located issue.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { codesAndPaths, thrownBy } from '../../../test/utils.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import { bundleIntegrity, fileIntegrity } from '../tools/bundle.js';
import { AgentToolExecutorSchema, parseAgentToolDescriptor } from '../tools/descriptor.js';
import { parseMiniAppManifest } from '../tools/manifest.js';
import {
  MCP_CONTENT_OUTPUT_SCHEMA,
  MCP_SERVER_LIMITS,
  mcpAppId,
  mcpAppScope,
  mcpServerUrlProblem,
  mcpServerVersion,
  mcpToolCallModel,
  mcpToolMethods,
  mcpToolRisk,
  mcpViewAsksForMore,
  parseMcpServerManifest,
} from './server.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const VIEW_BYTES = utf8ToBytes('<!doctype html><p>view</p>');
const FILES = [
  { path: 'views/get_time.html', size: VIEW_BYTES.length, integrity: fileIntegrity(VIEW_BYTES) },
];

const NOTHING_DECLARED = {
  connect_domains: [],
  resource_domains: [],
  frame_domains: [],
  base_uri_domains: [],
  camera: false,
  microphone: false,
  geolocation: false,
  clipboard_write: false,
};

const tool = (method: string, name: string, change?: (descriptor: J) => void): J => {
  const descriptor: J = {
    app_scope: 'basic',
    method,
    contract_version: '1',
    description: 'Returns the current server time.',
    input_schema: { type: 'object', properties: {} },
    output_schema: MCP_CONTENT_OUTPUT_SCHEMA,
    call_model: 'query',
    idempotency: 'call_id',
    timeout_ms: MCP_SERVER_LIMITS.defaultTimeoutMs,
    activation: 'activation_not_required',
    permissions: [],
    risk: 'display_only',
    executor: { kind: 'mcp', tool: name, view: 'get_time' },
  };
  change?.(descriptor);
  return descriptor;
};

const manifest = (change?: (manifest: J) => void): J => {
  const value: J = {
    manifest_version: 1,
    kind: 'mcp_server',
    id: 'mcp.basic',
    name: 'Basic MCP App Server',
    version: '1.0.0+0123456789ab',
    app_scope: 'basic',
    server: {
      url: 'http://127.0.0.1:3001/mcp',
      name: 'Basic MCP App Server',
      version: '1.0.0',
      protocol_version: '2025-11-25',
    },
    tools: [tool('get_time', 'get-time')],
    app_tools: [{ tool: 'refresh-time', input_schema: { type: 'object' } }],
    agent_only: [],
    views: [
      {
        id: 'get_time',
        uri: 'ui://get-time/mcp-app.html',
        path: 'views/get_time.html',
        declared: NOTHING_DECLARED,
      },
    ],
    files: FILES.map((file) => ({ ...file })),
    integrity: bundleIntegrity(FILES),
  };
  change?.(value);
  return value;
};

const refusal = (input: unknown) =>
  codesAndPaths(thrownBy(LineUpProtocolError, () => parseMcpServerManifest(input)).issues);

describe('the server URL', () => {
  it.each([
    ['https://example.com/mcp', undefined],
    ['http://localhost:3001/mcp', undefined],
    ['http://127.0.0.1:3001/mcp', undefined],
    ['http://127.10.0.1/mcp', undefined],
    ['http://[::1]:8080/mcp', undefined],
  ])('takes %s', (url, problem) => expect(mcpServerUrlProblem(url)).toBe(problem));

  it.each([
    ['', 'characters'],
    ['x'.repeat(MCP_SERVER_LIMITS.maxUrlLength + 1), 'characters'],
    ['/mcp', 'absolute'],
    ['ftp://example.com/mcp', 'https:'],
    ['ws://localhost/mcp', 'https:'],
    ['http://example.com/mcp', 'this machine'],
    ['http://localhost.example.com/mcp', 'this machine'],
    ['https://user:secret@example.com/mcp', 'no user name'],
    ['https://example.com/mcp#part', '#fragment'],
  ])('refuses %s, saying why', (url, words) => expect(mcpServerUrlProblem(url)).toContain(words));
});

describe('names, call models and risks derived from a server', () => {
  it('derives an app scope from the server name, and the app id from the scope', () => {
    expect(mcpAppScope('Basic MCP App Server (React)')).toBe('basic_mcp_app_server_react');
    expect(mcpAppScope('  42 Weather!! ')).toBe('weather');
    expect(mcpAppScope('Über-Server')).toBe('uber_server');
    expect(mcpAppScope('日本語')).toBe('mcp');
    expect(mcpAppScope('a'.repeat(40))).toHaveLength(32);
    expect(mcpAppScope(`${'a'.repeat(31)}_b`)).toBe('a'.repeat(31));
    expect(mcpAppId('basic_mcp_app_server_react')).toBe('mcp.basic_mcp_app_server_react');
  });

  it('gives each tool name a method, the same whatever else the server lists', () => {
    const methods = mcpToolMethods(['get-time', 'show_map', 'GetTime', '2fa', 'a.b/c']);
    expect([...methods.values()]).toEqual(['get_time', 'show_map', 't_GetTime', 't_2fa', 'a_b_c']);
    // Two names that would meet both get a suffix of their own hash; each is stable.
    const clash = mcpToolMethods(['get-time', 'get_time']);
    expect(clash.get('get-time')).toMatch(/^get_time_[0-9a-f]{6}$/);
    expect(clash.get('get_time')).toMatch(/^get_time_[0-9a-f]{6}$/);
    expect(clash.get('get-time')).not.toBe(clash.get('get_time'));
    expect(mcpToolMethods(['get-time', 'get_time', 'other']).get('get-time')).toBe(clash.get('get-time'));
    const long = mcpToolMethods(['x'.repeat(128)]).get('x'.repeat(128)) as string;
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^x+_[0-9a-f]{6}$/);
  });

  it.each([
    [undefined, 'user_confirmation', 'command'],
    [{}, 'user_confirmation', 'command'],
    [{ readOnlyHint: true }, 'display_only', 'query'],
    [{ readOnlyHint: true, destructiveHint: false }, 'display_only', 'query'],
    [{ readOnlyHint: true, destructiveHint: true }, 'user_confirmation', 'command'],
    [{ readOnlyHint: false }, 'user_confirmation', 'command'],
    [{ destructiveHint: true }, 'user_confirmation', 'command'],
    [{ destructiveHint: false, idempotentHint: true }, 'user_confirmation', 'command'],
  ])('annotations %j: risk %s, call model %s', (annotations, risk, model) => {
    expect(mcpToolRisk(annotations)).toBe(risk);
    expect(mcpToolCallModel(annotations)).toBe(model);
  });

  it('versions what was kept: the same content the same version, another content another', () => {
    const one = mcpServerVersion('1.2.3', { tools: ['a'] });
    expect(one).toMatch(/^1\.2\.3\+[0-9a-f]{12}$/);
    expect(mcpServerVersion('1.2.3', { tools: ['a'] })).toBe(one);
    expect(mcpServerVersion('1.2.3', { tools: ['b'] })).not.toBe(one);
    expect(mcpServerVersion('1.2.3-beta.1+old', { tools: ['a'] })).toMatch(/^1\.2\.3-beta\.1\+[0-9a-f]{12}$/);
    expect(mcpServerVersion('v2', { tools: ['a'] })).toMatch(/^0\.0\.0\+[0-9a-f]{12}$/);
  });

  it('says when a view asks for what LineUp does not give', () => {
    expect(mcpViewAsksForMore(NOTHING_DECLARED)).toBe(false);
    expect(mcpViewAsksForMore({ ...NOTHING_DECLARED, connect_domains: ['https://api.example.com'] })).toBe(
      true,
    );
    expect(mcpViewAsksForMore({ ...NOTHING_DECLARED, camera: true })).toBe(true);
  });
});

describe('the mcp executor', () => {
  it('names the MCP tool; only it names a tool or a view', () => {
    expect(AgentToolExecutorSchema.safeParse({ kind: 'mcp', tool: 'get-time' }).success).toBe(true);
    expect(AgentToolExecutorSchema.safeParse({ kind: 'mcp' }).success).toBe(false);
    expect(AgentToolExecutorSchema.safeParse({ kind: 'mcp', tool: 'bad name' }).success).toBe(false);
    expect(
      AgentToolExecutorSchema.safeParse({ kind: 'mcp', tool: 'a', builtin: 'deadline_operation' }).success,
    ).toBe(false);
    expect(AgentToolExecutorSchema.safeParse({ kind: 'miniapp_sdk', tool: 'a' }).success).toBe(false);
    expect(
      AgentToolExecutorSchema.safeParse({ kind: 'runtime', builtin: 'deadline_operation', view: 'v' })
        .success,
    ).toBe(false);
  });

  it('needs no activation and is a query or a command', () => {
    expect(parseAgentToolDescriptor(tool('get_time', 'get-time')).executor).toEqual({
      kind: 'mcp',
      tool: 'get-time',
      view: 'get_time',
    });
    const issues = (change: (descriptor: J) => void) =>
      codesAndPaths(
        thrownBy(LineUpProtocolError, () => parseAgentToolDescriptor(tool('m', 'm', change))).issues,
      );
    expect(issues((descriptor) => (descriptor.activation = 'app_ready'))).toEqual([
      { code: 'invalid_value', path: 'activation' },
    ]);
    expect(issues((descriptor) => (descriptor.call_model = 'interactive'))).toEqual([
      { code: 'invalid_value', path: 'call_model' },
    ]);
  });

  it('is refused in a MiniApp manifest', () => {
    const file = { path: 'index.html', size: 0, integrity: fileIntegrity(new Uint8Array()) };
    const input = {
      manifest_version: 1,
      id: 'com.example.app',
      name: 'App',
      version: '1.0.0',
      integrity: bundleIntegrity([file]),
      files: [file],
      app_scope: 'basic',
      entry: 'index.html',
      surfaces: [],
      permissions: [],
      tools: [tool('get_time', 'get-time', (descriptor) => delete descriptor.executor.view)],
    };
    expect(
      codesAndPaths(thrownBy(LineUpProtocolError, () => parseMiniAppManifest(input)).issues),
    ).toContainEqual({ code: 'invalid_value', path: 'tools[0].executor.kind' });
  });
});

describe('parseMcpServerManifest', () => {
  it('takes a valid manifest and returns a frozen copy', () => {
    const parsed = parseMcpServerManifest(manifest());
    expect(parsed.tools[0]?.executor.tool).toBe('get-time');
    expect(Object.isFrozen(parsed.views[0])).toBe(true);
    const noView = manifest((value) => {
      value.views = [];
      value.files = [];
      value.integrity = bundleIntegrity([]);
      delete value.tools[0].executor.view;
    });
    expect(parseMcpServerManifest(noView).views).toEqual([]);
  });

  it('takes a server without views or tools (nothing but app tools is no use, but not wrong)', () => {
    const empty = manifest((value) => {
      value.tools = [];
      value.views = [];
      value.files = [];
      value.integrity = bundleIntegrity([]);
    });
    expect(parseMcpServerManifest(empty).tools).toEqual([]);
  });

  it.each<[string, (manifest: J) => void, { code: string; path: string }]>([
    [
      'a tool of another scope',
      (m) => (m.tools[0].app_scope = 'other'),
      { code: 'invalid_value', path: 'tools[0].app_scope' },
    ],
    [
      'a tool not served by the server',
      (m) => (m.tools[0].executor = { kind: 'miniapp_sdk' }),
      { code: 'invalid_value', path: 'tools[0].executor.kind' },
    ],
    [
      'a tool with host capabilities',
      (m) => (m.tools[0].permissions = ['app.open_url']),
      { code: 'invalid_value', path: 'tools[0].permissions' },
    ],
    [
      'a tool naming a view not kept',
      (m) => (m.tools[0].executor.view = 'other'),
      { code: 'unknown_reference', path: 'tools[0].executor.view' },
    ],
    [
      'an MCP tool listed twice',
      (m) => (m.app_tools[0].tool = 'get-time'),
      { code: 'duplicate_id', path: 'app_tools[0].tool' },
    ],
    [
      'a view without its file',
      (m) => (m.views[0].path = 'views/other.html'),
      { code: 'missing_property', path: 'views[0].path' },
    ],
    [
      'a file that is no view',
      (m) => {
        const extra = { path: 'views/extra.html', size: 1, integrity: fileIntegrity(utf8ToBytes('x')) };
        m.files.push(extra);
        m.integrity = bundleIntegrity(m.files);
      },
      { code: 'unknown_reference', path: 'files[1].path' },
    ],
    [
      'a wrong integrity',
      (m) => (m.integrity = fileIntegrity(utf8ToBytes('x'))),
      { code: 'invalid_value', path: 'integrity' },
    ],
    [
      'a view over the ceiling',
      (m) => {
        m.files[0].size = MCP_SERVER_LIMITS.maxViewBytes + 1;
        m.integrity = bundleIntegrity(m.files);
      },
      { code: 'too_large', path: 'files[0].size' },
    ],
    [
      'a view URI that is not ui://',
      (m) => (m.views[0].uri = 'https://example.com/v.html'),
      { code: 'invalid_value', path: 'views[0].uri' },
    ],
    [
      'a plain-http remote server',
      (m) => (m.server.url = 'http://example.com/mcp'),
      { code: 'invalid_value', path: 'server.url' },
    ],
    ['another kind', (m) => (m.kind = 'miniapp'), { code: 'invalid_value', path: 'kind' }],
    [
      'an agent-only tool that is not a tool',
      (m) => (m.agent_only = ['refresh-time']),
      { code: 'unknown_reference', path: 'agent_only[0]' },
    ],
    ['an unknown field', (m) => (m.handler = 'run()'), { code: 'unknown_property', path: '$' }],
    [
      'a script URL',
      (m) => (m.views[0].declared.connect_domains = ['javascript:alert(1)']),
      { code: 'invalid_value', path: 'views[0].declared.connect_domains[0]' },
    ],
  ])('refuses %s', (_name, change, issue) => {
    expect(refusal(manifest(change))).toContainEqual(issue);
  });
});
