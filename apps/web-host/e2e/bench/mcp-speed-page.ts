/**
 * The page side of the MCP benchmark (mcp.bench.ts), bundled from the workspace sources, on the host's origin:
 *
 * - a tool call through the whole pipeline — `ToolRuntime.receive` (revision, visibility, schema, dedupe, the
 *   persisted receipt), the `mcp` executor with `createMcpToolCaller`, the final result checked and persisted —
 *   against the same call made with a bare client of the official SDK, in turns, on one server on localhost;
 * - opening a kept view to its `ui/initialize` — `mountMcpView` (the Surface frames and containment) with the MCP
 *   Apps SDK's `AppBridge` — against a bare `<iframe sandbox="allow-scripts" srcdoc>` of the same HTML with the
 *   same bridge over `PostMessageTransport`, cold (a frame loaded for it) and warm (a spare frame loaded ahead);
 * - showing a view prepared ahead (`McpViewSession` of the host, as `PreparedMcpViews` prepares it: loaded and
 *   initialized out of sight): moved into place, bound to its call, its tool input sent, the next frame painted —
 *   against the same bare frame to its `ui/initialize`.
 */
import { AppRegistry, openRuntimeDatabase, type RuntimeHost, ToolRuntime } from '@lineup/runtime';
import { createMcpConnector, createMcpToolCaller, installMcpServer } from '@lineup/runtime/mcp';
import { mcpViewBundle, mountMcpView, prepareSurfaceFrame } from '@lineup/surface-host';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { McpViewSession, readMcpViewSource } from '../../src/conversation/mcp-views.ts';

export interface CallTimings {
  readonly pipeline: number[];
  readonly bare: number[];
  /** Two strict IndexedDB transactions of one small row each, one after the other: what exactly-once costs at least. */
  readonly floor: number[];
}

export interface OpenTimings {
  readonly contained: number[];
  readonly bare: number[];
}

declare global {
  interface Window {
    lineupMcpBench: {
      calls(url: string, rounds: number): Promise<CallTimings>;
      opens(url: string, rounds: number, mode: 'cold' | 'warm' | 'prepared'): Promise<OpenTimings>;
    };
  }
}

const now = () => performance.now();

function bridgeFor(onInitialized: () => void): AppBridge {
  const bridge = new AppBridge(
    null,
    { name: 'bench', version: '0.0.0' },
    { serverTools: {} },
    { hostContext: { theme: 'light', displayMode: 'inline', locale: 'en-US', platform: 'web' } },
  );
  bridge.oninitialized = onInitialized;
  return bridge;
}

async function installed(url: string) {
  const db = await openRuntimeDatabase(`lineup-mcp-bench-${crypto.randomUUID()}`);
  const registry = new AppRegistry(db);
  const connect = createMcpConnector();
  const { manifest } = await installMcpServer(registry, url, { connect });
  return { db, registry, connect, manifest };
}

