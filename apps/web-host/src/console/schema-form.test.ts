import { describe, expect, it } from 'vitest';
import {
  type ArgumentIssue,
  argumentsFromForm,
  argumentsFromJSONText,
  buildFormModel,
  type FormModel,
  formValuesAsJSONText,
  initialFormValues,
  MAX_ARGUMENT_BYTES,
} from './schema-form.ts';

/** `pomodoro.start`'s published input schema, as the built manifest carries it. */
const POMODORO_START = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    minutes: {
      type: 'integer',
      minimum: 1,
      maximum: 180,
      description: 'Length of the focus session in minutes.',
    },
    label: {
      description: 'What the session is for, shown to the user.',
      type: 'string',
      minLength: 1,
      maxLength: 64,
    },
  },
  required: ['minutes'],
  additionalProperties: false,
};

/** One property of every kind the form renders, and some it does not. */
const EVERY_KIND = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: ['work', 'study'], title: 'Mode' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.05, default: 0.5 },
    level: { type: ['integer'], enum: [1, 2, 3] },
    loud: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string' } },
    when: { type: ['string', 'null'] },
    either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    anything: {},
    stamp: { type: 'string', format: 'date-time' },
    fixed: { type: 'string', const: 'v1' },
    tricky: { type: 'string', contentSchema: {} },
  },
  required: ['mode'],
  additionalProperties: false,
};

describe('buildFormModel', () => {
  it("reads pomodoro.start's schema as two fields, minutes required", () => {
    expect(buildFormModel(POMODORO_START)).toEqual({
      closed: true,
      wholeJSON: null,
      fields: [
        {
          name: 'minutes',
          kind: 'integer',
          required: true,
          minimum: 1,
          maximum: 180,
          description: 'Length of the focus session in minutes.',
        },
        {
          name: 'label',
          kind: 'string',
          required: false,
          minLength: 1,
          maxLength: 64,
          description: 'What the session is for, shown to the user.',
        },
      ],
    });
  });

  it.each([
    ['mode', { kind: 'string', options: ['work', 'study'], title: 'Mode', required: true }],
    ['code', { kind: 'string', pattern: '^[A-Z]{3}$' }],
    ['ratio', { kind: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.05, default: 0.5 }],
    ['level', { kind: 'integer', options: [1, 2, 3] }],
    ['loud', { kind: 'boolean', default: false }],
    ['tags', { kind: 'json', reason: 'nested', types: ['array'] }],
    ['when', { kind: 'json', reason: 'union_type', types: ['string', 'null'] }],
    ['either', { kind: 'json', reason: 'composed' }],
    ['anything', { kind: 'json', reason: 'untyped' }],
    ['stamp', { kind: 'string' }],
    ['fixed', { kind: 'string', options: ['v1'] }],
    ['tricky', { kind: 'json', reason: 'unsupported_keyword', types: ['string'] }],
  ])('renders %s as %o', (name, expected) => {
    const field = buildFormModel(EVERY_KIND).fields.find((candidate) => candidate.name === name);
    expect(field).toMatchObject({ name, ...expected });
  });

  it.each([
    ['a schema that is not an object', 'not an object', 'not_an_object'],
    ['an array root', { type: 'array', items: {} }, 'not_an_object'],
    ['a composed root', { oneOf: [{ type: 'object' }] }, 'composed'],
    ['a $ref root', { $ref: '#/$defs/args', $defs: { args: { type: 'object' } } }, 'composed'],
    ['an open object without properties', { type: 'object' }, 'open_object'],
    [
      'a root keyword the form cannot honour',
      { type: 'object', minProperties: 1, properties: {} },
      'composed',
    ],
    ['pattern properties', { type: 'object', patternProperties: { '^x': {} } }, 'composed'],
    [
      'a required key without a property',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
      'unsupported_keyword',
    ],
  ])('falls back to whole-object JSON for %s', (_name, schema, reason) => {
    expect(buildFormModel(schema)).toEqual({ fields: [], closed: false, wholeJSON: reason });
  });

  it('renders a closed object without properties as a form with no field (no arguments)', () => {
    expect(buildFormModel({ type: 'object', properties: {}, additionalProperties: false })).toEqual({
      fields: [],
      closed: true,
      wholeJSON: null,
    });
  });

  it('falls back to JSON for a field whose constraints are malformed rather than guess', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        mixed: { type: 'string', enum: ['a', 1] },
        badPattern: { type: 'string', pattern: '(' },
        negativeLength: { type: 'string', minLength: -1 },
        zeroStep: { type: 'number', multipleOf: 0 },
        textBound: { type: 'integer', minimum: '1' },
        oneBoolean: { type: 'boolean', const: true },
      },
    });
    expect(model.fields.map((field) => [field.name, field.kind])).toEqual([
      ['mixed', 'json'],
      ['badPattern', 'json'],
      ['negativeLength', 'json'],
      ['zeroStep', 'json'],
      ['textBound', 'json'],
      ['oneBoolean', 'json'],
    ]);
  });

  it('starts each field from its schema default', () => {
    expect(initialFormValues(buildFormModel(EVERY_KIND))).toMatchObject({
      mode: '',
      ratio: '0.5',
      loud: 'false',
    });
  });
});

