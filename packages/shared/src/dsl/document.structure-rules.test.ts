/**
 * The rule corpus of `parseDocument` for the document itself (seed 002 §1–§2, §9, §13): its top-level keys and
 * their limits, the 1.0 / 1.1 `actions` rules and the document budget; then the example fixtures and the general
 * guarantees of the diagnostics (§8). One row per rule: every invalid row is a small mutation of a valid base
 * document and asserts the issue's `code` and exact `path` (PATHS.md), not just that parsing threw. Valid rows pin
 * the edges: exact limits are accepted, one past is rejected. The base, its builders and the runner are in
 * test/document-rules.ts.
 */
import { describe, expect, it } from 'vitest';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import {
  BASE_ACTIONS,
  button,
  C,
  column,
  describeRuleCorpus,
  doc,
  doc11,
  expr,
  form,
  INJECTED,
  INJECTED_KEY,
  invoke,
  issue,
  type J,
  mutate,
  node,
  notChain,
  numberStates,
  omit,
  op,
  rejection,
  repeat,
  ruleCorpus,
  setAction,
  setOwn,
  st,
  text,
  VALID_NODES,
} from '../../test/document-rules.js';
import { clone, expectDeepFrozen } from '../../test/utils.js';
import { parseDocument } from './document.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

/** JSON documents only: a JSON round trip keeps own `__proto__` keys as own properties. */
const size = (value: unknown): number => JSON.stringify(value).length;

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
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);

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
