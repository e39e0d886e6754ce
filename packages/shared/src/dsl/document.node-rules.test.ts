/**
 * The rule corpus of `parseDocument` for nodes (seed 002 §2, §13): node keys, children and props per component,
 * unique ids, identifiers, and the component count, nesting depth and Form nesting limits. One row per rule:
 * invalid rows assert the issue's `code` and exact `path` (PATHS.md); valid rows pin the edges. The base document,
 * its builders and the runner are in test/document-rules.ts.
 */
import {
  BASE_ACTIONS,
  BASE_STATE,
  C,
  card,
  column,
  describeRuleCorpus,
  doc,
  doc11,
  form,
  INJECTED_KEY,
  issue,
  type J,
  mutate,
  node,
  omit,
  one,
  repeat,
  ruleCorpus,
  setOwn,
  text,
  VALID_NODES,
  withDerived,
  withState,
} from '../../test/document-rules.js';
import { clone } from '../../test/utils.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

/** Required props per component, as listed in seed 002 §5 (independent of catalog.ts on purpose). */
const REQUIRED_PROPS: Record<string, string[]> = {
  Text: ['text'],
  Heading: ['text'],
  Markdown: ['text'],
  Row: [],
  Column: [],
  Grid: [],
  Card: [],
  Badge: ['text'],
  Table: ['columns', 'rows'],
  Progress: ['value'],
  Chart: ['kind', 'data'],
  Input: ['label', 'bind'],
  NumberInput: ['label', 'bind'],
  Select: ['label', 'bind', 'options'],
  Button: ['label', 'action'],
  Slider: ['label', 'bind'],
  Checkbox: ['label', 'bind'],
  Form: ['submitLabel', 'action'],
  Loading: [],
  Error: ['message'],
  Result: ['value'],
};

const LAYOUTS = ['Row', 'Column', 'Grid', 'Card', 'Form'];
const INPUTS = ['Input', 'NumberInput', 'Select', 'Button', 'Slider', 'Checkbox', 'Form'];
const FORBIDDEN_IDENTIFIERS = ['__proto__', 'prototype', 'constructor'];

/** A chain of nested Columns whose innermost Text sits at `depth` (the root is depth 1). */
function chain(depth: number): J {
  let current: J = text(`leaf${depth}`);
  for (let level = depth - 1; level >= 1; level -= 1) current = column(`level${level}`, [current]);
  return current;
}

// ---------------------------------------------------------------------------------------------------------
// §2 Nodes
// ---------------------------------------------------------------------------------------------------------

