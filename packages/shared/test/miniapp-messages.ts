/**
 * The MiniApp channel's test messages (`miniapp.test.ts`): builders of one valid message per type, the valid
 * messages at their exact limits, and one rejection row per rule (with the parser's issue code and path).
 */

import {
  MINIAPP_CHANNEL_LIMITS,
  MINIAPP_LIFECYCLE_PHASES,
  MINIAPP_NAMESPACE,
} from '../src/bridge/miniapp.js';
import type { UIIssueCode } from '../src/errors/issues.js';
import { jsonByteLength } from '../src/json/safe-json.js';
import { json, keyed, objectOfBytes, type Row, row, without } from './utils.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
export type J = any;

/** The code for "present, but of the wrong type" (missing properties are `missing_property`). */
export const WRONG_TYPE: UIIssueCode = 'invalid_type';

export const INSTANCE = 'pomodoro.instance:01';
export const INJECTED = 'zzInjected';
export const base = { namespace: MINIAPP_NAMESPACE, instance_id: INSTANCE } as const;

// Down
export const invocation = (overrides: J = {}): J => ({
  ...base,
  type: 'tool_invocation',
  invocation_id: 'inv-1',
  app_scope: 'pomodoro',
  method: 'start',
  arguments: { minutes: 20, label: '冥想' },
  ...overrides,
});
export const sessionData = (overrides: J = {}): J => ({
  ...base,
  type: 'session_data',
  revision: 3,
  data: { phase: 'focusing', deadline: 1_786_000_000_000 },
  ...overrides,
});
export const lifecycle = (phase: unknown): J => ({ ...base, type: 'lifecycle', phase });
export const requestOk = (overrides: J = {}): J => ({
  ...base,
  type: 'request_result',
  request_id: 'req-1',
  status: 'ok',
  ...overrides,
});
export const requestError = (overrides: J = {}): J => ({
  ...base,
  type: 'request_result',
  request_id: 'req-1',
  status: 'error',
  error: { code: 'conflict', message: 'The session data changed.' },
  ...overrides,
});

// Up
export const appReady = (): J => ({ ...base, type: 'app_ready' });
export const appFailed = (error: unknown = { code: 'bundle_error' }): J => ({
  ...base,
  type: 'app_failed',
  error,
});
export const returnOk = (overrides: J = {}): J => ({
  ...base,
  type: 'tool_return',
  invocation_id: 'inv-1',
  status: 'ok',
  result: { status: 'started' },
  ...overrides,
});
export const returnError = (overrides: J = {}): J => ({
  ...base,
  type: 'tool_return',
  invocation_id: 'inv-1',
  status: 'error',
  error: { code: 'unknown_method' },
  ...overrides,
});
export const write = (overrides: J = {}): J => ({
  ...base,
  type: 'session_data_write',
  request_id: 'req-1',
  key: 'settings.minutes',
  value: 25,
  ...overrides,
});
export const uiAction = (overrides: J = {}): J => ({
  ...base,
  type: 'ui_action',
  request_id: 'req-2',
  action: 'focus.start',
  arguments: { minutes: 20, silent: true, label: 'x', note: null },
  ...overrides,
});

/** `"xxx…"` of exactly `bytes` UTF-8 bytes as JSON. */
export const stringOfBytes = (bytes: number): string => 'x'.repeat(bytes - 2);
/** Flat string fields (each at most 4,000 characters) of exactly `bytes` UTF-8 bytes as JSON. */
export function flatOfBytes(bytes: number): Record<string, string> {
  const out: Record<string, string> = {};
  let index = 0;
  while (jsonByteLength(out) < bytes) {
    const key = `k${index++}`;
    out[key] = '';
    const missing = bytes - jsonByteLength(out);
    out[key] = 'x'.repeat(Math.max(0, Math.min(4_000, missing)));
  }
  return out;
}

