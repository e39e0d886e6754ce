import { describe, expect, it } from 'vitest';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { definitionName, describeObject, describeProperties, describeSchema } from './schema-notation.js';

describe('describeSchema', () => {
  it.each([
    ['a reference', { $ref: '#/$defs/Value' }, 'Value'],
    ['a versioned node reference', { $ref: '#/$defs/NodeV1_1' }, 'Node'],
    ['the 1.0 action reference', { $ref: '#/$defs/LocalAction' }, 'Action'],
    ['an anonymous zod definition', { $ref: '#/$defs/__schema0' }, 'JSON'],
    ['a string constant', { type: 'string', const: 'add' }, '"add"'],
    ['an enum', { type: 'string', enum: ['sm', 'md'] }, '"sm" | "md"'],
    ['a union of numeric constants', { anyOf: [{ const: 1 }, { const: 2 }] }, '1 | 2'],
    ['a bounded string', { type: 'string', minLength: 1, maxLength: 512 }, 'string(1–512)'],
    ['a capped string', { type: 'string', maxLength: 512 }, 'string(≤512)'],
    ['a string with a minimum only', { type: 'string', minLength: 1 }, 'string(≥1)'],
    ['a plain string', { type: 'string' }, 'string'],
    [
      'a number within the global bound',
      { type: 'number', minimum: -UI_LIMITS.maxAbsNumber, maximum: UI_LIMITS.maxAbsNumber },
      'number',
    ],
    [
      'a positive number',
      { type: 'number', exclusiveMinimum: 0, maximum: UI_LIMITS.maxAbsNumber },
      'number(>0)',
    ],
    ['a positive capped number', { type: 'number', exclusiveMinimum: 0, maximum: 10 }, 'number(>0, ≤10)'],
    ['a bounded integer', { type: 'integer', minimum: 0, maximum: 6 }, 'integer(0–6)'],
    ['an exact bound', { type: 'integer', minimum: 3, maximum: 3 }, 'integer(3)'],
    ['booleans and null', { anyOf: [{ type: 'boolean' }, { type: 'null' }] }, 'boolean | null'],
    [
      'a bounded array',
      { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 32 },
      'string[1–32]',
    ],
    ['an array of a union', { type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [
      'a closed object',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'boolean' } },
        required: ['a'],
        additionalProperties: false,
      },
      '{ a: string, b?: boolean }',
    ],
    ['an empty closed object', { type: 'object', additionalProperties: false }, '{}'],
    [
      'a dictionary',
      {
        type: 'object',
        propertyNames: { $ref: '#/$defs/Identifier' },
        additionalProperties: { $ref: '#/$defs/Scalar' },
        maxProperties: 64,
      },
      'Record<Identifier, Scalar>(≤64)',
    ],
    [
      'a dictionary with any key',
      { type: 'object', additionalProperties: { type: 'number' } },
      'Record<string, number>',
    ],
    ['something unknown', { type: 'tuple' }, 'unknown'],
    ['not a schema', 'string', 'unknown'],
  ])('renders %s', (_name, schema, expected) => {
    expect(describeSchema(schema)).toBe(expected);
  });

  it('keeps a union inside an object without parentheses', () => {
    const schema = {
      type: 'object',
      properties: { gap: { enum: ['sm', 'md'] } },
      additionalProperties: false,
    };
    expect(describeSchema(schema)).toBe('{ gap?: "sm" | "md" }');
  });
});

describe('describeProperties and describeObject', () => {
  const props = {
    type: 'object',
    properties: { text: { $ref: '#/$defs/Value' }, level: { enum: [1, 2] } },
    required: ['text'],
  };

  it('follows the given order', () => {
    expect(describeProperties(props, ['level', 'text'])).toEqual(['level?: 1 | 2', 'text: Value']);
    expect(describeObject(props, ['level', 'text'])).toBe('{ level?: 1 | 2, text: Value }');
  });

  it('names definitions outside the table by their own name', () => {
    expect(definitionName('#/$defs/ResultFormat')).toBe('ResultFormat');
  });
});
