/**
 * The page side of the MCP benchmark (mcp.bench.ts), bundled from the workspace sources, on the host's origin:
 *
 * - a tool call through the whole pipeline — `ToolRuntime.receive` (revision, visibility, schema, dedupe, the
 *   persisted receipt), the `mcp` executor with `createMcpToolCaller`, the final result checked and persisted —
 *   against the same call made with a bare client of the official SDK, in turns, on one server on localhost, and
 *   the exactly-once skeleton: the bare call between two strict one-row transactions (`skeletonCall`);
 * - opening a kept view to its `ui/initialize` — `mountMcpView` (the Surface frames and containment) with the MCP
 *   Apps SDK's `AppBridge` — against a bare `<iframe sandbox="allow-scripts" srcdoc>` of the same HTML with the
 *   same bridge over `PostMessageTransport`, cold (a frame loaded for it) and warm (a spare frame loaded ahead),
 *   and, warm, a bare frame loaded ahead that writes the HTML into itself (`BARE_SPARE_LOADER`);
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
  /**
   * The bare call between two strict IndexedDB transactions of one row each (`skeletonCall`): what any exactly-once
   * call costs at least, with nothing of the runtime.
   */
  readonly skeleton: number[];
}

export interface OpenTimings {
  readonly contained: number[];
  readonly bare: number[];
  /**
   * (The spare frame only.) The least a frame loaded ahead can cost: a bare sandboxed frame loaded ahead with no
   * containment, which writes the same HTML into its own document when it gets it, to `ui/initialize`.
   */
  readonly bareSpare?: number[];
}

/** A bare frame's document that writes the HTML it is sent into itself (the bare spare frame). */
const BARE_SPARE_LOADER =
  '<!doctype html><script>addEventListener("message",function l(e){if(typeof e.data!=="string")return;removeEventListener("message",l);document.open();document.write(e.data);document.close();});</script>';

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
  // The host's rules allow the server's tools (the consent step's allow by policy: one audit entry more a call).
  const registry = new AppRegistry(db, {
    toolPolicy: [{ tools: '*', kind: 'mcp_server', decision: 'allow' }],
  });
  const connect = createMcpConnector();
  const { manifest } = await installMcpServer(registry, url, { connect });
  return { db, registry, connect, manifest };
}

/** A bare `<iframe sandbox="allow-scripts" srcdoc>`, in `slot`. */
function bareFrame(slot: HTMLElement, srcdoc: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.width = '600px';
  frame.srcdoc = srcdoc;
  slot.appendChild(frame);
  return frame;
}

/** The time from `start` until the view in `frame` says `initialized` to a bridge on its window; then removes it. */
function bareInitialized(frame: HTMLIFrameElement, start: number): Promise<number> {
  return new Promise((resolve) => {
    const target = frame.contentWindow as Window;
    const bridge = bridgeFor(() => {
      resolve(now() - start);
      void bridge.close();
      frame.remove();
    });
    void bridge.connect(new PostMessageTransport(target, target));
  });
}

/** A database of one object store, for the skeleton. */
function openSkeletonDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(`lineup-mcp-bench-skeleton-${crypto.randomUUID()}`, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('rows');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * The skeleton of an exactly-once call, with nothing of the runtime: a strict transaction of one row committed
 * before the request (the receipt), the bare call, and another after it (the result) — each asking to commit at once.
 */
async function skeletonCall(db: IDBDatabase, round: number, call: () => Promise<unknown>): Promise<number> {
  const row = (step: string) =>
    new Promise<void>((resolve, reject) => {
      const transaction = db.transaction('rows', 'readwrite', { durability: 'strict' });
      transaction.objectStore('rows').put({ round, step, at: Date.now() }, `${round}.${step}`);
      transaction.commit();
      transaction.oncomplete = () => resolve();
      transaction.onabort = () => reject(transaction.error);
    });
  const start = now();
  await row('receipt');
  await call();
  await row('result');
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
    const skeletonDb = await openSkeletonDatabase();
    const timings: CallTimings = { pipeline: [], bare: [], skeleton: [] };
    const pipelineCall = async (round: number) => {
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
      return now() - start;
    };
    const bareCall = async () => {
      const start = now();
      await bare.callTool({ name: tool.executor.tool as string, arguments: {} });
      return now() - start;
    };
    const kinds = {
      pipeline: pipelineCall,
      bare: bareCall,
      skeleton: (round: number) =>
        skeletonCall(skeletonDb, round, () =>
          bare.callTool({ name: tool.executor.tool as string, arguments: {} }),
        ),
    };
    const order = ['pipeline', 'bare', 'skeleton'] as const;
    // One call of each first, unmeasured: both sessions open, both code paths warm. Each round then takes the three
    // in another order (rotated), so that each follows each of the others as often: what ran just before (the
    // server and the browser still finishing a request, or a commit) weighs on every kind alike.
    for (let round = -1; round < rounds; round++) {
      const shift = ((round % order.length) + order.length) % order.length;
      for (let index = 0; index < order.length; index++) {
        const kind = order[(index + shift) % order.length] as (typeof order)[number];
        const time = await kinds[kind](round);
        if (round >= 0) timings[kind].push(time);
      }
    }
    skeletonDb.close();
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
    const timings: OpenTimings = { contained: [], bare: [], ...(mode === 'warm' ? { bareSpare: [] } : {}) };
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
      const bare = await bareInitialized(bareFrame(slot, html), start);
      if (mode === 'warm') {
        const frame = bareFrame(slot, BARE_SPARE_LOADER);
        await new Promise((resolve) => {
          frame.onload = resolve;
        });
        await new Promise((resolve) => setTimeout(resolve, 400));
        start = now();
        const initialized = bareInitialized(frame, start);
        frame.contentWindow?.postMessage(html, '*');
        const bareSpare = await initialized;
        if (round >= 0) timings.bareSpare?.push(bareSpare);
      }
      if (round >= 0) {
        timings.contained.push(contained);
        timings.bare.push(bare);
      }
    }
    db.close();
    return timings;
  },
};
