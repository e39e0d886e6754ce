/** The README's example: shown verbatim, and run here against fake-indexeddb and a stubbed fetch. */
import 'fake-indexeddb/auto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import actionsSource from '../examples/actions.ts?raw';
import capabilitiesSource from '../examples/capabilities.ts?raw';
import connectAgentSource from '../examples/connect-agent.ts?raw';
import conversationsSource from '../examples/conversations.ts?raw';
import installSource from '../examples/install.ts?raw';
import mcpServerSource from '../examples/mcp-server.ts?raw';
import oneTabSource from '../examples/one-tab.ts?raw';
import openDatabaseSource from '../examples/open-database.ts?raw';
import runCallsSource from '../examples/run-calls.ts?raw';
import readme from '../README.md?raw';
import { focusManifest } from '../test/manifests.js';
import { sdkServer } from '../test/mcp-servers.js';
import { Browser } from '../test/web-locks.js';
import { AppRegistry } from './apps/registry.js';
import { CapabilityRuntime } from './capabilities/capability-runtime.js';
import { AgentClient } from './client/agent-client.js';
import { createInProcessTransport } from './client/transport.js';
import type { WebSocketLike } from './client/websocket-transport.js';
import type { ToolConsentQuestion } from './consent/tool-consent.js';
import { ConversationStore } from './conversations/conversation-store.js';
import { ToolRuntime } from './execution/tool-runtime.js';
import { OutboxDelivery } from './outbox/delivery.js';
import {
  openRuntimeDatabase,
  RUNTIME_DATABASE_NAME,
  RUNTIME_DATABASE_VERSION,
  type RuntimeDatabase,
} from './storage/database.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const manifest = {
  manifest_version: 1,
  id: 'com.example.notes',
  name: 'Notes',
  version: '1.0.0',
  app_scope: 'notes',
  entry: 'index.html',
  surfaces: [],
  permissions: [],
  tools: [
    {
      app_scope: 'notes',
      method: 'add',
      contract_version: '1.0',
      description: 'Adds a note.',
      input_schema: { type: 'object' },
      output_schema: { type: 'object' },
      call_model: 'command',
      idempotency: 'call_id',
      timeout_ms: 10_000,
      activation: 'app_ready',
      risk: 'display_only',
      permissions: [],
      executor: { kind: 'miniapp_sdk' },
    },
  ],
};

describe('README example', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(installSource.trimEnd());
  });

  it('installs once, then leaves the same manifest unchanged', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: URL) => {
      fetched.push(String(url));
      return new Response(JSON.stringify(manifest));
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { installFrom } = await import('../examples/install.js');
    await installFrom('https://host.example/apps/notes/');
    await installFrom('https://host.example/apps/notes/');
    expect(fetched).toEqual([
      'https://host.example/apps/notes/lineup.manifest.json',
      'https://host.example/apps/notes/lineup.manifest.json',
    ]);
    expect(log.mock.calls).toEqual([
      ['installed', 'inventory-1', ['notes.add']],
      ['unchanged', 'inventory-1', ['notes.add']],
    ]);
  });
});

describe('README example: an MCP server', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(mcpServerSource.trimEnd());
  });

  it("installs the server, and an agent's call of its tool ends with the server's answer", async () => {
    const server = sdkServer({
      name: 'Clock',
      tools: [
        {
          name: 'get-time',
          description: 'Returns the time.',
          annotations: { readOnlyHint: true },
          run: () => ({ content: [{ type: 'text', text: '08:00' }] }),
        },
      ],
    });
    vi.stubGlobal('fetch', server.fetch);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { useMcpServer } = await import('../examples/mcp-server.js');
    const asked: ToolConsentQuestion[] = [];
    await useMcpServer(server.url, async (question) => {
      asked.push(question);
      return { decision: 'allow' };
    });
    expect(log.mock.calls).toEqual([['mcp.clock', ['clock.get_time'], 'lineup.v1.tool.progress']]);
    const db = await openRuntimeDatabase('lineup-mcp-example');
    await vi.waitFor(async () => {
      const results = (await db.getAll('outbox')).filter((row) => row.type === 'lineup.v1.tool.result');
      expect(results.map((row) => row.payload)).toEqual([
        { call_id: 'call_1', outcome: 'completed', result: { content: [{ type: 'text', text: '08:00' }] } },
      ]);
    });
    expect(server.calls).toEqual(['get-time']);
    // The user was asked first (the server is not trusted: its read-only claim lowers no question).
    expect(asked).toMatchObject([
      {
        callId: 'call_1',
        tool: 'clock.get_time',
        serverTool: 'get-time',
        app: {
          id: 'mcp.clock',
          kind: 'mcp_server',
          server: { name: 'Clock', url: server.url },
          trusted: false,
        },
        description: 'Returns the time.',
        arguments: {},
        claims: { readOnly: true, destructive: false },
        rememberable: true,
        extraStep: false,
      },
    ]);
    db.close();
  });
});

