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
import {
  AppRegistry,
  type AuditRecord,
  type OutboxRecord,
  openRuntimeDatabase,
  type RuntimeDatabase,
  type RuntimeHost,
  type ToolCallRecord,
  ToolRuntime,
} from '@lineup/runtime';
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
  /** Of `pipeline`: until `ToolRuntime.receive` returned (the receipt committed, the request about to leave). */
  readonly pipelineReceipt: number[];
  /** Of `skeleton`: until its first row committed. */
  readonly skeletonReceipt: number[];
  /**
   * The floor of the pipeline's facts: the bare call between two strict transactions that write, in a database of the
   * runtime's schema, exactly the rows the pipeline writes for a call (`writeFacts`) — nothing of the pipeline's work.
   */
  readonly facts: number[];
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

/** The rows the pipeline wrote for one call, taken from its database, to write again as they are (`writeFacts`). */
interface FactsSample {
  readonly call: ToolCallRecord;
  readonly accepted: OutboxRecord;
  readonly result: OutboxRecord;
  readonly audit: readonly AuditRecord[];
}

async function factsSample(
  db: RuntimeDatabase,
  conversationId: string,
  callId: string,
): Promise<FactsSample> {
  const call = await db.get('tool_calls', `${conversationId}\n${callId}`);
  const rows = (await db.getAll('outbox')).filter(
    (row) =>
      row.conversationId === conversationId && (row.payload as { call_id?: string }).call_id === callId,
  );
  const audit = (await db.getAll('audit')).filter((entry) => entry.callId === callId);
  const [accepted, result] = rows;
  if (call?.stage !== 'finished' || accepted === undefined || result === undefined || audit.length === 0)
    throw new Error(`The pipeline did not write the facts of ${callId} as expected.`);
  return { call, accepted, result, audit };
}

/**
 * Writes the facts of a call as the pipeline does, with nothing of its work: at `receipt` one strict transaction with
 * the guard row, the call record as dispatched, its `accepted` outbox row and its audit entries but the last; at
 * `result` one with the finished record, the result's outbox row and the last audit entry. Each asks to commit at once.
 */
function writeFacts(db: RuntimeDatabase, sample: FactsSample, round: number, at: 'receipt' | 'result') {
  const callId = `floor_${round}`;
  const key = `${sample.call.conversationId}\n${callId}`;
  const renamed = <T extends { readonly payload: unknown }>(row: T): T => ({
    ...row,
    payload: { ...(row.payload as object), call_id: callId },
  });
  const { id: _accepted, ...accepted } = renamed(sample.accepted);
  const { id: _result, ...result } = renamed(sample.result);
  const entries = sample.audit.map(({ id: _, ...entry }) => ({ ...entry, callId }));
  const stores =
    at === 'receipt'
      ? (['inventory_fences', 'tool_calls', 'audit', 'outbox'] as const)
      : (['tool_calls', 'audit', 'outbox'] as const);
  const transaction = db.transaction(stores, 'readwrite', { durability: 'strict' });
  const { mcpResult: _, ...dispatchedBase } = sample.call;
  if (at === 'receipt') {
    void transaction.objectStore('inventory_fences').put({ key: 'guard', retired: 1 });
    void transaction.objectStore('tool_calls').add({
      ...dispatchedBase,
      key,
      callId,
      stage: 'running',
      latest: { type: accepted.type, payload: accepted.payload } as ToolCallRecord['latest'],
      dueAt: Date.now() + 60_000,
      mcpInFlight: `request_${round}`,
    });
    for (const entry of entries.slice(0, -1)) void transaction.objectStore('audit').add(entry);
    void transaction.objectStore('outbox').add(accepted);
  } else {
    void transaction.objectStore('tool_calls').put({ ...sample.call, key, callId });
    void transaction.objectStore('outbox').add({ ...result, requestEnded: `request_${round}` });
    for (const entry of entries.slice(-1)) void transaction.objectStore('audit').add(entry);
  }
  (transaction as unknown as { commit(): void }).commit();
  return transaction.done;
}

/**
 * The skeleton of an exactly-once call, with nothing of the runtime: a strict transaction of one row committed
 * before the request (the receipt), the bare call, and another after it (the result) — each asking to commit at once.
 */
async function skeletonCall(
  db: IDBDatabase,
  round: number,
  call: () => Promise<unknown>,
  receipt: (ms: number) => void,
): Promise<number> {
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
  receipt(now() - start);
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
    const timings: CallTimings = {
      pipeline: [],
      bare: [],
      skeleton: [],
      pipelineReceipt: [],
      skeletonReceipt: [],
      facts: [],
    };
    const floorDb = await openRuntimeDatabase(`lineup-mcp-bench-floor-${crypto.randomUUID()}`);
    let sample: FactsSample | undefined;
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
      if (round >= 0) timings.pipelineReceipt.push(now() - start);
      await done;
      return now() - start;
    };
    const bareCall = async () => {
      const start = now();
      await bare.callTool({ name: tool.executor.tool as string, arguments: {} });
      return now() - start;
    };
    const factsCall = async (round: number) => {
      if (sample === undefined) throw new Error('No sample of the facts yet.');
      const start = now();
      await writeFacts(floorDb, sample, round, 'receipt');
      await bare.callTool({ name: tool.executor.tool as string, arguments: {} });
      await writeFacts(floorDb, sample, round, 'result');
      return now() - start;
    };
    const kinds = {
      facts: factsCall,
      pipeline: pipelineCall,
      bare: bareCall,
      skeleton: (round: number) =>
        skeletonCall(
          skeletonDb,
          round,
          () => bare.callTool({ name: tool.executor.tool as string, arguments: {} }),
          (ms) => {
            if (round >= 0) timings.skeletonReceipt.push(ms);
          },
        ),
    };
    // One pipeline call first, unmeasured, whose rows the floor of the facts writes again.
    await pipelineCall(-2);
    sample = await factsSample(db, 'conv_bench', 'call_-1');
    const order = ['pipeline', 'bare', 'skeleton', 'facts'] as const;
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
          downloadFile: async () => false,
          message: () => false,
          close: () => {},
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
