/**
 * Example interfaces the host can show before an agent is connected: the shared package's validated
 * fixtures. They go through the same path as an agent's documents (JSON text → parse → IntelligentUIView).
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
}

export const EXAMPLE_DOCUMENTS: readonly ExampleDocument[] = [
  { key: 'compound-interest', label: 'Compound interest calculator', document: compoundInterest },
  { key: 'product-comparison', label: 'Product comparison', document: productComparison },
  { key: 'form-controls', label: 'Form controls', document: formControls },
  { key: 'file-reader', label: 'File reader (1.1 invoke)', document: fileReader },
  { key: 'agent-callback', label: 'Agent callback (1.1 invoke)', document: agentCallback },
];
