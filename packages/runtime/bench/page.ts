/**
 * The page `receive-and-start-up.mjs` drives in Chromium: the built `@lineup/runtime` on the browser's own
 * IndexedDB, and bare `idb` baselines on the same engine. Every function times its own loop with
 * `performance.now()` and returns milliseconds, so the Node side only orders runs and compares them.
 */
import {
  AppRegistry,
  type AuditRecord,
  consentToolOf,
  effectivePolicy,
  OutboxDelivery,
  type OutboxRecord,
  openRuntimeDatabase,
  type RuntimeDatabase,
  ToolCallIntake,
  type ToolCallRecord,
  ToolRuntime,
} from '@lineup/runtime';
import type { ToolCallPayload } from '@lineup/shared/protocol';
import { deleteDB, type IDBPDatabase, openDB, unwrap } from 'idb';
import { REQUEST_METHODS } from '../test/idb-requests.js';
import { focusManifest } from '../test/manifests.js';

/** The tool every timed call uses: an `activation_not_required` command whose built-in returns at once. */
const TOOL = 'focus.interrupt';
const CONVERSATION = 'conv_bench';
const STRICT: IDBTransactionOptions = { durability: 'strict' };

// ── Counting transactions ─────────────────────────────────────────────────────────────────────────────

interface TransactionLog {
  count: number;
  strict: number;
  /** `mode durability [stores]` of each transaction, while `recording`. */
  readonly started: string[];
  recording: boolean;
}

const transactions: TransactionLog = { count: 0, strict: 0, started: [], recording: false };
const startTransaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function transaction(
  this: IDBDatabase,
  stores: string | string[],
  mode?: IDBTransactionMode,
  options?: IDBTransactionOptions,
) {
  transactions.count++;
  if (options?.durability === 'strict') transactions.strict++;
  if (mode === 'readwrite' && options?.durability === 'strict') lastStepStores = [stores].flat();
  if (transactions.recording)
    transactions.started.push(
      `${mode ?? 'readonly'}${options?.durability === 'strict' ? ' strict' : ''} [${[stores].flat().join(', ')}]`,
    );
  return startTransaction.call(this, stores, mode, options);
} as typeof startTransaction;

/** The requests issued while `transactions.recording`: `store.method` (`store.index.method` for an index). */
const requests: string[] = [];
for (const [prototype, nameOf] of [
  [IDBObjectStore.prototype, (target: IDBObjectStore) => target.name],
  [IDBIndex.prototype, (target: IDBIndex) => `${target.objectStore.name}.${target.name}`],
] as const)
  for (const method of REQUEST_METHODS) {
    const original = (prototype as unknown as Record<string, unknown>)[method];
    if (typeof original !== 'function') continue;
    (prototype as unknown as Record<string, unknown>)[method] = function request(
      this: never,
      ...args: unknown[]
    ) {
      if (transactions.recording) requests.push(`${(nameOf as (target: never) => string)(this)}.${method}`);
      return (original as (...args: unknown[]) => unknown).apply(this, args);
    };
  }

// ── Databases ─────────────────────────────────────────────────────────────────────────────────────────

interface BaselineSchema {
  calls: { key: string; value: ToolCallRecord };
}

interface Runtime {
  readonly db: RuntimeDatabase;
  readonly registry: AppRegistry;
  readonly runtime: ToolRuntime;
  readonly intake: ToolCallIntake;
  readonly revision: string;
}

const runtimes = new Map<string, Runtime>();
const baselines = new Map<string, IDBPDatabase<BaselineSchema>>();

/**
 * Another MiniApp for the database to hold beside the focus app: the focus app's manifest (three tools with their
 * schemas) under a scope and id of its own. The timed calls never touch it.
 */
function otherApp(index: number) {
  const manifest = focusManifest();
  const scope = `other${index}`;
  return {
    ...manifest,
    id: `com.example.other${index}`,
    name: `Other ${index}`,
    app_scope: scope,
    tools: manifest.tools.map((tool) => ({ ...tool, app_scope: scope })),
  };
}

/**
 * Opens a new runtime database with the focus app installed (the inventory has its tools) and `apps - 1` other
 * MiniApps beside it.
 */
