/**
 * Properties of component streaming (seed 002 §12): whatever the events and frames, a committed snapshot is
 * always a document `parseDocument` accepts and the generation contract holds; nothing but `UIStreamError` is
 * ever thrown; and a receiver given a producer's frames in any order, with duplicates, never fails and shows
 * the newest frame it saw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import { clone, expectBoundedError, expectDeepFrozen } from '../../test/utils.js';
import { parseDocument } from '../dsl/document.js';
import type { UIDocument, UINode } from '../dsl/types.js';
import { UIStreamError } from '../errors/errors.js';
import { jsonEqual } from '../json/equal.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

// biome-ignore lint/suspicious/noExplicitAny: events and frames are arbitrary JSON on purpose.
type J = any;

/** An interactive document with two Select fields, an Input, layouts and derived values. */
const interactive = (): J => ({
  version: '1.1',
  id: 'picker',
  mode: 'interactive_ui',
  title: 'Picker',
  state: {
    plan: { type: 'string', initial: 'basic' },
    size: { type: 'string', initial: 's' },
    tier: { type: 'string', initial: 'a' },
    note: { type: 'string', initial: '' },
    seats: { type: 'number', initial: 1, min: 1, max: 50, step: 1 },
  },
  derived: { doubled: { op: 'mul', args: [{ state: 'seats' }, 2] } },
  actions: { ask: { kind: 'agent', prompt: 'Explain.' } },
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
          select('plan1', 'plan', ['basic', 'pro']),
          select('size1', 'size', ['s', 'm']),
          { id: 'noteInput', type: 'Input', props: { label: 'Note', bind: 'note' } },
        ],
      },
      { id: 'row', type: 'Row', props: {}, children: [] },
      { id: 'total', type: 'Result', props: { value: { expr: { derived: 'doubled' } } } },
    ],
  },
});

function select(id: string, bind: string, values: string[]): J {
  return {
    id,
    type: 'Select',
    props: { label: id, bind, options: values.map((value) => ({ label: value, value })) },
  };
}

const IDS = [
  'root',
  'form',
  'plan1',
  'size1',
  'noteInput',
  'row',
  'total',
  'n0',
  'n1',
  'n2',
  'card0',
  'missing',
];
/** Mostly fresh ids (valid adds), sometimes existing or unknown ones (duplicates, bad targets). */
const id = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'card0', 'card1') },
  { weight: 1, arbitrary: fc.constantFrom(...IDS) },
);
const targetId = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('root', 'form', 'row', 'card0', 'card1') },
  { weight: 2, arbitrary: fc.constantFrom(...IDS) },
);
const text = fc.string({ maxLength: 12 });

const nodeArbitrary: fc.Arbitrary<J> = fc.oneof(
  fc.record({ id, type: fc.constant('Text'), props: fc.record({ text }) }),
  fc.record({ id, type: fc.constant('Loading'), props: fc.constant({}) }),
  fc
    .tuple(
      id,
      fc.constantFrom('plan', 'size', 'tier', 'note', 'seats', 'nope'),
      fc.subarray(['basic', 'pro', 's', 'm', 'a'], { minLength: 1 }),
    )
    .map(([nodeId, bind, values]) => select(nodeId, bind, values)),
  fc.record({
    id,
    type: fc.constant('Input'),
    props: fc.record({ label: fc.constant('In'), bind: fc.constantFrom('note', 'plan', 'tier') }),
  }),
  fc.record({
    id,
    type: fc.constantFrom('Card', 'Row'),
    props: fc.constant({}),
    children: fc.array(fc.record({ id, type: fc.constant('Text'), props: fc.record({ text }) }), {
      maxLength: 2,
    }),
  }),
  fc.record({
    id,
    type: fc.constant('Result'),
    props: fc.record({
      value: fc.record({ expr: fc.record({ derived: fc.constantFrom('doubled', 'missing') }) }),
    }),
  }),
  fc.record({ id, type: fc.constantFrom('Panel', 'text'), props: fc.constant({}) }),
);

const propsArbitrary: fc.Arbitrary<J> = fc.oneof(
  fc.record({ text }),
  fc.record({ title: text }),
  fc.constant({}),
  fc.record({
    label: fc.constant('Plan'),
    bind: fc.constant('plan'),
    options: fc.subarray(
      [
        { label: 'B', value: 'basic' },
        { label: 'P', value: 'pro' },
        { label: 'T', value: 'team' },
      ],
      { minLength: 1 },
    ),
  }),
  fc.record({ label: fc.constant('Note'), bind: fc.constantFrom('note', 'size') }),
  fc.dictionary(fc.constantFrom('text', 'gap', 'label', 'value', 'x'), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 3,
  }),
);

const eventArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('add'),
      parentId: targetId,
      index: fc.integer({ min: -1, max: 3 }),
      node: nodeArbitrary,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ type: fc.constant('update'), nodeId: targetId, props: propsArbitrary }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('remove'), nodeId: fc.oneof(id, targetId) }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const terminalArbitrary = fc.record({ type: fc.constantFrom('complete', 'cancel', 'error') });

