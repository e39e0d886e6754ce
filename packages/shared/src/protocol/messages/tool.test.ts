/**
 * Rules of the Agent Tool call messages (seed 003 §4.1–§4.3; names from DESIGN.md "Wire messages"), asserting
 * code and path through the envelope.
 */
import { describe, expect, it } from 'vitest';
import { codesAndPaths, envelopeRejection } from '../../../test/utils.js';
import { MINIAPP_CHANNEL_LIMITS } from '../../bridge/miniapp.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { parseEnvelope } from '../envelope.js';
import { TOOL_ERROR_CODES, TOOL_PROGRESS_STATUSES } from './tool.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const envelope = (type: string, payload: unknown, kind: string): J => ({
  v: 1,
  id: 'msg_tool_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind, id: kind === 'agent' ? 'agent_hermes_main' : 'web-host' },
  payload,
});

const call = (change?: (payload: J) => void): J => {
  const payload: J = {
    call_id: 'call_pomodoro_01',
    inventory_revision: 'catalog-42',
    tool: 'pomodoro.start',
    arguments: { minutes: 20, label: '冥想' },
  };
  change?.(payload);
  return envelope('tool.call', payload, 'agent');
};
const progress = (change?: (payload: J) => void): J => {
  const payload: J = { call_id: 'call_pomodoro_01', app_scope: 'pomodoro', status: 'starting' };
  change?.(payload);
  return envelope('tool.progress', payload, 'client');
};
const result = (change?: (payload: J) => void): J => {
  const payload: J = { call_id: 'call_pomodoro_01', outcome: 'completed', result: { status: 'started' } };
  change?.(payload);
  return envelope('tool.result', payload, 'client');
};
const failure = (code: string): J =>
  result((p) => {
    delete p.result;
    Object.assign(p, { outcome: 'error', error: { code } });
  });

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  [
    '§4.2 call without inventory_revision',
    () => call((p) => delete p.inventory_revision),
    'missing_property',
    'payload.inventory_revision',
  ],
  ['§4.2 call without call_id', () => call((p) => delete p.call_id), 'missing_property', 'payload.call_id'],
  ['§4.1 tool name without a scope', () => call((p) => (p.tool = 'start')), 'invalid_value', 'payload.tool'],
  [
    '§4.1 tool name with two dots',
    () => call((p) => (p.tool = 'com.pomodoro.start')),
    'invalid_value',
    'payload.tool',
  ],
  [
    '§2.3 call naming an instance_id',
    () => call((p) => (p.instance_id = 'pomodoro.01')),
    'unknown_property',
    'payload',
  ],
  [
    '§2.3 call naming an operation_id',
    () => call((p) => (p.operation_id = 'op_1')),
    'unknown_property',
    'payload',
  ],
  [
    '§2.3 call naming an app_scope target',
    () => call((p) => (p.app_scope = 'other')),
    'unknown_property',
    'payload',
  ],
  ['§4.2 arguments an array', () => call((p) => (p.arguments = [20])), 'invalid_type', 'payload.arguments'],
  [
    '§4.2 arguments over the channel budget',
    () => call((p) => (p.arguments = { s: 'a'.repeat(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes) })),
    'too_large',
    'payload.arguments',
  ],
  [
    '§4.3 progress with instance_id',
    () => progress((p) => (p.instance_id = 'pomodoro.01')),
    'unknown_property',
    'payload',
  ],
  [
    '§4.3 progress with app_session_id',
    () => progress((p) => (p.app_session_id = 's1')),
    'unknown_property',
    'payload',
  ],
  [
    '§4.3 progress status outside the list',
    () => progress((p) => (p.status = 'ready')),
    'invalid_value',
    'payload.status',
  ],
  [
    '§4.3 progress without app_scope',
    () => progress((p) => delete p.app_scope),
    'missing_property',
    'payload.app_scope',
  ],
  [
    '§4.3 progress reason free text',
    () => progress((p) => (p.reason = 'instance pomodoro.01 failed')),
    'invalid_value',
    'payload.reason',
  ],
  [
    '§4.3 progress with a business result',
    () => progress((p) => (p.result = {})),
    'unknown_property',
    'payload',
  ],
  [
    '§4.2 completed without result',
    () => result((p) => delete p.result),
    'missing_property',
    'payload.result',
  ],
  [
    '§4.2 completed with an error',
    () => result((p) => (p.error = { code: 'timeout' })),
    'unknown_property',
    'payload.error',
  ],
  [
    '§4.2 error without error',
    () =>
      result((p) => {
        delete p.result;
        p.outcome = 'error';
      }),
    'missing_property',
    'payload.error',
  ],
  [
    '§4.2 error with a result',
    () => result((p) => Object.assign(p, { outcome: 'error', error: { code: 'timeout' } })),
    'unknown_property',
    'payload.result',
  ],
  [
    '§4.3 error code outside the stable list',
    () => failure('activation_failed'),
    'invalid_value',
    'payload.error.code',
  ],
  [
    '§4.2 outcome outside the list',
    () => result((p) => (p.outcome = 'success')),
    'invalid_value',
    'payload.outcome',
  ],
  [
    '§4.2 result over the channel budget',
    () => result((p) => (p.result = 'r'.repeat(MINIAPP_CHANNEL_LIMITS.maxToolResultBytes))),
    'too_large',
    'payload.result',
  ],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['§4.2 tool call', () => call()],
  ['§4.2 tool call with empty arguments', () => call((p) => (p.arguments = {}))],
  ['§4.1 camelCase method', () => call((p) => (p.tool = 'todo.addItem'))],
  ...TOOL_PROGRESS_STATUSES.map((status): [string, () => unknown] => [
    `§4.3 progress ${status}`,
    () => progress((p) => (p.status = status)),
  ]),
  [
    '§4.3 progress with a controlled reason',
    () => progress((p) => Object.assign(p, { status: 'activation_failed', reason: 'foreground_denied' })),
  ],
  ['§4.2 completed result', () => result()],
  [
    '§7 not_started is a completed business result',
    () => result((p) => (p.result = { status: 'not_started' })),
  ],
  ['§4.2 a result that is not an object', () => result((p) => (p.result = 42))],
  ['§4.2 a null result', () => result((p) => (p.result = null))],
  ...TOOL_ERROR_CODES.map((code): [string, () => unknown] => [`§4.2 error ${code}`, () => failure(code)]),
  [
    '§4.2 error with a message',
    () =>
      result((p) => {
        delete p.result;
        Object.assign(p, {
          outcome: 'error',
          error: { code: 'stale_inventory', message: 'Use revision catalog-43.' },
        });
      }),
  ],
];

describe('Agent Tool call messages (seed 003 §4)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  it('uses the seed names for activation outcomes', () => {
    expect(TOOL_ERROR_CODES).toContain('app_activation_failed');
    expect(TOOL_ERROR_CODES).toContain('app_activation_cancelled');
    expect(TOOL_PROGRESS_STATUSES).toEqual([
      'accepted',
      'starting',
      'activation_ready',
      'started',
      'activation_failed',
      'activation_cancelled',
    ]);
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
