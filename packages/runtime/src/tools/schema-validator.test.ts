import { isLineUpError } from '@lineup/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchemaUnusableError, type SchemaUnusableReason } from './schema-check.js';
import {
  assertUsableSchema,
  matchesSchema,
  preparedSchemaCount,
  schemaIssues,
  schemaPreparationCount,
} from './schema-validator.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

function refusalOf(schema: object | boolean): { reason: SchemaUnusableReason; pointer: string } | null {
  try {
    assertUsableSchema(schema);
    return null;
  } catch (error) {
    if (!(error instanceof SchemaUnusableError)) throw error;
    return { reason: error.reason, pointer: error.pointer };
  }
}

describe('matchesSchema', () => {
  it('readies a schema once however many copies of it are read', () => {
    const schema = () => ({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    const before = schemaPreparationCount();
    for (let copy = 0; copy < 50; copy++) {
      expect(matchesSchema(schema(), { n: copy })).toBe(true);
      expect(matchesSchema(schema(), { n: 'x' })).toBe(false);
    }
    // Other test files of the worker may have readied this schema already (they share the module): at most once.
    expect(schemaPreparationCount() - before).toBeLessThanOrEqual(1);
    expect(schemaPreparationCount()).toBeGreaterThan(0);
  });

  it('keeps a bounded number of readied schemas', () => {
    for (let index = 0; index < 600; index++)
      expect(matchesSchema({ type: 'integer', minimum: index }, index)).toBe(true);
    expect(preparedSchemaCount()).toBe(512);
    // An evicted schema still validates: it is readied again.
    expect(matchesSchema({ type: 'integer', minimum: 0 }, -1)).toBe(false);
  });

  it('generates no code: it validates with Function and eval unavailable (a CSP without unsafe-eval)', () => {
    const refuse = () => {
      throw new EvalError('Refused to evaluate a string as JavaScript');
    };
    vi.stubGlobal('Function', refuse);
    vi.stubGlobal('eval', refuse);
    const schema = {
      type: 'object',
      properties: {
        minutes: { type: 'integer', minimum: 1, maximum: 90 },
        label: { type: 'string', pattern: '^\\S' },
      },
      required: ['minutes'],
      additionalProperties: false,
      unevaluatedProperties: false,
    };
    expect(matchesSchema(schema, { minutes: 25, label: 'Write' })).toBe(true);
    expect(matchesSchema(schema, { minutes: 0 })).toBe(false);
    expect(matchesSchema(schema, { minutes: 25, label: ' x' })).toBe(false);
    expect(matchesSchema(schema, { minutes: 25, extra: 1 })).toBe(false);
  });

  it('validates a frozen schema (the interpreter works on its own copy)', () => {
    const schema = Object.freeze({
      type: 'object',
      properties: Object.freeze({ a: Object.freeze({ $ref: '#/$defs/a' }) }),
      $defs: Object.freeze({ a: Object.freeze({ type: 'string' }) }),
    });
    expect(matchesSchema(schema, { a: 'x' })).toBe(true);
    expect(matchesSchema(schema, { a: 1 })).toBe(false);
  });

  it('treats format as an annotation, as AJV did with validateFormats off', () => {
    expect(matchesSchema({ type: 'string', format: 'email' }, 'not an email')).toBe(true);
    // A property named "format" is a property, not the keyword.
    const schema = { type: 'object', properties: { format: { const: 'pdf' } }, required: ['format'] };
    expect(matchesSchema(schema, { format: 'pdf' })).toBe(true);
    expect(matchesSchema(schema, { format: 'doc' })).toBe(false);
  });

  it('follows the declared dialect: draft-07 tuples and $ref siblings, 2020-12 prefixItems', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
        ref: { $ref: '#/definitions/n', maximum: 1 },
      },
      definitions: { n: { type: 'number' } },
    };
    expect(matchesSchema(draft07, { pair: ['a', 1] })).toBe(true);
    expect(matchesSchema(draft07, { pair: ['a', 1, 2] })).toBe(false);
    // draft-07 ignores the siblings of $ref.
    expect(matchesSchema(draft07, { ref: 5 })).toBe(true);
    const draft2020 = { ...draft07, $schema: 'https://json-schema.org/draft/2020-12/schema' };
    expect(matchesSchema(draft2020, { ref: 5 })).toBe(false);
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(matchesSchema(tuple, ['a'])).toBe(true);
    expect(matchesSchema(tuple, ['a', 'b'])).toBe(false);
  });

  it('resolves $dynamicRef in a single-resource schema as $ref', () => {
    const schema = {
      $defs: {
        node: { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } },
      },
      $ref: '#/$defs/node',
    };
    expect(matchesSchema(schema, { next: { next: {} } })).toBe(true);
    expect(matchesSchema(schema, { next: { next: 1 } })).toBe(false);
  });

  it('accepts nothing with a schema it cannot use, and nothing that is not JSON', () => {
    expect(matchesSchema({ type: 'not-a-type' }, 1)).toBe(false);
    expect(matchesSchema({ $ref: '#/$defs/missing' }, 1)).toBe(false);
    expect(matchesSchema({ type: 'object' }, undefined)).toBe(false);
  });
});

