/**
 * Mutations and terminal intents (seed 002 §12 "候选树与稳定状态"): the event's own shape and target errors
 * point at the event's fields; a candidate that `parseDocument` rejects keeps the document's paths; a failure
 * never changes the state it was given.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import mutationsFixture from '../../fixtures/stream-mutations.json' with { type: 'json' };
import { clone, thrownBy } from '../../test/utils.js';
import { UIStreamError } from '../errors/errors.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS } from './checkpoint.js';
import { UIStreamEventSchema, UIStreamMutationSchema } from './mutation.js';
import { advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build events as plain JSON.
type J = any;

const opened = (): UIStreamState => startUIStream(clone(initialFixture), 'call-open-1', 1);
const text = (id: string, value = 'Hello'): J => ({ id, type: 'Text', props: { text: value } });
const add = (node: J, parentId = 'summary', index = 1): J => ({ type: 'add', parentId, index, node });

/** A Column chain `depth` levels deep (the outermost included). */
function chain(depth: number): J {
  let current: J = text('leaf');
  for (let level = depth; level >= 1; level--)
    current = { id: `level${level}`, type: 'Column', props: {}, children: [current] };
  return current;
}

interface Row {
  readonly rule: string;
  readonly event: J;
  readonly path: string;
  readonly code: string;
}

const EVENT_SHAPE: Row[] = [
  {
    rule: 'the event type is known',
    event: { type: 'move', nodeId: 'loading' },
    path: 'type',
    code: 'invalid_value',
  },
  { rule: 'an event is an object', event: 'remove loading', path: '$', code: 'invalid_type' },
  {
    rule: 'add needs a node',
    event: { type: 'add', parentId: 'summary', index: 0 },
    path: 'node',
    code: 'missing_property',
  },
  {
    rule: 'add index is at least 0',
    event: add(text('t'), 'summary', -1),
    path: 'index',
    code: 'number_out_of_range',
  },
  {
    rule: 'add index is below the component limit',
    event: add(text('t'), 'summary', UI_LIMITS.maxComponents),
    path: 'index',
    code: 'number_out_of_range',
  },
  {
    rule: 'add index is an integer',
    event: add(text('t'), 'summary', 0.5),
    path: 'index',
    code: 'invalid_type',
  },
  {
    rule: 'parentId is an identifier',
    event: add(text('t'), '__proto__'),
    path: 'parentId',
    code: 'invalid_value',
  },
  {
    rule: 'the node has a known component type',
    event: add({ id: 'x', type: 'Panel', props: {} }),
    path: 'node.type',
    code: 'invalid_value',
  },
  {
    rule: 'node props are closed',
    event: add({ id: 'x', type: 'Text', props: { text: 'a', color: 'red' } }),
    path: 'node.props',
    code: 'unknown_property',
  },
  { rule: 'the node id is an identifier', event: add(text('1x')), path: 'node.id', code: 'invalid_value' },
  {
    rule: 'an event is closed',
    event: { type: 'remove', nodeId: 'loading', path: 'root' },
    path: '$',
    code: 'unknown_property',
  },
  {
    rule: 'update needs props',
    event: { type: 'update', nodeId: 'loading' },
    path: 'props',
    code: 'missing_property',
  },
  {
    rule: 'update props is an object',
    event: { type: 'update', nodeId: 'loading', props: [] },
    path: 'props',
    code: 'invalid_type',
  },
  {
    rule: 'update cannot carry children',
    event: { type: 'update', nodeId: 'summary', props: {}, children: [] },
    path: '$',
    code: 'unknown_property',
  },
  {
    rule: 'update cannot change the type',
    event: { type: 'update', nodeId: 'loading', type2: 'Text', props: {} },
    path: '$',
    code: 'unknown_property',
  },
  { rule: 'remove needs a node id', event: { type: 'remove' }, path: 'nodeId', code: 'missing_property' },
  {
    rule: 'a terminal message is at most 512 characters',
    event: { type: 'cancel', message: 'm'.repeat(UI_STREAM_LIMITS.maxMessageLength + 1) },
    path: 'message',
    code: 'string_too_long',
  },
  {
    rule: 'an event is at most maxStreamMutationBytes',
    event: add({
      id: 'md',
      type: 'Markdown',
      props: { text: 'x'.repeat(UI_PROTOCOL_LIMITS.maxStreamMutationBytes) },
    }),
    path: '$',
    code: 'too_large',
  },
];

