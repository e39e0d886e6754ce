/**
 * Component streaming (seed 002 §12): terminal frames end the generation, keeping its last valid snapshot, and
 * the budget reservation refuses a patch but always leaves room for the terminal frame.
 */
import { describe, expect, it } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import { expectIssue, initial, type J, mutations, nextFrame, wire } from '../../test/stream.js';
import { UIStreamError } from '../errors/errors.js';
import { UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import {
  acceptCheckpoint,
  advanceUIStream,
  startUIStream,
  UI_STREAM_RESERVE,
  type UIStreamState,
} from './stream.js';

describe('terminal frames end the generation', () => {
  it.each([
    ['complete', 'completed'],
    ['cancel', 'cancelled'],
    ['error', 'failed'],
  ] as const)('%s keeps the last valid snapshot and marks the state %s', (type, status) => {
    const opened = startUIStream(initial(), 'call-open-1', 3);
    const added = advanceUIStream(opened, mutations()[0]);
    const ended = advanceUIStream(added, { type, message: `${type} by the host` });
    expect(ended).toMatchObject({ status, seq: 3, revision: 1, revisionSeq: 2 });
    expect(ended.document).toBe(added.document);
    expect(ended.checkpoint).toMatchObject({
      type,
      message: `${type} by the host`,
      baseRevision: 1,
      revision: 1,
    });

    expectIssue(() => advanceUIStream(ended, mutations()[1]), '$', 'invalid_value');
    expectIssue(() => advanceUIStream(ended, { type: 'complete' }), '$', 'invalid_value');

    const receiver = acceptCheckpoint(acceptCheckpoint(null, wire(added)), wire(ended));
    expect(receiver.status).toBe(status);
    expect(receiver.document).toEqual(added.document);
    const later = nextFrame(receiver, (snapshot) => (snapshot.title = 'Later'), {
      baseRevision: 1,
      revision: 2,
    });
    expectIssue(() => acceptCheckpoint(receiver, later), 'seq', 'invalid_value');
    // Duplicates of what was accepted still come back as the same state.
    expect(acceptCheckpoint(receiver, wire(ended))).toBe(receiver);
  });
});

describe('budgets and the terminal reservation', () => {
  it('refuses the 256th frame for a patch but still lets the generation complete', () => {
    let state = startUIStream(initial(), 'call-open-1', 1);
    const titles = ['Projected', 'Projection'];
    for (let step = 0; state.seq < UI_PROTOCOL_LIMITS.maxStreamFrames - UI_STREAM_RESERVE.frames; step++)
      state = advanceUIStream(state, {
        type: 'update',
        nodeId: 'summary',
        props: { title: titles[step % 2] },
      });
    expect(state.seq).toBe(255);
    const patch = { type: 'update', nodeId: 'summary', props: { title: 'One more' } };
    expectIssue(() => advanceUIStream(state, patch), '$', 'too_many');
    const completed = advanceUIStream(state, { type: 'complete' });
    expect(completed).toMatchObject({ seq: 256, status: 'completed', frames: 256 });
    expect(completed.digests).toHaveLength(256);

    // A receiver applies the same reservation.
    const frame = nextFrame(state, () => {}, { seq: 256, revision: 255, baseRevision: 254 });
    expectIssue(() => acceptCheckpoint(null, frame), 'seq', 'too_many');
    expect(acceptCheckpoint(null, wire(completed)).status).toBe('completed');
  });

  it('refuses a patch that would leave less than one maximum frame of bytes, and completes after it', () => {
    const document = buildMaxDocument();
    const cards = (document.root as J).children as J[];
    let state = startUIStream(document, 'call-open-1', 1);
    const frames = [wire(state)];
    let refused: UIStreamError | undefined;
    for (let step = 0; refused === undefined; step++) {
      const card = cards[step % cards.length];
      const title =
        Math.floor(step / cards.length) % 2 === 0 ? card.props.title.toLowerCase() : card.props.title;
      try {
        state = advanceUIStream(state, { type: 'update', nodeId: card.id, props: { title, gap: 'md' } });
        frames.push(wire(state));
      } catch (error) {
        refused = error as UIStreamError;
      }
    }
    expect(refused).toBeInstanceOf(UIStreamError);
    expect(refused.issues[0]).toMatchObject({ path: '$', code: 'too_large' });
    expect(state.bytes + UI_STREAM_RESERVE.bytes).toBeLessThanOrEqual(UI_PROTOCOL_LIMITS.maxStreamBytes);
    const completed = advanceUIStream(state, { type: 'complete' });
    expect(completed.status).toBe('completed');
    expect(completed.bytes).toBeLessThanOrEqual(UI_PROTOCOL_LIMITS.maxStreamBytes);
    expect(completed.seq).toBeLessThan(UI_PROTOCOL_LIMITS.maxStreamFrames);

    // The receiver counts the same bytes and accepts every frame, the terminal one included.
    let receiver: UIStreamState | null = null;
    for (const frame of [...frames, wire(completed)]) receiver = acceptCheckpoint(receiver, frame);
    expect(receiver).toMatchObject({ status: 'completed', bytes: completed.bytes, frames: completed.frames });
  }, 60_000);
});
