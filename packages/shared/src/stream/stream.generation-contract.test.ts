/**
 * Component streaming (seed 002 §12): the frozen generation contract. A frame or a patch may not change the
 * version, mode, state, derived values, actions, root, a node's component type or a field's Select domain.
 */
import { describe, expect, it } from 'vitest';
import { expectIssue, initial, type J, nextFrame, node } from '../../test/stream.js';
import { acceptCheckpoint, advanceUIStream, startUIStream } from './stream.js';

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
