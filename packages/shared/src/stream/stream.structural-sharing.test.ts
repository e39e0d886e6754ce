/**
 * Component streaming (seed 002 §12): structural sharing. A patch or a fresh snapshot copies only what changed,
 * and every committed document is one the DSL helpers already know.
 */
import { describe, expect, it } from 'vitest';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import mutationsFixture from '../../fixtures/stream-mutations.json' with { type: 'json' };
import { type J, seedExample, wire } from '../../test/stream.js';
import { clone } from '../../test/utils.js';
import { documentIndex, parseDocument } from '../dsl/document.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

describe('structural sharing', () => {
  it('advanceUIStream copies only the path from the root to the changed node', () => {
    const [opened, added, retitled] = seedExample() as [UIStreamState, UIStreamState, UIStreamState];
    const before = added.document;
    const after = retitled.document;
    expect(after.root).not.toBe(before.root);
    expect(after.state).toBe(before.state);
    expect(after.derived).toBe(before.derived);
    const [summaryBefore, assumptionsBefore] = (before.root as J).children;
    const [summaryAfter, assumptionsAfter] = (after.root as J).children;
    expect(assumptionsAfter).toBe(assumptionsBefore);
    expect(summaryAfter).not.toBe(summaryBefore);
    expect(summaryAfter.children[0]).toBe(summaryBefore.children[0]);
    expect(summaryAfter.children[1]).toBe(summaryBefore.children[1]);
    expect((added.document.root as J).children[1]).toBe((opened.document.root as J).children[1]);
    expect(Object.isFrozen(summaryAfter)).toBe(true);
    expect(Object.isFrozen(summaryAfter.children)).toBe(true);
  });

  it('acceptCheckpoint keeps the previous objects of every unchanged branch of a fresh snapshot', () => {
    const states = seedExample();
    const first = acceptCheckpoint(null, wire(states[1]!));
    const second = acceptCheckpoint(first, wire(states[2]!));
    const [summaryBefore, assumptionsBefore] = (first.document.root as J).children;
    const [summaryAfter, assumptionsAfter] = (second.document.root as J).children;
    expect(second.document.state).toBe(first.document.state);
    expect(second.document.derived).toBe(first.document.derived);
    expect(assumptionsAfter).toBe(assumptionsBefore);
    expect(summaryAfter).not.toBe(summaryBefore);
    expect(summaryAfter.children).toEqual(summaryBefore.children);
    expect(summaryAfter.children[0]).toBe(summaryBefore.children[0]);
    expect(summaryAfter.children[1]).toBe(summaryBefore.children[1]);
    expect(parseDocument(clone(second.document))).toEqual(second.document);
  });

  it('a terminal frame keeps the very document object of the frame before it', () => {
    const states = seedExample();
    const removed = acceptCheckpoint(null, wire(states[3]!));
    const completed = acceptCheckpoint(removed, wire(states[4]!));
    expect(completed.document).toBe(removed.document);
    expect(completed.checkpoint.snapshot).toBe(removed.document);
  });
});
describe('committed documents are known to the DSL helpers', () => {
  it('advanceUIStream and acceptCheckpoint register their structurally shared documents', () => {
    const initialDocument = JSON.parse(JSON.stringify(initialFixture));
    let producer = startUIStream(initialDocument, 'call_register', 1);
    for (const mutation of JSON.parse(JSON.stringify(mutationsFixture))) {
      producer = advanceUIStream(producer, mutation);
      // A document the helpers did not know would be validated again and replaced by a copy.
      expect(documentIndex(producer.document).document).toBe(producer.document);
    }
    let receiver = acceptCheckpoint(null, JSON.parse(JSON.stringify(producer.checkpoint)));
    receiver = acceptCheckpoint(
      receiver,
      JSON.parse(JSON.stringify(advanceUIStream(producer, { type: 'complete' }).checkpoint)),
    );
    expect(documentIndex(receiver.document).document).toBe(receiver.document);
  });
});
