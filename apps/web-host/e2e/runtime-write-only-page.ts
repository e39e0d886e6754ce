/**
 * The page side of runtime-write-only.spec.ts, bundled from the workspace sources: the runtime's calls of an MCP
 * server's tool in real Chromium, on its real IndexedDB — each step that reads nothing (the registry and the call
 * asserted by writes that unique indexes refuse when the assertion is false, the step asking to commit at once)
 * against what the steps that read would do. The server is an in-page session of
 * the `McpConnector` interface (no network): the spec is about the database, not the transport.
 */
import {
  AppRegistry,
  openRuntimeDatabase,
  type RuntimeDatabase,
  type RuntimeHost,
  ToolRuntime,
} from '@lineup/runtime';
import { installMcpServer } from '@lineup/runtime/mcp';

type McpConnector = NonNullable<Parameters<typeof installMcpServer>[2]>['connect'];
type McpToolCaller = NonNullable<ConstructorParameters<typeof ToolRuntime>[2]>['mcp'];

export interface WriteOnlyReport {
  /** IndexedDB read requests while each call ran, from receipt to its final result. */
  readonly readsPerCall: number[];
  /** The final result of each call, by call id. */
  readonly finals: Record<string, unknown>;
  /** How many final results the outbox holds for each call. */
  readonly resultRows: Record<string, number>;
  /** Calls that reached the server, in order. */
  readonly sent: string[];
  /** Rows of the inventory store after everything (no assertion row is ever kept). */
  readonly inventoryKeys: string[];
  /** Calls still marked as waiting for a request. */
  readonly inFlight: number;
  /** The rows of `inventory_fences`: the guard, and a fence per replaced counter. */
  readonly fences: unknown[];
  /** The `requestEnded` of every outbox row that has one, in order. */
  readonly requestsEnded: string[];
  /** The ids of the requests the runtime made (its calls' `invocationId`), by call id. */
  readonly requests: Record<string, string>;
  /** How many transactions asked to commit early (`IDBTransaction.commit()`). */
  readonly commitsAsked: number;
}

declare global {
  interface Window {
    lineupWriteOnly: { run(): Promise<WriteOnlyReport> };
  }
}

const CONVERSATION = 'conv_write_only';

/** Counts the read requests of every store and index (whatever wraps them). */
function readCounter() {
  let reads = 0;
  for (const prototype of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Record<
    string,
    unknown
  >[])
    for (const method of ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor']) {
      const original = prototype[method] as (...args: unknown[]) => unknown;
      prototype[method] = function (this: unknown, ...args: unknown[]) {
        reads++;
        return original.apply(this, args);
      };
    }
  return () => reads;
}

/** An MCP server with one tool, `add`, whose answers the page releases one by one. */
function server() {
  const sent: string[] = [];
  const waiting: (() => void)[] = [];
  const connect: McpConnector = async () => ({
    server: { name: 'Sum Server', version: '1.0.0' },
    protocolVersion: '2025-11-25',
    listTools: async () => ({
      tools: [
        {
          name: 'add',
          description: 'Adds two numbers.',
          // Read-only by its claim, on a server the page trusts: calls run without a question (the consent
          // step's outright allow), so the steps that read nothing apply.
          annotations: { readOnlyHint: true },
          inputSchema: {
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          },
          outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        },
      ],
    }),
    readResource: async () => {
      throw new Error('No resources.');
    },
    callTool: async () => ({ content: [] }),
    close: async () => {},
  });
  const caller: McpToolCaller = {
    async call(request) {
      sent.push(String(request.arguments.label));
      await new Promise<void>((resolve) => waiting.push(resolve));
      const sum = Number(request.arguments.a) + Number(request.arguments.b);
      return {
        status: 'ok',
        result: { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } },
      };
    },
  };
  return { connect, caller, sent, waiting };
}

async function all<T>(db: RuntimeDatabase, store: 'tool_calls' | 'outbox' | 'inventory'): Promise<T[]> {
  return (await db.getAll(store)) as T[];
}

