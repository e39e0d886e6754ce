import {
  ActionRunner,
  type AgentClient,
  type CapabilityRuntime,
  type ConversationStore,
  type RuntimeDatabase,
} from '@lineup/runtime';
import type { UIActionReceipt } from '@lineup/shared';

// Run the DSL 1.1 invoke buttons of the interfaces an agent sent. `copy_text` is a DSL capability bound to the
// declared wire capability `clipboard.write` (its risk decides the consent, its handler runs); agent actions go to
// the agent through the client. The AgentClient must be built with `actions: runner` so the agent's answers settle
// their receipts.
export async function runActions(
  db: RuntimeDatabase,
  store: ConversationStore,
  capabilities: CapabilityRuntime,
  client: () => AgentClient,
  onReceipt: (receipt: UIActionReceipt) => void,
): Promise<ActionRunner> {
  const runner = new ActionRunner(db, {
    documents: store, // the documents the agent sent: arguments are re-derived from them, never from the page
    capabilities,
    bindings: [
      {
        id: 'copy_text',
        title: 'Copy text',
        description: 'Copies a text to your clipboard.',
        capability: 'clipboard.write',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
          additionalProperties: false,
        },
        resultFields: ['written'], // everything else of the output stays private
      },
    ],
    agent: { sendAction: (conversationId, payload) => client().sendUIAction(conversationId, payload) },
    onReceipt: (_conversationId, receipt) => onReceipt(receipt),
  });
  await runner.recover(); // what the last page left: nothing runs again; sent agent actions keep waiting
  return runner;
}

// A click from @lineup/renderer-react's onInvoke: reserved, asked by risk, run once, answered with the receipt.
//   onInvoke={(request) => runner.submit(conversationId, {
//     documentRef: request.documentRef, requestId: request.requestId,
//     actionId: request.actionId, values: request.values,
//   }, request.report)}
