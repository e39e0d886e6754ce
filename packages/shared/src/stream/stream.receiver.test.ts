/**
 * Component streaming (seed 002 §12), the receiver's side: duplicates, conflicts, stale and foreign frames, the
 * revisions between frames, and recovery from a later full checkpoint.
 */
import { describe, expect, it } from 'vitest';
import { expectIssue, nextFrame, seedExample, wire } from '../../test/stream.js';
import { acceptCheckpoint, type UIStreamState } from './stream.js';

describe('duplicates, conflicts, stale and foreign frames', () => {
  it('returns the same state object for an identical, already accepted seq', () => {
    const states = seedExample();
    let receiver: UIStreamState | null = null;
    for (const state of states.slice(0, 3)) receiver = acceptCheckpoint(receiver, wire(state));
    expect(acceptCheckpoint(receiver, wire(states[2]!))).toBe(receiver);
    expect(acceptCheckpoint(receiver, wire(states[0]!))).toBe(receiver);
    // Key order is not content: the digest is over canonical JSON.
    const reordered = Object.fromEntries(Object.entries(wire(states[1]!)).reverse());
    expect(acceptCheckpoint(receiver, reordered)).toBe(receiver);
  });

  it('rejects a frame with an accepted seq but other content, without changing the view', () => {
    const states = seedExample();
    let receiver: UIStreamState | null = null;
    for (const state of states.slice(0, 3)) receiver = acceptCheckpoint(receiver, wire(state));
    const conflicting = wire(states[2]!);
    conflicting.snapshot.title = 'Another title';
    expectIssue(() => acceptCheckpoint(receiver, conflicting), 'seq', 'duplicate_id');
    expectIssue(
      () => acceptCheckpoint(receiver, { ...wire(states[1]!), message: 'note' }),
      'seq',
      'duplicate_id',
    );
    expect(receiver!.seq).toBe(3);
  });

  it('ignores a stale frame it never saw, and frames of an older generation', () => {
    const states = seedExample();
    const receiver = acceptCheckpoint(acceptCheckpoint(null, wire(states[0]!)), wire(states[3]!));
    expect(acceptCheckpoint(receiver, wire(states[1]!))).toBe(receiver);
    expect(acceptCheckpoint(receiver, wire(states[2]!))).toBe(receiver);

    const newer = acceptCheckpoint(receiver, { ...wire(states[0]!), generation: 2 });
    expect(newer.generation).toBe(2);
    expect(acceptCheckpoint(newer, wire(states[3]!))).toBe(newer);
  });

  it('starts afresh on a newer generation', () => {
    const states = seedExample();
    const receiver = acceptCheckpoint(null, wire(states[4]!));
    expect(receiver.status).toBe('completed');
    const next = acceptCheckpoint(receiver, { ...wire(states[2]!), generation: 7 });
    expect(next).toMatchObject({ generation: 7, status: 'streaming', seq: 3, frames: 1 });
    expect(next.digests).toHaveLength(1);
  });

  it.each([
    ['sourceCallId', { sourceCallId: 'call-open-2' }],
    ['uiId', { uiId: 'other_ui' }],
  ])('rejects a frame bound to another %s', (path, override) => {
    const states = seedExample();
    const receiver = acceptCheckpoint(null, wire(states[0]!));
    const frame = { ...wire(states[1]!), ...override };
    if (path === 'uiId') frame.snapshot.id = 'other_ui';
    expectIssue(() => acceptCheckpoint(receiver, frame), path, 'invalid_value');
  });
});

describe('revisions between frames', () => {
  const opened = () => acceptCheckpoint(null, wire(seedExample()[0]!));

  it.each([
    [
      'a consecutive frame with the wrong baseRevision',
      { type: 'complete', baseRevision: 1, revision: 1 },
      'baseRevision',
      'invalid_value',
    ],
    [
      'a gap frame whose revision grows faster than one per frame',
      { seq: 3, baseRevision: 2, revision: 3 },
      'revision',
      'number_out_of_range',
    ],
    [
      'a changed document that keeps its revision',
      { type: 'complete', revision: 0 },
      'revision',
      'invalid_value',
    ],
  ])('rejects %s', (_name, overrides, path, code) => {
    const receiver = opened();
    const frame = nextFrame(receiver, (snapshot) => (snapshot.title = 'Changed'), overrides);
    expectIssue(() => acceptCheckpoint(receiver, frame), path, code);
  });

  it('rejects a revision going back', () => {
    const states = seedExample();
    const receiver = acceptCheckpoint(null, wire(states[3]!));
    const frame = nextFrame(receiver, () => {}, { seq: 5, baseRevision: 1, revision: 2 });
    expectIssue(() => acceptCheckpoint(receiver, frame), 'revision', 'number_out_of_range');
    const back = nextFrame(receiver, () => {}, { seq: 6, baseRevision: 2, revision: 3 });
    expectIssue(() => acceptCheckpoint(receiver, back), 'baseRevision', 'number_out_of_range');
  });

  it('accepts a revision increment that leaves the document as it was (an update with equal props)', () => {
    const receiver = opened();
    const next = acceptCheckpoint(
      receiver,
      nextFrame(receiver, () => {}),
    );
    expect(next.revision).toBe(1);
    expect(next.document).toBe(receiver.document);
    expect(next.revisionSeq).toBe(2);
  });
});

describe('recovery from a later full checkpoint', () => {
  it('accepts a first visible frame above the initial seq and revision, and continues across gaps', () => {
    const states = seedExample();
    const recovered = acceptCheckpoint(null, wire(states[2]!));
    expect(recovered).toMatchObject({ seq: 3, revision: 2, revisionSeq: 3, frames: 1, status: 'streaming' });
    expect(recovered.document).toEqual(states[2]!.document);
    const completed = acceptCheckpoint(recovered, wire(states[4]!));
    expect(completed).toMatchObject({ seq: 5, revision: 3, revisionSeq: 5, frames: 2, status: 'completed' });
    expect(completed.document).toEqual(states[4]!.document);
  });

  it('accepts a terminal frame as the first visible one', () => {
    const recovered = acceptCheckpoint(null, wire(seedExample()[4]!));
    expect(recovered).toMatchObject({ status: 'completed', seq: 5, revision: 3 });
  });

  it('allows a node to change type across a gap (it may have been removed and added again)', () => {
    const receiver = acceptCheckpoint(null, wire(seedExample()[1]!));
    const frame = nextFrame(
      receiver,
      (snapshot) =>
        (snapshot.root.children[1] = { id: 'assumptions', type: 'Markdown', props: { text: 'x' } }),
      { seq: 4, baseRevision: 2, revision: 3 },
    );
    expect(acceptCheckpoint(receiver, frame).seq).toBe(4);
    const consecutive = nextFrame(
      receiver,
      (snapshot) =>
        (snapshot.root.children[1] = { id: 'assumptions', type: 'Markdown', props: { text: 'x' } }),
    );
    expectIssue(
      () => acceptCheckpoint(receiver, consecutive),
      'snapshot.root.children[1].type',
      'invalid_value',
    );
  });
});
