import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaFromZod } from '../json/zod-json-schema.js';
import { describeRefusedPlaces, refusedPlaceSentence, schemaWants } from './refused-places.js';

const notes = jsonSchemaFromZod(
  z.strictObject({
    text: z.string().min(1).max(500),
    count: z.int().min(1),
    ratio: z.number().gt(0).lt(1),
    tags: z.array(z.string()).max(3),
    pair: z.tuple([z.string(), z.int()]),
    kind: z.enum(['a', 'b']),
    fixed: z.literal('x'),
    maybe: z.string().nullable(),
    code: z.string().regex(/^[A-Z]{3}$/),
    when: z.iso.datetime(),
    extra: z.record(z.string(), z.boolean()),
  }),
  { io: 'input' },
);

describe('schemaWants', () => {
  it.each([
    ['text', 'missing_property', 'expected string'],
    ['count', 'invalid_type', 'expected integer'],
    ['count', 'not_integer', 'expected integer'],
    ['count', 'number_out_of_range', 'at least 1'],
    ['ratio', 'number_out_of_range', 'above 0 and below 1'],
    ['text', 'string_too_short', '1 to 500 characters'],
    ['tags', 'too_many', 'at most 3 items'],
    ['tags[2]', 'invalid_type', 'expected string'],
    ['pair[1]', 'invalid_type', 'expected integer'],
    ['kind', 'invalid_value', 'expected one of "a", "b"'],
    ['kind', 'missing_property', 'expected one of "a", "b"'],
    ['fixed', 'invalid_value', 'expected "x"'],
    ['maybe', 'invalid_type', 'expected string or null'],
    ['code', 'invalid_value', 'matching ^[A-Z]{3}$'],
    ['extra.any', 'invalid_type', 'expected boolean'],
    ['extra[*]', 'invalid_type', 'expected boolean'],
    ['$', 'invalid_type', 'expected object'],
  ] as const)('%s %s → %s', (path, code, wants) => {
    expect(schemaWants(notes, { path, code })).toBe(wants);
  });

  it('names what an object has when a key is not in it, or says it has none', () => {
    expect(schemaWants(notes, { path: 'secret', code: 'unknown_property' })).toBe(
      'not in the schema, which has: text, count, ratio, tags, pair, kind, fixed, maybe and 3 more',
    );
    expect(schemaWants({ type: 'object' }, { path: '[*]', code: 'unknown_property' })).toBe(
      'not in the schema',
    );
  });

  it('follows local references, and says nothing it cannot read simply', () => {
    const tree = {
      $ref: '#/$defs/node',
      $defs: {
        node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, n: { type: 'integer' } } },
      },
    };
    expect(schemaWants(tree, { path: 'next.next.n', code: 'invalid_type' })).toBe('expected integer');
    expect(schemaWants(tree, { path: 'next.gone', code: 'invalid_type' })).toBeUndefined();
    expect(
      schemaWants({ $ref: 'https://example.com/x' }, { path: '$', code: 'invalid_type' }),
    ).toBeUndefined();
    expect(schemaWants(notes, { path: 'text..x', code: 'invalid_type' })).toBeUndefined();
    expect(schemaWants(notes, { path: 'text', code: 'duplicate_id' })).toBeUndefined();
    expect(schemaWants(true, { path: 'a', code: 'invalid_type' })).toBeUndefined();
  });

  it('is bounded whatever the schema holds', () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'k'.repeat(200)}${i}`, {}])),
    };
    const wants = schemaWants(wide, { path: 'x', code: 'unknown_property' }) ?? '';
    expect(wants.length).toBeLessThan(8 * 66 + 80);
    expect(wants).toMatch(/and 42 more$/);
  });
});

describe('describeRefusedPlaces and refusedPlaceSentence', () => {
  const output = jsonSchemaFromZod(z.strictObject({ count: z.int().min(1) }), { io: 'output' });

  it('names every place with its code and what the schema wants, the value itself by its root', () => {
    expect(
      describeRefusedPlaces(
        output,
        [
          { path: 'count', code: 'missing_property' },
          { path: 'total', code: 'unknown_property' },
        ],
        '(result)',
      ),
    ).toBe(
      'count: missing_property (expected integer); total: unknown_property (not in the schema, which has: count)',
    );
    expect(describeRefusedPlaces(output, [{ path: '$', code: 'invalid_type' }], '(result)')).toBe(
      '(result): invalid_type (expected object)',
    );
  });

  it('names three and counts the rest', () => {
    const places = ['a', 'b', 'c', 'd'].map((path) => ({ path, code: 'unknown_property' as const }));
    expect(describeRefusedPlaces(output, places, '(result)', 2)).toMatch(
      /^a: .*; b: .*; c: .* \(and 3 more\)$/,
    );
  });

  it('says each place in a sentence for the wire', () => {
    expect(refusedPlaceSentence('missing_property', 'expected integer')).toBe('Required: expected integer.');
    expect(refusedPlaceSentence('unknown_property', undefined)).toBe('Not in the schema.');
    expect(refusedPlaceSentence('unknown_property', 'not in the schema, which has: count')).toBe(
      'Not in the schema, which has: count.',
    );
    expect(refusedPlaceSentence('duplicate_id', undefined)).toBe('Not allowed by the schema.');
  });
});