async function freshRuntime(name: string, apps = 1): Promise<Runtime> {
  await deleteDB(name);
  const db = await openRuntimeDatabase(name);
  const registry = new AppRegistry(db);
  await registry.install(focusManifest(), { bundleUrl: '/apps/focus/' });
  for (let index = 1; index < apps; index++)
    await registry.install(otherApp(index), { bundleUrl: `/apps/other${index}/` });
  const { revision } = await registry.inventory();
  return {
    db,
    registry,
    runtime: new ToolRuntime(db, registry),
    intake: new ToolCallIntake(db, registry),
    revision,
  };
}

async function runtimeNamed(name: string, apps = 1): Promise<Runtime> {
  let runtime = runtimes.get(name);
  if (runtime === undefined) {
    runtime = await freshRuntime(name, apps);
    runtimes.set(name, runtime);
  }
  return runtime;
}

async function baselineNamed(name: string): Promise<IDBPDatabase<BaselineSchema>> {
  let db = baselines.get(name);
  if (db === undefined) {
    await deleteDB(name);
    db = await openDB<BaselineSchema>(name, 1, {
      upgrade(database) {
        database.createObjectStore('calls', { keyPath: 'key' });
      },
    });
    baselines.set(name, db);
  }
  return db;
}

const callOf = (callId: string, revision: string): ToolCallPayload => ({
  call_id: callId,
  inventory_revision: revision,
  tool: TOOL,
  arguments: {},
});

/** A call record as the intake writes it, for the baseline's one `put` per call. */
function recordOf(conversationId: string, callId: string, revision: string, now: number): ToolCallRecord {
  const call = callOf(callId, revision);
  return {
    key: `${conversationId}\n${callId}`,
    conversationId,
    callId,
    call,
    status: 'accepted',
    latest: {
      type: 'lineup.v1.tool.progress',
      payload: { call_id: callId, app_scope: 'focus', status: 'accepted' },
    },
    receivedAt: now,
    stage: 'received',
    dueAt: now + 10_000,
  };
}

// ── 1. Calls per second ───────────────────────────────────────────────────────────────────────────────

export type ThroughputKind =
  | 'runtime'
  | 'runtime10'
  | 'runtime50'
  | 'intake'
  | 'facts'
  | 'baseline'
  | 'baseline2';

/** The MiniApps installed in the database of each kind of `ToolRuntime.receive` run. */
const INSTALLED: Readonly<Record<string, number>> = { runtime: 1, runtime10: 10, runtime50: 50, intake: 1 };

/**
 * Runs `count` calls of one kind one after another and returns the elapsed milliseconds:
 * - `runtime`: `ToolRuntime.receive` — intake, route and the interrupt built-in, final result in the outbox —
 *   with the focus app the only one installed; `runtime10`, `runtime50`: the same with 10 and 50 apps installed;
 * - `intake`: `ToolCallIntake.receive` alone (a database of its own: its calls are never routed);
 * - `baseline`: one bare strict `put` transaction per call;
 * - `baseline2`: two bare strict `put` transactions per call (the floor of two durable commits).
 */
async function throughput(kind: ThroughputKind, prefix: string, count: number): Promise<number> {
  if (kind === 'facts') return factsFloor(prefix, count);
  if (kind !== 'baseline' && kind !== 'baseline2') {
    const target = await runtimeNamed(`bench-${kind}`, INSTALLED[kind]);
    const calls = Array.from({ length: count }, (_, index) => callOf(`${prefix}_${index}`, target.revision));
    const receiver = kind === 'intake' ? target.intake : target.runtime;
    const started = performance.now();
    for (const call of calls) {
      const { disposition } = await receiver.receive(CONVERSATION, call);
      if (disposition !== 'accepted') throw new Error(`${call.call_id} was ${disposition}`);
    }
    const elapsed = performance.now() - started;
    if (kind !== 'intake') await checkFinished(target.db, calls.at(-1)!);
    return elapsed;
  }
  const db = await baselineNamed(`bench-${kind}`);
  const now = Date.now();
  const records = Array.from({ length: count }, (_, index) =>
    recordOf(CONVERSATION, `${prefix}_${index}`, 'inventory-1', now),
  );
  const puts = kind === 'baseline' ? 1 : 2;
  const started = performance.now();
  for (const record of records)
    for (let put = 0; put < puts; put++) {
      const transaction = db.transaction('calls', 'readwrite', STRICT);
      await transaction.store.put(put === 0 ? record : { ...record, stage: 'finished' });
      await transaction.done;
    }
  return performance.now() - started;
}

