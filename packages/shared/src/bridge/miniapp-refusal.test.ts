/**
 * The runtime's answer to a page message its parser refused (`answerRefusedMiniAppMessage`) and the channel's
 * issue (`miniAppErrorIssue`): what a page learns of its mistake, and that nothing else of a refused message is
 * read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineUpProtocolError } from '../errors/errors.js';
import {
  answerRefusedMiniAppMessage,
  MINIAPP_NAMESPACE,
  MINIAPP_PROTOCOL_INVALID,
  parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrame,
} from './miniapp.js';
import { miniAppErrorIssue } from './miniapp-issues.js';

const INSTANCE = 'pomodoro.1';
const envelope = { namespace: MINIAPP_NAMESPACE, instance_id: INSTANCE } as const;

/** The refusal of `input` by the runtime's parser (the test fails if the parser accepts it). */
function refusal(input: unknown): LineUpProtocolError {
  try {
    parseMiniAppMessageFromFrame(input, INSTANCE);
  } catch (error) {
    if (error instanceof LineUpProtocolError) return error;
    throw error;
  }
  throw new Error('the parser accepted the message');
}

const answer = (input: unknown) => answerRefusedMiniAppMessage(input, INSTANCE, refusal(input));

describe('answerRefusedMiniAppMessage', () => {
  it('answers a refused write with protocol_invalid at its place, as a valid request_result', () => {
    const write = { ...envelope, type: 'session_data_write', request_id: 'r7', key: '1st', value: 1 };
    const result = answer(write);
    expect(result).toEqual({
      kind: 'request',
      message: {
        ...envelope,
        type: 'request_result',
        request_id: 'r7',
        status: 'error',
        error: {
          code: MINIAPP_PROTOCOL_INVALID,
          message: refusal(write).message,
          issues: [{ path: 'key', code: 'invalid_value' }],
        },
      },
    });
    // What the runtime posts passes the channel's own parser for the page.
    expect(parseMiniAppMessageToFrame(result?.kind === 'request' ? result.message : null, INSTANCE)).toEqual(
      result?.kind === 'request' ? result.message : null,
    );
  });

  it.each([
    ['a value that is not JSON data', { key: 'when', value: new Date(0) }],
    ['a value over 64 KiB', { key: 'notes', value: 'x'.repeat(70_000) }],
    ['a key too long', { key: `k${'x'.repeat(128)}`, value: 1 }],
    ['a base revision below 0', { key: 'count', value: 1, base_revision: -1 }],
    ['an unknown field', { key: 'count', value: 1, extra: true }],
  ])('answers a write with %s', (_name, fields) => {
    const result = answer({ ...envelope, type: 'session_data_write', request_id: 'r1', ...fields });
    expect(result?.kind).toBe('request');
    if (result?.kind !== 'request' || result.message.status !== 'error') throw new Error('no error answer');
    expect(result.message.error.code).toBe('protocol_invalid');
    expect(result.message.error.issues?.length).toBeGreaterThan(0);
    expect(() => parseMiniAppMessageToFrame(result.message, INSTANCE)).not.toThrow();
  });

  it('answers a UI action with arguments the channel refuses, naming each place (at most 3)', () => {
    const args = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`a${index}`, { nested: true }]));
    const result = answer({
      ...envelope,
      type: 'ui_action',
      request_id: 'r2',
      action: 'focus.start',
      arguments: args,
    });
    if (result?.kind !== 'request' || result.message.status !== 'error') throw new Error('no error answer');
    expect(result.message.error.issues).toHaveLength(3);
    expect(result.message.error.issues?.[0]?.path).toBe('arguments.a0');
  });

  it('bounds the message to 512 characters', () => {
    const key = `k${'x'.repeat(600)}`;
    const error = new LineUpProtocolError([
      { path: key, code: 'invalid_value', message: 'Not an allowed name.' },
    ]);
    const result = answerRefusedMiniAppMessage(
      { ...envelope, type: 'session_data_write', request_id: 'r3', key, value: 1 },
      INSTANCE,
      error,
    );
    if (result?.kind !== 'request' || result.message.status !== 'error') throw new Error('no error answer');
    expect(result.message.error.message).toHaveLength(512);
    expect(result.message.error.message?.endsWith('…')).toBe(true);
    // A path the channel cannot carry names no place.
    expect(result.message.error.issues).toEqual([{ path: '$', code: 'invalid_value' }]);
  });

  it('fails a refused ok tool_return as invalid_output; a refused error return ends nothing', () => {
    const big = {
      ...envelope,
      type: 'tool_return',
      invocation_id: 'i1',
      status: 'ok',
      result: 'x'.repeat(70_000),
    };
    expect(answer(big)).toEqual({ kind: 'invocation', invocationId: 'i1', code: 'invalid_output' });
    const badError = {
      ...envelope,
      type: 'tool_return',
      invocation_id: 'i2',
      status: 'error',
      error: { code: 'Not A Code' },
    };
    expect(answer(badError)).toBeUndefined();
  });

  it.each([
    [
      'another namespace',
      { ...envelope, namespace: 'lineup.surface.v1', type: 'ui_action', request_id: 'r1' },
    ],
    ['another instance', { ...envelope, instance_id: 'other.1', type: 'ui_action', request_id: 'r1' }],
    ['no request id', { ...envelope, type: 'session_data_write', key: '1st', value: 1 }],
    ['a request id the channel refuses', { ...envelope, type: 'ui_action', request_id: 'r 1', action: 'x' }],
    ['a request id too long', { ...envelope, type: 'ui_action', request_id: 'r'.repeat(129), action: 'x' }],
    ['a request id that is not a string', { ...envelope, type: 'ui_action', request_id: 7, action: 'x' }],
    [
      'an invocation id the channel refuses',
      { ...envelope, type: 'tool_return', invocation_id: '', status: 'ok' },
    ],
    ['app_failed (no id to answer)', { ...envelope, type: 'app_failed', error: { code: 'Bad' } }],
    ['an unknown type', { ...envelope, type: 'tool_invocation', request_id: 'r1' }],
    ['an array', [envelope]],
    ['null', null],
    ['a string', 'session_data_write'],
  ])('gives no answer to %s', (_name, input) => {
    expect(answer(input)).toBeUndefined();
  });

  it('reads own data properties only: a getter never runs, a throwing Proxy gets no answer', () => {
    let ran = false;
    const withGetter = { ...envelope, type: 'ui_action', action: 'x' };
    Object.defineProperty(withGetter, 'request_id', {
      enumerable: true,
      get() {
        ran = true;
        return 'r1';
      },
    });
    const error = new LineUpProtocolError([{ path: 'request_id', code: 'invalid_json', message: 'x' }]);
    expect(answerRefusedMiniAppMessage(withGetter, INSTANCE, error)).toBeUndefined();
    expect(ran).toBe(false);
    const inherited = Object.assign(Object.create({ request_id: 'r1' }), { ...envelope, type: 'ui_action' });
    expect(answerRefusedMiniAppMessage(inherited, INSTANCE, error)).toBeUndefined();
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    );
    expect(answerRefusedMiniAppMessage(hostile, INSTANCE, error)).toBeUndefined();
  });

  it('any refused message gets no answer or an answer the page accepts (property)', () => {
    const field = fc.oneof(fc.jsonValue(), fc.string(), fc.constantFrom('r1', 'i1', '1st', 'ok', 'error'));
    fc.assert(
      fc.property(
        fc.constantFrom('session_data_write', 'ui_action', 'tool_return', 'app_failed', 'app_ready'),
        fc.dictionary(
          fc.constantFrom(
            'request_id',
            'invocation_id',
            'key',
            'value',
            'action',
            'arguments',
            'status',
            'error',
            'result',
          ),
          field,
        ),
        (type, fields) => {
          const input = { ...envelope, type, ...fields };
          let error: LineUpProtocolError;
          try {
            parseMiniAppMessageFromFrame(input, INSTANCE);
            return;
          } catch (caught) {
            if (!(caught instanceof LineUpProtocolError)) throw caught;
            error = caught;
          }
          const result = answerRefusedMiniAppMessage(input, INSTANCE, error);
          if (result?.kind === 'request') {
            expect(parseMiniAppMessageToFrame(result.message, INSTANCE)).toEqual(result.message);
            expect(result.message.request_id).toBe(fields.request_id);
          } else if (result?.kind === 'invocation') expect(result.invocationId).toBe(fields.invocation_id);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('miniAppErrorIssue', () => {
  it.each([
    ['items[2].text', 'too_many', { path: 'items[2].text', code: 'too_many' }],
    ['data["a b"].c', 'invalid_type', { path: 'data[*].c', code: 'invalid_type' }],
    ['$', 'invalid_value', { path: '$', code: 'invalid_value' }],
    ['a.b', 'my_own_code', { path: 'a.b', code: 'invalid_value' }],
    [`a${'b'.repeat(300)}`, 'too_long', { path: '$', code: 'invalid_value' }],
    ['a.b…', 'invalid_type', { path: '$', code: 'invalid_type' }],
  ])('%s (%s) is carried as %j', (path, code, expected) => {
    expect(miniAppErrorIssue(path, code)).toEqual(expected);
  });
});