describe('assertUsableSchema', () => {
  it.each<[string, object, SchemaUnusableReason, string]>([
    [
      'a keyword outside the vocabulary (at its object)',
      { properties: { a: { handler: 'run' } } },
      'unknown_keyword',
      '/properties/a',
    ],
    ['a subschema that is not a schema', { properties: { a: 5 } }, 'not_a_schema', '/properties/a'],
    ['an unknown type name', { type: ['string', 'text'] }, 'invalid_keyword_value', '/type'],
    ['required that is not a list of names', { required: 'a' }, 'invalid_keyword_value', '/required'],
    ['a number keyword given a string', { minimum: '3' }, 'invalid_keyword_value', '/minimum'],
    ['an empty allOf', { allOf: [] }, 'invalid_keyword_value', '/allOf'],
    [
      'an undeclared dialect',
      { $schema: 'http://json-schema.org/draft-04/schema#' },
      'invalid_keyword_value',
      '/$schema',
    ],
    [
      'a pattern JavaScript cannot compile with u',
      { properties: { a: { pattern: '\\p{Nope}' } } },
      'invalid_pattern',
      '/properties/a/pattern',
    ],
    ['a pattern valid without u only', { pattern: '\\-' }, 'invalid_pattern', '/pattern'],
    [
      'a patternProperties name that is no regex',
      { patternProperties: { '(': {} } },
      'invalid_pattern',
      '/patternProperties/(',
    ],
    [
      'a $ref to nothing in the document',
      { properties: { a: { $ref: '#/$defs/b' } } },
      'unresolved_reference',
      '/properties/a/$ref',
    ],
    [
      'a $ref to a remote schema',
      { $ref: 'https://example.com/schema.json' },
      'unresolved_reference',
      '/$ref',
    ],
    [
      'a $ref to a place that holds no schema',
      { $defs: { a: {} }, $ref: '#/$defs' },
      'unresolved_reference',
      '/$ref',
    ],
    ['a $dynamicRef to nothing', { $dynamicRef: '#nowhere' }, 'unresolved_reference', '/$dynamicRef'],
    [
      'a $dynamicRef across embedded resources',
      { $defs: { inner: { $id: 'inner', $dynamicRef: '#x' } }, $dynamicAnchor: 'x' },
      'unsupported_dynamic_reference',
      '/$defs/inner/$dynamicRef',
    ],
    ['a $ref to itself', { $ref: '#' }, 'reference_cycle', '/$ref'],
    [
      'a cycle through allOf',
      {
        $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } },
        $ref: '#/$defs/a',
      },
      'reference_cycle',
      '/$defs/b/anyOf/0/$ref',
    ],
    [
      'one anchor name twice in a resource',
      { $defs: { a: { $anchor: 'x' }, b: { $anchor: 'x' } } },
      'invalid_schema',
      '/$defs/b/$anchor',
    ],
    [
      'two schemas claiming one URI',
      { $defs: { a: { $id: 'https://e.example/a' }, b: { $id: 'https://e.example/a' } } },
      'invalid_schema',
      '',
    ],
    [
      'a pointer key with / and ~ (RFC 6901)',
      { properties: { 'a/b~c': { pattern: '[' } } },
      'invalid_pattern',
      '/properties/a~1b~0c/pattern',
    ],
  ])('refuses %s', (_, schema, reason, pointer) => {
    expect(refusalOf(schema)).toEqual({ reason, pointer });
    // And validating with it accepts nothing.
    expect(matchesSchema(schema, {})).toBe(false);
  });

  it('accepts recursion that reaches into the value', () => {
    expect(refusalOf({ type: 'object', properties: { child: { $ref: '#' } } })).toBeNull();
    expect(refusalOf({ type: 'array', items: { $ref: '#' } })).toBeNull();
  });

  it('is a LineUpError naming the owner, the schema and the pointer, without echoing a value', () => {
    let caught: unknown;
    try {
      assertUsableSchema(
        { type: 'object', properties: { secret_value_here: { pattern: '[unclosed' } } },
        { kind: 'tool', name: 'pomodoro.start', schema: 'input' },
      );
    } catch (error) {
      caught = error;
    }
    expect(isLineUpError(caught)).toBe(true);
    const error = caught as SchemaUnusableError;
    expect(error.code).toBe('schema_unusable');
    expect(error.reason).toBe('invalid_pattern');
    expect(error.owner).toEqual({ kind: 'tool', name: 'pomodoro.start', schema: 'input' });
    expect(error.message).toBe(
      'The input schema of tool pomodoro.start cannot be used: /properties/secret_value_here/pattern is not a valid JavaScript regular expression (u flag).',
    );
    expect(error.issues).toEqual([
      {
        path: 'input_schema#/properties/secret_value_here/pattern',
        code: 'invalid_value',
        message: error.message,
      },
    ]);
    // The pattern itself is never repeated.
    expect(error.message).not.toContain('unclosed');
  });
});

