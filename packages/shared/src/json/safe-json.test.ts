import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codesAndPaths, throwingGetter } from '../../test/utils.js';
import { UISchemaError } from '../errors/errors.js';
import { IssueCollector, type IssuePath, type UIIssueCode } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import {
  assertSafeJSON,
  DOCUMENT_JSON_BUDGET,
  jsonByteLength,
  measureSafeJSON,
  type SafeJSONBudget,
  utf8ByteLength,
} from './safe-json.js';

// The package typechecks with `lib: ES2023` and no ambient types (runtime-neutral); Node has TextEncoder.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };
const encoder = new TextEncoder();
const stringifiedBytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;

const GENEROUS: SafeJSONBudget = { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 1_000, maxValues: 1e9 };

function measure(input: unknown, budget: SafeJSONBudget = GENEROUS, path?: IssuePath) {
  const issues = new IssueCollector();
  const bytes = measureSafeJSON(input, budget, issues, path);
  return { bytes, issues: codesAndPaths(issues.issues) };
}

function nested(depth: number, leaf: unknown = 0): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

class Point {
  x = 1;
}
class CustomArray extends Array<number> {}

const sparse: number[] = [1];
sparse[2] = 3;

const self: Record<string, unknown> = { a: 1 };
self.self = self;
const loop: Record<string, unknown> = {};
loop.b = { c: [loop] };
const selfArray: unknown[] = [];
selfArray.push(1, selfArray);

const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();

interface RejectionRow {
  rule: string;
  input: () => unknown;
  code: UIIssueCode;
  path: string;
}

