/** Rules of `app.call` and `app.result` (seed 000 §5.3), asserting code and path through the envelope. */
import { describe, expect, it } from 'vitest';
import { codesAndPaths, envelopeRejection } from '../../../test/utils.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { parseEnvelope } from '../envelope.js';
import { APP_RESULT_STATUSES } from './capability.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const envelope = (type: string, payload: unknown, kind: string): J => ({
  v: 1,
  id: 'msg_call_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind, id: kind === 'agent' ? 'agent_hermes_main' : 'web-host' },
  payload,
});

const call = (change?: (payload: J) => void): J => {
  const payload: J = {
    call_id: 'call_open_docs_01',
    capability: 'app.open_url',
    reason: '打开部署文档供你核对',
    expires_at: '2026-08-02T12:10:00Z',
    arguments: { url: 'https://example.com/docs' },
  };
  change?.(payload);
  return envelope('app.call', payload, 'agent');
};
const result = (change?: (payload: J) => void): J => {
  const payload: J = { call_id: 'call_open_docs_01', status: 'completed', result: { opened: true } };
  change?.(payload);
  return envelope('app.result', payload, 'client');
};

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  ['§5.3 call without call_id', () => call((p) => delete p.call_id), 'missing_property', 'payload.call_id'],
  [
    '§5.3 call_id not printable ASCII',
    () => call((p) => (p.call_id = 'call\u00e9')),
    'invalid_value',
    'payload.call_id',
  ],
  [
    '§5.3 call_id longer than 128',
    () => call((p) => (p.call_id = 'c'.repeat(129))),
    'string_too_long',
    'payload.call_id',
  ],
  [
    '§5.3 capability not a capability name',
    () => call((p) => (p.capability = 'open url')),
    'invalid_value',
    'payload.capability',
  ],
  ['§5.3 reason missing', () => call((p) => delete p.reason), 'missing_property', 'payload.reason'],
  ['§5.3 reason blank', () => call((p) => (p.reason = ' \n ')), 'invalid_value', 'payload.reason'],
  [
    '§5.3 reason too long',
    () => call((p) => (p.reason = 'r'.repeat(LINEUP_WIRE_LIMITS.maxCallReasonLength + 1))),
    'string_too_long',
    'payload.reason',
  ],
  [
    '§5.3 reason with an escape character',
    () => call((p) => (p.reason = 'ok\u001b[2J')),
    'invalid_value',
    'payload.reason',
  ],
  [
    '§5.3 expires_at without offset',
    () => call((p) => (p.expires_at = '2026-08-02T12:10:00')),
    'invalid_value',
    'payload.expires_at',
  ],
  [
    '§5.3 expires_at not a date',
    () => call((p) => (p.expires_at = '2026-02-30T12:10:00Z')),
    'invalid_value',
    'payload.expires_at',
  ],
  [
    '§5.3 expires_at a number',
    () => call((p) => (p.expires_at = 1_786_000_000)),
    'invalid_type',
    'payload.expires_at',
  ],
  ['§5.3 arguments an array', () => call((p) => (p.arguments = ['x'])), 'invalid_type', 'payload.arguments'],
  [
    '§5.3 arguments too large',
    () => call((p) => (p.arguments = { s: 'a'.repeat(LINEUP_WIRE_LIMITS.maxCapabilityDataBytes) })),
    'too_large',
    'payload.arguments',
  ],
  ['§5.3 call with an extra field', () => call((p) => (p.granted = true)), 'unknown_property', 'payload'],
  ['§5.3 status outside the six', () => result((p) => (p.status = 'ok')), 'invalid_value', 'payload.status'],
  [
    '§5.3 completed with an error',
    () => result((p) => (p.error = { code: 'x' })),
    'unknown_property',
    'payload.error',
  ],
  [
    '§5.3 rejected with a result',
    () => result((p) => (p.status = 'rejected')),
    'unknown_property',
    'payload.result',
  ],
  [
    '§5.3 error code not a token',
    () =>
      result((p) => {
        delete p.result;
        Object.assign(p, { status: 'failed', error: { code: 'Bad Code' } });
      }),
    'invalid_value',
    'payload.error.code',
  ],
  [
    '§5.3 error with an extra field',
    () =>
      result((p) => {
        delete p.result;
        Object.assign(p, { status: 'failed', error: { code: 'io', stack: 'x' } });
      }),
    'unknown_property',
    'payload.error',
  ],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['§5.3 call', () => call()],
  [
    '§5.3 expires_at with an offset and fraction',
    () => call((p) => (p.expires_at = '2026-08-02T20:10:00.250+08:00')),
  ],
  ['§5.3 call with empty arguments', () => call((p) => (p.arguments = {}))],
  ['§5.3 multi-line reason', () => call((p) => (p.reason = 'Line one\nLine two'))],
  ['§5.3 completed without a result', () => result((p) => delete p.result)],
  ...APP_RESULT_STATUSES.filter((status) => status !== 'completed').map((status): [string, () => unknown] => [
    `§5.3 status ${status} with an error`,
    () =>
      result((p) => {
        delete p.result;
        Object.assign(p, { status, error: { code: 'user_denied', message: 'The user said no.' } });
      }),
  ]),
  [
    '§5.3 status unsupported without an error',
    () =>
      result((p) => {
        delete p.result;
        p.status = 'unsupported';
      }),
  ],
];

describe('app.call and app.result rules (seed 000 §5.3)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  it('has exactly the six statuses of the seed', () => {
    expect(APP_RESULT_STATUSES).toEqual([
      'completed',
      'rejected',
      'cancelled',
      'expired',
      'unsupported',
      'failed',
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
