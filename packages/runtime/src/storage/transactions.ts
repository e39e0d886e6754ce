/**
 * Transactions on the runtime database: the stores each kind of step writes together, the durability of the ones
 * that must survive a crash, and helpers that save round trips to the browser's database process (issuing writes
 * without awaiting them, committing at once) or end a transaction quietly.
 */
import { type IDBPTransaction, unwrap } from 'idb';
import type { RuntimeDatabaseSchema } from './schema.js';

/** The stores a registry change writes together. */
export const REGISTRY_STORES = [
  'apps',
  'capabilities',
  'inventory',
  'inventory_fences',
  'audit',
  'outbox',
  'bundle_files',
  'session_data',
  'instances',
  'tool_grants',
] as const;
export type RegistryTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof REGISTRY_STORES, 'readwrite'>;

/** The stores receiving a tool call writes together. */
export const TOOL_CALL_STORES = ['tool_calls', 'audit', 'outbox'] as const;

/**
 * The stores a step of executing calls writes together: facts and their outbox rows in one transaction. It
 * reads the registry's stamp, and the apps and the inventory when it changed, in the same transaction (the tools it
 * routes to, the revision a call is checked against), so a step never sees a registry change halfway.
 */
export const EXECUTION_STORES = [
  'apps',
  'inventory',
  'inventory_fences',
  'tool_calls',
  'instances',
  'activations',
  'operations',
  'session_data',
  'audit',
  'outbox',
] as const;
export type ExecutionTransaction = IDBPTransaction<
  RuntimeDatabaseSchema,
  typeof EXECUTION_STORES,
  'readwrite'
>;

/**
 * The steps of the consent step that read or write remembered allowances (the answer, the check of an allowance):
 * the execution stores and `tool_grants`. Only those steps take it, so a call its policy runs keeps the receiving
 * step's transaction as it was.
 */
export const CONSENT_STORES = [...EXECUTION_STORES, 'tool_grants'] as const;
export type ConsentTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof CONSENT_STORES, 'readwrite'>;

/** The stores a step of a capability call writes together. */
export const CAPABILITY_CALL_STORES = [
  'capabilities',
  'capability_calls',
  'grants',
  'audit',
  'outbox',
] as const;

/** The stores recording one conversation message writes together. */
export const CONVERSATION_STORES = ['messages', 'conversations', 'received_recent'] as const;

/**
 * Transactions that write a call record or a final result are `strict`: they complete only once the data is
 * on disk, so an `accepted` sent after the commit is never lost in a crash (the default lets the browser
 * report completion earlier).
 */
export const STRICT: IDBTransactionOptions = { durability: 'strict' };

/**
 * Issues writes in a transaction without waiting for each one's answer. The requests of one transaction apply in
 * the order they were issued (a later read in it sees them), and one that fails aborts the transaction, so its
 * commit — `transaction.done`, which then rejects — is what confirms them. Each write not awaited saves a round trip
 * to the browser's database process before the next step of the work can go on.
 */
export function issue(...requests: readonly Promise<unknown>[]): void {
  for (const request of requests) request.catch(() => {});
}

/**
 * Asks a transaction to commit once its requests are done (`IDBTransaction.commit()`), without waiting for their
 * answers to come back to the page first: one round trip to the browser's database process instead of two. For a
 * step whose requests all succeed when it may commit — any request that fails then aborts the transaction (its
 * `done` rejects, nothing is kept), as it should. Where the browser has no `commit()`, the transaction commits by
 * itself once its requests are answered.
 */
export function commitNow(transaction: { readonly mode: IDBTransactionMode }): void {
  const raw = unwrap(transaction as never) as unknown as IDBTransaction;
  if (typeof raw.commit !== 'function') return;
  try {
    raw.commit();
  } catch {
    // Not active: it aborted already (a failed request), and its `done` says so.
  }
}

/** Aborts a transaction that may have ended already (a failed write aborts it): the caller's error is the one told. */
export function abortQuietly(transaction: { abort(): void }): void {
  try {
    transaction.abort();
  } catch {
    // It had ended.
  }
}
