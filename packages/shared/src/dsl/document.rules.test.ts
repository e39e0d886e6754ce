/**
 * The rule corpus of `parseDocument` (seed 002 §2–§6, §9, §11, §13): one row per rule. Every invalid row is a
 * small mutation of a valid base document and asserts the issue's `code` and exact `path` (PATHS.md), not just
 * that parsing threw. Valid rows pin the edges: exact limits are accepted, one past is rejected.
 *
 * Where the seed and PATHS.md leave the code open between two readings (for example an empty list that is
 * "1–N items": too few is neither clearly `too_many` nor `invalid_value`), a row lists the alternatives it
 * accepts; the path is still exact.
 */
import { describe, expect, it } from 'vitest';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { clone, codesAndPaths, expectDeepFrozen } from '../../test/utils.js';
import { UISchemaError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import { parseDocument } from './document.js';

// biome-ignore lint/suspicious/noExplicitAny: the rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

interface Expected {
  readonly code: UIIssueCode;
  /** Exact path; a RegExp only where PATHS.md names a region rather than a value. */
  readonly path: string | RegExp;
}

interface RejectRow {
  readonly rule: string;
  readonly build: () => unknown;
  /** The issues must contain one of these (alternatives, see the file comment). */
  readonly expected: readonly Expected[];
}

interface AcceptRow {
  readonly rule: string;
  readonly build: () => unknown;
}

const REJECT: RejectRow[] = [];
const ACCEPT: AcceptRow[] = [];

function reject(rule: string, build: () => unknown, ...expected: Expected[]): void {
  REJECT.push({ rule, build, expected });
}
function accept(rule: string, build: () => unknown): void {
  ACCEPT.push({ rule, build });
}
const issue = (code: UIIssueCode, path: string | RegExp): Expected => ({ code, path });

/** A marker that must never come back in a message: injected unknown keys and rejected values use it. */
const INJECTED = 'zzInjected';
const INJECTED_KEY = `${INJECTED}Key`;

// ---------------------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------------------

/** JSON documents only: a JSON round trip keeps own `__proto__` keys as own properties. */
const size = (value: unknown): number => JSON.stringify(value).length;
const repeat = (length: number, unit = 'a'): string => unit.repeat(length);
/** `root.children[i].children[j]…` */
const C = (...indexes: number[]): string => `root${indexes.map((index) => `.children[${index}]`).join('')}`;

/** Defines an own, enumerable property even for `__proto__`, as `JSON.parse` would. */
function setOwn(target: J, key: string, value: unknown): J {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
function omit(target: J, key: string): J {
  delete target[key];
  return target;
}
function mutate(value: J, change: (value: J) => void): J {
  change(value);
  return value;
}

const st = (name: string) => ({ state: name });
const dv = (name: string) => ({ derived: name });
const op = (name: string, ...args: unknown[]) => ({ op: name, args });
const expr = (expression: unknown) => ({ expr: expression });

const BASE_STATE = {
  n: { type: 'number', initial: 10, min: 0, max: 100, step: 1 },
  free: { type: 'number', initial: 2.5 },
  s: { type: 'string', initial: 'hello', maxLength: 32 },
  plan: { type: 'string', initial: 'basic', maxLength: 8 },
  b: { type: 'boolean', initial: false },
};
const BASE_DERIVED = { double: op('mul', st('n'), 2) };
const BASE_ACTIONS = {
  read_info: {
    kind: 'tool',
    capabilityId: 'read_file',
    arguments: { file_path: expr(st('s')), limit: 20 },
    resultMap: { n: 'totalLines' },
  },
  ask: { kind: 'agent', prompt: expr(op('concat', 'Explain ', st('s'))) },
};

function node(type: string, id: string, props: J = {}, children?: J[]): J {
  return children === undefined ? { id, type, props } : { id, type, props, children };
}
const text = (id: string, value: unknown = 'hello') => node('Text', id, { text: value });
const card = (id: string, children: J[] = [], props: J = {}) => node('Card', id, props, children);
const column = (id: string, children: J[] = []) => node('Column', id, {}, children);
const form = (id: string, children: J[] = [], action: J = { type: 'reset' }) =>
  node('Form', id, { submitLabel: 'Send', action }, children);
const button = (id: string, action: J) => node('Button', id, { label: 'Go', action });
const setAction = (key: string, value: unknown) => ({ type: 'set', key, value });
const invoke = (actionId: string) => ({ type: 'invoke', actionId });
const select = (id: string, bind: string, values: string[]) =>
  node('Select', id, {
    label: 'Pick',
    bind,
    options: values.map((value) => ({ label: `Option ${value}`, value })),
  });
const PLAN_OPTIONS = ['basic', 'pro', 'team'];

interface DocOptions {
  readonly version?: '1.0' | '1.1';
  readonly mode?: string;
  readonly state?: J;
  readonly derived?: J;
  readonly actions?: J;
  readonly root?: J;
}

/** The valid base: an interactive 1.0 document whose root Card holds `nodes`. */
function doc(nodes: J[] = [], options: DocOptions = {}): J {
  const version = options.version ?? '1.0';
  const document: J = {
    version,
    id: 'rules-base',
    mode: options.mode ?? 'interactive_ui',
    title: 'Rule corpus',
    state: clone(options.state ?? BASE_STATE),
    derived: clone(options.derived ?? BASE_DERIVED),
    root: options.root ?? card('root-card', nodes),
  };
  if (version === '1.1') document.actions = clone(options.actions ?? BASE_ACTIONS);
  return document;
}
const doc11 = (nodes: J[] = [], options: DocOptions = {}): J => doc(nodes, { ...options, version: '1.1' });
const withState = (state: J, nodes: J[] = []): J => doc(nodes, { state: { ...clone(BASE_STATE), ...state } });
const withDerived = (derived: J, nodes: J[] = []): J => doc(nodes, { derived });
/** A single node at `root.children[0]`, mutated. */
const one = (component: J, change: (props: J, node: J) => void = () => {}): J =>
  doc([mutate(component, (n) => change(n.props, n))]);

/** A valid example of each of the 21 components (seed 002 §5), valid in the base state. */
const VALID_NODES: Record<string, () => J> = {
  Text: () => text('t', 'hello'),
  Heading: () => node('Heading', 'h', { text: expr(op('concat', 'Total: ', dv('double'))), level: 1 }),
  Markdown: () => node('Markdown', 'md', { text: '# Title\n\n**bold** and `code`' }),
  Row: () => node('Row', 'row', { gap: 'sm' }, []),
  Column: () => node('Column', 'col', { gap: 'lg' }, []),
  Grid: () => node('Grid', 'grid', { gap: 'md', columns: 3 }, []),
  Card: () => node('Card', 'card', { title: 'Card', gap: 'md' }, []),
  Badge: () => node('Badge', 'badge', { text: 'new', tone: 'success' }),
  Table: () =>
    node('Table', 'table', {
      columns: [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
      ],
      rows: [
        { a: 1, b: 'x' },
        { a: null, b: true },
      ],
    }),
  Progress: () => node('Progress', 'progress', { value: expr(st('n')), max: 100, label: 'Progress' }),
  Chart: () =>
    node('Chart', 'chart', {
      kind: 'line',
      data: [
        { id: 'p1', label: 'P1', value: -3 },
        { id: 'p2', label: 'P2', value: expr(st('n')) },
      ],
      label: 'Chart',
    }),
  Input: () => node('Input', 'input', { label: 'Name', bind: 's', placeholder: 'Type here' }),
  NumberInput: () => node('NumberInput', 'number', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
  Select: () => select('select', 'plan', PLAN_OPTIONS),
  Button: () => node('Button', 'button', { label: 'Go', action: { type: 'reset' }, variant: 'primary' }),
  Slider: () => node('Slider', 'slider', { label: 'N', bind: 'n' }),
  Checkbox: () => node('Checkbox', 'checkbox', { label: 'B', bind: 'b' }),
  Form: () => node('Form', 'form', { submitLabel: 'Send', action: setAction('b', true), gap: 'sm' }, []),
  Loading: () => node('Loading', 'loading', { label: 'Loading' }),
  Error: () => node('Error', 'error', { message: 'Something failed' }),
  Result: () =>
    node('Result', 'result', {
      label: 'Total',
      value: expr(dv('double')),
      format: { style: 'decimal', digits: 2 },
    }),
};

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

/** A Value that is an object without `expr` (e.g. a bare `{ state }`): the seed rejects it; the code is open. */
const bareObjectValue = (path: string): Expected[] => [
  issue('invalid_type', path),
  issue('unknown_property', path),
  issue('missing_property', `${path}.expr`),
];

/** A chain of nested Columns whose innermost Text sits at `depth` (the root is depth 1). */
function chain(depth: number): J {
  let current: J = text(`leaf${depth}`);
  for (let level = depth - 1; level >= 1; level -= 1) current = column(`level${level}`, [current]);
  return current;
}

/** `not(not(…(true)))`: an expression of the given depth (a literal alone has depth 1). */
function notChain(depth: number): J {
  let current: J = true;
  for (let level = 1; level < depth; level += 1) current = op('not', current);
  return current;
}

/** `add` of `count` zero literals: `count + 1` expression nodes. */
const zeros = (count: number): J => op('add', ...Array.from({ length: count }, () => 0));

/**
 * A document with no expression outside `derived` and exactly `2048 + extra` expression nodes in it
 * (7 × 273 + 137 = 2,048; `extra` = 1 adds one literal).
 */
function expressionBudgetDocument(extra: 0 | 1): J {
  const derived: J = {};
  for (let index = 0; index < 7; index += 1)
    derived[`e${index}`] = op('add', ...Array.from({ length: 16 }, () => zeros(16)));
  const last = Array.from({ length: 8 }, () => zeros(16));
  derived.e7 = op('add', ...(extra === 1 ? [...last, 0] : last));
  return doc([], { state: {}, derived });
}

/** A document of exactly `bytes` UTF-8 bytes (ASCII only), padded with Markdown nodes. */
function documentOfBytes(bytes: number): J {
  const count = 17;
  const build = (lengths: number[]) =>
    doc(lengths.map((length, index) => node('Markdown', `md${index}`, { text: repeat(length) })));
  const base = size(build(Array.from({ length: count }, () => 1)));
  const room = bytes - base;
  const share = Math.floor(room / count);
  const lengths = Array.from(
    { length: count },
    (_, index) => 1 + share + (index === 0 ? room - share * count : 0),
  );
  const result = build(lengths);
  if (size(result) !== bytes)
    throw new Error(`documentOfBytes: built ${size(result)} bytes, wanted ${bytes}`);
  return result;
}

function numberStates(count: number): J {
  const state: J = {};
  for (let index = 0; index < count; index += 1) state[`f${index}`] = { type: 'number', initial: 0 };
  return state;
}

// ---------------------------------------------------------------------------------------------------------
// §1–§2 The document
// ---------------------------------------------------------------------------------------------------------

accept('§2 the base 1.0 document is valid', () => doc());
accept('§2 the base 1.1 document is valid', () => doc11());
accept('§2 all 21 components in one interactive document', () =>
  doc(Object.values(VALID_NODES).map((build) => build())),
);
accept('§2 empty state and derived dictionaries', () => doc([], { state: {}, derived: {} }));

reject(
  '§1 the document must be an object, not a JSON string',
  () => JSON.stringify(doc()),
  issue('invalid_type', '$'),
  issue('invalid_json', '$'),
);
reject(
  '§1 the document must be an object, not an array',
  () => [doc()],
  issue('invalid_type', '$'),
  issue('invalid_json', '$'),
);
reject(
  '§1 the document must not be null',
  () => null,
  issue('invalid_type', '$'),
  issue('invalid_json', '$'),
);

for (const key of ['version', 'id', 'mode', 'title', 'state', 'derived', 'root']) {
  reject(`§2 document field "${key}" is required`, () => omit(doc(), key), issue('missing_property', key));
}
reject(
  '§2 version must be "1.0" or "1.1"',
  () => mutate(doc(), (d) => (d.version = '2.0')),
  issue('unsupported_version', 'version'),
);
reject(
  '§2 an unknown version is not guessed ("1.2")',
  () => mutate(doc(), (d) => (d.version = '1.2')),
  issue('unsupported_version', 'version'),
);
reject(
  '§2 version must be a string',
  () => mutate(doc(), (d) => (d.version = 1.1)),
  issue('unsupported_version', 'version'),
  issue('invalid_type', 'version'),
);
reject(
  '§2 document id must be an identifier',
  () => mutate(doc(), (d) => (d.id = '1-doc')),
  issue('invalid_identifier', 'id'),
);
reject(
  '§1 mode "text" is a plan, not a document mode',
  () => mutate(doc(), (d) => (d.mode = 'text')),
  issue('invalid_value', 'mode'),
);
reject(
  '§2 mode is one of two values (rejected value not echoed)',
  () => mutate(doc(), (d) => (d.mode = `${INJECTED}Mode`)),
  issue('invalid_value', 'mode'),
);
reject(
  '§2 title of 0 characters',
  () => mutate(doc(), (d) => (d.title = '')),
  issue('string_too_short', 'title'),
);
reject(
  '§2 title longer than 256',
  () => mutate(doc(), (d) => (d.title = repeat(257))),
  issue('string_too_long', 'title'),
);
accept('§2 title of exactly 256', () => mutate(doc(), (d) => (d.title = repeat(256))));
accept('§2 title of 1', () => mutate(doc(), (d) => (d.title = 'T')));
reject(
  '§2 title is a plain string, not a Value',
  () => mutate(doc(), (d) => (d.title = expr(st('s')))),
  issue('invalid_type', 'title'),
);
accept('§2 title length counts UTF-16 code units (128 emoji)', () =>
  mutate(doc(), (d) => (d.title = repeat(128, '😀'))),
);
reject(
  '§2 title of 129 emoji is 258 code units',
  () => mutate(doc(), (d) => (d.title = repeat(129, '😀'))),
  issue('string_too_long', 'title'),
);
reject(
  '§2 title must be a string',
  () => mutate(doc(), (d) => (d.title = 5)),
  issue('invalid_type', 'title'),
);
reject(
  '§2 state must be an object',
  () => mutate(doc(), (d) => (d.state = [])),
  issue('invalid_type', 'state'),
);
reject(
  '§2 derived must be an object',
  () => mutate(doc(), (d) => (d.derived = null)),
  issue('invalid_type', 'derived'),
);
reject(
  '§2 root must be a node object',
  () => mutate(doc(), (d) => (d.root = 'root')),
  issue('invalid_type', 'root'),
);
reject(
  '§2 more than 64 state fields',
  () => doc([], { state: numberStates(65) }),
  issue('too_many', 'state'),
);
accept('§2 exactly 64 state fields', () => doc([], { state: numberStates(64), derived: {} }));
reject(
  '§2 more than 64 derived fields',
  () => doc([], { derived: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`d${i}`, i])) }),
  issue('too_many', 'derived'),
);
accept('§2 exactly 64 derived fields', () =>
  doc([], { derived: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`d${i}`, i])) }),
);
reject(
  '§2 an unknown document field (name not echoed)',
  () => mutate(doc(), (d) => (d[INJECTED_KEY] = 1)),
  issue('unknown_property', '$'),
);
reject(
  '§2 an own "__proto__" document field',
  () => setOwn(doc(), '__proto__', { polluted: true }),
  issue('unknown_property', '$'),
);
reject(
  '§2 an own "constructor" document field',
  () => setOwn(doc(), 'constructor', 1),
  issue('unknown_property', '$'),
);
reject(
  '§2 a wrongly cased document field ("Title")',
  () => mutate(doc(), (d) => (d.Title = 'x')),
  issue('unknown_property', '$'),
);