const TARGET: Row[] = [
  {
    rule: 'add names an existing parent',
    event: add(text('t'), 'nowhere'),
    path: 'parentId',
    code: 'unknown_reference',
  },
  {
    rule: 'add names a layout parent',
    event: add(text('t'), 'loading', 0),
    path: 'parentId',
    code: 'children_not_allowed',
  },
  {
    rule: "add index is at most the parent's child count",
    event: add(text('t'), 'summary', 2),
    path: 'index',
    code: 'number_out_of_range',
  },
  {
    rule: 'update names an existing node',
    event: { type: 'update', nodeId: 'nowhere', props: {} },
    path: 'nodeId',
    code: 'unknown_reference',
  },
  {
    rule: 'remove names an existing node',
    event: { type: 'remove', nodeId: 'nowhere' },
    path: 'nodeId',
    code: 'unknown_reference',
  },
  {
    rule: 'remove never removes the root',
    event: { type: 'remove', nodeId: 'root' },
    path: 'nodeId',
    code: 'invalid_value',
  },
];

const CANDIDATE: Row[] = [
  {
    rule: 'ids stay unique',
    event: add(text('assumptions')),
    path: 'root.children[1].id',
    code: 'duplicate_id',
  },
  {
    rule: 'structured_ui takes no inputs',
    event: add({ id: 'rateInput', type: 'NumberInput', props: { label: 'Rate', bind: 'rate' } }),
    path: 'root.children[0].children[1].type',
    code: 'input_not_allowed',
  },
  {
    rule: 'references exist',
    event: add({ id: 'r', type: 'Result', props: { value: { expr: { derived: 'missing' } } } }),
    path: 'root.children[0].children[1].props.value.expr.derived',
    code: 'unknown_reference',
  },
  {
    rule: 'expressions are well typed',
    event: add({
      id: 'r',
      type: 'Result',
      props: { value: { expr: { op: 'not', args: [{ state: 'rate' }] } } },
    }),
    path: 'root.children[0].children[1].props.value.expr.args[0]',
    code: 'type_mismatch',
  },
  {
    rule: 'update props fit the component',
    event: { type: 'update', nodeId: 'loading', props: { label: 'Busy', text: 'x' } },
    path: 'root.children[0].children[0].props',
    code: 'unknown_property',
  },
  {
    rule: 'update props keep required properties',
    event: { type: 'update', nodeId: 'assumptions', props: {} },
    path: 'root.children[1].props.text',
    code: 'missing_property',
  },
  {
    rule: 'nesting stays within 16 levels',
    event: add(chain(UI_LIMITS.maxDepth)),
    // The root is depth 1 and the Card depth 2, so the chain's 15th Column is the first past depth 16.
    path: `root.children[0].children[1]${'.children[0]'.repeat(UI_LIMITS.maxDepth - 2)}`,
    code: 'too_deep',
  },
  {
    rule: 'text stays within the string limit',
    event: {
      type: 'update',
      nodeId: 'assumptions',
      props: { text: 'x'.repeat(UI_LIMITS.maxStringLength + 1) },
    },
    path: 'root.children[1].props.text',
    code: 'string_too_long',
  },
];

const rejection = (state: UIStreamState, event: unknown): UIStreamError =>
  thrownBy(UIStreamError, () => advanceUIStream(state, event));

describe.each([
  ['the event shape', EVENT_SHAPE],
  ['the mutation target', TARGET],
  ['the candidate document', CANDIDATE],
])('%s', (_group, rows) => {
  it.each(rows)('$rule', ({ event, path, code }) => {
    const state = opened();
    const error = rejection(state, event);
    expect(error.issues).toContainEqual(expect.objectContaining({ path, code }));
    // The state is untouched and still advances.
    expect(state.seq).toBe(1);
    expect(advanceUIStream(state, clone(mutationsFixture)[0]).seq).toBe(2);
  });
});