describe('schemaIssues', () => {
  const schema = {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: 3,
        items: { type: 'object', properties: { text: { type: 'string', minLength: 2 } }, required: ['text'] },
      },
      tag: { enum: ['a', 'b'] },
    },
    additionalProperties: false,
  };

  it('locates nested failures with what the schema wants, at most `max` of them, never the value', () => {
    const issues = schemaIssues(
      schema,
      { items: [{ text: 'ok' }, { text: 'x' }, {}], tag: 'zz-private', 'we ird': 1 },
      'payload.arguments',
    );
    expect(issues).toEqual([
      {
        path: 'payload.arguments.items[1].text',
        code: 'string_too_short',
        message: 'Shorter than the schema allows: at least 2 characters.',
      },
      {
        path: 'payload.arguments.items[2].text',
        code: 'missing_property',
        message: 'Required: expected string.',
      },
      {
        path: 'payload.arguments.tag',
        code: 'invalid_value',
        message: "Does not satisfy the schema's enum.",
      },
    ]);
    expect(JSON.stringify(issues)).not.toContain('zz-private');
    // A key that is not an identifier is not echoed.
    expect(schemaIssues(schema, { 'we ird': 1 }, 'payload.arguments')).toEqual([
      {
        path: 'payload.arguments[?]',
        code: 'unknown_property',
        message: `Not in the schema, which has: ${Object.keys(schema.properties).join(', ')}.`,
      },
    ]);
  });

  it('is empty for a valid value, and one issue at the root for a value that is not JSON', () => {
    expect(schemaIssues(schema, { items: [{ text: 'ok' }] }, 'payload.arguments')).toEqual([]);
    expect(schemaIssues({ type: 'string' }, 5, 'payload.arguments')).toEqual([
      { path: 'payload.arguments', code: 'invalid_type', message: 'Expected string.' },
    ]);
  });
});
