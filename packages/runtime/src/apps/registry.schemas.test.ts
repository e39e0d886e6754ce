/**
 * A schema the validator cannot use is refused where it enters the runtime — an app's install (from a manifest or
 * a verified bundle), a capability declaration — with a `SchemaUnusableError` naming the tool or capability, input
 * or output, and the JSON pointer of the keyword at fault; nothing is written.
 */
import 'fake-indexeddb/auto';
import { isLineUpError } from '@lineup/shared';
import { bundleIntegrity, fileIntegrity } from '@lineup/shared/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { pomodoroManifest, pomodoroTool } from '../../test/manifests.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { SchemaUnusableError, type SchemaUnusableReason } from '../tools/schema-check.js';
import { AppRegistry, type CapabilityDeclaration } from './registry.js';

let db: RuntimeDatabase;
let registry: AppRegistry;
let databases = 0;

beforeEach(async () => {
  db = await openRuntimeDatabase(`registry-schemas-${databases++}`);
  registry = new AppRegistry(db);
});

/** Everything an install or a declaration writes. */
const snapshot = async () => ({
  apps: await db.getAll('apps'),
  capabilities: await db.getAll('capabilities'),
  files: await db.count('bundle_files'),
  audit: await db.count('audit'),
  outbox: await db.count('outbox'),
  inventory: await registry.inventory(),
});

async function refusal(promise: Promise<unknown>): Promise<SchemaUnusableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SchemaUnusableError) return error;
    throw error;
  }
  throw new Error('expected a SchemaUnusableError');
}

const objectWith = (properties: object, extra: object = {}) =>
  ({
    type: 'object',
    properties,
    additionalProperties: false,
    ...extra,
  }) as CapabilityDeclaration['input_schema'];

/** One row per way a schema can be unusable once it passed the manifest's shape check. */
const VARIANTS: readonly [string, 'input' | 'output', object, SchemaUnusableReason, string][] = [
  [
    'a pattern that is no u-flag regex',
    'input',
    objectWith({ code: { type: 'string', pattern: '[a-' } }),
    'invalid_pattern',
    '/properties/code/pattern',
  ],
  [
    'a patternProperties name that is no regex',
    'output',
    { type: 'object', patternProperties: { '^(x': { type: 'string' } } },
    'invalid_pattern',
    '/patternProperties/^(x',
  ],
  [
    'a $ref to nothing in the document',
    'input',
    objectWith({ when: { $ref: '#/$defs/time' } }),
    'unresolved_reference',
    '/properties/when/$ref',
  ],
  [
    'a $dynamicRef to nothing in the document',
    'output',
    { type: 'object', properties: { tree: { $dynamicRef: '#node' } } },
    'unresolved_reference',
    '/properties/tree/$dynamicRef',
  ],
  [
    'a $ref cycle that never reaches into the value',
    'input',
    objectWith({}, { $defs: { a: { $ref: '#/$defs/a' } }, allOf: [{ $ref: '#/$defs/a' }] }),
    'reference_cycle',
    '/$defs/a/$ref',
  ],
  [
    'one anchor name twice',
    'output',
    { $defs: { a: { $anchor: 'x' }, b: { $anchor: 'x' } } },
    'invalid_schema',
    '/$defs/b/$anchor',
  ],
];

describe('install refuses a tool schema the validator cannot use', () => {
  it.each(VARIANTS)('%s (%s schema)', async (_, side, schema, reason, pointer) => {
    await registry.install(pomodoroManifest(), { bundleUrl: '/apps/pomodoro/' });
    const before = await snapshot();
    const tool = pomodoroTool(
      'start',
      side === 'input' ? { input_schema: schema } : { output_schema: schema },
    );
    const error = await refusal(
      registry.install(pomodoroManifest({ version: '1.1.0', tools: [pomodoroTool('interrupt'), tool] }), {
        bundleUrl: '/apps/pomodoro/',
      }),
    );
    expect(isLineUpError(error)).toBe(true);
    expect(error.code).toBe('schema_unusable');
    expect({ reason: error.reason, pointer: error.pointer }).toEqual({ reason, pointer });
    expect(error.owner).toEqual({ kind: 'tool', name: 'pomodoro.start', schema: side });
    expect(error.message).toContain(`The ${side} schema of tool pomodoro.start cannot be used: ${pointer} `);
    // The installed version runs on, untouched.
    expect(await snapshot()).toEqual(before);
  });

  it('from a verified bundle too: nothing is kept', async () => {
    const base = 'https://host.example/apps/pomodoro/';
    const page = new TextEncoder().encode('<!doctype html><title>Pomodoro</title>');
    const files = [{ path: 'index.html', size: page.length, integrity: fileIntegrity(page) }];
    const manifest = pomodoroManifest({
      files,
      integrity: bundleIntegrity(files),
      tools: [pomodoroTool('start', { output_schema: { $ref: '#/$defs/missing' } })],
    });
    const fetch = async (url: URL) =>
      url.href === `${base}lineup.manifest.json`
        ? new Response(JSON.stringify(manifest))
        : url.href === `${base}index.html`
          ? new Response(page)
          : new Response('not found', { status: 404 });
    const before = await snapshot();
    const error = await refusal(registry.installBundle(base, { fetch }));
    expect(error.owner).toEqual({ kind: 'tool', name: 'pomodoro.start', schema: 'output' });
    expect(error.pointer).toBe('/$ref');
    expect(await snapshot()).toEqual(before);
  });
});

describe('declareCapabilities refuses a schema the validator cannot use', () => {
  const declaration = (overrides: Partial<CapabilityDeclaration>): CapabilityDeclaration => ({
    name: 'status.show',
    version: '1.0',
    risk: 'display_only',
    description: 'Shows a status line.',
    input_schema: objectWith({ text: { type: 'string' } }),
    output_schema: objectWith({ shown: { type: 'boolean' } }),
    ...overrides,
  });

  it.each([
    [
      'input',
      { input_schema: objectWith({ text: { type: 'string', pattern: '(' } }) },
      '/properties/text/pattern',
    ],
    ['output', { output_schema: objectWith({ shown: { $ref: '#/$defs/flag' } }) }, '/properties/shown/$ref'],
    // An output schema is not shape-checked by the wire schema: an unknown keyword is refused here.
    ['output', { output_schema: objectWith({ shown: { type: 'boolean', run: 'x' } }) }, '/properties/shown'],
  ] as const)('in its %s schema, writing nothing', async (side, overrides, pointer) => {
    await registry.declareCapabilities([declaration({ name: 'app.other' })]);
    const before = await snapshot();
    const error = await refusal(registry.declareCapabilities([declaration(overrides)]));
    expect(error.owner).toEqual({ kind: 'capability', name: 'status.show', schema: side });
    expect(error.pointer).toBe(pointer);
    expect(await snapshot()).toEqual(before);
  });
});