for (const key of ['id', 'type', 'props']) {
  reject(
    `§2 node field "${key}" is required`,
    () => doc([omit(text('t'), key)]),
    issue('missing_property', `${C(0)}.${key}`),
  );
}
reject(
  '§2 props: {} is required even with no properties',
  () => doc([omit(node('Loading', 'l'), 'props')]),
  issue('missing_property', `${C(0)}.props`),
);
accept('§2 props: {} for a component without properties', () => doc([node('Loading', 'l', {})]));
reject(
  '§2 props must be an object',
  () => doc([mutate(text('t'), (n) => (n.props = ['hello']))]),
  issue('invalid_type', `${C(0)}.props`),
);
reject(
  '§2 an unknown node field (name not echoed)',
  () => doc([mutate(text('t'), (n) => (n[INJECTED_KEY] = 1))]),
  issue('unknown_property', C(0)),
);
reject(
  '§2 an unknown component',
  () => doc([node('Video', 'v', {})]),
  issue('unknown_component', `${C(0)}.type`),
);
reject(
  '§2 a wrongly cased component ("text")',
  () => doc([node('text', 't', { text: 'x' })]),
  issue('unknown_component', `${C(0)}.type`),
);
reject(
  '§2 an unknown root component',
  () => doc([], { root: node('Page', 'page', {}, []) }),
  issue('unknown_component', 'root.type'),
);
reject(
  '§2 a wrongly cased node field ("Props")',
  () => doc([mutate(omit(text('t'), 'props'), (n) => (n.Props = { text: 'x' }))]),
  issue('unknown_property', C(0)),
  issue('missing_property', `${C(0)}.props`),
);
for (const type of Object.keys(VALID_NODES)) {
  if (LAYOUTS.includes(type)) {
    reject(
      `§2 ${type} requires children`,
      () => doc([omit(VALID_NODES[type]!(), 'children')]),
      issue('children_required', `${C(0)}.children`),
    );
    accept(`§2 ${type} accepts an empty children array`, () => doc([VALID_NODES[type]!()]));
  } else {
    reject(
      `§2 ${type} cannot carry children, even empty`,
      () => doc([mutate(VALID_NODES[type]!(), (n) => (n.children = []))]),
      issue('children_not_allowed', `${C(0)}.children`),
    );
  }
  reject(
    `§5 ${type} props are closed (unknown name not echoed)`,
    () => doc([mutate(VALID_NODES[type]!(), (n) => (n.props[INJECTED_KEY] = 'x'))]),
    issue('unknown_property', `${C(0)}.props`),
  );
  for (const key of REQUIRED_PROPS[type]!) {
    reject(
      `§5 ${type}.props.${key} is required`,
      () => doc([mutate(VALID_NODES[type]!(), (n) => delete n.props[key])]),
      issue('missing_property', `${C(0)}.props.${key}`),
    );
  }
}
reject(
  '§2 root Card without children',
  () => doc([], { root: omit(card('r'), 'children') }),
  issue('children_required', 'root.children'),
);
reject(
  '§2 children are nodes',
  () => doc([column('c', ['not a node' as J])]),
  issue('invalid_type', `${C(0, 0)}`),
);
reject(
  '§2 children must be an array',
  () => doc([mutate(column('c'), (n) => (n.children = {}))]),
  issue('invalid_type', `${C(0)}.children`),
);
reject(
  '§2 a property of another component is not applicable (Text.level)',
  () => doc([mutate(text('t'), (n) => (n.props.level = 1))]),
  issue('unknown_property', `${C(0)}.props`),
);
reject(
  '§2 a property of another component is not applicable (Slider.placeholder)',
  () => one(VALID_NODES.Slider!(), (p) => (p.placeholder = 'x')),
  issue('unknown_property', `${C(0)}.props`),
);
reject(
  '§2 an own "constructor" prop',
  () => one(text('t'), (p) => setOwn(p, 'constructor', 'x')),
  issue('unknown_property', `${C(0)}.props`),
);
reject(
  '§2 an own "__proto__" prop',
  () => one(text('t'), (p) => setOwn(p, '__proto__', { text: 'x' })),
  issue('unknown_property', `${C(0)}.props`),
);

// Unique ids
reject(
  '§2 node ids are unique (siblings: the later one)',
  () => doc([text('same'), text('same')]),
  issue('duplicate_id', `${C(1)}.id`),
);
reject(
  '§2 node ids are unique (a child repeats the root id)',
  () => doc([text('root-card')]),
  issue('duplicate_id', `${C(0)}.id`),
);
reject(
  '§2 node ids are unique across nesting',
  () => doc([column('col', [text('same')]), text('same')]),
  issue('duplicate_id', `${C(1)}.id`),
);

// Identifiers (§2): documents, nodes, state, derived, chart points, table columns, action, capability, argument, result field.
const badIdentifiers: [string, string][] = [
  ['starting with a digit', '1abc'],
  ['starting with an underscore', '_abc'],
  ['starting with a hyphen', '-abc'],
  ['with a space', 'a b'],
  ['with a dot', 'a.b'],
  ['with a non-ASCII letter', 'café'],
  ['of 65 characters', `a${repeat(64, 'b')}`],
];
for (const [why, id] of badIdentifiers) {
  reject(`§2 a node id ${why}`, () => doc([text(id)]), issue('invalid_identifier', `${C(0)}.id`));
}
reject(
  '§2 an empty node id',
  () => doc([text('')]),
  issue('invalid_identifier', `${C(0)}.id`),
  issue('string_too_short', `${C(0)}.id`),
);
reject(
  '§2 a node id must be a string',
  () => doc([text(5 as unknown as string)]),
  issue('invalid_identifier', `${C(0)}.id`),
  issue('invalid_type', `${C(0)}.id`),
);
accept('§2 identifiers of 64 characters, letters, digits, "_" and "-"', () =>
  mutate(doc([text(`a${repeat(63, 'Z')}`), text('A-b_9')]), (d) => (d.id = `Doc_${repeat(60, '9')}`)),
);
reject(
  '§2 document id of 65 characters',
  () => mutate(doc(), (d) => (d.id = `a${repeat(64)}`)),
  issue('invalid_identifier', 'id'),
);
reject(
  '§2 a state key that is not an identifier',
  () => withState({ '1n': { type: 'number', initial: 0 } }),
  issue('invalid_identifier', 'state'),
);
reject(
  '§2 a derived key that is not an identifier',
  () => withDerived({ 'a b': 1 }),
  issue('invalid_identifier', 'derived'),
);

