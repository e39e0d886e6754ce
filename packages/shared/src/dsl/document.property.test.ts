/**
 * Properties of `parseDocument` over random mutations of the shipped fixtures (seed 002 §8–§9): whatever the
 * input, it either returns a deep-frozen document that parses to itself again, or throws a UISchemaError with
 * bounded diagnostics. It never throws anything else, never writes to `Object.prototype`, and never runs long.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { clone, expectDeepFrozen, getAt, paths, setAt } from '../../test/utils.js';
import { UISchemaError } from '../errors/errors.js';
import { parseDocument } from './document.js';

// biome-ignore lint/suspicious/noExplicitAny: mutations walk and rewrite arbitrary JSON on purpose.
type J = any;
type Path = readonly (string | number)[];

const FIXTURES = [compoundInterest, fileReader, productComparison, formControls, agentCallback] as const;

/** Generous: a document of at most 262,144 bytes is validated in milliseconds. */
const MAX_PARSE_MILLISECONDS = 1_000;

const isContainer = (value: unknown): value is J => typeof value === 'object' && value !== null;

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

/** Paths of UI nodes (objects with `id`, `type` and `props`). */
const nodePaths = (root: unknown): Path[] =>
  paths(root).filter((path) => {
    const value = getAt(root, path);
    return (
      isContainer(value) && !Array.isArray(value) && 'type' in value && 'props' in value && 'id' in value
    );
  });

type Mutation =
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly kind: 'duplicate'; readonly at: number; readonly rename: boolean }
  | { readonly kind: 'deepen'; readonly at: number; readonly levels: number; readonly layout: string }
  | { readonly kind: 'prototypeKey'; readonly at: number; readonly key: string; readonly value: unknown }
  | {
      readonly kind: 'hostile';
      readonly at: number;
      readonly value:
        | 'cycle'
        | 'getter'
        | 'sparse'
        | 'map'
        | 'date'
        | 'bigint'
        | 'undefined'
        | 'nan'
        | 'function';
    };

function applyMutation(root: J, mutation: Mutation): J {
  switch (mutation.kind) {
    case 'delete': {
      const path = pick(
        paths(root).filter((p) => p.length > 0),
        mutation.at,
      );
      if (!path) return root;
      const parent = getAt(root, path.slice(0, -1));
      const key = path[path.length - 1]!;
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return root;
    }
    case 'replace': {
      const path = pick(paths(root), mutation.at);
      return path ? setAt(root, path, clone(mutation.value)) : root;
    }
    case 'duplicate': {
      const path = pick(
        nodePaths(root).filter((p) => typeof p[p.length - 1] === 'number'),
        mutation.at,
      );
      if (!path) return root;
      const siblings = getAt(root, path.slice(0, -1));
      const copy = clone(getAt(root, path));
      if (mutation.rename && typeof copy.id === 'string')
        copy.id = `${copy.id.slice(0, 50)}-copy${siblings.length}`;
      siblings.push(copy);
      return root;
    }
    case 'deepen': {
      const path = pick(nodePaths(root), mutation.at);
      if (!path) return root;
      let wrapped = getAt(root, path);
      for (let level = 0; level < mutation.levels; level += 1)
        wrapped = {
          id: `wrap${level}x${path.length}`,
          type: mutation.layout,
          props: {},
          children: [wrapped],
        };
      return setAt(root, path, wrapped);
    }
    case 'prototypeKey': {
      const objects = paths(root).filter((p) => {
        const value = getAt(root, p);
        return isContainer(value) && !Array.isArray(value);
      });
      const path = pick(objects, mutation.at);
      if (!path) return root;
      const target = getAt(root, path);
      // Built from text, as a decoder would: the key is an own property, not a prototype assignment.
      const body = JSON.stringify(target).slice(1);
      const withKey = JSON.parse(
        `{${JSON.stringify(mutation.key)}:${JSON.stringify(mutation.value ?? null)}${body === '}' ? '' : ','}${body}`,
      );
      return setAt(root, path, withKey);
    }
    case 'hostile': {
      const path = pick(paths(root), mutation.at);
      if (!path) return root;
      return setAt(root, path, hostileValue(mutation.value, root));
    }
  }
}

/** Values a JSON decoder never produces; the safe-JSON check (§8–§9) must refuse them, not crash on them. */
function hostileValue(kind: Extract<Mutation, { kind: 'hostile' }>['value'], root: J): unknown {
  switch (kind) {
    case 'cycle': {
      const cyclic: J = { id: 'cyclic', type: 'Column', props: {}, children: [] };
      cyclic.children.push(cyclic);
      return cyclic;
    }
    case 'getter':
      return Object.defineProperty({}, 'text', {
        enumerable: true,
        get() {
          throw new Error('getter was read');
        },
      });
    case 'sparse':
      // biome-ignore lint/suspicious/noSparseArray: a hole is exactly what is being tested.
      return [1, , 3];
    case 'map':
      return new Map([['text', 'x']]);
    case 'date':
      return new Date(0);
    case 'bigint':
      return 10n;
    case 'undefined':
      return undefined;
    case 'nan':
      return Number.NaN;
    case 'function':
      return () => root;
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: jsonValue }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), rename: fc.boolean() }),
  fc.record({
    kind: fc.constant('deepen' as const),
    at: fc.nat(),
    levels: fc.integer({ min: 1, max: 20 }),
    layout: fc.constantFrom('Column', 'Row', 'Card', 'Grid', 'Form'),
  }),
  fc.record({
    kind: fc.constant('prototypeKey' as const),
    at: fc.nat(),
    key: fc.constantFrom('__proto__', 'constructor', 'prototype'),
    value: jsonValue,
  }),
);

const hostileArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constant('hostile' as const),
  at: fc.nat(),
  value: fc.constantFrom(
    'cycle',
    'getter',
    'sparse',
    'map',
    'date',
    'bigint',
    'undefined',
    'nan',
    'function',
  ),
});

function mutated(fixture: number, mutations: readonly Mutation[]): unknown {
  let document: J = clone(FIXTURES[fixture]);
  for (const mutation of mutations) document = applyMutation(document, mutation);
  return document;
}

/** Parses once under the properties every input must satisfy; returns the document when accepted. */
function parseChecked(input: unknown): unknown {
  const started = Date.now();
  let parsed: unknown;
  let failure: unknown;
  try {
    parsed = parseDocument(input);
  } catch (error) {
    failure = error;
  }
  expect(Date.now() - started).toBeLessThan(MAX_PARSE_MILLISECONDS);
  if (failure !== undefined) {
    expect(failure).toBeInstanceOf(UISchemaError);
    const { issues } = failure as UISchemaError;
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.length).toBeLessThanOrEqual(20);
    for (const { path, message } of issues) {
      expect(path.length).toBeLessThanOrEqual(512);
      expect(message.length).toBeLessThanOrEqual(300);
    }
    return undefined;
  }
  return parsed;
}

const prototypeNames = (prototype: object) => Object.getOwnPropertyNames(prototype).sort();
const OBJECT_PROTOTYPE_NAMES = prototypeNames(Object.prototype);
const ARRAY_PROTOTYPE_NAMES = prototypeNames(Array.prototype);

describe('parseDocument properties', () => {
  let accepted = 0;
  let rejected = 0;

  beforeEach(() => {
    accepted = 0;
    rejected = 0;
  });

  afterEach(() => {
    // Never pollutes shared prototypes, whatever the input carried.
    expect(prototypeNames(Object.prototype)).toEqual(OBJECT_PROTOTYPE_NAMES);
    expect(prototypeNames(Array.prototype)).toEqual(ARRAY_PROTOTYPE_NAMES);
    expect(({} as J).polluted).toBeUndefined();
  });

  it('accepts every fixture unchanged by the generators (sanity)', () => {
    for (const fixture of FIXTURES) expect(parseChecked(clone(fixture))).toBeDefined();
  });

  it('mutated fixtures only ever throw UISchemaError, and accepted ones are stable', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: FIXTURES.length - 1 }),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }),
        (fixture, mutations) => {
          const parsed = parseChecked(mutated(fixture, mutations));
          if (parsed === undefined) {
            rejected += 1;
            return;
          }
          accepted += 1;
          expectDeepFrozen(parsed);
          expect(parseDocument(parsed)).toEqual(parsed);
        },
      ),
      { numRuns: 2_000 },
    );
    // The generators reach both sides of the boundary.
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it('values a JSON decoder never produces are rejected as UISchemaError', () => {
    fc.assert(
      fc.property(fc.nat({ max: FIXTURES.length - 1 }), hostileArbitrary, (fixture, mutation) => {
        expect(parseChecked(mutated(fixture, [mutation]))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('own "__proto__" and "constructor" keys never reach a prototype', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: FIXTURES.length - 1 }),
        fc.nat(),
        fc.constantFrom('__proto__', 'constructor', 'prototype'),
        (fixture, at, key) => {
          const input = mutated(fixture, [
            { kind: 'prototypeKey', at, key, value: { polluted: true, toString: 'x', isAdmin: true } },
          ]);
          const parsed = parseChecked(input);
          // A prototype-named key is an unknown property or a forbidden identifier wherever it lands.
          expect(parsed).toBeUndefined();
          expect(({} as J).isAdmin).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('arbitrary JSON values are accepted or rejected, never crash', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseChecked(value);
        if (parsed !== undefined) expect(parseDocument(parsed)).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });

  it('deep nesting well past the limits finishes quickly', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: FIXTURES.length - 1 }),
        fc.integer({ min: 17, max: 400 }),
        (fixture, levels) => {
          const input = mutated(fixture, [{ kind: 'deepen', at: 0, levels, layout: 'Column' }]);
          expect(parseChecked(input)).toBeUndefined();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('accepted mutations stay valid after a second parse of a fresh copy', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: FIXTURES.length - 1 }),
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), rename: fc.constant(true) }),
            fc.record({
              kind: fc.constant('deepen' as const),
              at: fc.nat(),
              levels: fc.integer({ min: 1, max: 3 }),
              layout: fc.constantFrom('Column', 'Row', 'Card', 'Grid'),
            }),
          ),
          { minLength: 1, maxLength: 2 },
        ),
        (fixture, mutations) => {
          const input = mutated(fixture, mutations);
          const snapshot = clone(input);
          const parsed = parseChecked(input);
          // Parsing never changes its input.
          expect(input).toEqual(snapshot);
          if (parsed !== undefined) expect(parseDocument(clone(parsed))).toEqual(parsed);
        },
      ),
      { numRuns: 200 },
    );
  });
});
