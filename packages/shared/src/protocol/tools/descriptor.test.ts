/**
 * Agent Tool descriptors (seed 003 §4.1): one row per rule, asserting code and path; the injected code-like
 * fields of the brief ("handler", "js", "script", "eval", script URLs, functions) are all rejected.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codesAndPaths, thrownBy } from '../../../test/utils.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { AGENT_TOOL_LIMITS } from '../../limits/tool-limits.js';
import {
  AgentToolInventoryEntrySchema,
  agentToolName,
  parseAgentToolDescriptor,
  toAgentToolInventoryEntry,
} from './descriptor.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

/** seed 003 §7: pomodoro.start — a runtime deadline operation that needs the foreground. */
const start = (change?: (descriptor: J) => void): J => {
  const descriptor: J = {
    app_scope: 'pomodoro',
    method: 'start',
    contract_version: '1',
    description:
      'Start a focus session of the given length. The timer starts once Pomodoro is in the foreground.',
    input_schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        minutes: { type: 'integer', minimum: 1, maximum: 120 },
        label: { type: 'string', maxLength: 64, default: 'Focus' },
      },
      required: ['minutes'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        status: { enum: ['started', 'not_started'] },
        ends_at: { type: 'string', format: 'date-time' },
      },
      required: ['status'],
    },
    call_model: 'operation',
    idempotency: 'call_id',
    timeout_ms: 7_200_000,
    activation: 'foreground_required',
    permissions: ['notification.show'],
    risk: 'display_only',
    executor: { kind: 'runtime', builtin: 'deadline_operation' },
  };
  change?.(descriptor);
  return descriptor;
};
/** seed 003 §4.3, §7: pomodoro.interrupt — acts on runtime facts, never starts the MiniApp. */
const interrupt = (): J =>
  start((d) =>
    Object.assign(d, {
      method: 'interrupt',
      description: 'Stop the current focus session, or cancel one that is starting.',
      input_schema: { type: 'object', additionalProperties: false },
      output_schema: { type: 'object' },
      call_model: 'command',
      activation: 'activation_not_required',
      permissions: [],
      executor: { kind: 'runtime', builtin: 'operation_interrupt' },
    }),
  );
/** seed 003 §5: todo.add — an SDK handler once the app is ready, foreground or not. */
const todoAdd = (change?: (descriptor: J) => void): J =>
  start((d) => {
    Object.assign(d, {
      app_scope: 'todo',
      method: 'add',
      call_model: 'command',
      activation: 'app_ready',
      permissions: [],
      executor: { kind: 'miniapp_sdk' },
    });
    change?.(d);
  });