/** Every node of a document by id. */
function nodesOf(document: UIDocument): Map<string, UINode> {
  const nodes = new Map<string, UINode>();
  const visit = (node: UINode): void => {
    nodes.set(node.id, node);
    if ('children' in node) node.children.forEach(visit);
  };
  visit(document.root);
  return nodes;
}

/** Structural sharing: every node of `next` equal to the node of `previous` with its id is that object. */
function expectShared(previous: UIDocument, next: UIDocument): void {
  const before = nodesOf(previous);
  let kept = 0;
  for (const [nodeId, node] of nodesOf(next)) {
    const old = before.get(nodeId);
    if (old !== undefined && jsonEqual(old, node)) {
      expect(node).toBe(old);
      kept++;
    } else if (old !== undefined && jsonEqual(old.props, node.props)) expect(node.props).toBe(old.props);
  }
  if (jsonEqual(previous, next)) expect(next).toBe(previous);
  expect(kept).toBeLessThanOrEqual(before.size);
}

let committed = 0;

/** Runs the events; returns every committed state. */
function run(start: UIStreamState, events: readonly unknown[]): UIStreamState[] {
  const states = [start];
  for (const event of events) {
    const current = states.at(-1)!;
    try {
      const next = advanceUIStream(current, event);
      expect(next.seq).toBe(current.seq + 1);
      expect(next.revision - current.revision).toBe(next.status === 'streaming' ? 1 : 0);
      states.push(next);
      committed++;
    } catch (error) {
      expectBoundedError(error, UIStreamError);
    }
  }
  return states;
}

describe('advanceUIStream over random mutation sequences', () => {
  it('only ever commits snapshots parseDocument accepts, keeps the contract, and throws only UIStreamError', () => {
    fc.assert(
      fc.property(
        fc.array(eventArbitrary, { maxLength: 25 }),
        fc.option(terminalArbitrary),
        (events, end) => {
          const start = startUIStream(interactive(), 'call', 1);
          for (const state of run(start, end === null ? events : [...events, end, ...events.slice(0, 2)])) {
            expect(parseDocument(clone(state.document))).toEqual(state.document);
            expect(state.document.state).toBe(start.document.state);
            expect(state.document.derived).toBe(start.document.derived);
            const selects = JSON.stringify(state.document).match(/"bind":"(plan|size)"/g) ?? [];
            expect(new Set(selects).size).toBe(2);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Not vacuous: a good share of the random events are valid and get committed.
    expect(committed).toBeGreaterThan(100);
  });

  it('a receiver given the frames shuffled and duplicated never fails and shows the newest seq it saw', () => {
    fc.assert(
      fc.property(
        fc.array(eventArbitrary, { maxLength: 15 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.option(terminalArbitrary),
        (events, picks, end) => {
          const states = run(
            startUIStream(interactive(), 'call', 2),
            end === null ? events : [...events, end],
          );
          const order = picks.map((pick) => states[pick % states.length]!);
          let receiver: UIStreamState | null = null;
          let newest = 0;
          for (const state of order) {
            const previous: UIStreamState | null = receiver;
            receiver = acceptCheckpoint(receiver, clone(state.checkpoint));
            expectDeepFrozen(receiver.document);
            if (previous !== null && receiver !== previous)
              expectShared(previous.document, receiver.document);
            newest = Math.max(newest, state.seq);
            expect(receiver.seq).toBe(newest);
            const source = states.find((candidate) => candidate.seq === newest)!;
            expect(receiver.document).toEqual(source.document);
            expect(receiver.status).toBe(source.status);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('arbitrary input', () => {
  const seedState = () =>
    advanceUIStream(startUIStream(clone(initialFixture), 'call', 1), { type: 'remove', nodeId: 'loading' });

  it('acceptCheckpoint and advanceUIStream throw nothing but UIStreamError', () => {
    const state = seedState();
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4, withNullPrototype: true, withObjectString: true }), (input) => {
        for (const attempt of [
          () => acceptCheckpoint(null, input),
          () => acceptCheckpoint(state, input),
          () => advanceUIStream(state, input),
        ]) {
          try {
            attempt();
          } catch (error) {
            expectBoundedError(error, UIStreamError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a valid frame with one value replaced is accepted as a valid snapshot or rejected with UIStreamError', () => {
    const opened = startUIStream(clone(initialFixture), 'call', 1);
    const state = advanceUIStream(opened, { type: 'remove', nodeId: 'loading' });
    const frame = clone(state.checkpoint) as J;
    const paths: (string | number)[][] = [];
    const walk = (value: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (typeof value === 'object' && value !== null)
        for (const [key, item] of Object.entries(value))
          walk(item, [...path, Array.isArray(value) ? Number(key) : key]);
    };
    walk(frame, []);
    fc.assert(
      fc.property(
        fc.constantFrom(...paths.filter((path) => path.length > 0)),
        fc.jsonValue({ maxDepth: 2 }),
        (path, value) => {
          const corrupted = clone(frame);
          let parent = corrupted;
          for (const segment of path.slice(0, -1)) parent = parent[segment];
          parent[path.at(-1)!] = value;
          for (const current of [null, opened]) {
            try {
              const accepted = acceptCheckpoint(current, corrupted);
              expect(parseDocument(clone(accepted.document))).toEqual(accepted.document);
            } catch (error) {
              expectBoundedError(error, UIStreamError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
