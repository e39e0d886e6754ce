/**
 * Rules of `client.inventory` and `app.list` (seed 000 §5.1–§5.2; DESIGN.md: Agent Tools are part of the one
 * revisioned inventory), one row per rule, asserting code and path through the whole envelope.
 */
import { describe, expect, it } from 'vitest';
import { codesAndPaths, envelopeRejection } from '../../../test/utils.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';
import { parseEnvelope } from '../envelope.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const envelope = (type: string, payload: unknown): J => ({
  v: 1,
  id: 'msg_inventory_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind: 'client', id: 'web-host' },
  payload,
});

const tool = (): J => ({
  name: 'pomodoro.start',
  app_scope: 'pomodoro',
  method: 'start',
  contract_version: '1',
  description: 'Start a focus session of the given length once Pomodoro is in the foreground.',
  input_schema: {
    type: 'object',
    properties: { minutes: { type: 'integer', minimum: 1, maximum: 120 } },
    required: ['minutes'],
    additionalProperties: false,
  },
  output_schema: { type: 'object', properties: { status: { enum: ['started', 'not_started'] } } },
  call_model: 'operation',
  idempotency: 'call_id',
  timeout_ms: 7_200_000,
  activation: 'foreground_required',
  risk: 'display_only',
});

const inventory = (change?: (payload: J) => void): J => {
  const payload: J = {
    revision: 'catalog-42',
    standard_components: [
      { id: 'choice', version: '1' },
      { id: 'confirm', version: '1' },
    ],
    applications: [
      {
        id: 'com.lineup.svg-canvas',
        version: '1.0.0',
        surfaces: [{ id: 'canvas', events: ['draw', 'resize'] }],
      },
    ],
    capabilities: [{ name: 'artifact.save', version: '1.0', risk: 'user_confirmation' }],
    tools: [tool()],
  };
  change?.(payload);
  return envelope('client.inventory', payload);
};

const appList = (change?: (payload: J) => void): J => {
  const payload: J = {
    capabilities: [
      {
        name: 'clipboard.write',
        version: '1.0',
        risk: 'user_confirmation',
        input_schema: { type: 'object', required: ['text'] },
      },
    ],
  };
  change?.(payload);
  return envelope('app.list', payload);
};