// 1.0 / 1.1 actions
reject('§2 1.1 requires "actions"', () => omit(doc11(), 'actions'), issue('missing_property', 'actions'));
reject(
  '§2 1.0 does not allow "actions", even empty',
  () => mutate(doc(), (d) => (d.actions = {})),
  issue('actions_not_allowed', 'actions'),
);
reject(
  '§2 1.0 does not accept invoke in a Button',
  () => doc([button('go', invoke('read_info'))]),
  issue('actions_not_allowed', `${C(0)}.props.action.type`),
);
reject(
  '§2 1.0 does not accept invoke in a Form',
  () => doc([form('f', [], invoke('read_info'))]),
  issue('actions_not_allowed', `${C(0)}.props.action.type`),
);
accept('§2 1.1 with empty actions', () => doc11([], { actions: {} }));
accept('§2 1.1 keeps set and reset', () =>
  doc11([button('a', { type: 'reset' }), button('b', setAction('n', 20))], { actions: {} }),
);
reject(
  '§13 more than 16 actions',
  () =>
    doc11([], {
      actions: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`a${i}`, BASE_ACTIONS.ask])),
    }),
  issue('too_many', 'actions'),
);
accept('§13 exactly 16 actions', () =>
  doc11([], {
    actions: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`a${i}`, BASE_ACTIONS.ask])),
  }),
);
reject(
  '§2 1.1 actions must be an object',
  () => mutate(doc11(), (d) => (d.actions = [])),
  issue('invalid_type', 'actions'),
);

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
// §3 Scalar, Value, Expr
// ---------------------------------------------------------------------------------------------------------

