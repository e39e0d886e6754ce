// @vitest-environment jsdom
/**
 * `PreparedMcpViews` and `McpViewSession` in jsdom: which views are prepared and when, what discards them, and how
 * a prepared view's requests wait for its call. jsdom runs no frame and has no `Element.moveBefore` (an insertion
 * stands in for it here); that a prepared view really runs out of sight and moves without reloading is proven in
 * Chromium (e2e/mcp-prepared-views.spec.ts, and `@lineup/surface-host`'s e2e).
 */
import type { AppRecord } from '@lineup/runtime';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_PREPARED_VIEWS,
  McpViewSession,
  mcpViewKey,
  PREPARED_HOLD_MS,
  PreparedMcpViews,
  type PreparedViewsHost,
  readMcpViewSource,
} from './mcp-views.ts';

const prototype = Element.prototype as { moveBefore?: (node: Node, child: Node | null) => void };
const INTEGRITY = `sha256-${'A'.repeat(43)}=`;
const OTHER_INTEGRITY = `sha256-${'B'.repeat(43)}=`;

/** An installed MCP server's record with one tool and its view (only what the views read). */
function server(id: string, options: { enabled?: boolean; integrity?: string } = {}): AppRecord {
  return {
    id,
    kind: 'mcp_server',
    enabled: options.enabled ?? true,
    manifest: {
      kind: 'mcp_server',
      id,
      name: `Server ${id}`,
      integrity: options.integrity ?? INTEGRITY,
      tools: [
        {
          app_scope: id,
          method: 'show',
          description: 'Shows it.',
          input_schema: { type: 'object' },
          executor: { kind: 'mcp', tool: 'show', view: 'main' },
        },
      ],
      views: [{ id: 'main', uri: `ui://${id}/view.html`, path: 'views/main.html', declared: {} }],
    },
  } as unknown as AppRecord;
}

class FakeHost implements PreparedViewsHost {
  apps: AppRecord[] = [];
  readonly #listeners = new Set<() => void>();
  onAppsChanged(listener: () => void) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  change(apps: AppRecord[]) {
    this.apps = apps;
    for (const listener of this.#listeners) listener();
  }
}

function registryOf(host: FakeHost) {
  return {
    reads: 0,
    async mcpViewFiles(appId: string) {
      this.reads++;
      const app = host.apps.find((record) => record.id === appId);
      if (app === undefined) throw new Error('unknown app');
      return {
        manifest: app.manifest as never,
        files: new Map([['views/main.html', new TextEncoder().encode('<main>view</main>')]]),
        connectSources: new Map<string, readonly string[]>(),
        resourceSources: new Map<string, readonly string[]>(),
        devices: new Map<string, readonly string[]>(),
      };
    },
  };
}

const holders = () => document.querySelectorAll('[data-lineup-prepared-view]').length;

/** Lets the delayed preparation run (jsdom has no requestIdleCallback: it runs at once after the delay). */
async function settle() {
  await vi.advanceTimersByTimeAsync(1_000);
}

describe('PreparedMcpViews', () => {
  let host: FakeHost;
  let views: PreparedMcpViews;

  beforeEach(() => {
    vi.useFakeTimers();
    prototype.moveBefore = function (this: Element, node: Node, child: Node | null) {
      this.insertBefore(node, child);
    };
    host = new FakeHost();
  });

  afterEach(() => {
    views?.dispose();
    vi.useRealTimers();
    delete prototype.moveBefore;
    document.body.replaceChildren();
  });

  it('prepares nothing for the servers there at start, one view for a server installed since', async () => {
    host.apps = [server('a')];
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    await settle();
    expect(views.size).toBe(0);
    host.change([server('a'), server('b')]);
    await settle();
    expect(views.size).toBe(1);
    expect(holders()).toBe(1);
    const source = await readMcpViewSource(registryOf(host), 'b', 'main', 'show');
    const session = views.take(mcpViewKey(source));
    expect(session).toBeInstanceOf(McpViewSession);
    expect(views.size).toBe(0);
    // Taken: the caller shows it.
    const slot = document.body.appendChild(document.createElement('div'));
    session?.show(slot);
    expect(slot.querySelector('iframe')).not.toBeNull();
    expect(holders()).toBe(0);
    session?.close();
  });

  it('never prepares a view the user let connect somewhere (it would reach the network unseen)', async () => {
    const asking = (id: string, granted: boolean) => {
      const record = server(id) as unknown as {
        manifest: { views: { declared: unknown }[] };
        consent?: unknown;
      };
      record.manifest.views[0] = {
        ...record.manifest.views[0],
        declared: { connect_domains: ['https://api.example.com'] },
      };
      if (granted) record.consent = { network: { main: ['https://api.example.com'] } };
      return record as unknown as AppRecord;
    };
    host.apps = [];
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([asking('granted', true)]);
    await settle();
    expect(views.size).toBe(0);
    expect(holders()).toBe(0);
    // The same view with nothing granted is prepared as any other.
    host.change([asking('granted', true), asking('asking', false)]);
    await settle();
    expect(views.size).toBe(1);
  });

  it('has nothing for another version of the view, or another tool', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    const source = await readMcpViewSource(registryOf(host), 'a', 'main', 'show');
    expect(views.take(mcpViewKey({ ...source, serverTool: 'other' }))).toBeUndefined();
    expect(
      views.take(mcpViewKey({ ...source, manifest: { ...source.manifest, integrity: OTHER_INTEGRITY } })),
    ).toBeUndefined();
    // A view prepared before the user let it connect somewhere never serves a call after.
    expect(
      views.take(mcpViewKey({ ...source, connectDomains: ['https://api.example.com'] })),
    ).toBeUndefined();
    expect(views.size).toBe(1);
  });

  it('discards the view of a server disabled, uninstalled or changed, and prepares the changed one again', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a'), server('b')]);
    await settle();
    expect(views.size).toBe(2);
    host.change([server('a', { enabled: false }), server('b')]);
    expect(views.size).toBe(1);
    host.change([server('b')]);
    expect(views.size).toBe(1);
    host.change([server('b', { integrity: OTHER_INTEGRITY })]);
    expect(views.size).toBe(0);
    // The old one is asked to tear down (a bounded wait) and goes; the new version's view is prepared.
    await settle();
    expect(views.size).toBe(1);
    expect(holders()).toBe(1);
    const source = await readMcpViewSource(registryOf(host), 'b', 'main', 'show');
    expect(source.manifest.integrity).toBe(OTHER_INTEGRITY);
    expect(views.take(mcpViewKey(source))).toBeDefined();
  });

