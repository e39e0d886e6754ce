/**
 * The receipts of DSL actions the views show (seed 002 §10–§11): loaded from the runtime's action ledger per
 * document (`list`), and kept current from every change the `ActionRunner` reports — a reload shows them again,
 * an agent's late answer updates them, and nothing is ever run again from here.
 */
import type { ActionRunner } from '@lineup/runtime';
import type { UIActionReceipt, UIDocumentRef } from '@lineup/shared';
import { useEffect, useSyncExternalStore } from 'react';

const NONE: readonly UIActionReceipt[] = Object.freeze([]);

const keyOf = (conversationId: string, ref: UIDocumentRef) =>
  `${conversationId}\n${ref.sourceCallId}\n${ref.uiId}\n${ref.generation}\n${ref.revision}`;

export class ActionReceipts {
  readonly #byDocument = new Map<string, readonly UIActionReceipt[]>();
  readonly #loading = new Set<string>();
  readonly #listeners = new Set<() => void>();
  #runner: ActionRunner | null = null;

  /** The runner the receipts come from (set once the runtime has started). */
  attach(runner: ActionRunner): void {
    this.#runner = runner;
  }

  /** One receipt changed (the runner's `onReceipt`): it replaces the one of the same operation. */
  update(conversationId: string, receipt: UIActionReceipt): void {
    const key = keyOf(conversationId, receipt.documentRef);
    const known = this.#byDocument.get(key) ?? NONE;
    const index = known.findIndex((item) => item.operationId === receipt.operationId);
    // Never back: an older report of the same operation (a slow list) does not replace a newer one.
    if (index >= 0 && (known[index] as UIActionReceipt).updatedAt > receipt.updatedAt) return;
    const next = index >= 0 ? known.map((item, at) => (at === index ? receipt : item)) : [...known, receipt];
    this.#byDocument.set(key, next);
    this.#notify();
  }

  /** The receipts of one document; the first call loads them from the ledger. */
  get(conversationId: string, ref: UIDocumentRef): readonly UIActionReceipt[] {
    return this.#byDocument.get(keyOf(conversationId, ref)) ?? NONE;
  }

  load(conversationId: string, ref: UIDocumentRef): void {
    const key = keyOf(conversationId, ref);
    const runner = this.#runner;
    if (runner === null || this.#loading.has(key) || this.#byDocument.has(key)) return;
    this.#loading.add(key);
    runner.list(conversationId, ref).then(
      (receipts) => {
        for (const receipt of receipts) this.update(conversationId, receipt);
        if (!this.#byDocument.has(key)) this.#byDocument.set(key, NONE);
      },
      () => this.#loading.delete(key),
    );
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/** The receipts of one document, re-rendering when they change. */
export function useReceipts(
  receipts: ActionReceipts | null,
  conversationId: string | null,
  ref: UIDocumentRef | undefined,
): readonly UIActionReceipt[] {
  useEffect(() => {
    if (receipts !== null && conversationId !== null && ref !== undefined) receipts.load(conversationId, ref);
  }, [receipts, conversationId, ref]);
  const snapshot = () =>
    receipts === null || conversationId === null || ref === undefined
      ? NONE
      : receipts.get(conversationId, ref);
  return useSyncExternalStore((listener) => receipts?.subscribe(listener) ?? (() => {}), snapshot, snapshot);
}