accept('§3 Value literals: string, number, boolean, null', () =>
  doc([text('a', 'x'), text('b', 12000), text('c', true), text('d', null)]),
);
accept('§3 Value expressions: reference and operator', () =>
  doc([
    node('Result', 'r1', { value: 12000 }),
    node('Result', 'r2', { value: expr(st('n')) }),
    node('Result', 'r3', { value: expr(op('mul', st('n'), 2)) }),
  ]),
);
accept('§3 an expr may wrap a literal', () =>
  doc([text('a', expr(5)), text('b', expr(null)), text('c', expr('x'))]),
);
accept('§3 "principal * 2" is only a string', () => doc([text('t', 'principal * 2')]));
reject(
  '§3 a bare { state } is not a Value',
  () => doc([text('t', st('n'))]),
  ...bareObjectValue(`${C(0)}.props.text`),
);
reject(
  '§3 a bare { op, args } is not a Value',
  () => doc([text('t', op('concat', 'a'))]),
  ...bareObjectValue(`${C(0)}.props.text`),
);
reject(
  '§3 a Value wrapper is closed',
  () => doc([text('t', { expr: st('n'), [INJECTED_KEY]: 1 })]),
  issue('unknown_property', `${C(0)}.props.text`),
);
reject(
  '§3 a Value cannot be an array',
  () => doc([text('t', ['a'])]),
  issue('invalid_type', `${C(0)}.props.text`),
);
reject(
  '§3 an expression cannot be an array literal',
  () => withDerived({ x: [1, 2] }),
  issue('invalid_type', 'derived.x'),
);
reject(
  '§3 a string of 4,097 UTF-16 code units',
  () => doc([text('t', repeat(4097))]),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§3 a string of exactly 4,096 UTF-16 code units', () => doc([text('t', repeat(4096))]));
reject(
  '§3 string length counts UTF-16 code units (2,049 emoji)',
  () => doc([text('t', repeat(2049, '😀'))]),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§3 2,048 emoji are 4,096 code units', () => doc([text('t', repeat(2048, '😀'))]));
reject(
  '§3 a string literal inside an expression is bounded',
  () => withDerived({ x: op('concat', repeat(4097)) }),
  issue('string_too_long', 'derived.x.args[0]'),
);
accept('§3 |x| = 1e15 is allowed', () =>
  doc([node('Result', 'r', { value: 1e15 }), node('Result', 'r2', { value: -1e15 })]),
);
reject(
  '§3 a number above 1e15',
  () => doc([node('Result', 'r', { value: 1.000000000000001e15 })]),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§3 a number below -1e15',
  () => doc([node('Result', 'r', { value: -2e15 })]),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§3 a number literal inside an expression above 1e15',
  () => withDerived({ x: op('add', 1, 2e15) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
);
reject(
  '§3 a table cell above 1e15',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = 1e16)),
  issue('number_out_of_range', `${C(0)}.props.rows[0].a`),
);

// References
reject(
  '§3 a state reference must be declared',
  () => doc([text('t', expr(st('missing')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.state`),
);
reject(
  '§3 a derived reference must be declared',
  () => doc([text('t', expr(dv('missing')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.derived`),
);
reject(
  '§3 a derived reference cannot name a state field',
  () => doc([text('t', expr(dv('n')))]),
  issue('unknown_reference', `${C(0)}.props.text.expr.derived`),
);
reject(
  '§3 a state reference cannot name a derived field',
  () => withDerived({ double: op('mul', st('n'), 2), x: op('add', st('double'), 1) }),
  issue('unknown_reference', 'derived.x.args[0].state'),
);
reject(
  '§3 no property paths in references',
  () => withDerived({ x: st('s.length') }),
  issue('unknown_reference', 'derived.x.state'),
  issue('invalid_identifier', 'derived.x.state'),
);
reject(
  '§3 a reference object is closed',
  () => withDerived({ x: { state: 'n', [INJECTED_KEY]: 'x' } }),
  issue('unknown_property', 'derived.x'),
);
reject(
  '§3 an operator object is closed',
  () => withDerived({ x: { ...op('add', 1, 2), [INJECTED_KEY]: 1 } }),
  issue('unknown_property', 'derived.x'),
);
reject(
  '§3 an unknown operator',
  () => withDerived({ x: op('mod', 5, 2) }),
  issue('invalid_value', 'derived.x.op'),
);
reject(
  '§3 operator args must be an array',
  () => withDerived({ x: { op: 'add', args: 1 } }),
  issue('invalid_type', 'derived.x.args'),
);
accept('§3 derived fields may reference later ones (declaration order is free)', () =>
  withDerived({ a: op('add', dv('b'), 1), b: op('mul', st('n'), 2) }),
);
accept('§3 a derived field need not be used by a component', () =>
  withDerived({ unused: op('add', st('n'), 1) }),
);

// Arity: one row per operator
const arityViolations: [string, unknown[]][] = [
  ['add', [1]],
  ['sub', [1, 2, 3]],
  ['mul', Array.from({ length: 17 }, () => 1)],
  ['div', [1]],
  ['pow', [1, 2, 3]],
  ['min', []],
  ['max', Array.from({ length: 17 }, () => 1)],
  ['round', [1, 2, 3]],
  ['eq', [1]],
  ['lt', [1, 2, 3]],
  ['lte', [1]],
  ['gt', []],
  ['gte', [1, 2, 3]],
  ['and', [true]],
  ['or', Array.from({ length: 17 }, () => true)],
  ['not', [true, false]],
  ['if', [true, 1]],
  ['concat', []],
];
for (const [name, args] of arityViolations) {
  reject(
    `§3 ${name} with ${args.length} arguments`,
    () => withDerived({ x: op(name, ...args) }),
    issue('invalid_arity', 'derived.x.args'),
  );
}
accept('§3 arity edges: add/mul/concat with 16, min/max with 1, round with 1 and 2', () =>
  withDerived({
    add16: op('add', ...Array.from({ length: 16 }, () => 1)),
    mul16: op('mul', ...Array.from({ length: 16 }, () => 1)),
    concat16: op('concat', ...Array.from({ length: 16 }, () => 'a')),
    min1: op('min', 3),
    max1: op('max', 3),
    round1: op('round', 2.5),
    round2: op('round', 2.555, 2),
  }),
);

// Static types: one row per operator that constrains its arguments
const typeViolations: [string, unknown[], number][] = [
  ['add', [1, 'a'], 1],
  ['sub', [true, 1], 0],
  ['mul', [st('n'), st('s')], 1],
  ['div', [1, null], 1],
  ['pow', ['2', 2], 0],
  ['min', [1, st('b')], 1],
  ['max', [dv('flag'), 1], 0],
  ['round', [1.5, 'x'], 1],
  ['lt', [st('s'), 1], 0],
  ['lte', [1, true], 1],
  ['gt', [null, 1], 0],
  ['gte', [1, '1'], 1],
  ['and', [true, 1], 1],
  ['or', [st('n'), true], 0],
  ['not', ['true'], 0],
  ['if', [1, 'a', 'b'], 0],
];
for (const [name, args, index] of typeViolations) {
  reject(
    `§3 ${name} with an argument of the wrong type`,
    () => withDerived({ flag: op('gt', st('n'), 1), x: op(name, ...args) }),
    issue('type_mismatch', `derived.x.args[${index}]`),
  );
}
reject(
  '§3 no implicit conversion through a derived field',
  () => withDerived({ label: op('concat', 'a'), x: op('add', dv('label'), 1) }),
  issue('type_mismatch', 'derived.x.args[0]'),
);
accept('§3 eq compares any scalars strictly (1 vs "1" is false, not an error)', () =>
  withDerived({
    x: op('eq', 1, '1'),
    y: op('eq', st('s'), null),
    z: op('if', op('eq', st('n'), 10), 'ten', 'other'),
  }),
);
accept('§3 concat converts any scalar, null to ""', () =>
  withDerived({ x: op('concat', 'n=', st('n'), ' ', st('b'), null) }),
);
reject(
  '§3 both if branches are reference-checked',
  () => withDerived({ x: op('if', true, 1, st('missing')) }),
  issue('unknown_reference', 'derived.x.args[2].state'),
);
reject(
  '§3 both if branches are type-checked',
  () => withDerived({ x: op('if', true, 1, op('add', 'a', 1)) }),
  issue('type_mismatch', 'derived.x.args[2].args[0]'),
);
accept('§3 only the selected if branch is evaluated', () =>
  withDerived({ x: op('if', true, 1, op('div', 1, 0)) }),
);
accept('§3 and/or short-circuit in order', () =>
  withDerived({
    x: op('and', false, op('gt', op('div', 1, 0), 0)),
    y: op('or', true, op('gt', op('div', 1, 0), 0)),
  }),
);
accept('§3 round digits 0 and 6', () =>
  withDerived({ x: op('round', 1.23456789, 6), y: op('round', 1.5, 0) }),
);
reject(
  '§3 round digits above 6',
  () => withDerived({ x: op('round', 1.5, 7) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits must be an integer',
  () => withDerived({ x: op('round', 1.5, 1.5) }),
  issue('not_integer', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits computed out of range in the default state',
  () => withDerived({ x: op('round', 1.5, st('n')) }),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 round digits below 0',
  () => withDerived({ x: op('round', 1.5, -1) }),
  issue('number_out_of_range', 'derived.x.args[1]'),
  issue('evaluation_failed', 'derived.x'),
);

// Cycles
reject(
  '§3 a derived field referencing itself',
  () => withDerived({ a: op('add', dv('a'), 1) }),
  issue('derived_cycle', 'derived.a'),
);
reject(
  '§3 an indirect derived cycle',
  () => withDerived({ a: op('add', dv('b'), 1), b: op('add', dv('c'), 1), c: op('mul', dv('a'), 2) }),
  issue('derived_cycle', 'derived.a'),
  issue('derived_cycle', 'derived.b'),
  issue('derived_cycle', 'derived.c'),
);
reject(
  '§3 a cycle through an untaken if branch is still a cycle',
  () => withDerived({ a: op('if', true, 1, dv('b')), b: op('add', dv('a'), 1) }),
  issue('derived_cycle', 'derived.a'),
  issue('derived_cycle', 'derived.b'),
);

// Default evaluation
reject(
  '§3 default division by zero in a derived field',
  () => withDerived({ ratio: op('div', st('n'), op('sub', st('n'), 10)) }),
  issue('evaluation_failed', 'derived.ratio'),
);
reject(
  '§3 default division by zero in a display value',
  () => doc([text('t', expr(op('div', 1, 0)))]),
  issue('evaluation_failed', `${C(0)}.props.text`),
);
reject(
  '§3 default division by zero behind a derived reference',
  () => withDerived({ zero: op('sub', st('n'), 10), ratio: op('div', 1, dv('zero')) }),
  issue('evaluation_failed', 'derived.ratio'),
);
reject(
  '§3 pow to a result above 1e15',
  () => withDerived({ x: op('pow', 10, 16) }),
  issue('evaluation_failed', 'derived.x'),
);
accept('§3 pow to exactly 1e15', () => withDerived({ x: op('pow', 10, 15) }));
reject(
  '§3 an intermediate sum above 1e15',
  () => withDerived({ x: op('sub', op('add', 1e15, 1e15), 1e15) }),
  issue('evaluation_failed', 'derived.x'),
);
reject(
  '§3 a concatenation longer than 4,096',
  () => withDerived({ x: op('concat', repeat(4000), repeat(97)) }),
  issue('evaluation_failed', 'derived.x'),
);
accept('§3 a concatenation of exactly 4,096', () =>
  withDerived({ x: op('concat', repeat(4000), repeat(96)) }),
);

// Expression budgets (§9)
accept('§9 expression depth exactly 24', () => withDerived({ deep: notChain(24) }));
reject(
  '§9 expression depth 25',
  () => withDerived({ deep: notChain(25) }),
  issue('too_deep', `derived.deep${'.args[0]'.repeat(24)}`),
);
accept('§9 exactly 2,048 expression nodes', () => expressionBudgetDocument(0));
reject(
  '§9 more than 2,048 expression nodes',
  () => expressionBudgetDocument(1),
  issue('too_many', /^derived\.e\d/),
);

// ---------------------------------------------------------------------------------------------------------
// §4 State and shared domains
// ---------------------------------------------------------------------------------------------------------

reject(
  '§4 a state declaration must be an object',
  () => withState({ x: 5 }),
  issue('invalid_type', 'state.x'),
);
reject(
  '§4 a state declaration needs a type',
  () => withState({ x: { initial: 1 } }),
  issue('missing_property', 'state.x.type'),
);
reject(
  '§4 a state declaration needs an initial value',
  () => withState({ x: { type: 'number' } }),
  issue('missing_property', 'state.x.initial'),
);
reject(
  '§4 no null state',
  () => withState({ x: { type: 'number', initial: null } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 no object or array state type',
  () => withState({ x: { type: 'array', initial: [] } }),
  issue('invalid_value', 'state.x.type'),
);
reject(
  '§4 no "null" state type',
  () => withState({ x: { type: 'null', initial: null } }),
  issue('invalid_value', 'state.x.type'),
);
reject(
  '§4 a number initial must be a number',
  () => withState({ x: { type: 'number', initial: '5' } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a string initial must be a string',
  () => withState({ x: { type: 'string', initial: 5 } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a boolean initial must be a real boolean ("true")',
  () => withState({ x: { type: 'boolean', initial: 'true' } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a boolean initial must be a real boolean (0)',
  () => withState({ x: { type: 'boolean', initial: 0 } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a state declaration is closed',
  () => withState({ x: { type: 'number', initial: 1, [INJECTED_KEY]: 1 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a string state has no step',
  () => withState({ x: { type: 'string', initial: '', step: 1 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a boolean state has no maxLength',
  () => withState({ x: { type: 'boolean', initial: true, maxLength: 4 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a number state has no maxLength',
  () => withState({ x: { type: 'number', initial: 1, maxLength: 4 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 min <= max',
  () => withState({ x: { type: 'number', initial: 5, min: 10, max: 0 } }),
  issue('number_out_of_range', 'state.x.min'),
  issue('number_out_of_range', 'state.x.max'),
  issue('invalid_value', 'state.x.min'),
  issue('invalid_value', 'state.x.max'),
);
accept('§4 min = max is a valid state', () =>
  withState({ x: { type: 'number', initial: 5, min: 5, max: 5 } }),
);
reject(
  '§4 initial above max',
  () => withState({ x: { type: 'number', initial: 11, min: 0, max: 10 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
reject(
  '§4 initial below min',
  () => withState({ x: { type: 'number', initial: -1, min: 0, max: 10 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
accept('§4 bounds are inclusive', () =>
  withState({
    lo: { type: 'number', initial: 0, min: 0, max: 10 },
    hi: { type: 'number', initial: 10, min: 0, max: 10 },
  }),
);
reject(
  '§4 step must be positive (0)',
  () => withState({ x: { type: 'number', initial: 0, step: 0 } }),
  issue('number_out_of_range', 'state.x.step'),
);
reject(
  '§4 step must be positive (negative)',
  () => withState({ x: { type: 'number', initial: 0, step: -1 } }),
  issue('number_out_of_range', 'state.x.step'),
);
reject(
  '§4 a bound above 1e15',
  () => withState({ x: { type: 'number', initial: 0, max: 2e15 } }),
  issue('number_out_of_range', 'state.x.max'),
);
reject(
  '§4 a bound below -1e15',
  () => withState({ x: { type: 'number', initial: 0, min: -2e15 } }),
  issue('number_out_of_range', 'state.x.min'),
);
reject(
  '§4 an unbounded initial above 1e15',
  () => withState({ x: { type: 'number', initial: 1.5e15 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
accept('§4 an unbounded initial of 1e15', () => withState({ x: { type: 'number', initial: 1e15 } }));

// Step grid
reject(
  '§4 step 1 does not accept 10.5',
  () => withState({ x: { type: 'number', initial: 10.5, step: 1 } }),
  issue('step_mismatch', 'state.x.initial'),
);
reject(
  '§4 the grid starts at min (min 1, step 2, initial 2)',
  () => withState({ x: { type: 'number', initial: 2, min: 1, max: 9, step: 2 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 the grid starts at min (min 1, step 2, initial 3)', () =>
  withState({ x: { type: 'number', initial: 3, min: 1, max: 9, step: 2 } }),
);
reject(
  '§4 without min the grid starts at 0 (step 3, initial 7)',
  () => withState({ x: { type: 'number', initial: 7, step: 3 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 without min the grid starts at 0 and extends below it (step 3, initial -6)', () =>
  withState({ x: { type: 'number', initial: -6, step: 3 } }),
);
accept('§4 a negative origin (min -5, step 2, initial -1)', () =>
  withState({ x: { type: 'number', initial: -1, min: -5, max: 5, step: 2 } }),
);
accept('§4 float tolerance: step 0.1 accepts 0.3', () =>
  withState({ x: { type: 'number', initial: 0.3, min: 0, max: 1, step: 0.1 } }),
);
accept('§4 float tolerance: step 0.1 accepts 0.1 + 0.2', () =>
  withState({ x: { type: 'number', initial: 0.1 + 0.2, min: 0, max: 1, step: 0.1 } }),
);
accept('§4 float tolerance from a fractional origin (min 0.1, step 0.2, initial 0.7)', () =>
  withState({ x: { type: 'number', initial: 0.7, min: 0.1, max: 1.1, step: 0.2 } }),
);
reject(
  '§4 step 0.1 still rejects 0.35',
  () => withState({ x: { type: 'number', initial: 0.35, min: 0, max: 1, step: 0.1 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 float tolerance scales with the value (step 0.01, initial 12345.67)', () =>
  withState({ x: { type: 'number', initial: 12345.67, min: 0, max: 1_000_000, step: 0.01 } }),
);
accept('§4 float tolerance: step 0.01 accepts 0.07', () =>
  withState({ x: { type: 'number', initial: 0.07, step: 0.01 } }),
);
accept('§4 no step means a continuous value', () =>
  withState({ x: { type: 'number', initial: 7.25, min: 0, max: 10 } }),
);

// Strings
reject(
  '§4 maxLength below 1',
  () => withState({ x: { type: 'string', initial: '', maxLength: 0 } }),
  issue('number_out_of_range', 'state.x.maxLength'),
);
reject(
  '§4 maxLength above 4,096',
  () => withState({ x: { type: 'string', initial: '', maxLength: 4097 } }),
  issue('number_out_of_range', 'state.x.maxLength'),
);
reject(
  '§4 maxLength must be an integer',
  () => withState({ x: { type: 'string', initial: '', maxLength: 2.5 } }),
  issue('not_integer', 'state.x.maxLength'),
);
accept('§4 maxLength 1 and 4,096', () =>
  withState({
    x: { type: 'string', initial: 'a', maxLength: 1 },
    y: { type: 'string', initial: repeat(4096), maxLength: 4096 },
  }),
);
reject(
  '§4 initial longer than maxLength',
  () => withState({ x: { type: 'string', initial: 'abcdef', maxLength: 5 } }),
  issue('string_too_long', 'state.x.initial'),
);
reject(
  '§4 maxLength defaults to 4,096',
  () => withState({ x: { type: 'string', initial: repeat(4097) } }),
  issue('string_too_long', 'state.x.initial'),
);
accept('§4 an empty initial string', () => withState({ x: { type: 'string', initial: '' } }));

// Binding types
const bindings: [string, string, string][] = [
  ['Input', 's', 'n'],
  ['NumberInput', 'n', 's'],
  ['Select', 'plan', 'n'],
  ['Slider', 'n', 'b'],
  ['Checkbox', 'b', 's'],
];
for (const [type, , wrong] of bindings) {
  reject(
    `§5 ${type} bound to a state of another type`,
    () =>
      one(VALID_NODES[type]!(), (p) => {
        p.bind = wrong;
        delete p.min;
        delete p.max;
        delete p.step;
      }),
    issue('bind_type_mismatch', `${C(0)}.props.bind`),
  );
  reject(
    `§3 ${type} bound to an undeclared state`,
    () => one(VALID_NODES[type]!(), (p) => (p.bind = 'missing')),
    issue('unknown_reference', `${C(0)}.props.bind`),
  );
  reject(
    `§3 ${type} bound to a derived field`,
    () => one(VALID_NODES[type]!(), (p) => (p.bind = 'double')),
    issue('unknown_reference', `${C(0)}.props.bind`),
  );
}

// Numeric control domains
accept('§4 NumberInput and Slider repeating the domain exactly', () =>
  doc([
    node('NumberInput', 'ni', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
    node('Slider', 'sl', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
    node('Slider', 'sl2', { label: 'N', bind: 'n', max: 100 }),
  ]),
);
accept('§4 NumberInput on an unbounded state', () =>
  doc([node('NumberInput', 'ni', { label: 'Free', bind: 'free' })]),
);
for (const type of ['NumberInput', 'Slider']) {
  reject(
    `§4 ${type} with a narrower max`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', max: 20 })]),
    issue('domain_mismatch', `${C(0)}.props.max`),
  );
  reject(
    `§4 ${type} with a wider min`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', min: -10 })]),
    issue('domain_mismatch', `${C(0)}.props.min`),
  );
  reject(
    `§4 ${type} with another step`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', step: 0.5 })]),
    issue('domain_mismatch', `${C(0)}.props.step`),
  );
}
reject(
  '§4 NumberInput cannot add a min the state lacks',
  () => doc([node('NumberInput', 'c', { label: 'F', bind: 'free', min: 0 })]),
  issue('domain_mismatch', `${C(0)}.props.min`),
);
reject(
  '§4 NumberInput cannot add a step the state lacks',
  () => doc([node('NumberInput', 'c', { label: 'F', bind: 'free', step: 0.5 })]),
  issue('domain_mismatch', `${C(0)}.props.step`),
);
reject(
  '§4 Slider cannot add bounds the state lacks',
  () => doc([node('Slider', 'c', { label: 'F', bind: 'free', min: 0, max: 10 })]),
  issue('domain_mismatch', `${C(0)}.props.min`),
  issue('domain_mismatch', `${C(0)}.props.max`),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs state bounds',
  () => doc([node('Slider', 'c', { label: 'F', bind: 'free' })]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs a state max, not only a min',
  () =>
    withState({ x: { type: 'number', initial: 0, min: 0 } }, [
      node('Slider', 'c', { label: 'X', bind: 'x' }),
    ]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs strictly increasing bounds (min = max)',
  () =>
    withState({ x: { type: 'number', initial: 5, min: 5, max: 5 } }, [
      node('Slider', 'c', { label: 'X', bind: 'x' }),
    ]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);

// Select domains
accept('§4 Select on a string state whose initial is an option', () =>
  doc([select('sel', 'plan', PLAN_OPTIONS)]),
);
reject(
  '§4 Select initial value must be an option',
  () => doc([select('sel', 'plan', ['pro', 'team'])]),
  issue('select_domain_conflict', `${C(0)}.props.options`),
  // The initial value is the first writer of the field (PATHS.md: "or the other writer that breaks the domain").
  issue('select_domain_conflict', 'state.plan.initial'),
);
reject(
  '§4 Select option values are unique',
  () => doc([select('sel', 'plan', ['basic', 'basic'])]),
  issue('duplicate_id', `${C(0)}.props.options[1].value`),
);
accept('§4 Select option labels may repeat', () =>
  one(select('sel', 'plan', PLAN_OPTIONS), (p) => {
    for (const option of p.options) option.label = 'Same';
  }),
);
reject(
  '§4 Select option values fit the state maxLength',
  () => doc([select('sel', 'plan', ['basic', 'enterprise'])]),
  issue('string_too_long', `${C(0)}.props.options[1].value`),
  issue('select_domain_conflict', `${C(0)}.props.options[1].value`),
);
reject(
  '§5 Select with no options',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options = [])),
  issue('too_few', `${C(0)}.props.options`),
);
reject(
  '§5 Select with 101 options',
  () => doc([select('sel', 's', ['hello', ...Array.from({ length: 100 }, (_, i) => `o${i}`)])]),
  issue('too_many', `${C(0)}.props.options`),
);
accept('§5 Select with exactly 100 options', () =>
  doc([select('sel', 's', ['hello', ...Array.from({ length: 99 }, (_, i) => `o${i}`)])]),
);
reject(
  '§5 Select option label of 0 characters',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0].label = '')),
  issue('string_too_short', `${C(0)}.props.options[0].label`),
);
reject(
  '§5 Select option label longer than 512',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0].label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.options[0].label`),
);
reject(
  '§5 a Select option is closed',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0][INJECTED_KEY] = 1)),
  issue('unknown_property', `${C(0)}.props.options[0]`),
);
reject(
  '§4 two Selects on one field need the same value set',
  () => doc([select('a', 'plan', PLAN_OPTIONS), select('b', 'plan', ['basic', 'pro'])]),
  issue('select_domain_conflict', `${C(1)}.props.options`),
);
accept('§4 two Selects on one field: same values, other labels and order', () =>
  doc([
    select('a', 'plan', PLAN_OPTIONS),
    mutate(select('b', 'plan', ['team', 'basic', 'pro']), (n) => (n.props.label = 'Other')),
  ]),
);
reject(
  '§4 a set action cannot write a non-option into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', 'gold'))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
reject(
  '§4 a Form set action cannot write a non-option into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), form('f', [], setAction('plan', 'gold'))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
accept('§4 a set action writing an option of a Select-bound field', () =>
  doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', 'team'))]),
);
reject(
  '§4 a set action writing a non-option state value into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', expr(st('s'))))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
reject(
  '§4 the Select domain binds writers that come before the Select',
  () => doc([button('go', setAction('plan', 'gold')), select('sel', 'plan', PLAN_OPTIONS)]),
  issue('select_domain_conflict', `${C(0)}.props.action.value`),
  issue('select_domain_conflict', `${C(0)}.props.action`),
);
reject(
  '§4 an Input before the Select on the same field',
  () => doc([node('Input', 'in', { label: 'Plan', bind: 'plan' }), select('sel', 'plan', PLAN_OPTIONS)]),
  issue('select_domain_conflict', `${C(0)}.props.bind`),
  issue('select_domain_conflict', C(0)),
  issue('select_domain_conflict', `${C(1)}.props.options`),
);
reject(
  '§4 an Input cannot write free text into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), node('Input', 'in', { label: 'Plan', bind: 'plan' })]),
  issue('select_domain_conflict', `${C(1)}.props.bind`),
  issue('select_domain_conflict', C(1)),
);

// ---------------------------------------------------------------------------------------------------------
// §5 Components
// ---------------------------------------------------------------------------------------------------------

reject(
  '§5 gap is sm, md or lg',
  () => doc([mutate(column('c'), (n) => (n.props.gap = 'xl'))]),
  issue('invalid_value', `${C(0)}.props.gap`),
);
reject(
  '§5 Heading level 1–3',
  () => one(VALID_NODES.Heading!(), (p) => (p.level = 4)),
  issue('invalid_value', `${C(0)}.props.level`),
);
reject(
  '§5 Heading level is a number',
  () => one(VALID_NODES.Heading!(), (p) => (p.level = '1')),
  issue('invalid_value', `${C(0)}.props.level`),
  issue('invalid_type', `${C(0)}.props.level`),
);
reject(
  '§5 Grid columns 1–4',
  () => one(VALID_NODES.Grid!(), (p) => (p.columns = 5)),
  issue('invalid_value', `${C(0)}.props.columns`),
);
reject(
  '§5 Card title longer than 512',
  () => one(VALID_NODES.Card!(), (p) => (p.title = repeat(513))),
  issue('string_too_long', `${C(0)}.props.title`),
);
accept('§5 Card title of 512', () => one(VALID_NODES.Card!(), (p) => (p.title = repeat(512))));
reject(
  '§5 Card title is a plain string, not a Value expression',
  () => one(VALID_NODES.Card!(), (p) => (p.title = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.title`),
);
reject(
  '§5 Badge tone',
  () => one(VALID_NODES.Badge!(), (p) => (p.tone = 'info')),
  issue('invalid_value', `${C(0)}.props.tone`),
);
reject(
  '§5 Button variant',
  () => one(VALID_NODES.Button!(), (p) => (p.variant = 'danger')),
  issue('invalid_value', `${C(0)}.props.variant`),
);
reject(
  '§5 Markdown text longer than 16,384',
  () => one(VALID_NODES.Markdown!(), (p) => (p.text = repeat(16385))),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§5 Markdown text of exactly 16,384', () =>
  one(VALID_NODES.Markdown!(), (p) => (p.text = repeat(16384))),
);
reject(
  '§5 Markdown text has no state expressions',
  () => one(VALID_NODES.Markdown!(), (p) => (p.text = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.text`),
);
reject(
  '§5 Error message references are checked',
  () => one(VALID_NODES.Error!(), (p) => (p.message = expr(st('missing')))),
  issue('unknown_reference', `${C(0)}.props.message.expr.state`),
);
reject(
  '§5 Badge text longer than 4,096',
  () => one(VALID_NODES.Badge!(), (p) => (p.text = repeat(4097))),
  issue('string_too_long', `${C(0)}.props.text`),
);

// Required and optional labels: 1–512, optional ones at most 512
const labels: [string, string, (props: J) => void][] = [
  ['Input.label', 'Input', (p) => (p.label = '')],
  ['Button.label', 'Button', (p) => (p.label = '')],
  ['Checkbox.label', 'Checkbox', (p) => (p.label = '')],
  ['Form.submitLabel', 'Form', (p) => (p.submitLabel = '')],
];
for (const [name, type, change] of labels) {
  reject(
    `§5 ${name} of 0 characters`,
    () => one(VALID_NODES[type]!(), change),
    issue('string_too_short', `${C(0)}.props.${name.split('.')[1]}`),
  );
}
reject(
  '§5 a control label longer than 512',
  () => one(VALID_NODES.Input!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
accept('§5 a control label of exactly 512', () => one(VALID_NODES.Input!(), (p) => (p.label = repeat(512))));
reject(
  '§5 a control label is a string, not a Value',
  () => one(VALID_NODES.Button!(), (p) => (p.label = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.label`),
);
reject(
  '§5 a submitLabel longer than 512',
  () => one(VALID_NODES.Form!(), (p) => (p.submitLabel = repeat(513))),
  issue('string_too_long', `${C(0)}.props.submitLabel`),
);
reject(
  '§5 an Input placeholder longer than 512',
  () => one(VALID_NODES.Input!(), (p) => (p.placeholder = repeat(513))),
  issue('string_too_long', `${C(0)}.props.placeholder`),
);
reject(
  '§5 a Loading label longer than 512',
  () => one(VALID_NODES.Loading!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Result label longer than 512',
  () => one(VALID_NODES.Result!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Progress label longer than 512',
  () => one(VALID_NODES.Progress!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Chart label longer than 512',
  () => one(VALID_NODES.Chart!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
accept('§5 optional labels may be empty', () =>
  doc([node('Loading', 'l', { label: '' }), mutate(VALID_NODES.Card!(), (n) => (n.props.title = ''))]),
);

// Table
accept('§5 Table with 0 rows', () => one(VALID_NODES.Table!(), (p) => (p.rows = [])));
reject(
  '§5 Table with 0 columns',
  () =>
    one(VALID_NODES.Table!(), (p) => {
      p.columns = [];
      p.rows = [];
    }),
  issue('too_few', `${C(0)}.props.columns`),
);
const tableOf = (columns: number, rows: number) =>
  node('Table', 'table', {
    columns: Array.from({ length: columns }, (_, i) => ({ key: `c${i}`, label: `C${i}` })),
    rows: Array.from({ length: rows }, (_, r) =>
      Object.fromEntries(Array.from({ length: columns }, (_, i) => [`c${i}`, r])),
    ),
  });
accept('§5 Table with exactly 32 columns and 500 rows', () =>
  doc([tableOf(32, 1), tableOf(1, 500)].map((n, i) => ({ ...n, id: `t${i}` }))),
);
reject('§5 Table with 33 columns', () => doc([tableOf(33, 1)]), issue('too_many', `${C(0)}.props.columns`));
reject('§5 Table with 501 rows', () => doc([tableOf(1, 501)]), issue('too_many', `${C(0)}.props.rows`));
reject(
  '§5 a Table row missing a column key',
  () => one(VALID_NODES.Table!(), (p) => delete p.rows[1].b),
  issue('row_columns_mismatch', `${C(0)}.props.rows[1]`),
);
reject(
  '§5 a Table row with an extra key',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[1][INJECTED_KEY] = 1)),
  issue('row_columns_mismatch', `${C(0)}.props.rows[1]`),
  issue('unknown_property', `${C(0)}.props.rows[1]`),
);
reject(
  '§5 Table cells are static scalars, not expressions',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = expr(st('n')))),
  issue('invalid_type', `${C(0)}.props.rows[0].a`),
);
reject(
  '§5 Table cells are not arrays',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = [1])),
  issue('invalid_type', `${C(0)}.props.rows[0].a`),
);
reject(
  '§5 a Table cell string longer than 4,096',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].b = repeat(4097))),
  issue('string_too_long', `${C(0)}.props.rows[0].b`),
);
reject(
  '§5 Table column keys are unique',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[1].key = 'a')),
  issue('duplicate_id', `${C(0)}.props.columns[1].key`),
);
reject(
  '§5 Table column keys are identifiers',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0].key = 'a b')),
  issue('invalid_identifier', `${C(0)}.props.columns[0].key`),
);
reject(
  '§5 Table column label of 0 characters',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0].label = '')),
  issue('string_too_short', `${C(0)}.props.columns[0].label`),
);
reject(
  '§5 a Table column is closed',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0][INJECTED_KEY] = 1)),
  issue('unknown_property', `${C(0)}.props.columns[0]`),
);
accept('§2 the same column key in two tables', () =>
  doc([VALID_NODES.Table!(), mutate(VALID_NODES.Table!(), (n) => (n.id = 'table2'))]),
);

// Progress
accept('§5 Progress default at 0 and at max', () =>
  doc([
    node('Progress', 'p0', { value: 0 }),
    node('Progress', 'p1', { value: 100 }),
    node('Progress', 'p2', { value: expr(st('n')), max: 10 }),
  ]),
);
reject(
  '§5 Progress max must be > 0 (0)',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = 0)),
  issue('number_out_of_range', `${C(0)}.props.max`),
);
reject(
  '§5 Progress max must be > 0 (negative)',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = -5)),
  issue('number_out_of_range', `${C(0)}.props.max`),
);
reject(
  '§5 Progress value must be a number (literal)',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = 'half')),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('invalid_type', `${C(0)}.props.value`),
);
reject(
  '§5 Progress value must always be a number (expression)',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = expr(st('b')))),
  issue('type_mismatch', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default above max (default max 100)',
  () =>
    one(VALID_NODES.Progress!(), (p) => {
      p.value = expr(op('mul', st('n'), 20));
      delete p.max;
    }),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default above an explicit max',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = 5)),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default below 0',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = -1)),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);

// Chart
accept('§5 Chart with positive and negative values, 200 points', () =>
  one(
    VALID_NODES.Chart!(),
    (p) =>
      (p.data = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, value: i - 100 }))),
  ),
);
reject(
  '§5 Chart with 201 points',
  () =>
    one(
      VALID_NODES.Chart!(),
      (p) => (p.data = Array.from({ length: 201 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, value: i }))),
    ),
  issue('too_many', `${C(0)}.props.data`),
);
reject(
  '§5 Chart with 0 points',
  () => one(VALID_NODES.Chart!(), (p) => (p.data = [])),
  issue('too_few', `${C(0)}.props.data`),
);
reject(
  '§5 Chart kind is bar or line',
  () => one(VALID_NODES.Chart!(), (p) => (p.kind = 'pie')),
  issue('invalid_value', `${C(0)}.props.kind`),
);
reject(
  '§5 Chart point ids are unique in a chart',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[1].id = 'p1')),
  issue('duplicate_id', `${C(0)}.props.data[1].id`),
);
accept('§2 the same point id in two charts', () =>
  doc([VALID_NODES.Chart!(), mutate(VALID_NODES.Chart!(), (n) => (n.id = 'chart2'))]),
);
reject(
  '§5 Chart point ids are identifiers',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].id = '9p')),
  issue('invalid_identifier', `${C(0)}.props.data[0].id`),
);
reject(
  '§5 Chart point label of 0 characters',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].label = '')),
  issue('string_too_short', `${C(0)}.props.data[0].label`),
);
reject(
  '§5 Chart point value must be a number (literal)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].value = 'x')),
  issue('type_mismatch', `${C(0)}.props.data[0].value`),
  issue('invalid_type', `${C(0)}.props.data[0].value`),
);
reject(
  '§5 Chart point value must always be a number (expression)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[1].value = expr(st('s')))),
  issue('type_mismatch', `${C(0)}.props.data[1].value`),
);
reject(
  '§3 a Chart point value whose default evaluation fails',
  () =>
    one(VALID_NODES.Chart!(), (p) => (p.data[1].value = expr(op('div', st('n'), op('sub', st('n'), 10))))),
  issue('evaluation_failed', `${C(0)}.props.data[1].value`),
);
reject(
  '§5 a Chart point is closed (no SVG path)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].path = 'M0 0')),
  issue('unknown_property', `${C(0)}.props.data[0]`),
);

// Result and ResultFormat
accept('§5 Result without a format may show a string', () =>
  doc([node('Result', 'r', { value: expr(st('s')) })]),
);
accept('§5 ResultFormat: currency with currency, percent, decimal, digits 0 and 6', () =>
  doc([
    node('Result', 'r1', { value: 1, format: { style: 'currency', currency: 'USD', digits: 0 } }),
    node('Result', 'r2', { value: 0.05, format: { style: 'percent' } }),
    node('Result', 'r3', { value: 1, format: { style: 'decimal', digits: 6 } }),
    node('Result', 'r4', { value: 1, format: { style: 'currency', currency: 'EUR' } }),
  ]),
);
const resultWith = (format: J, value: unknown = 1) => doc([node('Result', 'r', { value, format })]);
reject(
  '§5 currency style requires currency',
  () => resultWith({ style: 'currency' }),
  issue('missing_property', `${C(0)}.props.format.currency`),
);
reject(
  '§5 decimal style cannot carry currency',
  () => resultWith({ style: 'decimal', currency: 'CNY' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 percent style cannot carry currency',
  () => resultWith({ style: 'percent', currency: 'USD' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 currency is CNY, USD or EUR',
  () => resultWith({ style: 'currency', currency: 'JPY' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
);
reject(
  '§5 style is decimal, currency or percent',
  () => resultWith({ style: 'scientific' }),
  issue('invalid_value', `${C(0)}.props.format.style`),
);
reject(
  '§5 format needs a style',
  () => resultWith({ digits: 2 }),
  issue('missing_property', `${C(0)}.props.format.style`),
);
reject(
  '§5 digits above 6',
  () => resultWith({ style: 'decimal', digits: 7 }),
  issue('number_out_of_range', `${C(0)}.props.format.digits`),
);
reject(
  '§5 digits below 0',
  () => resultWith({ style: 'decimal', digits: -1 }),
  issue('number_out_of_range', `${C(0)}.props.format.digits`),
);
reject(
  '§5 digits must be an integer',
  () => resultWith({ style: 'decimal', digits: 2.5 }),
  issue('not_integer', `${C(0)}.props.format.digits`),
);
reject(
  '§5 a ResultFormat is closed',
  () => resultWith({ style: 'decimal', [INJECTED_KEY]: true }),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 a formatted Result whose value is a string literal',
  () => resultWith({ style: 'decimal' }, 'abc'),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);
reject(
  '§5 a formatted Result whose value is a string state',
  () => resultWith({ style: 'percent' }, expr(st('s'))),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);
reject(
  '§5 a formatted Result whose value is not always a number',
  () => resultWith({ style: 'decimal' }, expr(op('if', st('b'), 1, 'none'))),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);

// ---------------------------------------------------------------------------------------------------------
// §6 Local actions
// ---------------------------------------------------------------------------------------------------------

accept('§6 set with a literal and with an expression in range', () =>
  doc([
    button('a', setAction('n', 20)),
    button('b', setAction('n', expr(op('add', st('n'), 1)))),
    button('c', setAction('b', true)),
    button('d', setAction('s', '')),
  ]),
);
accept('§4 a set action on a 0.1 grid tolerates 0.1 + 0.2', () =>
  withState({ x: { type: 'number', initial: 0.1, min: 0, max: 1, step: 0.1 } }, [
    button('a', setAction('x', expr(op('add', st('x'), 0.2)))),
  ]),
);
reject(
  '§6 action type is reset or set',
  () => doc([button('a', { type: 'navigate', url: 'https://example.invalid' })]),
  issue('invalid_value', `${C(0)}.props.action.type`),
);
reject(
  '§6 an action needs a type',
  () => doc([button('a', { key: 'n', value: 1 })]),
  issue('missing_property', `${C(0)}.props.action.type`),
);
reject(
  '§6 an action must be an object',
  () => doc([button('a', 'reset')]),
  issue('invalid_type', `${C(0)}.props.action`),
);
reject(
  '§6 reset carries nothing else (no URL)',
  () => doc([button('a', { type: 'reset', url: 'https://example.invalid' })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set carries no nested action',
  () => doc([button('a', { ...setAction('n', 1), action: { type: 'reset' } })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set carries no tool name',
  () => doc([button('a', { ...setAction('n', 1), tool: 'read' })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set needs a key',
  () => doc([button('a', omit(setAction('n', 1), 'key'))]),
  issue('missing_property', `${C(0)}.props.action.key`),
);
reject(
  '§6 set needs a value',
  () => doc([button('a', omit(setAction('n', 1), 'value'))]),
  issue('missing_property', `${C(0)}.props.action.value`),
);
reject(
  '§6 set key must be a declared state field',
  () => doc([button('a', setAction('missing', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);
reject(
  '§6 set key cannot name a derived field',
  () => doc([button('a', setAction('double', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);
reject(
  '§6 set value of the wrong type (literal)',
  () => doc([button('a', setAction('n', 'ten'))]),
  issue('type_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value of the wrong type (expression)',
  () => doc([button('a', setAction('b', expr(st('n'))))]),
  issue('type_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value is a Value: a bare { state } is rejected',
  () => doc([button('a', setAction('n', st('n')))]),
  ...bareObjectValue(`${C(0)}.props.action.value`),
);
reject(
  '§6 set value above the state max',
  () => doc([button('a', setAction('n', 101))]),
  issue('number_out_of_range', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value computed above the state max in the default state',
  () => doc([button('a', setAction('n', expr(op('add', st('n'), 1000))))]),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
  issue('number_out_of_range', `${C(0)}.props.action.value`),
);
reject(
  '§4 set value off the step grid (literal)',
  () => doc([button('a', setAction('n', 10.5))]),
  issue('step_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§4 set value computed off the step grid',
  () => doc([button('a', setAction('n', expr(op('add', st('n'), 0.5))))]),
  issue('step_mismatch', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value longer than the state maxLength',
  () => doc([button('a', setAction('s', repeat(33)))]),
  issue('string_too_long', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value whose default evaluation divides by zero',
  () => doc([button('a', setAction('n', expr(op('div', st('n'), 0))))]),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 a Form action is checked like a Button action',
  () => doc([form('f', [], setAction('missing', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);

// ---------------------------------------------------------------------------------------------------------
// §9 Document budget
// ---------------------------------------------------------------------------------------------------------

accept('§9 a document of exactly 262,144 bytes', () => documentOfBytes(262_144));
reject('§9 a document of 262,145 bytes', () => documentOfBytes(262_145), issue('too_large', '$'));
reject(
  '§9 the budget counts UTF-8 bytes, not characters',
  () => doc(Array.from({ length: 17 }, (_, i) => node('Markdown', `md${i}`, { text: repeat(5500, '中') }))),
  issue('too_large', '$'),
);

// ---------------------------------------------------------------------------------------------------------
// §11 Host operations and agent callbacks (1.1)
// ---------------------------------------------------------------------------------------------------------

accept('§11 invoke from a Button and a Form', () =>
  doc11([button('a', invoke('read_info')), form('f', [], invoke('ask'))]),
);
reject(
  '§11 invoke must name a declared action',
  () => doc11([button('a', invoke('missing'))]),
  issue('unknown_reference', `${C(0)}.props.action.actionId`),
);
reject(
  '§11 invoke carries only an actionId',
  () => doc11([button('a', { ...invoke('read_info'), [INJECTED_KEY]: 1 })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§11 invoke needs an actionId',
  () => doc11([button('a', { type: 'invoke' })]),
  issue('missing_property', `${C(0)}.props.action.actionId`),
);
reject(
  '§11 an action id must be an identifier',
  () => doc11([], { actions: { 'read info': BASE_ACTIONS.ask } }),
  issue('invalid_identifier', 'actions'),
);
reject(
  '§11 an action definition must be an object',
  () => mutate(doc11(), (d) => (d.actions.ask = 'prompt')),
  issue('invalid_type', 'actions.ask'),
);
reject(
  '§11 kind is tool or agent',
  () => mutate(doc11(), (d) => (d.actions.read_info.kind = 'script')),
  issue('invalid_value', 'actions.read_info.kind'),
);
reject(
  '§11 an action definition needs a kind',
  () => mutate(doc11(), (d) => delete d.actions.read_info.kind),
  issue('missing_property', 'actions.read_info.kind'),
);
for (const key of ['toolName', 'principal', 'confirmed', 'url', 'token', INJECTED_KEY]) {
  reject(
    `§11 a tool action cannot carry "${key === INJECTED_KEY ? 'an unknown key' : key}"`,
    () => mutate(doc11(), (d) => (d.actions.read_info[key] = 'x')),
    issue('unknown_property', 'actions.read_info'),
  );
}
reject(
  '§11 a tool action needs a capabilityId',
  () => mutate(doc11(), (d) => delete d.actions.read_info.capabilityId),
  issue('missing_property', 'actions.read_info.capabilityId'),
);
reject(
  '§11 capabilityId is an identifier',
  () => mutate(doc11(), (d) => (d.actions.read_info.capabilityId = 'read file')),
  issue('invalid_identifier', 'actions.read_info.capabilityId'),
);
reject(
  '§11 a tool action needs arguments',
  () => mutate(doc11(), (d) => delete d.actions.read_info.arguments),
  issue('missing_property', 'actions.read_info.arguments'),
);
accept('§11 empty arguments and no resultMap', () =>
  mutate(doc11(), (d) => {
    d.actions.read_info.arguments = {};
    delete d.actions.read_info.resultMap;
  }),
);
reject(
  '§11 argument keys are identifiers',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments['file path'] = 'x')),
  issue('invalid_identifier', 'actions.read_info.arguments'),
);
reject(
  '§11 arguments are flat: no arrays',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.limit = [1, 2])),
  issue('invalid_type', 'actions.read_info.arguments.limit'),
);
reject(
  '§11 arguments are flat: no objects',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.limit = { max: 1 })),
  ...bareObjectValue('actions.read_info.arguments.limit'),
);
reject(
  '§11 argument references are checked',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.file_path = expr(st('missing')))),
  issue('unknown_reference', 'actions.read_info.arguments.file_path.expr.state'),
);
reject(
  '§11 argument strings are scalars (at most 4,096)',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.file_path = repeat(4097))),
  issue('string_too_long', 'actions.read_info.arguments.file_path'),
);
reject(
  '§13 more than 32 arguments',
  () =>
    mutate(
      doc11(),
      (d) =>
        (d.actions.read_info.arguments = Object.fromEntries(
          Array.from({ length: 33 }, (_, i) => [`a${i}`, i]),
        )),
    ),
  issue('too_many', 'actions.read_info.arguments'),
);
accept('§13 exactly 32 arguments', () =>
  mutate(
    doc11(),
    (d) =>
      (d.actions.read_info.arguments = Object.fromEntries(
        Array.from({ length: 32 }, (_, i) => [`a${i}`, i]),
      )),
  ),
);
reject(
  '§11 a resultMap key must be a declared state field',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap = { nope: 'totalLines' })),
  issue('invalid_result_map', 'actions.read_info.resultMap.nope'),
);
reject(
  '§11 a resultMap key cannot name a derived field',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap = { double: 'totalLines' })),
  issue('invalid_result_map', 'actions.read_info.resultMap.double'),
);
reject(
  '§11 a resultMap value is a top-level field name, not a path',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap.n = 'result.user.secret')),
  issue('invalid_result_map', 'actions.read_info.resultMap.n'),
  issue('invalid_identifier', 'actions.read_info.resultMap.n'),
);
reject(
  '§11 a resultMap value is a string',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap.n = 5)),
  issue('invalid_type', 'actions.read_info.resultMap.n'),
  issue('invalid_identifier', 'actions.read_info.resultMap.n'),
);
reject(
  '§11 an own "__proto__" resultMap key',
  () => mutate(doc11(), (d) => setOwn(d.actions.read_info.resultMap, '__proto__', 'totalLines')),
  issue('invalid_identifier', 'actions.read_info.resultMap'),
  issue('invalid_result_map', 'actions.read_info.resultMap.__proto__'),
);
const resultMapOf = (entries: number) =>
  doc11([], {
    state: numberStates(entries),
    actions: {
      read_info: {
        kind: 'tool',
        capabilityId: 'read_file',
        arguments: {},
        resultMap: Object.fromEntries(Array.from({ length: entries }, (_, i) => [`f${i}`, `field${i}`])),
      },
    },
    derived: {},
  });
reject(
  '§13 more than 32 resultMap entries',
  () => resultMapOf(33),
  issue('too_many', 'actions.read_info.resultMap'),
);
accept('§13 exactly 32 resultMap entries', () => resultMapOf(32));
reject(
  '§11 an agent callback has no resultMap',
  () => mutate(doc11(), (d) => (d.actions.ask.resultMap = { n: 'x' })),
  issue('unknown_property', 'actions.ask'),
);
reject(
  '§11 a tool action has no prompt',
  () => mutate(doc11(), (d) => (d.actions.read_info.prompt = 'x')),
  issue('unknown_property', 'actions.read_info'),
);
accept('§11 arguments are flat scalars: string, number, boolean, null', () =>
  mutate(
    doc11(),
    (d) => (d.actions.read_info.arguments = { a: 'x', b: 1, c: true, d: null, e: expr(dv('double')) }),
  ),
);
reject(
  '§11 an agent callback has no arguments',
  () => mutate(doc11(), (d) => (d.actions.ask.arguments = {})),
  issue('unknown_property', 'actions.ask'),
);
reject(
  '§11 an agent callback needs a prompt',
  () => mutate(doc11(), (d) => delete d.actions.ask.prompt),
  issue('missing_property', 'actions.ask.prompt'),
);
reject(
  '§11 an empty literal prompt',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = '')),
  issue('string_too_short', 'actions.ask.prompt'),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt that computes to "" in the default state',
  () =>
    doc11([], {
      state: { ...clone(BASE_STATE), empty: { type: 'string', initial: '' } },
      actions: { ...clone(BASE_ACTIONS), ask: { kind: 'agent', prompt: expr(op('concat', st('empty'))) } },
    }),
  issue('string_too_short', 'actions.ask.prompt'),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§13 a literal prompt longer than 4,096',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = repeat(4097))),
  issue('string_too_long', 'actions.ask.prompt'),
);
accept('§13 a literal prompt of exactly 4,096', () =>
  mutate(doc11(), (d) => (d.actions.ask.prompt = repeat(4096))),
);
reject(
  '§13 a computed prompt longer than 4,096',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('concat', repeat(4000), repeat(97))))),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must be a string (number literal)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = 5)),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must always be a string (number state)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(st('n')))),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must always be a string (if with a number branch)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('if', st('b'), 'go', 1)))),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt cannot be null',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = null)),
  issue('type_mismatch', 'actions.ask.prompt'),
  issue('invalid_type', 'actions.ask.prompt'),
);
reject(
  '§11 prompt references are checked',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('concat', 'x', dv('missing'))))),
  issue('unknown_reference', 'actions.ask.prompt.expr.args[1].derived'),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

function describeIssues(issues: readonly { code: string; path: string }[]): string {
  return JSON.stringify(codesAndPaths(issues));
}

/** Parses `input`, expecting a UISchemaError, and checks the diagnostics' general guarantees (§8). */
function rejection(input: unknown): UISchemaError {
  expect(() => parseDocument(input)).toThrow(UISchemaError);
  let caught: unknown;
  try {
    parseDocument(input);
  } catch (error) {
    caught = error;
  }
  const error = caught as UISchemaError;
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.issues.length).toBeLessThanOrEqual(20);
  for (const { path, message } of error.issues) {
    expect(path.length).toBeLessThanOrEqual(512);
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message).not.toContain(INJECTED);
    expect(path).not.toContain(INJECTED);
  }
  expect(error.message).not.toContain(INJECTED);
  return error;
}

function matches(expected: Expected, actual: { code: string; path: string }): boolean {
  if (expected.code !== actual.code) return false;
  return typeof expected.path === 'string' ? expected.path === actual.path : expected.path.test(actual.path);
}

describe('parseDocument rule corpus: rejected documents', () => {
  it('has a unique name per row', () => {
    const names = REJECT.map((row) => row.rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const row of REJECT) {
    it(row.rule, () => {
      const error = rejection(row.build());
      const found = error.issues.some((actual) => row.expected.some((expected) => matches(expected, actual)));
      expect(
        found,
        `expected one of ${JSON.stringify(row.expected.map((e) => ({ code: e.code, path: String(e.path) })))}, got ${describeIssues(error.issues)}`,
      ).toBe(true);
    });
  }
});

describe('parseDocument rule corpus: accepted documents', () => {
  it('has a unique name per row', () => {
    const names = ACCEPT.map((row) => row.rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const row of ACCEPT) {
    it(row.rule, () => {
      const input = row.build();
      let issues = '';
      try {
        parseDocument(input);
      } catch (error) {
        issues = error instanceof UISchemaError ? describeIssues(error.issues) : String(error);
      }
      expect(issues, 'the document should be accepted').toBe('');
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Fixtures and general guarantees
// ---------------------------------------------------------------------------------------------------------

const FIXTURES: Record<string, unknown> = {
  'compound-interest.json': compoundInterest,
  'file-reader.json': fileReader,
  'product-comparison.json': productComparison,
  'form-controls.json': formControls,
  'agent-callback.json': agentCallback,
};

describe('fixtures', () => {
  for (const [name, fixture] of Object.entries(FIXTURES)) {
    it(`${name} parses, deep-frozen and idempotent`, () => {
      const parsed = parseDocument(clone(fixture));
      expectDeepFrozen(parsed);
      expect(parseDocument(parsed)).toEqual(parsed);
    });

    // §8: parseDocument validates and returns the document; it does not rewrite it (defaults stay implicit).
    it(`${name} comes back unchanged`, () => {
      expect(parseDocument(clone(fixture))).toEqual(fixture);
    });
  }

  it('the seed examples are the exact §7 and §11 documents', () => {
    expect((compoundInterest as J).id).toBe('compact-interest');
    expect((fileReader as J).id).toBe('compact_reader');
  });

  it('parsing does not mutate or freeze the input', () => {
    const input = clone(formControls);
    parseDocument(input);
    expect(Object.isFrozen(input)).toBe(false);
    expect(input).toEqual(formControls);
  });

  it('every valid row parses to a deep-frozen, idempotent document', () => {
    for (const row of ACCEPT) {
      const parsed = parseDocument(row.build());
      expectDeepFrozen(parsed);
      expect(parseDocument(parsed), row.rule).toEqual(parsed);
    }
  });
});

describe('diagnostics (§8)', () => {
  it('reports at most 20 issues, each path ≤ 512 and message ≤ 300 characters', () => {
    const nodes = Array.from({ length: 40 }, (_, i) =>
      mutate(text(`t${i}`), (n) => (n.props[INJECTED_KEY] = i)),
    );
    rejection(doc(nodes));
  });

  it('keeps paths bounded for deeply nested failures', () => {
    const deepest = text('leaf', expr(notChain(40)));
    let current: J = deepest;
    for (let level = 15; level >= 1; level -= 1) current = column(`level${level}`, [current]);
    rejection(doc([], { root: current }));
  });

  it('never echoes unknown key names or rejected values', () => {
    const input = mutate(doc11([text('t')]), (d) => {
      d[INJECTED_KEY] = `${INJECTED}Value`;
      d.mode = `${INJECTED}Mode`;
      d.root.props[`${INJECTED}Prop`] = 1;
      d.root.children[0][`${INJECTED}NodeKey`] = 1;
      d.state.n[`${INJECTED}StateKey`] = 1;
      d.actions.read_info[`${INJECTED}ActionKey`] = 1;
      d.actions.read_info.kind = `${INJECTED}Kind`;
      d.state.n.initial = `${INJECTED}Initial`;
      d.derived.double = op(`${INJECTED}Op`, 1);
      d.root.children.push(
        node(`${INJECTED}Type`, 'unknown', {}),
        text(`${INJECTED}-bad id`),
        text('ref', expr(st(`${INJECTED}State`))),
        button('setter', setAction(`${INJECTED}Field`, 1)),
        node('Input', 'input', { label: 'x', bind: `${INJECTED}Bind` }),
      );
    });
    const error = rejection(input);
    expect(JSON.stringify(error.issues)).not.toContain(INJECTED);
  });

  it('does not pollute Object.prototype through own "__proto__" keys', () => {
    const input = JSON.parse(
      `{"__proto__":{"polluted":true},"version":"1.0","id":"x","mode":"interactive_ui","title":"t","state":{},"derived":{},"root":{"id":"r","type":"Card","props":{"__proto__":{"polluted":true}},"children":[]}}`,
    );
    rejection(input);
    expect(({} as J).polluted).toBeUndefined();
  });
});