window.lineupWriteOnly = {
  async run() {
    let commitsAsked = 0;
    const commit = IDBTransaction.prototype.commit;
    IDBTransaction.prototype.commit = function countedCommit(this: IDBTransaction) {
      commitsAsked++;
      commit.call(this);
    };
    const name = `lineup-write-only-${crypto.randomUUID()}`;
    const db = await openRuntimeDatabase(name);
    const registry = new AppRegistry(db);
    const mcp = server();
    const { manifest } = await installMcpServer(registry, 'http://127.0.0.1:1/mcp', { connect: mcp.connect });
    await registry.setTrusted(manifest.id, true);
    const tool = `${manifest.tools[0]?.app_scope}.${manifest.tools[0]?.method}`;
    let outboxChanged = () => {};
    const host: RuntimeHost = {
      requestForeground() {},
      closeApp() {},
      sessionDataChanged() {},
      outboxChanged: () => outboxChanged(),
    };
    let now = Date.now();
    const runtime = new ToolRuntime(db, registry, { host, mcp: mcp.caller, clock: { now: () => now } });
    const reads = readCounter();
    const revision = async () => (await registry.inventory()).revision;
    const payload = async (callId: string) => ({
      call_id: callId,
      inventory_revision: await revision(),
      tool,
      arguments: { a: 2, b: 3, label: callId },
    });
    const readsPerCall: number[] = [];
    /** One call, answered by the server at once; the reads it took, up to its final result. */
    const answered = async (callId: string) => {
      const body = await payload(callId);
      const finished = new Promise<void>((resolve) => {
        outboxChanged = resolve;
      });
      const before = reads();
      const { disposition } = await runtime.receive(CONVERSATION, body);
      if (disposition !== 'accepted') throw new Error(`${callId} was ${disposition}`);
      while (mcp.waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      mcp.waiting.shift()?.();
      await finished;
      readsPerCall.push(reads() - before);
    };
    // 1. The first call reads the registry; the next two read nothing.
    await answered('call_1');
    await answered('call_2');
    await answered('call_3');
    // 2. Another connection to the database — another tab — disables and enables the server: this runtime heard
    //    nothing of it. A call of the revision it knew is refused; one of the new revision goes through.
    const elsewhere = await openRuntimeDatabase(name);
    const otherRegistry = new AppRegistry(elsewhere);
    const stale = {
      call_id: 'call_4',
      inventory_revision: await revision(),
      tool,
      arguments: { a: 1, b: 1 },
    };
    await otherRegistry.setEnabled(manifest.id, false);
    await otherRegistry.setEnabled(manifest.id, true);
    const refused = await runtime.receive(CONVERSATION, stale);
    if (refused.disposition !== 'rejected') throw new Error(`call_4 was ${refused.disposition}`);
    await answered('call_5');
    await answered('call_6');
    // 3. A call that times out while the server has it: its late answer keeps nothing.
    await runtime.receive(CONVERSATION, await payload('call_7'));
    while (mcp.waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    now += 61_000;
    await runtime.settle();
    mcp.waiting.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // 4. A replay of a call finished without a read answers from its record.
    const replay = await runtime.receive(CONVERSATION, await payload('call_6'));
    if (replay.disposition !== 'replayed') throw new Error(`the replay was ${replay.disposition}`);
    const calls = await all<{
      callId: string;
      latest: { type: string; payload: unknown };
      mcpInFlight?: string;
      invocationId?: string;
    }>(db, 'tool_calls');
    const rows = await all<{ type: string; payload: { call_id?: string }; requestEnded?: string }>(
      db,
      'outbox',
    );
    const finals: Record<string, unknown> = {};
    const resultRows: Record<string, number> = {};
    for (const call of calls) {
      if (call.latest.type === 'lineup.v1.tool.result') finals[call.callId] = call.latest.payload;
      resultRows[call.callId] = rows.filter(
        (row) => row.type === 'lineup.v1.tool.result' && row.payload.call_id === call.callId,
      ).length;
    }
    const report: WriteOnlyReport = {
      readsPerCall,
      finals,
      resultRows,
      sent: mcp.sent,
      inventoryKeys: (await db.getAllKeys('inventory')) as string[],
      inFlight: calls.filter((call) => call.mcpInFlight !== undefined).length,
      fences: await db.getAll('inventory_fences'),
      requestsEnded: rows.flatMap((row) => (row.requestEnded === undefined ? [] : [row.requestEnded])),
      requests: Object.fromEntries(
        calls.flatMap((call) => (call.invocationId === undefined ? [] : [[call.callId, call.invocationId]])),
      ),
      commitsAsked,
    };
    IDBTransaction.prototype.commit = commit;
    elsewhere.close();
    db.close();
    return report;
  },
};
