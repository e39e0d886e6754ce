/**
 * A view's tools/call, on fake-indexeddb with the official SDK on both ends: a local UI action, never an agent's
 * call — a tool of the view's own server (the app-only ones too) is called and audited as a ui_action, anything else
 * is refused before it reaches the server.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, clockServer, openMcpApps } from '../../test/mcp-apps.js';
import { sdkServer } from '../../test/mcp-servers.js';
import type { AppRegistry } from '../apps/registry.js';
import { ToolRuntime } from '../execution/tool-runtime.js';
import type { RuntimeDatabase } from '../storage/database.js';
import { createMcpToolCaller, refusalMessage } from './calls.js';
import { installMcpServer } from './install.js';

let db: RuntimeDatabase;
let registry: AppRegistry;
const now = Date.parse('2026-12-04T08:00:00Z');
let ids = 0;
const clock = { now: () => now };

beforeEach(async () => {
  ({ db, registry } = await openMcpApps(clock));
});

describe("a view's tools/call (a local UI action, never an agent's call)", () => {
  async function runtimeFor(server = clockServer()) {
    await installMcpServer(registry, server.url, { connect: server.connect });
    const runtime = new ToolRuntime(db, registry, {
      clock,
      ids: () => `id_${++ids}`,
      mcp: createMcpToolCaller({ connect: server.connect }),
    });
    return { server, runtime };
  }
  const viewCall = (runtime: ToolRuntime, tool: string, args: unknown = {}, appId = 'mcp.clock_server') =>
    runtime.mcpViewCall({ conversationId: CONVERSATION, appId, tool, arguments: args });

  it('calls a tool of its own server, the app-only ones too, and audits each as a ui_action', async () => {
    const { server, runtime } = await runtimeFor();
    expect(await viewCall(runtime, 'get-time')).toEqual({
      status: 'ok',
      result: { content: [{ type: 'text', text: '08:00' }] },
    });
    expect((await viewCall(runtime, 'tick')).status).toBe('ok');
    expect(server.calls).toEqual(['get-time', 'tick']);
    const audit = (await db.getAll('audit')).filter((entry) => entry.type === 'ui_action');
    expect(audit.map((entry) => entry.detail)).toEqual([
      'view tools/call get-time ok',
      'view tools/call tick ok',
    ]);
    // No tool call, no receipt, nothing for the agent.
    expect(await db.count('tool_calls')).toBe(0);
    expect((await db.getAll('outbox')).map((row) => row.type)).toEqual(['lineup.v1.client.inventory']);
  });

  it.each<[string, string, unknown, string, string | undefined]>([
    ['a tool the server does not have', 'delete-everything', {}, 'unknown_tool', undefined],
    ["an agent's name for the tool", 'clock_server.get_time', {}, 'unknown_tool', undefined],
    ['arguments the schema refuses', 'add', { a: 'one' }, 'invalid_arguments', undefined],
    ['arguments that are not an object', 'add', [1, 2], 'invalid_arguments', undefined],
    ['a tool of another server', 'get-time', {}, 'unknown_server', 'mcp.other'],
  ])('refuses %s, and nothing reaches the server', async (_name, tool, args, code, appId) => {
    const { server, runtime } = await runtimeFor();
    expect(await viewCall(runtime, tool, args, appId)).toMatchObject({ status: 'error', code });
    expect(server.calls).toEqual([]);
    const [entry] = (await db.getAll('audit')).filter((record) => record.type === 'ui_action');
    expect(entry?.detail).toBe(`view tools/call ${tool} ${code}`);
  });

  it('refuses a tool the server shows to the model only', async () => {
    const server = sdkServer({
      name: 'Clock Server',
      tools: [
        {
          name: 'secret',
          description: 'For the agent only.',
          _meta: { ui: { visibility: ['model'] } },
          run: () => ({ content: [] }),
        },
      ],
    });
    const { runtime } = await runtimeFor(server);
    expect(await viewCall(runtime, 'secret')).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(server.calls).toEqual([]);
  });

  it('refuses every call of a disabled server', async () => {
    const { server, runtime } = await runtimeFor();
    await registry.setEnabled('mcp.clock_server', false);
    expect(await viewCall(runtime, 'get-time')).toMatchObject({ status: 'error', code: 'disabled' });
    expect(server.calls).toEqual([]);
  });

  it('a server that turns the call away with an HTTP 401 did not run it, and the view is told what it means', async () => {
    const { server, runtime } = await runtimeFor();
    server.answerCalls(401);
    expect(await viewCall(runtime, 'get-time')).toEqual({
      status: 'error',
      code: 'failed',
      message: refusalMessage({ phase: 'call', httpStatus: 401 }),
    });
    expect(server.calls).toEqual([]);
    const [entry] = (await db.getAll('audit')).filter((record) => record.type === 'ui_action');
    expect(entry?.detail).toBe('view tools/call get-time failed');
  });
});