describe('argumentsFromForm', () => {
  const pomodoro = buildFormModel(POMODORO_START);

  it('turns valid text into typed arguments and leaves empty optional fields out', () => {
    expect(argumentsFromForm(pomodoro, { minutes: ' 25 ', label: '' })).toEqual({
      ok: true,
      arguments: { minutes: 25 },
    });
    expect(argumentsFromForm(pomodoro, { minutes: '1', label: 'Write 🖋' })).toEqual({
      ok: true,
      arguments: { minutes: 1, label: 'Write 🖋' },
    });
  });

  const refused: readonly [string, Record<string, string>, readonly ArgumentIssue[]][] = [
    ['a missing required field', { minutes: '' }, [{ field: 'minutes', code: 'required' }]],
    ['text in a number field', { minutes: 'twenty' }, [{ field: 'minutes', code: 'not_a_number' }]],
    ['a hex number', { minutes: '0x10' }, [{ field: 'minutes', code: 'not_a_number' }]],
    ['a fraction in an integer field', { minutes: '2.5' }, [{ field: 'minutes', code: 'not_an_integer' }]],
    ['a number under the minimum', { minutes: '0' }, [{ field: 'minutes', code: 'below_minimum', limit: 1 }]],
    [
      'a number over the maximum',
      { minutes: '181' },
      [{ field: 'minutes', code: 'above_maximum', limit: 180 }],
    ],
    [
      'a string over maxLength (code points)',
      { minutes: '5', label: '🍅'.repeat(65) },
      [{ field: 'label', code: 'too_long', limit: 64 }],
    ],
    [
      'several fields at once, in field order',
      { minutes: '', label: 'x'.repeat(70) },
      [
        { field: 'minutes', code: 'required' },
        { field: 'label', code: 'too_long', limit: 64 },
      ],
    ],
  ];
  it.each(refused)('refuses %s', (_name, values, issues) => {
    expect(argumentsFromForm(pomodoro, values)).toEqual({ ok: false, issues });
  });

  const every = buildFormModel(EVERY_KIND);
  it.each([
    ['an empty required choice', { mode: '' }, { field: 'mode', code: 'required' }],
    ['a value outside the enum', { mode: 'play' }, { field: 'mode', code: 'not_an_option' }],
    [
      'a string against its pattern',
      { mode: 'work', code: 'abc' },
      { field: 'code', code: 'pattern_mismatch', limit: '^[A-Z]{3}$' },
    ],
    [
      'the exclusive minimum itself',
      { mode: 'work', ratio: '0' },
      { field: 'ratio', code: 'not_above', limit: 0 },
    ],
    [
      'the exclusive maximum itself',
      { mode: 'work', ratio: '1' },
      { field: 'ratio', code: 'not_below', limit: 1 },
    ],
    [
      'a number off the step',
      { mode: 'work', ratio: '0.33' },
      { field: 'ratio', code: 'not_a_multiple', limit: 0.05 },
    ],
    ['an integer outside its enum', { mode: 'work', level: '4' }, { field: 'level', code: 'not_an_option' }],
    [
      'a boolean that is not true or false',
      { mode: 'work', loud: 'yes' },
      { field: 'loud', code: 'wrong_type' },
    ],
    ['broken JSON in a JSON field', { mode: 'work', tags: '[1,' }, { field: 'tags', code: 'invalid_json' }],
    [
      'a JSON field of the wrong type',
      { mode: 'work', tags: '{"a":1}' },
      { field: 'tags', code: 'wrong_type', limit: 'array' },
    ],
  ])('refuses %s', (_name, values, issue) => {
    expect(argumentsFromForm(every, values)).toEqual({ ok: false, issues: [issue] });
  });

  it('accepts every kind typed right, decimal steps included', () => {
    expect(
      argumentsFromForm(every, {
        mode: 'study',
        code: 'ABC',
        ratio: '0.15',
        level: '2',
        loud: 'true',
        tags: '["a","b"]',
        when: 'null',
        either: '3',
        anything: '{"x":[1]}',
      }),
    ).toEqual({
      ok: true,
      arguments: {
        mode: 'study',
        code: 'ABC',
        ratio: 0.15,
        level: 2,
        loud: true,
        tags: ['a', 'b'],
        when: null,
        either: 3,
        anything: { x: [1] },
      },
    });
  });

  it('refuses arguments larger than the tool.call payload allows', () => {
    const model: FormModel = buildFormModel({ type: 'object', properties: { text: { type: 'string' } } });
    expect(argumentsFromForm(model, { text: 'x'.repeat(MAX_ARGUMENT_BYTES) })).toEqual({
      ok: false,
      issues: [{ field: null, code: 'too_large', limit: MAX_ARGUMENT_BYTES }],
    });
  });

  it('refuses to read a whole-object model as a form', () => {
    expect(argumentsFromForm(buildFormModel({ type: 'object' }), {})).toMatchObject({ ok: false });
  });
});

