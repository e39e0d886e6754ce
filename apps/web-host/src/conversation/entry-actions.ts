/**
 * How an agent's interface runs its DSL 1.1 `invoke` actions: through the runtime's action ledger, for the
 * conversation it is in, with the receipts the ledger keeps.
 */
import type { UIInvokeHandler } from '@lineup/renderer-react';
import type { ActionRunner } from '@lineup/runtime';
import type { ActionReceipts } from '../capabilities/receipts.ts';

/** What an agent interface needs to run its `invoke` actions. */
export interface EntryActions {
  readonly runner: ActionRunner;
  readonly receipts: ActionReceipts;
  readonly conversationId: string;
}

/**
 * The renderer's `onInvoke` for one conversation: the click's request goes to the action ledger, which re-derives
 * it from the document the agent sent (never from what the page says), asks the user by risk and runs it.
 */
export function invokeHandler(actions: EntryActions): UIInvokeHandler {
  return (request) => {
    if (request.documentRef === undefined)
      return Promise.reject(new Error('This interface has no document reference.'));
    return actions.runner.submit(
      actions.conversationId,
      {
        documentRef: request.documentRef,
        requestId: request.requestId,
        actionId: request.actionId,
        values: request.values,
      },
      request.report,
    );
  };
}