/** The rows `receive` wrote for one call of the runtime's database, to write again as they are (`factsFloor`). */
interface FactsSample {
  /** The stores of the runtime's step. */
  readonly stores: readonly string[];
  readonly call: ToolCallRecord;
  readonly outbox: readonly OutboxRecord[];
  readonly audit: readonly AuditRecord[];
}

let factsSample: FactsSample | undefined;

/** The stores of the last strict read-write transaction the runtime started (a `receive`'s step). */
let lastStepStores: string[] = [];

/** The rows the runtime wrote for the call `callId` (accepted and finished in its one step). */
async function sampleOf(db: RuntimeDatabase, callId: string): Promise<Omit<FactsSample, 'stores'>> {
  const call = await db.get('tool_calls', `${CONVERSATION}\n${callId}`);
  const outbox = (await db.getAll('outbox')).filter(
    (row) => (row.payload as { call_id?: string }).call_id === callId,
  );
  const audit = (await db.getAll('audit')).filter((entry) => entry.callId === callId);
  if (call?.stage !== 'finished' || outbox.length !== 2 || audit.length !== 2)
    throw new Error(`The runtime did not write the facts of ${callId} as expected.`);
  return { call, outbox, audit };
}

/**
 * The floor of the facts one `receive` keeps, with nothing of the pipeline's work: per call, one strict transaction
 * over the same stores of a database of the runtime's schema that issues the same requests — the registry's stamp,
 * the instance and the call record read together, then the same rows (two audit entries, two outbox rows, the call
 * record in its last state) written as the runtime wrote them for a call of the focus app — and asks to commit.
 */
async function factsFloor(prefix: string, count: number): Promise<number> {
  if (factsSample === undefined) {
    // One call through the runtime: its rows, and the stores of its step, are what the floor writes again.
    const source = await runtimeNamed('bench-sample');
    const callId = `facts_sample_${Date.now()}`;
    await source.runtime.receive(CONVERSATION, callOf(callId, source.revision));
    factsSample = { ...(await sampleOf(source.db, callId)), stores: lastStepStores };
  }
  const sample = factsSample;
  const { db } = await runtimeNamed('bench-facts');
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const callId = `${prefix}_${index}`;
    const key = `${CONVERSATION}\n${callId}`;
    // The runtime's own store list (typed as the stores this uses of it).
    const stores = sample.stores as unknown as [
      'inventory_fences',
      'instances',
      'tool_calls',
      'audit',
      'outbox',
    ];
    const transaction = db.transaction(stores, 'readwrite', STRICT);
    await Promise.all([
      transaction.objectStore('inventory_fences').get('registry'),
      transaction.objectStore('instances').get(`${CONVERSATION}\nfocus`),
      transaction.objectStore('tool_calls').get(key),
    ]);
    const rename = <T extends { readonly payload: unknown }>(row: T) => ({
      ...row,
      payload: { ...(row.payload as object), call_id: callId },
    });
    const writes: Promise<unknown>[] = [];
    const [accepted, finished] = sample.audit.map(({ id: _, ...entry }) => ({ ...entry, callId }));
    const [progress, result] = sample.outbox.map(({ id: _, ...row }) => rename(row));
    writes.push(transaction.objectStore('audit').add(accepted as AuditRecord));
    writes.push(transaction.objectStore('outbox').add(progress as OutboxRecord));
    writes.push(transaction.objectStore('outbox').add(result as OutboxRecord));
    writes.push(transaction.objectStore('audit').add(finished as AuditRecord));
    writes.push(
      transaction.objectStore('tool_calls').put({
        ...sample.call,
        key,
        callId,
        call: { ...sample.call.call, call_id: callId },
        latest: rename(sample.call.latest),
      }),
    );
    (transaction as unknown as { commit(): void }).commit();
    await Promise.all(writes);
    await transaction.done;
  }
  return performance.now() - started;
}

