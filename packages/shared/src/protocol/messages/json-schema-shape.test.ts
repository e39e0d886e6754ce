/**
 * Carried JSON Schemas (seed 000 §5.2 `input_schema`; seed 003 §4.1 input and output schemas): closed keyword
 * list, values of the right kind, local references only, bounded size.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codesAndPaths } from '../../../test/utils.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { messageBudget, parseShape } from '../../json/parse.js';
import { JSON_SCHEMA_DIALECTS, JSON_SCHEMA_KEYWORDS, jsonSchemaObject } from './json-schema-shape.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build arbitrary (often invalid) JSON on purpose.
type J = any;

const MAX_BYTES = 4_096;
const inputSchema = jsonSchemaObject({ maxBytes: MAX_BYTES, what: 'An input schema', objectRoot: true });
const anySchema = jsonSchemaObject({ maxBytes: MAX_BYTES, what: 'An output schema' });
const parse = (schema: typeof anySchema, input: unknown) =>
  parseShape(schema, input, { budget: messageBudget(MAX_BYTES * 2) }, LineUpProtocolError);

function issuesOf(schema: typeof anySchema, input: unknown): { code: string; path: string }[] {
  try {
    parse(schema, input);
  } catch (error) {
    if (error instanceof LineUpProtocolError) return codesAndPaths(error.issues);
    throw error;
  }
  return [];
}

const REJECT: [rule: string, input: J, code: UIIssueCode, path: string][] = [
  ['a keyword outside the list', { type: 'object', handler: 'run' }, 'unknown_property', '$'],
  [
    'a nested keyword outside the list',
    { type: 'object', properties: { a: { type: 'string', script: 'x' } } },
    'unknown_property',
    'properties.a',
  ],
  [
    'a keyword in a definition',
    { type: 'object', $defs: { A: { eval: '1' } } },
    'unknown_property',
    '$defs.A',
  ],
  [
    'a keyword under items',
    { type: 'object', properties: { a: { type: 'array', items: { js: 'x' } } } },
    'unknown_property',
    'properties.a.items',
  ],
  [
    'a keyword under anyOf',
    { type: 'object', anyOf: [{ type: 'object' }, { code: 'x' }] },
    'unknown_property',
    'anyOf[1]',
  ],
  ['an unknown type', { type: 'function' }, 'invalid_value', 'type'],
  ['a type list with a duplicate', { type: ['string', 'string'] }, 'invalid_value', 'type[1]'],
  ['an empty type list', { type: [] }, 'invalid_value', 'type'],
  ['required not a list', { type: 'object', required: 'a' }, 'invalid_type', 'required'],
  ['required with a duplicate', { type: 'object', required: ['a', 'a'] }, 'duplicate_id', 'required[1]'],
  ['required with a number', { type: 'object', required: [1] }, 'invalid_type', 'required[0]'],
  ['properties a list', { type: 'object', properties: [] }, 'invalid_type', 'properties'],
  [
    'a property schema a string',
    { type: 'object', properties: { a: 'string' } },
    'invalid_type',
    'properties.a',
  ],
  ['an empty anyOf', { type: 'object', anyOf: [] }, 'too_few', 'anyOf'],
  ['maxLength negative', { type: 'string', maxLength: -1 }, 'invalid_value', 'maxLength'],
  ['maxLength fractional', { type: 'string', maxLength: 1.5 }, 'invalid_value', 'maxLength'],
  ['multipleOf zero', { type: 'number', multipleOf: 0 }, 'number_out_of_range', 'multipleOf'],
  ['minimum a string', { type: 'number', minimum: '1' }, 'invalid_type', 'minimum'],
  ['enum not a list', { enum: 'a' }, 'invalid_type', 'enum'],
  ['a remote $ref', { $ref: 'https://example.com/schema.json' }, 'invalid_value', '$ref'],
  ['an unknown dialect', { $schema: 'https://example.com/meta' }, 'invalid_value', '$schema'],
  ['a schema over its size', { description: 'd'.repeat(MAX_BYTES) }, 'too_large', '$'],
];

describe('carried JSON Schemas', () => {
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      expect(issuesOf(anySchema, input)).toContainEqual({ code, path });
    });
  }

  it('requires "type": "object" at the root of an input schema', () => {
    expect(issuesOf(inputSchema, { properties: {} })).toContainEqual({
      code: 'missing_property',
      path: 'type',
    });
    expect(issuesOf(inputSchema, { type: 'string' })).toContainEqual({ code: 'invalid_value', path: 'type' });
    expect(issuesOf(inputSchema, { type: 'object' })).toEqual([]);
  });

  it('accepts property names that look like code: they are data, not keywords', () => {
    expect(
      issuesOf(anySchema, { type: 'object', properties: { handler: { type: 'string' }, js: true } }),
    ).toEqual([]);
  });

  it('accepts any JSON in const, default, enum and examples', () => {
    const schema = { const: { a: [1] }, default: null, enum: [1, 'a', { b: 2 }], examples: [[]] };
    expect(issuesOf(anySchema, schema)).toEqual([]);
  });

  it('accepts what z.toJSONSchema emits, in both dialects', () => {
    const shape = z.strictObject({
      minutes: z.int().min(1).max(120),
      label: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[a-z]+$/)
        .optional(),
      mode: z.enum(['focus', 'break']),
      tags: z.array(z.string()).max(8),
      tuple: z.tuple([z.string(), z.number()]),
      weights: z.record(z.string(), z.number().positive()),
      either: z.union([z.string(), z.null()]),
      at: z.iso.datetime(),
      fixed: z.literal('x'),
      nested: z.object({ deep: z.boolean().default(false) }).describe('A nested object'),
    });
    for (const target of ['draft-2020-12', 'draft-7'] as const) {
      // JSON text, as the build writes it (z.toJSONSchema also attaches a non-enumerable `~standard`).
      const text = JSON.stringify(z.toJSONSchema(shape, { target }));
      expect(issuesOf(inputSchema, JSON.parse(text))).toEqual([]);
    }
  });

  it('lists every dialect and keyword once', () => {
    expect(new Set(JSON_SCHEMA_KEYWORDS).size).toBe(JSON_SCHEMA_KEYWORDS.length);
    expect(JSON_SCHEMA_DIALECTS).toContain('https://json-schema.org/draft/2020-12/schema');
  });

  it('never echoes the unknown keyword', () => {
    try {
      parse(anySchema, { zzInjectedKeyword: 1 });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('zzInjected');
      return;
    }
    throw new Error('expected a rejection');
  });
});
