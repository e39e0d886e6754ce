/**
 * Example interfaces the host can show before an agent is connected: the shared package's validated
 * fixtures. They go through the same path as an agent's documents (JSON text → parse → IntelligentUIView).
 * The two 1.1 examples (`sentByAgent`) are sent from the demo agent's end of the in-process transport, as a
 * `lineup.v1.ui.document` of the conversation, so their `invoke` actions run through the action ledger like an
 * agent's; with a remote agent the page cannot speak for it, and they are shown locally (actions unavailable).
 */
import agentCallback from '@lineup/shared/fixtures/agent-callback.json';
import compoundInterest from '@lineup/shared/fixtures/compound-interest.json';
import fileReader from '@lineup/shared/fixtures/file-reader.json';
import formControls from '@lineup/shared/fixtures/form-controls.json';
import productComparison from '@lineup/shared/fixtures/product-comparison.json';

export interface ExampleDocument {
  readonly key: string;
  readonly label: string;
  readonly document: unknown;
  /** Sent as the demo agent's document (its actions run), rather than shown as the page's own. */
  readonly sentByAgent?: boolean;
}

/** A `lineup.v1.ui.document` envelope of the demo agent carrying `document`. */
export function exampleDocumentEnvelope(
  conversationId: string,
  messageId: string,
  document: unknown,
): object {
  return {
    v: 1,
    id: `msg_example_${messageId}`,
    type: 'lineup.v1.ui.document',
    conversation_id: conversationId,
    sender: { kind: 'agent', id: 'example_agent' },
    payload: { document },
  };
}

export const EXAMPLE_DOCUMENTS: readonly ExampleDocument[] = [
  { key: 'compound-interest', label: 'Compound interest calculator', document: compoundInterest },
  { key: 'product-comparison', label: 'Product comparison', document: productComparison },
  { key: 'form-controls', label: 'Form controls', document: formControls },
  { key: 'file-reader', label: 'File reader (1.1 invoke)', document: fileReader, sentByAgent: true },
  {
    key: 'agent-callback',
    label: 'Agent callback (1.1 invoke)',
    document: agentCallback,
    sentByAgent: true,
  },
];