const rejection = (input: unknown): LineUpProtocolError =>
  thrownBy(LineUpProtocolError, () => parseAgentToolDescriptor(input));

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  ['§4.1 a handler field', () => start((d) => (d.handler = 'startFocus')), 'unknown_property', '$'],
  ['§4.1 a js field', () => start((d) => (d.js = 'startFocus()')), 'unknown_property', '$'],
  ['§4.1 a script field', () => start((d) => (d.script = 'x')), 'unknown_property', '$'],
  ['§4.1 an eval field', () => start((d) => (d.eval = '1+1')), 'unknown_property', '$'],
  ['§4.1 a function-valued field', () => start((d) => (d.run = () => 1)), 'invalid_json', 'run'],
  ['§4.1 a function as executor', () => start((d) => (d.executor = () => 1)), 'invalid_json', 'executor'],
  [
    '§4.1 a getter (never invoked)',
    () => start((d) => Object.defineProperty(d, 'risk', { get: () => 'display_only', enumerable: true })),
    'invalid_json',
    'risk',
  ],
  [
    '§4.1 an executor handler name',
    () => todoAdd((d) => (d.executor.handler = 'add')),
    'unknown_property',
    'executor',
  ],
  [
    '§4.1 an executor of another kind',
    () => start((d) => (d.executor = { kind: 'inline_js' })),
    'invalid_value',
    'executor.kind',
  ],
  [
    '§4.1 a built-in outside the closed list',
    () => start((d) => (d.executor.builtin = 'eval')),
    'invalid_value',
    'executor.builtin',
  ],
  [
    '§4.1 a runtime executor without built-in',
    () => start((d) => delete d.executor.builtin),
    'missing_property',
    'executor.builtin',
  ],
  [
    '§4.1 an SDK executor naming a built-in',
    () => todoAdd((d) => (d.executor.builtin = 'deadline_operation')),
    'unknown_property',
    'executor.builtin',
  ],
  [
    '§4.1 an SDK tool that needs no activation',
    () => todoAdd((d) => (d.activation = 'activation_not_required')),
    'invalid_value',
    'activation',
  ],
  [
    '§1 an operation served by the SDK',
    () => todoAdd((d) => (d.call_model = 'operation')),
    'invalid_value',
    'executor.kind',
  ],
  [
    '§4.1 deadline_operation for a command',
    () => start((d) => (d.call_model = 'command')),
    'invalid_value',
    'call_model',
  ],
  [
    '§4.1 a call model outside the four',
    () => start((d) => (d.call_model = 'stream')),
    'invalid_value',
    'call_model',
  ],
  [
    '§4.1 an activation outside the three',
    () => start((d) => (d.activation = 'eventually')),
    'invalid_value',
    'activation',
  ],
  ['§5.2 a risk outside the four levels', () => start((d) => (d.risk = 'low')), 'invalid_value', 'risk'],
  [
    '§4.1 an app scope with upper case',
    () => start((d) => (d.app_scope = 'Pomodoro')),
    'invalid_value',
    'app_scope',
  ],
  [
    '§4.1 an app scope with a dot',
    () => start((d) => (d.app_scope = 'com.pomodoro')),
    'invalid_value',
    'app_scope',
  ],
  ['§4.1 a method with a dot', () => start((d) => (d.method = 'focus.start')), 'invalid_value', 'method'],
  [
    '§4.1 a method too long',
    () => start((d) => (d.method = `m${'x'.repeat(AGENT_TOOL_LIMITS.maxMethodLength)}`)),
    'string_too_long',
    'method',
  ],
  [
    '§4.1 a contract version with a v',
    () => start((d) => (d.contract_version = 'v1')),
    'invalid_value',
    'contract_version',
  ],
  ['§4.1 a blank description', () => start((d) => (d.description = '   ')), 'invalid_value', 'description'],
  [
    '§4.1 a description too long',
    () => start((d) => (d.description = 'd'.repeat(AGENT_TOOL_LIMITS.maxDescriptionLength + 1))),
    'string_too_long',
    'description',
  ],
  [
    '§4.1 idempotency by another key',
    () => start((d) => (d.idempotency = 'arguments')),
    'invalid_value',
    'idempotency',
  ],
  [
    '§4.1 a timeout under a second',
    () => start((d) => (d.timeout_ms = 999)),
    'number_out_of_range',
    'timeout_ms',
  ],
  [
    '§4.1 a timeout over a day',
    () => start((d) => (d.timeout_ms = AGENT_TOOL_LIMITS.maxTimeoutMs + 1)),
    'number_out_of_range',
    'timeout_ms',
  ],
  [
    '§4.1 a duplicate permission',
    () => start((d) => d.permissions.push('notification.show')),
    'duplicate_id',
    'permissions[1]',
  ],
  [
    '§4.1 a permission not a capability name',
    () => start((d) => (d.permissions[0] = 'notify')),
    'invalid_value',
    'permissions[0]',
  ],
  [
    '§4.1 too many permissions',
    () => start((d) => (d.permissions = Array.from({ length: 33 }, (_, i) => `cap.p${i}`))),
    'too_many',
    'permissions',
  ],
  [
    '§4.1 an input schema without type object',
    () => start((d) => delete d.input_schema.type),
    'missing_property',
    'input_schema.type',
  ],
  [
    '§4.1 an input schema with a handler keyword',
    () => start((d) => (d.input_schema.handler = 'x')),
    'unknown_property',
    'input_schema',
  ],
  [
    '§4.1 a property schema with a script keyword',
    () => start((d) => (d.input_schema.properties.minutes.script = 'x')),
    'unknown_property',
    'input_schema.properties.minutes',
  ],
  [
    '§4.1 an output schema with a remote $ref',
    () => start((d) => (d.output_schema.$ref = 'https://evil.example/s.json')),
    'invalid_value',
    'output_schema.$ref',
  ],
  [
    '§4.1 an output schema type function',
    () => start((d) => (d.output_schema.type = 'function')),
    'invalid_value',
    'output_schema.type',
  ],
  [
    '§4.1 an own __proto__ key in a schema',
    () =>
      start((d) =>
        Object.defineProperty(d.input_schema.properties, '__proto__', { value: {}, enumerable: true }),
      ),
    'invalid_identifier',
    'input_schema.properties',
  ],
  [
    '§4.1 a javascript: description',
    () => start((d) => (d.description = 'javascript:alert(1)')),
    'invalid_value',
    'description',
  ],
  [
    '§4.1 a javascript: schema default',
    () => start((d) => (d.input_schema.properties.label.default = ' JaVa\tScRiPt:alert(1)')),
    'invalid_value',
    'input_schema.properties.label.default',
  ],
  [
    '§4.1 a data:text/html enum value',
    () => start((d) => (d.output_schema.properties.status.enum[1] = 'data:text/html,<script>x</script>')),
    'invalid_value',
    'output_schema.properties.status.enum[1]',
  ],
  [
    '§4.1 a script URL as a property name',
    () => start((d) => (d.output_schema.properties['javascript:x'] = {})),
    'invalid_value',
    'output_schema.properties',
  ],
  [
    '§4.1 a descriptor over 64 KiB',
    () => start((d) => (d.input_schema.description = 'd'.repeat(AGENT_TOOL_LIMITS.maxDescriptorBytes))),
    'too_large',
    '$',
  ],
];