for (const forbidden of FORBIDDEN_IDENTIFIERS) {
  reject(
    `§2 "${forbidden}" as document id`,
    () => mutate(doc(), (d) => (d.id = forbidden)),
    issue('invalid_identifier', 'id'),
  );
  reject(
    `§2 "${forbidden}" as node id`,
    () => doc([text(forbidden)]),
    issue('invalid_identifier', `${C(0)}.id`),
  );
  reject(
    `§2 "${forbidden}" as state key`,
    () => doc([], { state: setOwn(clone(BASE_STATE), forbidden, { type: 'number', initial: 0 }) }),
    issue('invalid_identifier', 'state'),
  );
  reject(
    `§2 "${forbidden}" as derived key`,
    () => doc([], { derived: setOwn({}, forbidden, 1) }),
    issue('invalid_identifier', 'derived'),
  );
  reject(
    `§2 "${forbidden}" as table column key`,
    () =>
      one(VALID_NODES.Table!(), (p) => {
        p.columns = [{ key: forbidden, label: 'X' }];
        p.rows = [setOwn({}, forbidden, 1)];
      }),
    issue('invalid_identifier', `${C(0)}.props.columns[0].key`),
  );
  reject(
    `§2 "${forbidden}" as chart point id`,
    () => one(VALID_NODES.Chart!(), (p) => (p.data[0].id = forbidden)),
    issue('invalid_identifier', `${C(0)}.props.data[0].id`),
  );
  reject(
    `§11 "${forbidden}" as action id`,
    () => doc11([], { actions: setOwn({}, forbidden, clone(BASE_ACTIONS.ask)) }),
    issue('invalid_identifier', 'actions'),
  );
  reject(
    `§11 "${forbidden}" as capability id`,
    () => mutate(doc11(), (d) => (d.actions.read_info.capabilityId = forbidden)),
    issue('invalid_identifier', 'actions.read_info.capabilityId'),
  );
  reject(
    `§11 "${forbidden}" as argument key`,
    () => mutate(doc11(), (d) => setOwn(d.actions.read_info.arguments, forbidden, 1)),
    issue('invalid_identifier', 'actions.read_info.arguments'),
  );
  reject(
    `§11 "${forbidden}" as result field name`,
    () => mutate(doc11(), (d) => (d.actions.read_info.resultMap.n = forbidden)),
    issue('invalid_identifier', 'actions.read_info.resultMap.n'),
    issue('invalid_result_map', 'actions.read_info.resultMap.n'),
  );
}

// Component count, depth, Form nesting
accept('§2 exactly 200 components', () => doc(Array.from({ length: 199 }, (_, i) => text(`t${i}`))));
reject(
  '§2 more than 200 components',
  () => doc(Array.from({ length: 200 }, (_, i) => text(`t${i}`))),
  issue('too_many', 'root'),
);
accept('§2 nesting depth exactly 16', () => doc([], { root: chain(16) }));
reject(
  '§2 nesting depth 17',
  () => doc([], { root: chain(17) }),
  issue('too_deep', `root${'.children[0]'.repeat(16)}`),
);
reject(
  '§2 Form directly inside Form',
  () => doc([form('outer', [form('inner')])]),
  issue('nested_form', `${C(0, 0)}.type`),
);
reject(
  '§2 Form inside Form through a layout',
  () => doc([form('outer', [column('col', [card('c', [form('inner')])])])]),
  issue('nested_form', `${C(0, 0, 0, 0)}.type`),
);
reject(
  '§2 a root Form containing a Form',
  () => doc([], { root: form('outer', [form('inner')]) }),
  issue('nested_form', `${C(0)}.type`),
);
accept('§2 sibling Forms are fine', () => doc([form('f1'), form('f2')]));

for (const type of INPUTS) {
  reject(
    `§2 structured_ui does not allow ${type}`,
    () => doc([VALID_NODES[type]!()], { mode: 'structured_ui' }),
    issue('input_not_allowed', `${C(0)}.type`),
  );
}
reject(
  '§2 structured_ui does not allow a nested input',
  () => doc([card('c', [column('col', [VALID_NODES.Slider!()])])], { mode: 'structured_ui' }),
  issue('input_not_allowed', `${C(0, 0, 0)}.type`),
);
accept('§2 structured_ui binds display components to state and derived', () =>
  doc(
    Object.entries(VALID_NODES)
      .filter(([type]) => !INPUTS.includes(type))
      .map(([, build]) => build()),
    { mode: 'structured_ui' },
  ),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);