/** The last call of a batch really ended: finished, with its one `tool.result` the built-in's answer. */
async function checkFinished(db: RuntimeDatabase, call: ToolCallPayload): Promise<void> {
  const record = await db.get('tool_calls', `${CONVERSATION}\n${call.call_id}`);
  const result = record?.latest;
  if (
    record?.stage !== 'finished' ||
    result?.type !== 'lineup.v1.tool.result' ||
    result.payload.outcome !== 'completed'
  )
    throw new Error(`${call.call_id} did not finish: ${JSON.stringify(record)}`);
}

/** What the runtime's outbox holds after every batch: each call's `accepted` and its final result, pending. */
async function outboxSummary(
  kind: ThroughputKind,
): Promise<{ calls: number; pendingResults: number; pendingProgress: number }> {
  const { db } = await runtimeNamed(`bench-${kind}`);
  const pending = await db.getAllFromIndex('outbox', 'by_pending');
  return {
    calls: await db.count('tool_calls'),
    pendingResults: pending.filter((row) => row.type === 'lineup.v1.tool.result').length,
    pendingProgress: pending.filter((row) => row.type === 'lineup.v1.tool.progress').length,
  };
}

// ── 3. Transactions per call ──────────────────────────────────────────────────────────────────────────

/** The transactions one `receive` (a new `focus.interrupt` call) starts, counted and listed. */
async function transactionsPerReceive(callId: string) {
  const { runtime, revision } = await runtimeNamed('bench-runtime');
  const before = { count: transactions.count, strict: transactions.strict };
  transactions.started.length = 0;
  requests.length = 0;
  transactions.recording = true;
  try {
    await runtime.receive(CONVERSATION, callOf(callId, revision));
  } finally {
    transactions.recording = false;
  }
  return {
    count: transactions.count - before.count,
    strict: transactions.strict - before.strict,
    started: [...transactions.started],
    requests: [...requests],
  };
}

// ── 2. Start-up reconciliation ────────────────────────────────────────────────────────────────────────

/** Conversations the history is spread over. */
const HISTORY_CONVERSATIONS = 100;
/** Rows per transaction while writing the history. */
const CHUNK = 10_000;

/**
 * Creates a runtime database with the focus app installed and, written straight into the stores as the
 * runtime writes them, `calls` finished tool calls (`stage: 'finished'`, no `dueAt`) and `outboxRows`
 * delivered outbox rows (`deliveredAt`, no `pending`): the `accepted` progress and the result of those calls,
 * cycling. (Their audit entries are left out: nothing at start-up reads the audit log.) Closes it afterwards.
 */
async function createHistory(name: string, outboxRows: number, calls: number): Promise<number> {
  const started = performance.now();
  const { db, registry } = await freshRuntime(name);
  // The inventory's own outbox row counts as sent, like the rest of the history.
  await new OutboxDelivery(db, { locks: null }).deliver(() => {});
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const { revision } = await registry.inventory();
  const conversationOf = (index: number) => `conv_${index % HISTORY_CONVERSATIONS}`;
  const callIdOf = (index: number) => `call_${index % Math.max(calls, 1)}`;
  const resultOf = (index: number) => ({
    call_id: callIdOf(index),
    outcome: 'completed' as const,
    result: { status: 'nothing_to_interrupt' },
  });

  const writeCalls = async () => {
    for (let from = 0; from < calls; from += CHUNK) {
      const transaction = db.transaction('tool_calls', 'readwrite');
      // The bare store: a promise per request would only slow the writing down.
      const store = unwrap(transaction.store);
      for (let index = from; index < Math.min(calls, from + CHUNK); index++) {
        const at = base + index * 1_000;
        const { dueAt: _, ...finished } = recordOf(conversationOf(index), callIdOf(index), revision, at);
        const record: ToolCallRecord = {
          ...finished,
          latest: { type: 'lineup.v1.tool.result', payload: resultOf(index) },
          stage: 'finished',
        };
        store.put(record);
      }
      await transaction.done;
    }
  };
  const writeOutbox = async () => {
    for (let from = 0; from < outboxRows; from += CHUNK) {
      const transaction = db.transaction('outbox', 'readwrite');
      const store = unwrap(transaction.store);
      for (let index = from; index < Math.min(outboxRows, from + CHUNK); index++) {
        const call = index >> 1;
        const at = base + index * 500;
        const row: OutboxRecord =
          index % 2 === 0
            ? {
                at,
                deliveredAt: at + 20,
                conversationId: conversationOf(call),
                type: 'lineup.v1.tool.progress',
                payload: { call_id: callIdOf(call), app_scope: 'focus', status: 'accepted' },
              }
            : {
                at,
                deliveredAt: at + 20,
                conversationId: conversationOf(call),
                type: 'lineup.v1.tool.result',
                payload: resultOf(call),
              };
        store.add(row);
      }
      await transaction.done;
    }
  };
  // Two stores, two transactions at once.
  await Promise.all([writeCalls(), writeOutbox()]);
  db.close();
  return performance.now() - started;
}

