/**
 * Component streaming end to end (seed 002 §12): the seed's three-patch example, duplicates, conflicts, stale
 * and foreign frames, recovery from a later checkpoint, terminal frames, the budget reservation, the frozen
 * generation contract and structural sharing.
 */
import { describe, expect, it } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import mutationsFixture from '../../fixtures/stream-mutations.json' with { type: 'json' };
import { clone, thrownBy } from '../../test/utils.js';
import { documentIndex, parseDocument } from '../dsl/document.js';
import type { UINode } from '../dsl/types.js';
import { UIStreamError } from '../errors/errors.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { jsonByteLength } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS } from './checkpoint.js';
import {
  acceptCheckpoint,
  advanceUIStream,
  startUIStream,
  UI_STREAM_RESERVE,
  type UIStreamState,
} from './stream.js';

// biome-ignore lint/suspicious/noExplicitAny: tests build and corrupt frames as plain JSON.
type J = any;

const initial = (): J => clone(initialFixture);
const mutations = (): J[] => clone(mutationsFixture) as J[];
/** A frame as it arrives from history or the wire: fresh JSON, no shared objects with the producer. */
const wire = (state: UIStreamState): J => clone(state.checkpoint);
const FRAME_BUDGET = {
  maxBytes: UI_PROTOCOL_LIMITS.maxStreamFrameBytes,
  maxDepth: UI_LIMITS.maxJsonDepth + UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_LIMITS.maxJsonValues + UI_STREAM_LIMITS.envelopeJsonValues,
};

const rejection = (run: () => unknown): UIStreamError => thrownBy(UIStreamError, run);

function expectIssue(run: () => unknown, path: string, code: string): UIStreamError {
  const error = rejection(run);
  expect(error.issues).toContainEqual(expect.objectContaining({ path, code }));
  return error;
}

/** The seed's example: open, three patches, complete. Returns every state in order. */
function seedExample(): UIStreamState[] {
  const states = [startUIStream(initial(), 'call-open-1', 1)];
  for (const mutation of mutations()) states.push(advanceUIStream(states.at(-1)!, mutation));
  states.push(advanceUIStream(states.at(-1)!, { type: 'complete' }));
  return states;
}

/** Finds a node by id. */
function node(root: UINode, id: string): UINode | undefined {
  if (root.id === id) return root;
  if ('children' in root) {
    for (const child of root.children) {
      const found = node(child, id);
      if (found) return found;
    }
  }
  return undefined;
}

/** A consecutive frame after `state` with the snapshot changed by `edit`, as a receiver would get it. */
function nextFrame(state: UIStreamState, edit: (snapshot: J) => void, overrides: J = {}): J {
  const frame = wire(state);
  edit(frame.snapshot);
  return {
    ...frame,
    seq: state.seq + 1,
    baseRevision: state.revision,
    revision: state.revision + 1,
    type: 'update',
    ...overrides,
  };
}

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