// seed 002 §8/§11: only plain, dense, getter-free JSON data passes; one row per rule, with where it points.
const REJECTIONS: RejectionRow[] = [
  { rule: 'undefined at the root', input: () => undefined, code: 'invalid_json', path: '$' },
  { rule: 'undefined property', input: () => ({ a: undefined }), code: 'invalid_json', path: 'a' },
  { rule: 'undefined element', input: () => [1, undefined], code: 'invalid_json', path: '[1]' },
  { rule: 'function', input: () => ({ f: () => 1 }), code: 'invalid_json', path: 'f' },
  { rule: 'symbol value', input: () => ({ s: Symbol('s') }), code: 'invalid_json', path: 's' },
  { rule: 'bigint', input: () => ({ n: 1n }), code: 'invalid_json', path: 'n' },
  { rule: 'NaN', input: () => ({ n: Number.NaN }), code: 'invalid_json', path: 'n' },
  { rule: 'Infinity', input: () => [Number.POSITIVE_INFINITY], code: 'invalid_json', path: '[0]' },
  { rule: '-Infinity', input: () => ({ a: { b: -Infinity } }), code: 'invalid_json', path: 'a.b' },
  { rule: 'Date', input: () => ({ at: new Date(0) }), code: 'invalid_json', path: 'at' },
  { rule: 'Map', input: () => ({ m: new Map() }), code: 'invalid_json', path: 'm' },
  { rule: 'Set', input: () => [new Set()], code: 'invalid_json', path: '[0]' },
  { rule: 'RegExp', input: () => ({ r: /x/ }), code: 'invalid_json', path: 'r' },
  { rule: 'class instance', input: () => ({ p: new Point() }), code: 'invalid_json', path: 'p' },
  { rule: 'boxed string', input: () => ({ s: Object('x') }), code: 'invalid_json', path: 's' },
  { rule: 'boxed number', input: () => ({ n: Object(1) }), code: 'invalid_json', path: 'n' },
  { rule: 'boxed boolean', input: () => ({ b: Object(true) }), code: 'invalid_json', path: 'b' },
  { rule: 'typed array', input: () => ({ t: new Uint8Array(2) }), code: 'invalid_json', path: 't' },
  {
    rule: 'object with a non-plain prototype',
    input: () => ({ o: Object.create({}) }),
    code: 'invalid_json',
    path: 'o',
  },
  { rule: 'arguments object', input: () => ({ a: argumentsOf(1, 2) }), code: 'invalid_json', path: 'a' },
  { rule: 'array subclass', input: () => ({ a: CustomArray.from([1]) }), code: 'invalid_json', path: 'a' },
  {
    rule: 'array with another prototype',
    input: () => ({ a: Object.setPrototypeOf([1], Object.prototype) }),
    code: 'invalid_json',
    path: 'a',
  },
  { rule: 'sparse array', input: () => ({ list: sparse }), code: 'invalid_json', path: 'list' },
  {
    rule: 'array with a hole at the end',
    input: () => ({ list: new Array(2) }),
    code: 'invalid_json',
    path: 'list',
  },
  {
    rule: 'array with an extra enumerable property',
    input: () => ({ list: Object.assign([1, 2], { extra: true }) }),
    code: 'invalid_json',
    path: 'list',
  },
  {
    rule: 'array with a hole and an extra property (equal key count)',
    input: () => ({ list: Object.assign(sparse.slice(), { extra: true }) }),
    code: 'invalid_json',
    path: 'list',
  },
  {
    rule: 'array with an extra non-enumerable property',
    input: () => ({ list: Object.defineProperty([1], 'hidden', { value: 1 }) }),
    code: 'invalid_json',
    path: 'list',
  },
  {
    rule: 'array with a symbol-keyed property',
    input: () => ({ list: Object.assign([1], { [Symbol('s')]: 1 }) }),
    code: 'invalid_json',
    path: 'list',
  },
  {
    rule: 'array element getter',
    input: () => ({ list: Object.defineProperty([1, 2], 1, { get: throwingGetter, enumerable: true }) }),
    code: 'invalid_json',
    path: 'list[1]',
  },
  {
    rule: 'array element setter without getter',
    input: () => ({ list: Object.defineProperty([1], 0, { set: () => {}, enumerable: true }) }),
    code: 'invalid_json',
    path: 'list[0]',
  },
  {
    rule: 'object getter',
    input: () => ({
      props: Object.defineProperty({ a: 1 }, 'b', { get: throwingGetter, enumerable: true }),
    }),
    code: 'invalid_json',
    path: 'props.b',
  },
  {
    rule: 'object setter',
    input: () => ({ props: Object.defineProperty({}, 'b', { set: () => {}, enumerable: true }) }),
    code: 'invalid_json',
    path: 'props.b',
  },
  {
    rule: 'symbol-keyed property',
    input: () => ({ props: { a: 1, [Symbol('s')]: 2 } }),
    code: 'invalid_json',
    path: 'props',
  },
  {
    rule: 'non-enumerable property',
    input: () => ({ props: Object.defineProperty({ a: 1 }, 'hidden', { value: 2 }) }),
    code: 'invalid_json',
    path: 'props',
  },
  { rule: 'cycle through an object', input: () => self, code: 'invalid_json', path: 'self' },
  { rule: 'longer cycle', input: () => ({ root: loop }), code: 'invalid_json', path: 'root.b.c[0]' },
  { rule: 'cycle through an array', input: () => selfArray, code: 'invalid_json', path: '[1]' },
  {
    rule: 'Proxy whose trap throws',
    input: () => ({
      p: new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
    }),
    code: 'invalid_json',
    path: 'p',
  },
  { rule: 'revoked Proxy', input: () => [revoked], code: 'invalid_json', path: '[0]' },
  {
    rule: 'deep offending path',
    input: () => deepOffender(),
    code: 'invalid_json',
    path: 'root.children[1].props.x',
  },
  {
    rule: 'odd key in a path',
    input: () => ({ 'a b': { 'c.d': undefined } }),
    code: 'invalid_json',
    path: '["a b"]["c.d"]',
  },
];

function argumentsOf(..._values: number[]): unknown {
  // biome-ignore lint/complexity/noArguments: the arguments object is the value under test
  return arguments;
}

function deepOffender(): unknown {
  return { root: { children: [{ props: {} }, { props: { ok: 'yes', x: undefined } }] } };
}