describe('Agent Tool descriptors (seed 003 §4.1)', () => {
  it('has a unique name per row', () => {
    const names = REJECT.map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      const error = rejection(input());
      expect(codesAndPaths(error.issues)).toContainEqual({ code, path });
    });
  }

  it('accepts pomodoro.start, pomodoro.interrupt and an SDK tool, deep-frozen', () => {
    for (const input of [start(), interrupt(), todoAdd()]) {
      const descriptor = parseAgentToolDescriptor(input);
      expect(descriptor).toEqual(input);
      expect(Object.isFrozen(descriptor.input_schema)).toBe(true);
      expect(Object.isFrozen(input)).toBe(false);
    }
  });

  it('publishes the name <app_scope>.<method> and leaves the executor and permissions out of the inventory', () => {
    const descriptor = parseAgentToolDescriptor(start());
    expect(agentToolName(descriptor)).toBe('pomodoro.start');
    const entry = toAgentToolInventoryEntry(descriptor);
    expect(entry.name).toBe('pomodoro.start');
    expect(entry).not.toHaveProperty('executor');
    expect(entry).not.toHaveProperty('permissions');
    expect(AgentToolInventoryEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('rejects every code-like field injected anywhere outside a schema (property)', () => {
    const codeKeys = [
      'handler',
      'js',
      'script',
      'eval',
      'code',
      'function',
      'onload',
      'module',
      'source',
      'url',
    ];
    const holders: ((d: J) => J)[] = [
      (d) => d,
      (d) => d.executor,
      (d) => d.input_schema,
      (d) => d.output_schema.properties.status,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...codeKeys),
        fc.integer({ min: 0, max: holders.length - 1 }),
        fc.oneof(
          fc.string(),
          fc.constant('javascript:alert(1)'),
          // An own "__proto__" key is refused earlier, by the safe-JSON check (tested on its own).
          fc
            .json()
            .filter((text) => !text.includes('"__proto__"'))
            .map((text) => JSON.parse(text)),
        ),
        (key, holder, value) => {
          const descriptor = start();
          holders[holder]!(descriptor)[key] = value;
          expect(rejection(descriptor).issues.some((issue) => issue.code === 'unknown_property')).toBe(true);
        },
      ),
    );
  });
});