describe('the frozen generation contract', () => {
  /** An interactive 1.1 document with Selects, an Input, a spare string field, derived values and actions. */
  const contractDocument = (): J => ({
    version: '1.1',
    id: 'plan_picker',
    mode: 'interactive_ui',
    title: 'Pick a plan',
    state: {
      plan: { type: 'string', initial: 'basic' },
      tier: { type: 'string', initial: 'a' },
      note: { type: 'string', initial: '' },
      seats: { type: 'number', initial: 1, min: 1, max: 50, step: 1 },
    },
    derived: { doubled: { op: 'mul', args: [{ state: 'seats' }, 2] } },
    actions: { ask: { kind: 'agent', prompt: 'Explain the plans.' } },
    root: {
      id: 'root',
      type: 'Column',
      props: {},
      children: [
        {
          id: 'form',
          type: 'Card',
          props: { title: 'Plan' },
          children: [
            {
              id: 'plan1',
              type: 'Select',
              props: {
                label: 'Plan',
                bind: 'plan',
                options: [
                  { label: 'Basic', value: 'basic' },
                  { label: 'Pro', value: 'pro' },
                ],
              },
            },
            { id: 'label', type: 'Text', props: { text: 'Seats' } },
            { id: 'noteInput', type: 'Input', props: { label: 'Note', bind: 'note' } },
          ],
        },
      ],
    },
  });
  const secondSelect = (
    options = [
      { label: 'Professional', value: 'pro' },
      { label: 'Basic', value: 'basic' },
    ],
  ) => ({
    id: 'plan2',
    type: 'Select',
    props: { label: 'Plan again', bind: 'plan', options },
  });
  const opened = () => startUIStream(contractDocument(), 'call-open-1', 1);

  const REJECTED: [string, (snapshot: J) => void, string, string][] = [
    [
      'the version',
      (s) => {
        s.version = '1.0';
        delete s.actions;
      },
      'snapshot.version',
      'invalid_value',
    ],
    ['a state definition', (s) => (s.state.plan.maxLength = 10), 'snapshot.state.plan', 'invalid_value'],
    [
      'the state fields',
      (s) => (s.state.extra = { type: 'boolean', initial: true }),
      'snapshot.state.extra',
      'invalid_value',
    ],
    ['a derived field', (s) => (s.derived.doubled.args[1] = 3), 'snapshot.derived.doubled', 'invalid_value'],
    ['an action', (s) => (s.actions.ask.prompt = 'Other'), 'snapshot.actions.ask', 'invalid_value'],
    ['the root id', (s) => (s.root.id = 'root2'), 'snapshot.root.id', 'invalid_value'],
    ['the root type', (s) => (s.root.type = 'Row'), 'snapshot.root.type', 'invalid_value'],
    [
      'the component type of an existing node id',
      (s) => (s.root.children[0].children[1] = { id: 'label', type: 'Badge', props: { text: 'Seats' } }),
      'snapshot.root.children[0].children[1].type',
      'invalid_value',
    ],
    [
      'the option values of a field with one Select',
      (s) => s.root.children[0].children[0].props.options.push({ label: 'Team', value: 'team' }),
      'snapshot.root.children[0].children[0].props.options',
      'select_domain_conflict',
    ],
    [
      'the domain of a field without Select (a new Select)',
      (s) =>
        s.root.children[0].children.push({
          id: 'tierSelect',
          type: 'Select',
          props: { label: 'Tier', bind: 'tier', options: [{ label: 'A', value: 'a' }] },
        }),
      'snapshot.root.children[0].children[3].props.options',
      'select_domain_conflict',
    ],
    [
      'the domain of a field by removing its last Select',
      (s) => s.root.children[0].children.splice(0, 1),
      'snapshot.state.plan',
      'select_domain_conflict',
    ],
  ];

  it.each(REJECTED)('rejects a frame that changes %s', (_name, edit, path, code) => {
    const state = opened();
    expectIssue(() => acceptCheckpoint(state, nextFrame(state, edit)), path, code);
  });

  it('rejects a frame that changes the mode', () => {
    const state = startUIStream(initial(), 'call-open-1', 1);
    const frame = nextFrame(state, (snapshot) => (snapshot.mode = 'interactive_ui'));
    expectIssue(() => acceptCheckpoint(state, frame), 'snapshot.mode', 'invalid_value');
  });

  it('accepts a new Select that reuses the field option set, and removing one of two Selects', () => {
    const state = opened();
    const withTwo = acceptCheckpoint(
      state,
      nextFrame(state, (snapshot) => snapshot.root.children[0].children.push(secondSelect())),
    );
    expect(node(withTwo.document.root, 'plan2')).toBeDefined();
    const withOne = acceptCheckpoint(
      withTwo,
      nextFrame(withTwo, (snapshot) => snapshot.root.children[0].children.splice(0, 1)),
    );
    expect(node(withOne.document.root, 'plan1')).toBeUndefined();
    // A document title and node props outside the contract may change.
    const retitled = acceptCheckpoint(
      withOne,
      nextFrame(withOne, (snapshot) => (snapshot.title = 'Plans')),
    );
    expect(retitled.document.title).toBe('Plans');
  });

  it.each([
    [
      'adding a Select to a field without one',
      {
        type: 'add',
        parentId: 'form',
        index: 3,
        node: {
          id: 'tierSelect',
          type: 'Select',
          props: { label: 'Tier', bind: 'tier', options: [{ label: 'A', value: 'a' }] },
        },
      },
      'root.children[0].children[3].props.options',
    ],
    [
      'updating the options of the only Select of a field',
      {
        type: 'update',
        nodeId: 'plan1',
        props: { label: 'Plan', bind: 'plan', options: [{ label: 'Basic', value: 'basic' }] },
      },
      'root.children[0].children[0].props.options',
    ],
    ['removing the last Select of a field', { type: 'remove', nodeId: 'plan1' }, 'state.plan'],
  ])('advanceUIStream rejects %s at the candidate path', (_name, mutation, path) => {
    const state = opened();
    expectIssue(() => advanceUIStream(state, mutation), path, 'select_domain_conflict');
  });

  it('advanceUIStream accepts a new Select that reuses the option set, then removing the first one', () => {
    const state = opened();
    const added = advanceUIStream(state, { type: 'add', parentId: 'form', index: 1, node: secondSelect() });
    const removed = advanceUIStream(added, { type: 'remove', nodeId: 'plan1' });
    expect(node(removed.document.root, 'plan2')).toBeDefined();
  });

  it('a Select bound to a field with an Input is still rejected by parseDocument (a candidate path)', () => {
    const state = opened();
    const mutation = {
      type: 'add',
      parentId: 'form',
      index: 0,
      node: {
        id: 'noteSelect',
        type: 'Select',
        props: { label: 'Note', bind: 'note', options: [{ label: 'Empty', value: '' }] },
      },
    };
    expectIssue(
      () => advanceUIStream(state, mutation),
      'root.children[0].children[3].props.bind',
      'select_domain_conflict',
    );
  });
});

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

describe('inputs that are not stream states', () => {
  it.each([
    ['a copy of a state', () => ({ ...startUIStream(initial(), 'call', 1) })],
    ['null as current for advance', () => null],
    ['a plain object', () => ({ seq: 1 })],
  ])('rejects %s', (_name, make) => {
    const current = make() as UIStreamState;
    expectIssue(() => advanceUIStream(current, { type: 'complete' }), '$', 'invalid_value');
    if (current !== null)
      expectIssue(
        () => acceptCheckpoint(current, wire(startUIStream(initial(), 'call', 1))),
        '$',
        'invalid_value',
      );
  });

  it('rejects an invalid opening document at its own paths, and a bad binding', () => {
    const document = initial();
    document.root.children[0].type = 'Panel';
    expectIssue(() => startUIStream(document, 'call', 1), 'root.children[0].type', 'unknown_component');
    expectIssue(() => startUIStream(initial(), '', 1), 'sourceCallId', 'string_too_short');
    expectIssue(() => startUIStream(initial(), 'x'.repeat(257), 1), 'sourceCallId', 'string_too_long');
    expectIssue(() => startUIStream(initial(), 'call\n', 1), 'sourceCallId', 'invalid_value');
    expectIssue(() => startUIStream(initial(), 'call', 0), 'generation', 'number_out_of_range');
    expectIssue(() => startUIStream(initial(), 'call', 1_000_000_001), 'generation', 'number_out_of_range');
    expect(startUIStream(initial(), '~'.repeat(256), 1_000_000_000).generation).toBe(1_000_000_000);
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