describe('the whole candidate budget', () => {
  it('rejects the add that would take the document past 262,144 bytes, at the document path $', () => {
    let state = opened();
    let error: UIStreamError | undefined;
    for (let index = 0; error === undefined; index++) {
      const markdown = {
        id: `md${index}`,
        type: 'Markdown',
        props: { text: 'x'.repeat(UI_LIMITS.maxMarkdownLength) },
      };
      try {
        state = advanceUIStream(state, add(markdown, 'root', 0));
      } catch (caught) {
        error = caught as UIStreamError;
      }
    }
    expect(error).toBeInstanceOf(UIStreamError);
    expect(error.issues[0]).toMatchObject({ path: '$', code: 'too_large' });
    expect(state.revision).toBe(UI_LIMITS.maxDocumentBytes / UI_LIMITS.maxMarkdownLength - 1);
  });

  it('rejects the add that would pass 200 components, at root', () => {
    let state = opened();
    // The opening document has 4 nodes: root, summary, loading, assumptions.
    const room = UI_LIMITS.maxComponents - 4;
    for (let index = 0; index < room; index++)
      state = advanceUIStream(state, add(text(`t${index}`), 'root', 0));
    const error = rejection(state, add(text('one_more'), 'root', 0));
    expect(error.issues[0]).toMatchObject({ path: 'root', code: 'too_many' });
  });
});

describe('valid mutations', () => {
  it('adds at the first and last positions, into an empty layout, and a whole subtree', () => {
    let state = opened();
    state = advanceUIStream(state, add(text('first'), 'summary', 0));
    state = advanceUIStream(state, add(text('last'), 'summary', 2));
    state = advanceUIStream(state, add({ id: 'box', type: 'Row', props: {}, children: [] }, 'root', 2));
    state = advanceUIStream(state, add(chain(3), 'box', 0));
    const summary = (state.document.root as J).children[0];
    expect(summary.children.map((child: J) => child.id)).toEqual(['first', 'loading', 'last']);
    expect((state.document.root as J).children[2].children[0].id).toBe('level1');
    expect(state).toMatchObject({ seq: 5, revision: 4 });
  });

  it('removes a subtree with its descendants, so their ids may be used again', () => {
    let state = opened();
    state = advanceUIStream(state, { type: 'remove', nodeId: 'summary' });
    expect((state.document.root as J).children.map((child: J) => child.id)).toEqual(['assumptions']);
    state = advanceUIStream(state, add(text('loading'), 'root', 0));
    expect((state.document.root as J).children[0]).toEqual(text('loading'));
  });

  it('update replaces props wholesale and keeps id, type and children', () => {
    const state = advanceUIStream(opened(), { type: 'update', nodeId: 'summary', props: {} });
    expect((state.document.root as J).children[0]).toEqual({
      id: 'summary',
      type: 'Card',
      props: {},
      children: [{ id: 'loading', type: 'Loading', props: { label: 'Computing the projection' } }],
    });
  });

  it('carries a terminal message into the frame', () => {
    const state = advanceUIStream(opened(), { type: 'error', message: 'The model stopped.' });
    expect(state.checkpoint).toMatchObject({ type: 'error', message: 'The model stopped.' });
    expect(state.status).toBe('failed');
  });

  it('does not modify or freeze the event it is given', () => {
    const event = add({ id: 'r', type: 'Result', props: { value: { expr: { derived: 'total' } } } });
    const copy = clone(event);
    advanceUIStream(opened(), event);
    expect(event).toEqual(copy);
    expect(Object.isFrozen(event.node)).toBe(false);
    expect(Object.isFrozen(event.node.props.value)).toBe(false);
  });
});

describe('schemas', () => {
  it('the fixture mutations match UIStreamMutationSchema and UIStreamEventSchema', () => {
    for (const mutation of clone(mutationsFixture)) {
      expect(UIStreamMutationSchema.safeParse(mutation).success).toBe(true);
      expect(UIStreamEventSchema.safeParse(mutation).success).toBe(true);
    }
    expect(UIStreamEventSchema.safeParse({ type: 'complete' }).success).toBe(true);
    expect(UIStreamMutationSchema.safeParse({ type: 'complete' }).success).toBe(false);
  });

  it('exports as JSON Schema', () => {
    const schema = z.toJSONSchema(UIStreamEventSchema, { target: 'draft-2020-12' }) as J;
    expect(JSON.stringify(schema)).toContain('"parentId"');
  });
});
