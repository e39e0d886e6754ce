/**
 * Component streaming end to end (seed 002 §12): the seed's three-patch example (stream-initial.json +
 * stream-mutations.json) streamed by a producer and replayed by a receiver, with the cursors, digests, frame
 * count and bytes kept consistent.
 */
import { describe, expect, it } from 'vitest';
import { initial, mutations, node, seedExample, wire } from '../../test/stream.js';
import { clone } from '../../test/utils.js';
import { parseDocument } from '../dsl/document.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS } from './checkpoint.js';
import { acceptCheckpoint, type UIStreamState } from './stream.js';

const FRAME_BUDGET = {
  maxBytes: UI_PROTOCOL_LIMITS.maxStreamFrameBytes,
  maxDepth: UI_LIMITS.maxJsonDepth + UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues + UI_STREAM_LIMITS.envelopeJsonValues,
};

describe('the seed example (stream-initial.json + stream-mutations.json)', () => {
  it('streams a computed result in, retitles the card, removes the loading node and completes', () => {
    const states = seedExample();
    const [opened, added, retitled, removed, completed] = states as [
      UIStreamState,
      UIStreamState,
      UIStreamState,
      UIStreamState,
      UIStreamState,
    ];

    expect(opened.checkpoint).toMatchObject({
      protocol: 'dsh.intelligent-ui.stream',
      version: '1.0',
      sourceCallId: 'call-open-1',
      uiId: 'savings_stream',
      generation: 1,
      seq: 1,
      baseRevision: null,
      revision: 0,
      type: 'snapshot',
    });
    expect(opened.checkpoint.snapshot).toEqual(initial());

    expect(node(added.document.root, 'total')).toMatchObject({ type: 'Result' });
    expect(added.checkpoint).toMatchObject({ seq: 2, baseRevision: 0, revision: 1, type: 'add' });
    expect(node(retitled.document.root, 'summary')?.props).toEqual({ title: 'Projected balance', gap: 'sm' });
    expect(retitled.checkpoint).toMatchObject({ seq: 3, baseRevision: 1, revision: 2, type: 'update' });
    expect(node(removed.document.root, 'loading')).toBeUndefined();
    expect(removed.checkpoint).toMatchObject({ seq: 4, baseRevision: 2, revision: 3, type: 'remove' });

    expect(completed.status).toBe('completed');
    expect(completed.checkpoint).toMatchObject({ seq: 5, baseRevision: 3, revision: 3, type: 'complete' });
    expect(completed.document).toBe(removed.document);
    expect(completed).toMatchObject({ seq: 5, revision: 3, revisionSeq: 4, frames: 5 });
    expect(completed.digests.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);

    const summary = node(completed.document.root, 'summary');
    expect(summary).toEqual({
      id: 'summary',
      type: 'Card',
      props: { title: 'Projected balance', gap: 'sm' },
      children: [mutations()[0].node],
    });
    // Every committed snapshot is a valid document on its own.
    for (const state of states) expect(parseDocument(clone(state.document))).toEqual(state.document);
  });

  it('keeps the three cursors, digests, frame count and bytes consistent', () => {
    const states = seedExample();
    let bytes = 0;
    for (const state of states) {
      bytes += jsonByteLength(state.checkpoint);
      expect(state.bytes).toBe(bytes);
      expect(state.digests.at(-1)).toEqual({
        seq: state.seq,
        digest: hashCanonicalJSON(state.checkpoint, FRAME_BUDGET),
      });
      expect(state.seq).toBe(state.checkpoint.seq);
      expect(state.revision).toBe(state.checkpoint.revision);
      expect(state.checkpoint.snapshot).toBe(state.document);
      expect(Object.isFrozen(state)).toBe(true);
      expect(Object.isFrozen(state.digests)).toBe(true);
    }
    expect(states.map((state) => state.revisionSeq)).toEqual([1, 2, 3, 4, 4]);
  });

  it('a receiver replaying the frames from the wire reaches the same view and digests', () => {
    const states = seedExample();
    let receiver: UIStreamState | null = null;
    for (const state of states) {
      receiver = acceptCheckpoint(receiver, wire(state));
      expect(receiver.document).toEqual(state.document);
      expect(receiver.digests).toEqual(state.digests);
      expect(receiver).toMatchObject({
        seq: state.seq,
        revision: state.revision,
        revisionSeq: state.revisionSeq,
        status: state.status,
        frames: state.frames,
        bytes: state.bytes,
      });
    }
  });

  it('a producer state accepts its own frames back as duplicates', () => {
    const states = seedExample();
    const last = states.at(-1)!;
    for (const state of states) expect(acceptCheckpoint(last, wire(state))).toBe(last);
  });
});
