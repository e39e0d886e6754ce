import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codesAndPaths } from '../../test/utils.js';
import { UISchemaError } from '../errors/errors.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { canonicalJSONString, hashCanonicalJSON } from './canonical.js';

/** Rebuilds every object of a JSON value with its keys inserted in reverse (integer-like keys still list first). */
function reverseKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeyOrder);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(copy, key, {
      value: reverseKeyOrder((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
 * True when every object in the JSON text lists its keys in strictly increasing UTF-16 code unit order. Reads
 * the text itself, because JSON.parse would move integer-like keys first again.
 */
function keysSortedInText(text: string): boolean {
  const keysByLevel: string[][] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '{' || char === '[') keysByLevel.push([]);
    else if (char === '}' || char === ']') keysByLevel.pop();
    else if (char === '"') {
      let end = index + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = keysByLevel[keysByLevel.length - 1];
      if (text[end + 1] === ':' && keys !== undefined) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        const previous = keys[keys.length - 1];
        if (previous !== undefined && !(previous < key)) return false;
        keys.push(key);
      }
      index = end;
    }
  }
  return true;
}

describe('canonicalJSONString', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJSONString({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
    expect(canonicalJSONString({ z: { y: 1, x: [{ d: 0, c: 0 }] }, a: {} })).toBe(
      '{"a":{},"z":{"x":[{"c":0,"d":0}],"y":1}}',
    );
  });

  it('orders keys by UTF-16 code units, not by property order or locale', () => {
    // Object.keys lists "2" before "10"; code units put "10" first. "Z" < "a" < "é" < "😀" (D83D) < "\uffff".
    const value = { '2': 0, '10': 0, a: 0, Z: 0, é: 0, '\uffff': 0, '😀': 0, '': 0 };
    expect(canonicalJSONString(value)).toBe('{"":0,"10":0,"2":0,"Z":0,"a":0,"é":0,"😀":0,"\uffff":0}');
  });

  it('writes strings and numbers exactly as JSON.stringify does', () => {
    const values = ['a "q" \\ \n \u0001 \u007f é 😀 \ud83d', -0, 1e21, 1.5e-7, 0.1, -123.456, 5e-324, true];
    for (const value of values) expect(canonicalJSONString(value)).toBe(JSON.stringify(value));
  });

  it('throws UISchemaError with a located issue for what is not safe JSON', () => {
    let error: unknown;
    try {
      canonicalJSONString({ a: [1, () => 0] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UISchemaError);
    expect(codesAndPaths((error as UISchemaError).issues)).toEqual([{ code: 'invalid_json', path: 'a[1]' }]);
  });

  it('applies the document budget by default, or the given one', () => {
    expect(() => canonicalJSONString('x'.repeat(UI_LIMITS.maxDocumentBytes))).toThrow(UISchemaError);
    expect(() => canonicalJSONString([1, 2, 3], { maxBytes: 100, maxDepth: 1, maxValues: 3 })).toThrow(
      UISchemaError,
    );
    expect(canonicalJSONString([1, 2], { maxBytes: 5, maxDepth: 1, maxValues: 3 })).toBe('[1,2]');
  });

  it('round-trips arbitrary JSON with keys in sorted order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJSONString(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(keysSortedInText(text)).toBe(true);
        expect(canonicalJSONString(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('hashCanonicalJSON', () => {
  it('is the SHA-256 of the canonical text (known vector)', () => {
    // printf '%s' '{"a":[true,null,"x"],"b":1}' | sha256sum
    expect(hashCanonicalJSON({ b: 1, a: [true, null, 'x'] })).toBe(
      '54a65415ad370228851a1da4b31b6fd42dc58b19a50d35cae759325f7388ce64',
    );
    // The empty object, a second independent vector: printf '%s' '{}' | sha256sum
    expect(hashCanonicalJSON({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });

  it('hashes UTF-8 text: non-ASCII keys and values are bytes, not code units', () => {
    expect(hashCanonicalJSON({ é: '€' })).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCanonicalJSON({ é: '€' })).not.toBe(hashCanonicalJSON({ e: '€' }));
  });

  it('never depends on key order, and is 64 lowercase hex characters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const hash = hashCanonicalJSON(value);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(hashCanonicalJSON(reverseKeyOrder(value))).toBe(hash);
      }),
      { numRuns: 200 },
    );
  });

  it('throws UISchemaError for what is not safe JSON', () => {
    expect(() => hashCanonicalJSON({ a: undefined })).toThrow(UISchemaError);
  });
});
