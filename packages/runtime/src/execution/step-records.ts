/**
 * How a step reads and writes the records it works on with fewer trips to the browser's database process:
 *
 * - the instance a step will read is asked for with the step's first reads (`readInstanceAhead`), and its first
 *   `instanceIn` takes that answer;
 * - a call record the step writes more than once — received, then routed, then finished in the same transaction —
 *   is held (`holdCall`) and written once, in its last state, when the step ends (`releaseCalls`). Writing a record
 *   and then writing it again costs the database a read of the first version (to move its index entries); a record
 *   held costs one write. Every read and write of a call record in a step goes through `callIn`, `putCall` and
 *   `unfinishedCallsIn`, which see a held record as written: holding changes how often the database writes, never
 *   what a step sees or what it commits.
 */
import type { InstanceRecord, ToolCallRecord } from '../storage/database.js';

/** What these helpers use of a step's transaction: its call records and instances. */
interface RecordsTransaction {
  objectStore(name: 'tool_calls'): {
    get(key: string): Promise<ToolCallRecord | undefined>;
    put(value: ToolCallRecord): Promise<unknown>;
    index(name: 'by_due'): { getAll(): Promise<ToolCallRecord[]> };
  };
  objectStore(name: 'instances'): { get(key: string): Promise<InstanceRecord | undefined> };
}

/** Call records held back by a step, by transaction and key. */
const heldCalls = new WeakMap<object, Map<string, ToolCallRecord>>();

/** Reads of instances a step issued with its first reads, by transaction and instance key. */
const instancesAhead = new WeakMap<object, Map<string, Promise<InstanceRecord | undefined>>>();

/**
 * `record`, of a call this transaction knows is not stored yet, is to be written when the step ends: until then
 * `callIn` and `putCall` see and change the held record.
 */
export function holdCall(transaction: object, record: ToolCallRecord): void {
  const held = heldCalls.get(transaction) ?? new Map<string, ToolCallRecord>();
  held.set(record.key, record);
  heldCalls.set(transaction, held);
}

/** The call record `key` as this step sees it: held, or read. */
export function callIn(transaction: RecordsTransaction, key: string): Promise<ToolCallRecord | undefined> {
  const held = heldCalls.get(transaction)?.get(key);
  return held === undefined ? transaction.objectStore('tool_calls').get(key) : Promise.resolve(held);
}

/** Writes a call record: a held one stays held, in its new state; any other is written now. */
export function putCall(transaction: RecordsTransaction, record: ToolCallRecord): Promise<unknown> {
  const held = heldCalls.get(transaction);
  if (held?.has(record.key) !== true) return transaction.objectStore('tool_calls').put(record);
  held.set(record.key, record);
  return Promise.resolve();
}

/** Writes the call records the step held, each once in its last state. Issued, not awaited (the commit confirms). */
export function releaseCalls(transaction: RecordsTransaction): void {
  const held = heldCalls.get(transaction);
  if (held === undefined) return;
  heldCalls.delete(transaction);
  for (const record of held.values()) {
    const write = transaction.objectStore('tool_calls').put(record);
    write.catch(() => {}); // A failed write aborts the transaction; its commit says so.
  }
}

/** Every unfinished call (the `by_due` index), the held ones written first so that the index lists them. */
export function unfinishedCallsIn(transaction: RecordsTransaction): Promise<ToolCallRecord[]> {
  releaseCalls(transaction);
  return transaction.objectStore('tool_calls').index('by_due').getAll();
}

/**
 * Issues the read of the instance `key` now, alongside the step's first reads, for the step's first `instanceIn` of
 * it to take: one round trip to the database fewer. Only for an instance the step reads before it writes it.
 */
export function readInstanceAhead(transaction: RecordsTransaction, key: string): void {
  const reads = instancesAhead.get(transaction) ?? new Map<string, Promise<InstanceRecord | undefined>>();
  const read = transaction.objectStore('instances').get(key);
  read.catch(() => {}); // A failed read aborts the transaction; whoever takes it hears the error.
  reads.set(key, read);
  instancesAhead.set(transaction, reads);
}

/** The instance `key` as this transaction sees it: the read issued ahead (taken once), or a read now. */
export function instanceIn(
  transaction: RecordsTransaction,
  key: string,
): Promise<InstanceRecord | undefined> {
  const reads = instancesAhead.get(transaction);
  const ahead = reads?.get(key);
  if (ahead === undefined) return transaction.objectStore('instances').get(key);
  reads?.delete(key);
  return ahead;
}