export const TO_FRAME_REJECTIONS: Row[] = [
  // Channel and direction
  row(
    'a Surface namespace',
    () => ({ ...invocation(), namespace: 'lineup.surface.v1' }),
    'invalid_value',
    'namespace',
  ),
  row('namespace missing', () => without(invocation(), 'namespace'), 'missing_property', 'namespace'),
  row('an upward type', () => appReady(), 'invalid_value', 'type'),
  row('an unknown type', () => ({ ...appReady(), type: 'eval' }), 'invalid_value', 'type'),
  row('another instance', () => invocation({ instance_id: 'other' }), 'invalid_value', 'instance_id'),
  // Tool invocations: never a conversation, call, operation or agent target (seed 003 §2.3, §4.3)
  row('a conversation target', () => invocation({ conversation_id: 'conv_01' }), 'unknown_property', '$'),
  row('the agent call id', () => invocation({ call_id: 'call_01' }), 'unknown_property', '$'),
  row('an operation target', () => invocation({ operation_id: 'op_01' }), 'unknown_property', '$'),
  row('an app session target', () => invocation({ app_session_id: 's_01' }), 'unknown_property', '$'),
  row(
    'invocation id missing',
    () => without(invocation(), 'invocation_id'),
    'missing_property',
    'invocation_id',
  ),
  row(
    'invocation id with a space',
    () => invocation({ invocation_id: 'a b' }),
    'invalid_value',
    'invocation_id',
  ),
  row(
    'invocation id of 129',
    () => invocation({ invocation_id: 'a'.repeat(129) }),
    'string_too_long',
    'invocation_id',
  ),
  row('method empty', () => invocation({ method: '' }), 'string_too_short', 'method'),
  row(
    'method with an empty segment',
    () => invocation({ method: 'pomodoro..start' }),
    'invalid_value',
    'method',
  ),
  row('method ending in a dot', () => invocation({ method: 'pomodoro.' }), 'invalid_value', 'method'),
  row('method with a colon', () => invocation({ method: 'pomodoro:start' }), 'invalid_value', 'method'),
  row('method of 65', () => invocation({ method: `a${'b'.repeat(64)}` }), 'string_too_long', 'method'),
  row(
    'a dotted method (the descriptor publishes the bare method)',
    () => invocation({ method: 'pomodoro.start' }),
    'invalid_value',
    'method',
  ),
  row(
    'a reverse-DNS app scope (scopes are snake_case words)',
    () => invocation({ app_scope: 'com.lineup.pomodoro' }),
    'invalid_value',
    'app_scope',
  ),
  row('app scope with a slash', () => invocation({ app_scope: 'com/lineup' }), 'invalid_value', 'app_scope'),
  row('arguments an array', () => invocation({ arguments: [] }), WRONG_TYPE, 'arguments'),
  row(
    'arguments one byte too large',
    () => invocation({ arguments: objectOfBytes(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes + 1) }),
    'too_large',
    'arguments',
  ),
  row(
    'arguments with __proto__',
    () => invocation({ arguments: json('{"__proto__":{"x":1}}') }),
    'invalid_identifier',
    'arguments',
  ),
  // Session data snapshots
  row('revision negative', () => sessionData({ revision: -1 }), 'number_out_of_range', 'revision'),
  row('revision fractional', () => sessionData({ revision: 1.5 }), WRONG_TYPE, 'revision'),
  row(
    'revision past a safe integer',
    () => sessionData({ revision: 2 ** 53 }),
    'number_out_of_range',
    'revision',
  ),
  row('data an array', () => sessionData({ data: [] }), WRONG_TYPE, 'data'),
  row(
    'data with 257 keys',
    () => sessionData({ data: keyed(MINIAPP_CHANNEL_LIMITS.maxSessionDataKeys + 1) }),
    'too_many',
    'data',
  ),
  row(
    'data key starting with a digit',
    () => sessionData({ data: { '1x': 1 } }),
    'invalid_identifier',
    'data',
  ),
  row(
    'data key of 129',
    () => sessionData({ data: { [`a${'b'.repeat(128)}`]: 1 } }),
    'invalid_identifier',
    'data',
  ),
  row(
    'data key __proto__',
    () => sessionData({ data: json('{"__proto__":1}') }),
    'invalid_identifier',
    'data',
  ),
  row(
    'data one byte too large',
    () => sessionData({ data: objectOfBytes(MINIAPP_CHANNEL_LIMITS.maxSessionDataBytes + 1) }),
    'too_large',
    'data',
  ),
  // Lifecycle: a closed set; a close never says why (seed 003 §7)
  row('an unknown phase', () => lifecycle('interrupted'), 'invalid_value', 'phase'),
  row('a phase of another case', () => lifecycle('Close'), 'invalid_value', 'phase'),
  row(
    'a close reason',
    () => ({ ...lifecycle('close'), reason: 'agent_interrupt' }),
    'unknown_property',
    '$',
  ),
  // Request results
  row('ok with an error', () => requestOk({ error: { code: 'x' } }), 'unknown_property', '$'),
  row('error without an error', () => without(requestError(), 'error'), 'missing_property', 'error'),
  row('an unknown status', () => requestOk({ status: 'done' }), 'invalid_value', 'status'),
  row(
    'an error code in camelCase',
    () => requestError({ error: { code: 'notAllowed' } }),
    'invalid_value',
    'error.code',
  ),
];

