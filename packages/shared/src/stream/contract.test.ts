/**
 * The generation contract checked directly (seed 002 §12). Most rows go through `acceptCheckpoint` and
 * `advanceUIStream` in stream.generation-contract.test.ts; the document id cannot change there (uiId binds it first), so it is
 * checked here.
 */
import { describe, expect, it } from 'vitest';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import { clone } from '../../test/utils.js';
import { parseDocument } from '../dsl/document.js';
import { IssueCollector } from '../errors/issues.js';
import { checkGenerationContract } from './contract.js';

describe('checkGenerationContract', () => {
  it('reports a changed document id', () => {
    const base = parseDocument(clone(initialFixture));
    const next = parseDocument({ ...clone(initialFixture), id: 'renamed' });
    const issues = new IssueCollector('snapshot');
    checkGenerationContract(base, next, { nodeTypes: true }, issues);
    expect(issues.issues).toEqual([expect.objectContaining({ path: 'snapshot.id', code: 'invalid_value' })]);
  });

  it('reports nothing for the same or an equal document', () => {
    const base = parseDocument(clone(initialFixture));
    const issues = new IssueCollector();
    checkGenerationContract(base, base, { nodeTypes: true }, issues);
    checkGenerationContract(base, parseDocument(clone(initialFixture)), { nodeTypes: true }, issues);
    expect(issues.empty).toBe(true);
  });
});