/** Adds `count` pending outbox rows (results a previous page wrote but never sent), as the runtime writes them. */
async function addPending(name: string, count: number): Promise<void> {
  const db = await openRuntimeDatabase(name);
  const transaction = db.transaction('outbox', 'readwrite');
  for (let index = 0; index < count; index++)
    void transaction.store.add({
      at: Date.now(),
      pending: 1,
      conversationId: CONVERSATION,
      type: 'lineup.v1.tool.result',
      payload: {
        call_id: `late_${Date.now()}_${index}`,
        outcome: 'completed',
        result: { status: 'nothing_to_interrupt' },
      },
    });
  await transaction.done;
  db.close();
}

/**
 * A start-up of the page: opens the database (timed on its own), then `recover()` and the delivery of the
 * pending outbox rows (timed together). Returns milliseconds and what it did.
 */
async function startUp(name: string) {
  const opening = performance.now();
  const db = await openRuntimeDatabase(name);
  const opened = performance.now();
  await new ToolRuntime(db, new AppRegistry(db)).recover();
  const recovered = performance.now();
  const report = await new OutboxDelivery(db).deliver(() => {});
  const reconciled = performance.now();
  if (report.error !== null) throw report.error;
  const sizes = { outbox: await db.count('outbox'), toolCalls: await db.count('tool_calls') };
  db.close();
  return {
    openMs: opened - opening,
    reconcileMs: reconciled - opened,
    recoverMs: recovered - opened,
    deliverMs: reconciled - recovered,
    delivered: report.delivered,
    ...sizes,
  };
}

// ── 4. The consent step's own work on a call its risk runs ───────────────────────────────────────────

/**
 * The consent step's work for one `display_only` call, as the pipeline does it inside the receiving step: the tool's
 * app and descriptor looked up, the facts and the effective policy computed (`effectivePolicy`: no read, no hash for
 * a tool that runs), `count` times over; returns the elapsed milliseconds. Read beside the runtime's time per call:
 * what the step adds to the pipeline it sits in.
 */
async function consentWork(count: number): Promise<number> {
  const target = await runtimeNamed('bench-runtime');
  const apps = await target.registry.list();
  const byScope = new Map(apps.map((app) => [app.manifest.app_scope, app]));
  const [scope = '', method = ''] = TOOL.split('.');
  const rules = target.registry.toolPolicy;
  let allowed = 0;
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const app = byScope.get(scope);
    const descriptor = app?.manifest.tools.find((tool) => tool.method === method);
    if (app === undefined || descriptor === undefined) throw new Error(`${TOOL} is not installed`);
    if (effectivePolicy(app, consentToolOf(descriptor), rules).decision === 'allow') allowed++;
  }
  const elapsed = performance.now() - started;
  if (allowed !== count) throw new Error(`${TOOL} would not run unasked`);
  return elapsed;
}

const bench = {
  throughput,
  consentWork,
  outboxSummary,
  transactionsPerReceive,
  createHistory,
  addPending,
  startUp,
};

declare global {
  interface Window {
    bench: typeof bench;
  }
}

window.bench = bench;