export const FROM_FRAME_REJECTIONS: Row[] = [
  // Channel and direction
  row(
    'a Surface message',
    () => ({ ...appReady(), namespace: 'lineup.surface.v1' }),
    'invalid_value',
    'namespace',
  ),
  row('a downward type', () => invocation(), 'invalid_value', 'type'),
  row('a Surface event type', () => ({ ...appReady(), type: 'event' }), 'invalid_value', 'type'),
  row('another instance', () => ({ ...appReady(), instance_id: 'other' }), 'invalid_value', 'instance_id'),
  row('instance id missing', () => without(appReady(), 'instance_id'), 'missing_property', 'instance_id'),
  row('a foreground claim', () => ({ ...appReady(), foreground: true }), 'unknown_property', '$'),
  // Readiness and failure
  row('app_failed without an error', () => without(appFailed(), 'error'), 'missing_property', 'error'),
  row('an error code with a dash', () => appFailed({ code: 'bundle-error' }), 'invalid_value', 'error.code'),
  row(
    'an error code of 65',
    () => appFailed({ code: `a${'b'.repeat(64)}` }),
    'string_too_long',
    'error.code',
  ),
  row(
    'an error message of 513',
    () => appFailed({ code: 'x', message: 'm'.repeat(513) }),
    'string_too_long',
    'error.message',
  ),
  row('an error with details', () => appFailed({ code: 'x', stack: 'at …' }), 'unknown_property', 'error'),
  // Handler returns
  row('ok without a result', () => without(returnOk(), 'result'), 'missing_property', 'result'),
  row('ok with an error', () => returnOk({ error: { code: 'x' } }), 'unknown_property', '$'),
  row('error with a result', () => returnError({ result: {} }), 'unknown_property', '$'),
  row('an unknown status', () => returnOk({ status: 'partial' }), 'invalid_value', 'status'),
  row(
    'invocation id missing',
    () => without(returnOk(), 'invocation_id'),
    'missing_property',
    'invocation_id',
  ),
  row(
    'a result one byte too large',
    () => returnOk({ result: stringOfBytes(MINIAPP_CHANNEL_LIMITS.maxToolResultBytes + 1) }),
    'too_large',
    'result',
  ),
  row(
    'a result with __proto__',
    () => returnOk({ result: json('[{"__proto__":{}}]') }),
    'invalid_identifier',
    'result[0]',
  ),
  row('a result sent to the agent', () => returnOk({ call_id: 'call_01' }), 'unknown_property', '$'),
  // Located issues of an error
  row(
    'issues that are not a list',
    () => returnError({ error: { code: 'invalid_result', issues: {} } }),
    'invalid_type',
    'error.issues',
  ),
  row(
    'an empty issue list',
    () => returnError({ error: { code: 'invalid_result', issues: [] } }),
    'too_few',
    'error.issues',
  ),
  row(
    'four issues',
    () =>
      returnError({
        error: { code: 'invalid_result', issues: Array(4).fill({ path: 'a', code: 'invalid_type' }) },
      }),
    'too_many',
    'error.issues',
  ),
  row(
    'an issue path with a value in it',
    () =>
      returnError({
        error: { code: 'invalid_arguments', issues: [{ path: 'text: "my secret"', code: 'invalid_type' }] },
      }),
    'invalid_value',
    'error.issues[0].path',
  ),
  row(
    'an issue path with a quoted key',
    () =>
      returnError({
        error: { code: 'invalid_arguments', issues: [{ path: 'tags["a b"]', code: 'invalid_type' }] },
      }),
    'invalid_value',
    'error.issues[0].path',
  ),
  row(
    'an issue path of 257',
    () =>
      returnError({
        error: { code: 'invalid_result', issues: [{ path: `a${'b'.repeat(256)}`, code: 'invalid_type' }] },
      }),
    'string_too_long',
    'error.issues[0].path',
  ),
  row(
    'an unknown issue code',
    () => returnError({ error: { code: 'invalid_result', issues: [{ path: 'count', code: 'too_small' }] } }),
    'invalid_value',
    'error.issues[0].code',
  ),
  row(
    'an issue with its value',
    () =>
      returnError({
        error: { code: 'invalid_result', issues: [{ path: 'count', code: 'invalid_type', input: 0 }] },
      }),
    'unknown_property',
    'error.issues[0]',
  ),
  // Session data writes
  row('a key starting with a digit', () => write({ key: '1x' }), 'invalid_value', 'key'),
  row('a key of 129', () => write({ key: `a${'b'.repeat(128)}` }), 'string_too_long', 'key'),
  row('a key __proto__', () => write({ key: '__proto__' }), 'invalid_value', 'key'),
  row('value missing', () => without(write(), 'value'), 'missing_property', 'value'),
  row(
    'a value one byte too large',
    () => write({ value: stringOfBytes(MINIAPP_CHANNEL_LIMITS.maxSessionValueBytes + 1) }),
    'too_large',
    'value',
  ),
  row('base revision negative', () => write({ base_revision: -1 }), 'number_out_of_range', 'base_revision'),
  row('a write to another app scope', () => write({ app_scope: 'other' }), 'unknown_property', '$'),
  // UI actions: their own entry point, never an agent identity (seed 003 §3, §8.2–§8.3)
  row('an agent identity', () => uiAction({ agent_id: 'agent_01' }), 'unknown_property', '$'),
  row('an inventory revision', () => uiAction({ inventory_revision: 'catalog-42' }), 'unknown_property', '$'),
  row('an agent call id', () => uiAction({ call_id: 'call_01' }), 'unknown_property', '$'),
  row(
    'a method instead of an action',
    () => without(uiAction({ method: 'pomodoro.start' }), 'action'),
    'missing_property',
    'action',
  ),
  row('an action name with a space', () => uiAction({ action: 'focus start' }), 'invalid_value', 'action'),
  row('arguments of 33', () => uiAction({ arguments: keyed(33) }), 'too_many', 'arguments'),
  row('a nested argument', () => uiAction({ arguments: { a: { b: 1 } } }), 'invalid_value', 'arguments.a'),
  row('an array argument', () => uiAction({ arguments: { a: [1] } }), 'invalid_value', 'arguments.a'),
  row(
    'an argument key that is not an identifier',
    () => uiAction({ arguments: { 'a.b': 1 } }),
    'invalid_identifier',
    'arguments',
  ),
  row(
    'an argument key constructor',
    () => uiAction({ arguments: { constructor: 1 } }),
    'invalid_identifier',
    'arguments',
  ),
  row(
    'an argument key __proto__',
    () => uiAction({ arguments: json('{"__proto__":1}') }),
    'invalid_identifier',
    'arguments',
  ),
  row('a number past 1e15', () => uiAction({ arguments: { a: 1e16 } }), 'number_out_of_range', 'arguments.a'),
  row(
    'arguments one byte too large',
    () => uiAction({ arguments: flatOfBytes(MINIAPP_CHANNEL_LIMITS.maxUIActionArgumentBytes + 1) }),
    'too_large',
    'arguments',
  ),
  // Whole message budget
  row(
    'a message past the channel budget',
    () => returnOk({ result: stringOfBytes(80_000) }),
    'too_large',
    '$',
  ),
  row(
    'a getter',
    () => Object.defineProperty(appReady(), 'x', { get: () => 1, enumerable: true }),
    'invalid_json',
    'x',
  ),
];