describe('argumentsFromJSONText', () => {
  const pomodoro = buildFormModel(POMODORO_START);

  it('accepts a JSON object that passes the form rules', () => {
    expect(argumentsFromJSONText(pomodoro, '{"minutes": 3, "label": "tea"}')).toEqual({
      ok: true,
      arguments: { minutes: 3, label: 'tea' },
    });
  });

  it.each([
    ['text that is not JSON', '{minutes: 3}', [{ field: null, code: 'invalid_json' }]],
    ['an array', '[3]', [{ field: null, code: 'not_an_object' }]],
    ['null', 'null', [{ field: null, code: 'not_an_object' }]],
    ['a missing required key', '{}', [{ field: 'minutes', code: 'required' }]],
    [
      'a number as a string',
      '{"minutes": "3"}',
      [{ field: 'minutes', code: 'wrong_type', limit: 'integer' }],
    ],
    ['a fraction', '{"minutes": 2.5}', [{ field: 'minutes', code: 'not_an_integer' }]],
    [
      'a key the closed schema does not allow',
      '{"minutes": 3, "colour": "red"}',
      [{ field: 'colour', code: 'unknown_property' }],
    ],
  ])('refuses %s', (_name, text, issues) => {
    expect(argumentsFromJSONText(pomodoro, text)).toEqual({ ok: false, issues });
  });

  it('cuts a long unknown key in the issue', () => {
    const outcome = argumentsFromJSONText(pomodoro, JSON.stringify({ minutes: 3, ['k'.repeat(500)]: 1 }));
    expect(outcome).toEqual({ ok: false, issues: [{ field: 'k'.repeat(40), code: 'unknown_property' }] });
  });

  it('takes any object for an open schema', () => {
    expect(argumentsFromJSONText(buildFormModel({ type: 'object' }), '{"a":[1,{"b":null}]}')).toEqual({
      ok: true,
      arguments: { a: [1, { b: null }] },
    });
  });
});

describe('formValuesAsJSONText', () => {
  it('carries what parses from the form into the JSON editor', () => {
    const model = buildFormModel(POMODORO_START);
    expect(JSON.parse(formValuesAsJSONText(model, { minutes: '25', label: '' }))).toEqual({ minutes: 25 });
    expect(JSON.parse(formValuesAsJSONText(model, { minutes: 'soon' }))).toEqual({});
  });
});