const many = <T>(count: number, make: (index: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => make(i));

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  [
    '§5.1 revision missing',
    () => inventory((p) => delete p.revision),
    'missing_property',
    'payload.revision',
  ],
  [
    '§5.1 revision with a space',
    () => inventory((p) => (p.revision = 'catalog 42')),
    'invalid_value',
    'payload.revision',
  ],
  ['§5.1 revision a number', () => inventory((p) => (p.revision = 42)), 'invalid_type', 'payload.revision'],
  [
    '§5.1 standard component without version',
    () => inventory((p) => delete p.standard_components[0].version),
    'missing_property',
    'payload.standard_components[0].version',
  ],
  [
    '§5.1 duplicate standard component',
    () => inventory((p) => p.standard_components.push({ id: 'choice', version: '2' })),
    'duplicate_id',
    'payload.standard_components[2].id',
  ],
  [
    '§5.1 application with bundle source',
    () => inventory((p) => (p.applications[0].html = '<p>')),
    'unknown_property',
    'payload.applications[0]',
  ],
  [
    '§5.1 application with an install origin',
    () => inventory((p) => (p.applications[0].source_url = 'https://x')),
    'unknown_property',
    'payload.applications[0]',
  ],
  [
    '§5.1 application version not SemVer',
    () => inventory((p) => (p.applications[0].version = '1.0')),
    'invalid_value',
    'payload.applications[0].version',
  ],
  [
    '§5.1 duplicate application',
    () => inventory((p) => p.applications.push(p.applications[0])),
    'duplicate_id',
    'payload.applications[1].id',
  ],
  [
    '§5.1 duplicate surface id',
    () => inventory((p) => p.applications[0].surfaces.push({ id: 'canvas', events: [] })),
    'duplicate_id',
    'payload.applications[0].surfaces[1].id',
  ],
  [
    '§5.1 duplicate surface event',
    () => inventory((p) => p.applications[0].surfaces[0].events.push('draw')),
    'duplicate_id',
    'payload.applications[0].surfaces[0].events[2]',
  ],
  [
    '§5.1 surface event outside the name pattern',
    () => inventory((p) => (p.applications[0].surfaces[0].events[0] = '-draw')),
    'invalid_value',
    'payload.applications[0].surfaces[0].events[0]',
  ],
  [
    '§5.1 too many surfaces',
    () => inventory((p) => (p.applications[0].surfaces = many(17, (i) => ({ id: `s${i}`, events: [] })))),
    'too_many',
    'payload.applications[0].surfaces',
  ],
  [
    '§5.2 risk outside the four levels',
    () => inventory((p) => (p.capabilities[0].risk = 'low')),
    'invalid_value',
    'payload.capabilities[0].risk',
  ],
  [
    '§5.1 capability name without a dot',
    () => inventory((p) => (p.capabilities[0].name = 'save')),
    'invalid_value',
    'payload.capabilities[0].name',
  ],
  [
    '§5.1 capability version SemVer-only form',
    () => inventory((p) => (p.capabilities[0].version = 'v1')),
    'invalid_value',
    'payload.capabilities[0].version',
  ],
  [
    '§5.1 duplicate capability',
    () => inventory((p) => p.capabilities.push(p.capabilities[0])),
    'duplicate_id',
    'payload.capabilities[1].name',
  ],
  [
    '§13 more capabilities than the shared catalog',
    () =>
      inventory(
        (p) =>
          (p.capabilities = many(UI_PROTOCOL_LIMITS.maxCapabilities + 1, (i) => ({
            name: `cap.n${i}`,
            version: '1',
            risk: 'display_only',
          }))),
      ),
    'too_many',
    'payload.capabilities',
  ],
  [
    'inventory tool name not scope.method',
    () => inventory((p) => (p.tools[0].name = 'pomodoro.stop')),
    'invalid_value',
    'payload.tools[0].name',
  ],
  [
    'inventory tool with its executor',
    () => inventory((p) => (p.tools[0].executor = { kind: 'miniapp_sdk' })),
    'unknown_property',
    'payload.tools[0]',
  ],
  [
    'inventory tool with a handler',
    () => inventory((p) => (p.tools[0].handler = 'start')),
    'unknown_property',
    'payload.tools[0]',
  ],
  [
    'inventory duplicate tool',
    () => inventory((p) => p.tools.push(tool())),
    'duplicate_id',
    'payload.tools[1].name',
  ],
  [
    'inventory tool input schema with a non-keyword',
    () => inventory((p) => (p.tools[0].input_schema.script = 'x')),
    'unknown_property',
    'payload.tools[0].input_schema',
  ],
  [
    'inventory tool output schema a number',
    () => inventory((p) => (p.tools[0].output_schema = 1)),
    'invalid_type',
    'payload.tools[0].output_schema',
  ],
  [
    '§5.2 app.list input_schema an array',
    () => appList((p) => (p.capabilities[0].input_schema = [])),
    'invalid_type',
    'payload.capabilities[0].input_schema',
  ],
  [
    '§5.2 app.list capability without input_schema',
    () => appList((p) => delete p.capabilities[0].input_schema),
    'missing_property',
    'payload.capabilities[0].input_schema',
  ],
  [
    '§5.2 app.list input_schema not for an object',
    () => appList((p) => (p.capabilities[0].input_schema = { type: 'string' })),
    'invalid_value',
    'payload.capabilities[0].input_schema.type',
  ],
  [
    '§5.2 app.list input_schema with a remote $ref',
    () => appList((p) => (p.capabilities[0].input_schema.$ref = 'https://example.com/s.json')),
    'invalid_value',
    'payload.capabilities[0].input_schema.$ref',
  ],
  [
    '§5.2 app.list capability claims a grant',
    () => appList((p) => (p.capabilities[0].granted = true)),
    'unknown_property',
    'payload.capabilities[0]',
  ],
  [
    '§13 app.list capability descriptor over 64 KiB',
    () =>
      appList(
        (p) =>
          (p.capabilities[0].input_schema.description = 'd'.repeat(UI_PROTOCOL_LIMITS.maxCapabilityBytes)),
      ),
    'too_large',
    'payload.capabilities[0]',
  ],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['§5.1 inventory with tools', () => inventory()],
  ['§5.1 inventory without tools', () => inventory((p) => delete p.tools)],
  [
    '§5.1 empty inventory',
    () =>
      inventory((p) =>
        Object.assign(p, { standard_components: [], applications: [], capabilities: [], tools: [] }),
      ),
  ],
  ['§5.1 application without surfaces', () => inventory((p) => (p.applications[0].surfaces = []))],
  ['§5.1 capability version of three parts', () => inventory((p) => (p.capabilities[0].version = '1.2.3'))],
  ['§5.2 app.list', () => appList()],
  ['§5.2 app.list with no capability', () => appList((p) => (p.capabilities = []))],
];

describe('client.inventory and app.list rules (seed 000 §5.1–§5.2)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      const error = envelopeRejection(input());
      expect(codesAndPaths(error.issues)).toContainEqual({ code, path });
    });
  }
  for (const [rule, input] of ACCEPT) {
    it(`accepts: ${rule}`, () => {
      expect(parseEnvelope(input()).kind).toBe('message');
    });
  }
});