export const VALID_TO_FRAME: [string, J][] = [
  ['a tool invocation', invocation()],
  ['a tool invocation without arguments', invocation({ arguments: {} })],
  ['a bare method and a snake_case scope', invocation({ method: 'start', app_scope: 'pomodoro' })],
  ['a method of 64', invocation({ method: `a${'b'.repeat(63)}` })],
  [
    'arguments of exactly the bound',
    invocation({ arguments: objectOfBytes(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes) }),
  ],
  ['a session data snapshot', sessionData()],
  ['an empty snapshot at revision 0', sessionData({ revision: 0, data: {} })],
  ['a snapshot at the largest revision', sessionData({ revision: Number.MAX_SAFE_INTEGER })],
  ['a snapshot of 256 keys', sessionData({ data: keyed(MINIAPP_CHANNEL_LIMITS.maxSessionDataKeys) })],
  [
    'a snapshot of exactly the bound',
    sessionData({ data: objectOfBytes(MINIAPP_CHANNEL_LIMITS.maxSessionDataBytes) }),
  ],
  ...MINIAPP_LIFECYCLE_PHASES.map((phase): [string, J] => [`lifecycle ${phase}`, lifecycle(phase)]),
  ['an ok request result', requestOk()],
  ['an ok request result with a revision', requestOk({ revision: 4 })],
  ['an error request result', requestError()],
  ['an error without a message', requestError({ error: { code: 'not_allowed' } })],
];