/** A database of one object store, for the floor. */
function openFloorDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(`lineup-mcp-bench-floor-${crypto.randomUUID()}`, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('rows');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The floor of an exactly-once call's added time: a receipt committed before the request, a result after it. */
async function twoCommits(db: IDBDatabase, round: number): Promise<number> {
  const start = now();
  for (const step of [0, 1])
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction('rows', 'readwrite', { durability: 'strict' });
      transaction.objectStore('rows').put({ round, step, at: Date.now() }, `${round}.${step}`);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
  return now() - start;
}

window.lineupMcpBench = {
  async calls(url, rounds) {
    const { db, registry, connect, manifest } = await installed(url);
    const tool = manifest.tools[0];
    if (tool === undefined) throw new Error('The server has no tool.');
    let finished: (() => void) | null = null;
    const host: RuntimeHost = {
      requestForeground() {},
      closeApp() {},
      sessionDataChanged() {},
      outboxChanged: () => finished?.(),
    };
    const runtime = new ToolRuntime(db, registry, { host, mcp: createMcpToolCaller({ connect }) });
    const revision = (await registry.inventory()).revision;
    const bare = new Client({ name: 'bare', version: '0.0.0' });
    await bare.connect(new StreamableHTTPClientTransport(new URL(url)));
    const floorDb = await openFloorDatabase();
    const timings: CallTimings = { pipeline: [], bare: [], floor: [] };
    // One call of each first, unmeasured: both sessions open, both code paths warm.
    for (let round = -1; round < rounds; round++) {
      const done = new Promise<void>((resolve) => {
        finished = resolve;
      });
      const start = now();
      await runtime.receive('conv_bench', {
        call_id: `call_${round + 1}`,
        inventory_revision: revision,
        tool: `${tool.app_scope}.${tool.method}`,
        arguments: {},
      });
      await done;
      const pipeline = now() - start;
      const bareStart = now();
      await bare.callTool({ name: tool.executor.tool as string, arguments: {} });
      const bareTime = now() - bareStart;
      const floor = await twoCommits(floorDb, round);
      if (round >= 0) {
        timings.pipeline.push(pipeline);
        timings.bare.push(bareTime);
        timings.floor.push(floor);
      }
    }
    floorDb.close();
    await bare.close();
    db.close();
    return timings;
  },

  async opens(url, rounds, mode) {
    const { db, registry, manifest } = await installed(url);
    const view = manifest.views[0];
    const tool = manifest.tools.find((candidate) => candidate.executor.view === view?.id);
    if (view === undefined || tool?.executor.tool === undefined) throw new Error('The server has no view.');
    const source = await readMcpViewSource(registry, manifest.id, view.id, tool.executor.tool);
    const html = source.html;
    const timings: OpenTimings = { contained: [], bare: [] };
    const slot = document.body.appendChild(document.createElement('div'));
    slot.style.width = '600px';
    if (mode === 'cold') delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
    for (let round = -1; round < rounds; round++) {
      if (mode === 'warm') {
        prepareSurfaceFrame(document);
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      let start: number;
      let contained: number;
      if (mode === 'prepared') {
        // Prepared as the host prepares one at idle: loaded, run and initialized out of sight, then left to draw.
        const session = McpViewSession.open(
          null,
          source,
          { language: 'en', width: 600 },
          `bench.${round + 1}`,
        );
        if (session === null) throw new Error('This browser cannot prepare a view.');
        await session.initialized;
        await new Promise((resolve) => setTimeout(resolve, 300));
        start = now();
        session.show(slot);
        session.bind({
          callTool: async () => ({ content: [] }),
          openLink: async () => false,
          message: () => false,
        });
        await session.bridge.sendToolInput({ arguments: {} });
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        contained = now() - start;
        session.close();
      } else {
        // Contained: the frames, the containment, the bundle split into a frame's parts, the bridge.
        start = now();
        contained = await new Promise<number>((resolve) => {
          const handle = mountMcpView(slot, {
            instanceId: `bench.${round + 1}`,
            name: 'bench',
            view: mcpViewBundle(html),
          });
          const bridge = bridgeFor(() => {
            resolve(now() - start);
            void bridge.close();
            handle.close();
          });
          void bridge.connect(handle.transport as never);
        });
      }
      // Bare: the same HTML in a sandboxed srcdoc frame, the same bridge on the frame's window.
      start = now();
      const bare = await new Promise<number>((resolve) => {
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', 'allow-scripts');
        frame.style.width = '600px';
        frame.srcdoc = html;
        slot.appendChild(frame);
        const target = frame.contentWindow as Window;
        const bridge = bridgeFor(() => {
          resolve(now() - start);
          void bridge.close();
          frame.remove();
        });
        void bridge.connect(new PostMessageTransport(target, target));
      });
      if (round >= 0) {
        timings.contained.push(contained);
        timings.bare.push(bare);
      }
    }
    db.close();
    return timings;
  },
};