describe('measureSafeJSON rejects everything that is not plain JSON data', () => {
  it.each(REJECTIONS)('$rule → $code at $path', ({ input, code, path }) => {
    const result = measure(input());
    expect(result.bytes).toBeUndefined();
    expect(result.issues).toEqual([{ code, path }]);
  });

  it('puts issues under the given base path', () => {
    expect(measure({ a: undefined }, GENEROUS, ['snapshot']).issues).toEqual([
      { code: 'invalid_json', path: 'snapshot.a' },
    ]);
    expect(measure({ a: 'x'.repeat(10) }, { ...GENEROUS, maxBytes: 5 }, ['snapshot']).issues).toEqual([
      { code: 'too_large', path: 'snapshot' },
    ]);
  });

  it('keeps walking after an invalid value and reports several', () => {
    expect(measure({ a: undefined, b: [Number.NaN, 1, () => 0], c: 'ok' }).issues).toEqual([
      { code: 'invalid_json', path: 'a' },
      { code: 'invalid_json', path: 'b[0]' },
      { code: 'invalid_json', path: 'b[2]' },
    ]);
  });

  it('stops once the collector is full', () => {
    const issues = new IssueCollector(undefined, 2);
    expect(measureSafeJSON([undefined, undefined, undefined, undefined], GENEROUS, issues)).toBeUndefined();
    expect(issues.issues.map((issue) => issue.path)).toEqual(['[0]', '[1]']);
  });

  it('reports no key names or values in its messages', () => {
    const secret = 'secret_name_42';
    const result = new IssueCollector();
    measureSafeJSON({ [secret]: Symbol(secret), [`${secret}x`]: new Date(0) }, GENEROUS, result);
    for (const issue of result.issues) expect(issue.message).not.toContain(secret);
  });

  it('is invalid without a cycle when a shared (acyclic) object repeats', () => {
    const shared = { a: [1, 2] };
    const value = { x: shared, y: [shared, shared] };
    expect(measure(value).bytes).toBe(stringifiedBytes(value));
  });
});

describe('measureSafeJSON accepts plain JSON data', () => {
  it.each([
    ['null', null],
    ['booleans', [true, false]],
    ['empty containers', { a: {}, b: [], c: [[]] }],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 })],
    ['frozen values', Object.freeze({ a: Object.freeze([1, 'x']) })],
    ['a decoded __proto__ key', JSON.parse('{"__proto__":{"polluted":true},"a":1}')],
    ['integer-like keys', { '10': 1, '2': 2, a: 3 }],
  ])('%s', (_name, value) => {
    expect(measure(value)).toEqual({ bytes: stringifiedBytes(value), issues: [] });
  });
});