describe('README example: running calls', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(runCallsSource.trimEnd());
  });

  it('starts a focus once the app is shown, and completes it when the deadline is settled', async () => {
    const clock = { now: Date.parse('2026-12-01T08:00:00.000Z') };
    vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
    const db = await openRuntimeDatabase('readme-run-calls');
    const registry = new AppRegistry(db);
    await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
    const sent: string[] = [];
    const send = (type: string, payload: unknown) => {
      const body = payload as {
        call_id?: string;
        status?: string;
        outcome?: string;
        result?: { status: string };
      };
      if (type === 'lineup.v1.client.inventory') sent.push('inventory');
      else sent.push(`${body.call_id} ${body.status ?? `${body.outcome} ${body.result?.status}`}`);
    };
    const { runCalls } = await import('../examples/run-calls.js');
    const { runtime, nextDueAt } = await runCalls(
      db,
      registry,
      'conv_1',
      [{ call_id: 'c1', inventory_revision: 'inventory-1', tool: 'focus.start', arguments: { minutes: 25 } }],
      send,
    );
    expect(sent).toEqual(['inventory', 'c1 accepted', 'c1 starting', 'c1 started']);
    expect(nextDueAt).toBe(clock.now + 25 * 60_000);
    clock.now += 25 * 60_000;
    await runtime.settle();
    expect((await new OutboxDelivery(db).pending()).map((row) => row.payload)).toEqual([
      expect.objectContaining({ call_id: 'c1', outcome: 'completed' }),
    ]);
    db.close();
  });
});