export const VALID_FROM_FRAME: [string, J][] = [
  ['app_ready', appReady()],
  ['app_failed', appFailed({ code: 'bundle_error', message: 'm'.repeat(512) })],
  ['an ok return', returnOk()],
  ['an ok return of a scalar', returnOk({ result: 'done' })],
  ['an ok return of null', returnOk({ result: null })],
  [
    'a result of exactly the bound',
    returnOk({ result: stringOfBytes(MINIAPP_CHANNEL_LIMITS.maxToolResultBytes) }),
  ],
  ['an error return', returnError()],
  [
    'an error return with three located issues',
    returnError({
      error: {
        code: 'invalid_result',
        message: 'm',
        issues: [
          { path: '$', code: 'invalid_type' },
          { path: 'items[2].text', code: 'string_too_long' },
          { path: `tags[*].${'a'.repeat(247)}`, code: 'missing_property' },
        ],
      },
    }),
  ],
  [
    'an error return with a business code',
    returnError({ error: { code: 'already_focusing', message: 'm' } }),
  ],
  ['a session data write', write()],
  ['a write of an object, at a base revision', write({ value: { a: [1, 2] }, base_revision: 0 })],
  ['a write of null', write({ value: null })],
  [
    'a value of exactly the bound',
    write({ value: stringOfBytes(MINIAPP_CHANNEL_LIMITS.maxSessionValueBytes) }),
  ],
  ['a key of 128', write({ key: `a${'b'.repeat(127)}` })],
  ['a UI action', uiAction()],
  ['a UI action without arguments', uiAction({ arguments: {} })],
  [
    'a UI action of 32 arguments',
    uiAction({ arguments: keyed(MINIAPP_CHANNEL_LIMITS.maxUIActionArguments) }),
  ],
  [
    'UI action arguments of exactly the bound',
    uiAction({ arguments: flatOfBytes(MINIAPP_CHANNEL_LIMITS.maxUIActionArgumentBytes) }),
  ],
];
