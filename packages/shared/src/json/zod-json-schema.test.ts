import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseAgentToolDescriptor } from '../protocol/tools/descriptor.js';
import { assertSafeJSON } from './safe-json.js';
import { jsonSchemaFromZod } from './zod-json-schema.js';

describe('jsonSchemaFromZod', () => {
  const schema = z.strictObject({
    minutes: z.int().min(1).max(180).describe('Minutes.'),
    label: z.string().optional(),
  });

  it('returns plain JSON data that a descriptor can carry', () => {
    const generated = jsonSchemaFromZod(schema);
    expect(generated).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        minutes: { type: 'integer', minimum: 1, maximum: 180, description: 'Minutes.' },
        label: { type: 'string' },
      },
      required: ['minutes'],
      additionalProperties: false,
    });
    expect(Reflect.ownKeys(generated).every((key) => typeof key === 'string')).toBe(true);
    expect(() => assertSafeJSON(generated)).not.toThrow();
    expect(
      parseAgentToolDescriptor({
        app_scope: 'demo',
        method: 'start',
        contract_version: '1.0',
        description: 'Starts.',
        input_schema: generated,
        output_schema: jsonSchemaFromZod(z.strictObject({ ok: z.boolean() })),
        call_model: 'command',
        idempotency: 'call_id',
        timeout_ms: 1_000,
        activation: 'app_ready',
        risk: 'display_only',
        permissions: [],
        executor: { kind: 'miniapp_sdk' },
      }).input_schema,
    ).toEqual(generated);
  });

  it('describes what a sender may send with io: input (defaults optional), and the parsed data by default', () => {
    const withDefault = z.strictObject({ text: z.string(), pinned: z.boolean().default(false) });
    expect(jsonSchemaFromZod(withDefault).required).toEqual(['text', 'pinned']);
    expect(jsonSchemaFromZod(withDefault, { io: 'input' }).required).toEqual(['text']);
  });

  it('refuses what JSON Schema cannot express', () => {
    expect(() => jsonSchemaFromZod(z.date())).toThrow();
    expect(() => jsonSchemaFromZod(z.string().transform((text) => text.length))).toThrow();
  });
});