  it(`keeps at most ${MAX_PREPARED_VIEWS}, the newest`, async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a'), server('b'), server('c')]);
    await settle();
    expect(views.size).toBe(MAX_PREPARED_VIEWS);
    await settle();
    expect(holders()).toBe(MAX_PREPARED_VIEWS);
    const first = await readMcpViewSource(registryOf(host), 'a', 'main', 'show');
    expect(views.take(mcpViewKey(first))).toBeUndefined();
  });

  it('prepares one view per key however often it is asked, and none for a server not enabled', async () => {
    const registry = registryOf(host);
    views = new PreparedMcpViews(registry, host, 'en');
    host.change([server('a'), server('off', { enabled: false })]);
    for (let round = 0; round < 5; round++) views.prepareSoon('a', 'main', 'show');
    views.prepareSoon('off', 'main', 'show');
    await settle();
    expect(views.size).toBe(1);
    expect(holders()).toBe(1);
  });

  it('a view that asks before it is shown waits; shown in time, its request goes on under its call', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    const source = await readMcpViewSource(registryOf(host), 'a', 'main', 'show');
    const session = views.take(mcpViewKey(source)) as McpViewSession;
    const answers: unknown[] = [];
    const sent = vi.spyOn(session.handle.transport, 'send').mockImplementation(async (message) => {
      answers.push(message);
    });
    // The view's request, as its port delivers it.
    session.handle.transport.onmessage?.({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'stamp', arguments: {} },
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(answers).toEqual([]);
    const calls: unknown[] = [];
    session.bind({
      callTool: async (params) => {
        calls.push(params);
        return { content: [{ type: 'text', text: 'stamped' }] };
      },
      openLink: async () => false,
      downloadFile: async () => false,
      message: () => false,
      close: () => {},
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toEqual([{ name: 'stamp', arguments: {} }]);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'stamped' }] } },
    ]);
    sent.mockRestore();
    session.close();
  });

  it('a view reads its server’s kept views, and nothing else, as kept (never fetched)', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    const source = await readMcpViewSource(registryOf(host), 'a', 'main', 'show');
    const session = views.take(mcpViewKey(source)) as McpViewSession;
    const answers: { id?: number; result?: unknown; error?: { message: string } }[] = [];
    const sent = vi.spyOn(session.handle.transport, 'send').mockImplementation(async (message) => {
      answers.push(message as never);
    });
    const ask = (id: number, method: string, params: Record<string, unknown>) =>
      session.handle.transport.onmessage?.({ jsonrpc: '2.0', id, method, params });
    ask(1, 'resources/read', { uri: 'ui://a/view.html' });
    ask(2, 'resources/read', { uri: 'ui://b/view.html' });
    ask(3, 'resources/list', {});
    await vi.advanceTimersByTimeAsync(10);
    expect(answers.find((answer) => answer.id === 1)?.result).toEqual({
      contents: [
        { uri: 'ui://a/view.html', mimeType: 'text/html;profile=mcp-app', text: '<main>view</main>' },
      ],
    });
    expect(answers.find((answer) => answer.id === 2)?.error?.message).toMatch(
      /ui:\/\/b\/view\.html is not kept/,
    );
    expect(answers.find((answer) => answer.id === 3)?.result).toMatchObject({
      resources: [{ uri: 'ui://a/view.html', mimeType: 'text/html;profile=mcp-app' }],
    });
    sent.mockRestore();
    session.close();
  });

  it('a view that asks to be torn down is closed as its close button would, or discarded when never shown', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    const source = await readMcpViewSource(registryOf(host), 'a', 'main', 'show');
    const shown = views.take(mcpViewKey(source)) as McpViewSession;
    let closes = 0;
    shown.bind({
      callTool: async () => ({ content: [] }),
      openLink: async () => false,
      downloadFile: async () => false,
      message: () => false,
      close: () => {
        closes += 1;
      },
    });
    const teardown = { jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} } as const;
    shown.handle.transport.onmessage?.(teardown);
    await vi.advanceTimersByTimeAsync(10);
    // The host closes it (through its entry, which closes the session): the binding is told, nothing else.
    expect(closes).toBe(1);
    expect(shown.closed).toBe(false);
    shown.close();

    // A prepared view, never shown, that asks the same is discarded.
    views.prepareSoon('a', 'main', 'show');
    await settle();
    const prepared = views.take(mcpViewKey(source)) as McpViewSession;
    expect(prepared.closed).toBe(false);
    prepared.handle.transport.onmessage?.(teardown);
    await vi.advanceTimersByTimeAsync(600);
    expect(prepared.closed).toBe(true);
  });

  it(`a view not shown within ${PREPARED_HOLD_MS / 1000} s of asking is discarded, its request answered with an error`, async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    const [session] = views.waiting;
    if (session === undefined) throw new Error('nothing prepared');
    const answers: { id?: unknown; error?: { message?: string } }[] = [];
    vi.spyOn(session.handle.transport, 'send').mockImplementation(async (message) => {
      answers.push(message as never);
    });
    session.handle.transport.onmessage?.({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'stamp', arguments: {} },
    });
    await vi.advanceTimersByTimeAsync(PREPARED_HOLD_MS - 100);
    expect(views.size).toBe(1);
    expect(answers.filter((answer) => answer.id === 7)).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(views.size).toBe(0);
    expect(session.closed).toBe(true);
    const answer = answers.find((candidate) => candidate.id === 7);
    expect(answer?.error?.message).toContain('closed before it was shown');
    // The view is asked to tear down (a bounded wait), then its frame and holder go.
    await vi.advanceTimersByTimeAsync(600);
    expect(holders()).toBe(0);
  });

  it('a view that asks nothing waits as long as it is not replaced', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    host.change([server('a')]);
    await settle();
    await vi.advanceTimersByTimeAsync(PREPARED_HOLD_MS * 3);
    expect(views.size).toBe(1);
  });
  it('views waiting hear a language switch; a view shown where it has other room hears its width', async () => {
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    views.setWidth(480);
    host.change([server('a')]);
    await settle();
    const [session] = views.waiting;
    if (session === undefined) throw new Error('nothing prepared');
    const changes: unknown[] = [];
    vi.spyOn(session.bridge, 'sendHostContextChange').mockImplementation(async (params) => {
      changes.push(params);
    });
    views.setLanguage('en');
    expect(changes).toEqual([]);
    views.setLanguage('zh');
    expect(changes).toEqual([{ locale: 'zh-CN' }]);
    const slot = document.body.appendChild(document.createElement('div'));
    // jsdom lays nothing out: the room is what clientWidth says.
    Object.defineProperty(slot, 'clientWidth', { value: 720 });
    session.show(slot);
    expect(changes.at(-1)).toEqual({ containerDimensions: { width: 720, maxHeight: 900 } });
    const count = changes.length;
    session.resizeTo(720);
    expect(changes.length).toBe(count);
    session.close();
  });
  it('after a user message, prepares the first view of each enabled server, as many as may wait', async () => {
    host.apps = [server('a'), server('off', { enabled: false }), server('b'), server('c')];
    views = new PreparedMcpViews(registryOf(host), host, 'en');
    views.prepareLikely();
    await settle();
    expect(views.size).toBe(MAX_PREPARED_VIEWS);
    const keys = await Promise.all(
      ['a', 'b'].map(async (id) => mcpViewKey(await readMcpViewSource(registryOf(host), id, 'main', 'show'))),
    );
    expect(views.waiting.map((session) => session.key)).toEqual(keys);
    // Again: nothing more (each has its view waiting, and there is no room).
    views.prepareLikely();
    await settle();
    expect(views.size).toBe(MAX_PREPARED_VIEWS);
    expect(holders()).toBe(MAX_PREPARED_VIEWS);
  });
});