describe('README example: connecting an agent', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(connectAgentSource.trimEnd());
  });

  it('connects, sends the inventory first, and answers a tool call', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const received: { type: string; payload: { call_id?: string } }[] = [];
    server.on('connection', (socket) => {
      socket.on('message', (data) => received.push(JSON.parse(String(data))));
      socket.send(
        JSON.stringify({
          v: 1,
          id: 'msg_agent_1',
          type: 'lineup.v1.tool.call',
          conversation_id: 'conv_1',
          sender: { kind: 'agent', id: 'agent_example' },
          payload: {
            call_id: 'c1',
            inventory_revision: 'inventory-1',
            tool: 'focus.interrupt',
            arguments: {},
          },
        }),
      );
    });
    const db = await openRuntimeDatabase('readme-connect-agent');
    const registry = new AppRegistry(db);
    await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
    const { connectAgent } = await import('../examples/connect-agent.js');
    const client = connectAgent(
      `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      db,
      registry,
      new ToolRuntime(db, registry),
      {},
      (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
    );
    await vi.waitFor(() =>
      expect(received.map((message) => message.type)).toContain('lineup.v1.tool.result'),
    );
    expect(received[0]?.type).toBe('lineup.v1.client.inventory');
    // The same call_id again, its message invalid: refused as another content under a taken call_id.
    for (const socket of server.clients)
      socket.send(
        JSON.stringify({
          v: 1,
          id: 'msg_agent_2',
          type: 'lineup.v1.tool.call',
          conversation_id: 'conv_1',
          sender: { kind: 'agent', id: 'agent_example' },
          payload: { call_id: 'c1', tool: 'focus.interrupt', arguments: {} },
        }),
      );
    await vi.waitFor(() =>
      expect(received.at(-1)).toMatchObject({
        type: 'lineup.v1.tool.result',
        payload: { call_id: 'c1', outcome: 'error', error: { code: 'call_id_conflict' } },
      }),
    );
    client.stop();
    for (const socket of server.clients) socket.terminate();
    await new Promise((resolve) => server.close(resolve));
    db.close();
  });
});

describe('README example: conversations', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(conversationsSource.trimEnd());
  });

  it('queues the message while the agent is away, then shows the conversation again on the next load', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const db = await openRuntimeDatabase('readme-conversations');
    const registry = new AppRegistry(db);
    await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
    const { resumeConversation } = await import('../examples/conversations.js');
    // First load: the agent never connects (the transport stays closed), so the message is queued.
    const away = createInProcessTransport();
    away.transport.close();
    const first = await resumeConversation(db, registry, away.transport, () => {});
    expect(console.log).toHaveBeenLastCalledWith('Your message was queued.');
    first.client.stop();
    // Second load: the same conversation comes back with the queued message; the agent gets it this time.
    const shown: string[] = [];
    const { transport, agent } = createInProcessTransport();
    const frames: string[] = [];
    agent.onFrame((text) => frames.push(JSON.parse(text).type));
    const second = await resumeConversation(db, registry, transport, (record) =>
      shown.push(`${record.direction} ${record.type}`),
    );
    expect(second.conversationId).toBe(first.conversationId);
    expect(shown).toEqual(['out lineup.v1.chat.user_message']);
    await vi.waitFor(() =>
      expect(frames).toEqual([
        'lineup.v1.client.inventory',
        'lineup.v1.chat.user_message',
        'lineup.v1.chat.user_message',
      ]),
    );
    second.client.stop();
    db.close();
  });
});

describe('README example: capabilities', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(capabilitiesSource.trimEnd());
  });

  it('asks, writes once, and answers the agent; a repeat of the call is answered from its record', async () => {
    const db = await openRuntimeDatabase('readme-capabilities');
    const registry = new AppRegistry(db);
    const { offerClipboard } = await import('../examples/capabilities.js');
    const { transport, agent } = createInProcessTransport();
    const results: unknown[] = [];
    let inventory: { capabilities?: unknown[] } | undefined;
    agent.onFrame((text) => {
      const envelope = JSON.parse(text);
      if (envelope.type === 'lineup.v1.client.inventory') inventory = envelope.payload;
      if (envelope.type === 'lineup.v1.app.result') results.push(envelope.payload);
    });
    const written: string[] = [];
    const asked: string[] = [];
    const client = await offerClipboard(
      db,
      registry,
      transport,
      async (request) => {
        asked.push(`${request.capability.name}: ${request.reason}`);
        return { decision: 'allow' };
      },
      async (text) => {
        written.push(text);
      },
    );
    await vi.waitFor(() => expect(inventory?.capabilities).toHaveLength(1));
    const call = {
      v: 1,
      id: 'msg_copy',
      type: 'lineup.v1.app.call',
      conversation_id: 'conv_1',
      sender: { kind: 'agent', id: 'agent_example' },
      payload: {
        call_id: 'call_copy_1',
        capability: 'clipboard.write',
        reason: 'Copy the command for you',
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        arguments: { text: 'npm start' },
      },
    };
    agent.send(call);
    await vi.waitFor(() => expect(results).toHaveLength(1));
    agent.send({ ...call, id: 'msg_copy_again' });
    await vi.waitFor(() => expect(results).toHaveLength(2));
    expect(results).toEqual([
      { call_id: 'call_copy_1', status: 'completed', result: { written: true } },
      { call_id: 'call_copy_1', status: 'completed', result: { written: true } },
    ]);
    expect(asked).toEqual(['clipboard.write: Copy the command for you']);
    expect(written).toEqual(['npm start']);
    client.stop();
    db.close();
  });
});

describe('README example: actions', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(actionsSource.trimEnd());
  });

  it('copies once after the user allows it; an agent action waits for the agent’s answer', async () => {
    const db = await openRuntimeDatabase('readme-actions');
    const registry = new AppRegistry(db);
    await registry.declareCapabilities([
      {
        name: 'clipboard.write',
        version: '1.0',
        risk: 'user_confirmation',
        description: 'Copies text to your clipboard.',
        input_schema: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
          additionalProperties: false,
        },
        output_schema: {
          type: 'object',
          properties: { written: { type: 'boolean' } },
          required: ['written'],
          additionalProperties: false,
        },
      },
    ]);
    const store = new ConversationStore(db);
    const document = {
      version: '1.1',
      id: 'copier',
      mode: 'interactive_ui',
      title: 'Copy',
      state: { text: { type: 'string', initial: 'npm start', maxLength: 100 } },
      derived: {},
      actions: {
        copy: { kind: 'tool', capabilityId: 'copy_text', arguments: { text: { expr: { state: 'text' } } } },
        ask: { kind: 'agent', prompt: { expr: { op: 'concat', args: ['Explain ', { state: 'text' }] } } },
      },
      root: {
        id: 'root',
        type: 'Row',
        props: {},
        children: [
          {
            id: 'b1',
            type: 'Button',
            props: { label: 'Copy', action: { type: 'invoke', actionId: 'copy' } },
          },
          { id: 'b2', type: 'Button', props: { label: 'Ask', action: { type: 'invoke', actionId: 'ask' } } },
        ],
      },
    };
    const { transport, agent } = createInProcessTransport();
    const actions: { operation_id: string; prompt: string }[] = [];
    agent.onFrame((text) => {
      const envelope = JSON.parse(text);
      if (envelope.type === 'lineup.v1.ui.action') actions.push(envelope.payload);
    });
    const written: string[] = [];
    const capabilities = new CapabilityRuntime(db, {
      handlers: {
        'clipboard.write': ({ text }) => {
          written.push(String(text));
          return { written: true };
        },
      },
      confirm: async () => ({ decision: 'allow' }),
    });
    const { runActions } = await import('../examples/actions.js');
    const seen: string[] = [];
    let runner: Awaited<ReturnType<typeof runActions>> | undefined;
    const client = new AgentClient({
      transport,
      clientId: 'my-host',
      inventory: () => registry.inventory(),
      journal: store,
      conversations: ['conv_1'],
      actions: {
        receiveAnswer: (conversationId, answer) =>
          (runner as NonNullable<typeof runner>).receiveAnswer(conversationId, answer),
      },
    });
    runner = await runActions(
      db,
      store,
      capabilities,
      () => client,
      (receipt) => seen.push(`${receipt.actionId} ${receipt.status}`),
    );
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.send({
      v: 1,
      id: 'msg_ui',
      type: 'lineup.v1.ui.document',
      conversation_id: 'conv_1',
      sender: { kind: 'agent', id: 'agent_example' },
      payload: { document },
    });
    const documentRef = { sourceCallId: 'msg_ui', uiId: 'copier', generation: 0, revision: 0 };
    await vi.waitFor(async () => expect(await store.findDocument('conv_1', documentRef)).toBeDefined());
    const copied = await runner.submit('conv_1', {
      documentRef,
      requestId: 'req_1',
      actionId: 'copy',
      values: {},
    });
    expect(copied).toMatchObject({ status: 'succeeded', result: { written: true } });
    expect(written).toEqual(['npm start']);
    const asked = runner.submit('conv_1', { documentRef, requestId: 'req_2', actionId: 'ask', values: {} });
    await vi.waitFor(() => expect(actions).toHaveLength(1));
    expect(actions[0]?.prompt).toBe('Explain npm start');
    agent.send({
      v: 1,
      id: 'msg_answer',
      type: 'lineup.v1.ui.action_result',
      conversation_id: 'conv_1',
      sender: { kind: 'agent', id: 'agent_example' },
      payload: { operation_id: actions[0]?.operation_id, status: 'accepted' },
    });
    expect((await asked).status).toBe('accepted');
    expect(seen).toEqual([
      'copy queued',
      'copy awaiting_confirmation',
      'copy running',
      'copy succeeded',
      'ask queued',
      'ask running',
      'ask accepted',
    ]);
    client.stop();
    db.close();
  });
});

describe('README example: the database across tabs', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(openDatabaseSource.trimEnd());
  });

  it('lets a newer tab upgrade at once and tells this tab to reload', async () => {
    const { openForThisTab } = await import('../examples/open-database.js');
    const shown: string[] = [];
    const db = await openForThisTab((message) => shown.push(message));
    expect(db?.version).toBe(RUNTIME_DATABASE_VERSION);
    // A newer LineUp in another tab: not blocked, because this tab's connection closes itself.
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(RUNTIME_DATABASE_NAME, RUNTIME_DATABASE_VERSION + 1);
      request.onblocked = () => reject(new Error('blocked'));
      request.onsuccess = () => resolve(request.result);
    });
    expect(shown).toEqual(['LineUp was updated in another tab. Reload this page.']);
    newer.close();
    await new Promise((resolve) => {
      indexedDB.deleteDatabase(RUNTIME_DATABASE_NAME).onsuccess = resolve;
    });
  });

  it('tells this tab when another one deletes the database', async () => {
    const { openForThisTab } = await import('../examples/open-database.js');
    const shown: string[] = [];
    await openForThisTab((message) => shown.push(message));
    await new Promise((resolve, reject) => {
      const request = indexedDB.deleteDatabase(RUNTIME_DATABASE_NAME);
      request.onblocked = () => reject(new Error('blocked'));
      request.onsuccess = resolve;
    });
    expect(shown).toEqual(['LineUp’s data was deleted in another tab. Reload this page.']);
  });
});

describe('README example: one tab at a time', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(oneTabSource.trimEnd());
  });

  /** A tab of the example: what it starts, stops and shows, in one log. */
  async function tabs() {
    const { runInOneTab } = await import('../examples/one-tab.js');
    const log: string[] = [];
    const databases = new Map<string, RuntimeDatabase>();
    const open = (name: string) =>
      runInOneTab(
        async (db) => {
          log.push(`${name} starts`);
          databases.set(name, db);
          return async () => {
            log.push(`${name} stops`);
          };
        },
        (message) => {
          if (message !== null) log.push(`${name}: ${message}`);
        },
      );
    return { open, log, databases };
  }

  it('runs in the first tab only; "use it here" in the second stops the first and closes its database first', async () => {
    // Two tabs of one profile in this process: one lock manager (in memory), Node's BroadcastChannel, one database.
    vi.stubGlobal('navigator', { locks: new Browser().locks('tabs') });
    const { open, log, databases } = await tabs();
    const first = open('first');
    await vi.waitFor(() => expect(log).toEqual(['first starts']));
    const second = open('second');
    await vi.waitFor(() => expect(log).toContain('second: LineUp is open in another tab.'));
    await expect(second.takeOver()).resolves.toBe(true);
    await vi.waitFor(() => expect(log).toContain('second starts'));
    expect(log).toEqual([
      'first starts',
      'second: LineUp is open in another tab.',
      'first: LineUp moved to another tab.',
      'first stops',
      'second starts',
    ]);
    expect(() => databases.get('first')?.transaction('apps')).toThrow();
    expect(databases.get('second')?.transaction('apps')).toBeDefined();
    first.release();
    second.release();
    databases.get('second')?.close();
  });

  it('without Web Locks it runs, and says that it cannot keep LineUp to one tab', async () => {
    vi.stubGlobal('navigator', {});
    const { open, log, databases } = await tabs();
    const lock = open('only');
    await vi.waitFor(() => expect(log).toContain('only starts'));
    expect(log).toEqual([
      'only: This browser cannot keep LineUp to one tab: open it in one tab only.',
      'only starts',
    ]);
    expect([lock.guarded, lock.state]).toEqual([false, 'unguarded']);
    databases.get('only')?.close();
  });
});