describe('byte counts equal the UTF-8 length of JSON.stringify', () => {
  const strings = [
    '',
    'plain ASCII',
    'quote " and backslash \\',
    'controls \b\t\n\f\r\u0000\u0001\u001f and DEL \u007f',
    'Latin é ß, Greek λ, CJK 利率, € sign',
    'astral 😀 and 𝄞',
    'lone high \ud83d in the middle',
    'lone low \ude00 in the middle',
    'ends with a lone high \ud83d',
    '\ude00\ud83d reversed pair',
    '\u2028\u2029 separators',
    '\uffff\ufffe noncharacters',
  ];
  it.each(strings.map((text) => [JSON.stringify(text), text]))('string %s', (_label, text) => {
    expect(measure(text).bytes).toBe(stringifiedBytes(text));
    expect(measure({ [text]: text }).bytes).toBe(stringifiedBytes({ [text]: text }));
  });

  const numbers = [
    0,
    -0,
    7,
    -7,
    10,
    999_999_999,
    1e9,
    2 ** 31 - 1,
    -(2 ** 31),
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1e21,
    1.5e-7,
    1e-7,
    0.000001,
    0.1,
    -123.456,
    5e-324,
    Number.MAX_VALUE,
    -Number.MIN_VALUE,
  ];
  it.each(numbers)('number %d', (value) => {
    expect(measure(value).bytes).toBe(stringifiedBytes(value));
    expect(measure([value, value]).bytes).toBe(stringifiedBytes([value, value]));
  });

  it('for integers at every digit-count boundary', () => {
    for (let power = 1; power <= 1e16; power *= 10) {
      for (const value of [power - 1, power, power + 1, -(power - 1), -power]) {
        expect(measure(value).bytes).toBe(stringifiedBytes(value));
      }
    }
  });

  it('for nested documents', () => {
    const value = {
      version: '1.1',
      title: 'Zinsrechner — 利率',
      state: { rate: { type: 'number', initial: -0, step: 0.25 } },
      root: { type: 'Stack', children: [{ type: 'Text', props: { text: 'a "b" \n c' } }, []] },
    };
    expect(measure(value).bytes).toBe(stringifiedBytes(value));
    expect(jsonByteLength(value)).toBe(stringifiedBytes(value));
  });

  it('for arbitrary JSON values', () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: codeUnit }), fc.string());
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: codeUnit }), text), (value) => {
        expect(measure(value).bytes).toBe(stringifiedBytes(value));
        expect(jsonByteLength(value)).toBe(stringifiedBytes(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('budgets: exactly at the limit passes, one past fails', () => {
  it('bytes (too_large at $)', () => {
    const atLimit = 'x'.repeat(UI_LIMITS.maxDocumentBytes - 2);
    expect(assertSafeJSON(atLimit)).toBe(UI_LIMITS.maxDocumentBytes);
    expect(measure(`${atLimit}x`, DOCUMENT_JSON_BUDGET).issues).toEqual([{ code: 'too_large', path: '$' }]);
    // Multi-byte text: 3 bytes a unit, plus quotes.
    const budget = { ...GENEROUS, maxBytes: 3 * 10 + 2 };
    expect(measure('€'.repeat(10), budget).bytes).toBe(32);
    expect(measure(`${'€'.repeat(10)}x`, budget).issues).toEqual([{ code: 'too_large', path: '$' }]);
  });

  it('bytes stop the walk early, before later values are looked at', () => {
    let visited = 0;
    const later = Object.defineProperty({}, 'a', {
      get: () => visited++,
      enumerable: true,
    });
    const result = measure(['x'.repeat(100), later, undefined], { ...GENEROUS, maxBytes: 50 });
    expect(result.issues).toEqual([{ code: 'too_large', path: '$' }]);
    expect(visited).toBe(0);
  });

  it('depth (too_deep at the first container past the limit)', () => {
    expect(assertSafeJSON(nested(UI_LIMITS.maxJsonDepth))).toBeGreaterThan(0);
    expect(measure(nested(UI_LIMITS.maxJsonDepth + 1), DOCUMENT_JSON_BUDGET).issues).toEqual([
      { code: 'too_deep', path: '[0]'.repeat(UI_LIMITS.maxJsonDepth) },
    ]);
    const budget = { ...GENEROUS, maxDepth: 2 };
    expect(measure({ a: { b: 1 } }, budget).bytes).toBe(stringifiedBytes({ a: { b: 1 } }));
    expect(measure({ a: { b: [] } }, budget).issues).toEqual([{ code: 'too_deep', path: 'a.b' }]);
    // A primitive has depth 0.
    expect(measure(1, { ...GENEROUS, maxDepth: 0 }).bytes).toBe(1);
    expect(measure({}, { ...GENEROUS, maxDepth: 0 }).issues).toEqual([{ code: 'too_deep', path: '$' }]);
  });

  it('depth without recursion: a very deep value is refused, not a stack overflow', () => {
    expect(measure(nested(1_000_000), DOCUMENT_JSON_BUDGET).issues).toEqual([
      { code: 'too_deep', path: '[0]'.repeat(UI_LIMITS.maxJsonDepth) },
    ]);
    expect(() => jsonByteLength(nested(1_000_000))).toThrow(UISchemaError);
  });

  it('values (too_many at $): objects, arrays and primitives count, keys do not', () => {
    // The array plus its elements.
    const atLimit = new Array<number>(UI_LIMITS.maxJsonValues - 1).fill(0);
    expect(assertSafeJSON(atLimit)).toBe(stringifiedBytes(atLimit));
    expect(measure([...atLimit, 0], DOCUMENT_JSON_BUDGET).issues).toEqual([{ code: 'too_many', path: '$' }]);
    const budget = { ...GENEROUS, maxValues: 4 };
    expect(measure({ a: { b: 1, c: null } }, budget).bytes).toBe(stringifiedBytes({ a: { b: 1, c: null } }));
    expect(measure({ a: { b: 1, c: null }, d: 1 }, budget).issues).toEqual([{ code: 'too_many', path: '$' }]);
    expect(measure([[[[]]]], budget).bytes).toBe(8);
    expect(measure([[[[[]]]]], budget).issues).toEqual([{ code: 'too_many', path: '$' }]);
  });

  it('values: a huge array is refused before its keys are listed', () => {
    const huge = new Array<number>(10_000_000);
    expect(measure(huge, DOCUMENT_JSON_BUDGET).issues).toEqual([{ code: 'too_many', path: '$' }]);
  });

  it('values bound an exponential value built from shared references', () => {
    let value: unknown = 0;
    for (let level = 0; level < 64; level++) value = [value, value];
    expect(measure(value, DOCUMENT_JSON_BUDGET).issues).toEqual([{ code: 'too_many', path: '$' }]);
  });

  it('a cycle deeper than the depth budget is reported as too_deep', () => {
    const head: { next?: unknown } = {};
    let tail = head;
    for (let level = 0; level < 10; level++) {
      const next = {};
      tail.next = next;
      tail = next;
    }
    tail.next = head;
    expect(measure(head, { ...GENEROUS, maxDepth: 5 }).issues.map((issue) => issue.code)).toEqual([
      'too_deep',
    ]);
  });
});

describe('never runs code of the input', () => {
  it('does not invoke getters, toJSON or valueOf', () => {
    let calls = 0;
    const count = (): number => {
      calls++;
      return 1;
    };
    const object = Object.defineProperty({}, 'a', { get: count, enumerable: true });
    const array = Object.defineProperty([0], 0, { get: count, enumerable: true });
    const withToJSON = { toJSON: count };
    const boxed = { n: Object.assign(Object(1), { valueOf: count, toString: count }) };
    for (const value of [object, array, withToJSON, boxed, [object], { array }]) {
      expect(measure(value).bytes).toBeUndefined();
    }
    expect(calls).toBe(0);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withObjectString: true,
          withNullPrototype: true,
          withBigInt: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
          withUnicodeString: true,
        }),
        (value) => {
          const result = measure(value);
          if (result.bytes !== undefined) expect(result.bytes).toBe(stringifiedBytes(value));
          else expect(result.issues.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never pollutes Object.prototype', () => {
    const before = Object.getOwnPropertyNames(Object.prototype);
    const hostile = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    expect(assertSafeJSON(hostile)).toBe(stringifiedBytes(hostile));
    expect(jsonByteLength(hostile)).toBe(stringifiedBytes(hostile));
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('assertSafeJSON (seed 002 §8)', () => {
  it('returns the UTF-8 byte length of valid JSON', () => {
    expect(assertSafeJSON({ a: [1, 'é'] })).toBe(stringifiedBytes({ a: [1, 'é'] }));
  });

  it('throws UISchemaError with located issues', () => {
    let error: unknown;
    try {
      assertSafeJSON({ a: [1, undefined] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UISchemaError);
    expect(codesAndPaths((error as UISchemaError).issues)).toEqual([{ code: 'invalid_json', path: 'a[1]' }]);
  });

  it('takes a budget', () => {
    expect(() => assertSafeJSON([1, 2], { ...GENEROUS, maxValues: 2 })).toThrow(UISchemaError);
  });
});

describe('utf8ByteLength', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud83d', 3],
    ['\ude00x', 4],
    ['a\ud83d\ude00b', 6],
  ])('%j is %d bytes', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
    expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
  });

  it('matches TextEncoder, lone surrogates included (as U+FFFD)', () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: codeUnit }), fc.string({ unit: 'binary' })), (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
    );
  });
});

describe('jsonByteLength', () => {
  it('throws UISchemaError for a value that is not JSON data', () => {
    expect(() => jsonByteLength({ a: new Date(0) })).toThrow(UISchemaError);
    expect(() => jsonByteLength(self)).toThrow(UISchemaError);
  });

  it('checks no document budget', () => {
    const large = 'x'.repeat(UI_LIMITS.maxDocumentBytes * 2);
    expect(jsonByteLength(large)).toBe(large.length + 2);
  });
});
