import type { LineUpMessage } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import type { LoggedMessage } from '../agent/connection.ts';
import {
  addWatchedCall,
  buildToolCallEnvelope,
  CONSOLE_SENDER,
  callPhase,
  consoleUuid,
  envelopeProblem,
  MAX_WATCHED_CALLS,
  observe,
  watchCall,
} from './tool-call.ts';

const UUID = '0b7c6f1e-8a4d-4e2b-9c3f-5d6e7f8a9b0c';

const envelope = buildToolCallEnvelope({
  conversationId: 'conv_web_host',
  tool: 'pomodoro.start',
  inventoryRevision: 'inv_7',
  arguments: { minutes: 25 },
  uuid: UUID,
});

const log = (direction: 'in' | 'out', message: object, at = 2_000): LoggedMessage => ({
  direction,
  message: message as LineUpMessage,
  at,
});

const clientMessage = (type: string, payload: object) => ({
  v: 1,
  id: `web-host:${type}`,
  type,
  conversation_id: 'conv_web_host',
  sender: { kind: 'client', id: 'web-host' },
  payload,
});

describe('consoleUuid', () => {
  it('formats 16 random bytes as a version 4 UUID', () => {
    expect(consoleUuid((bytes) => bytes.fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(consoleUuid((bytes) => bytes.fill(0))).toBe('00000000-0000-4000-8000-000000000000');
    expect(consoleUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(consoleUuid()).not.toBe(consoleUuid());
  });
});

describe('buildToolCallEnvelope', () => {
  it('builds the lineup.v1.tool.call an agent would send, as the console agent', () => {
    expect(envelope).toEqual({
      v: 1,
      id: `console_${UUID}`,
      type: 'lineup.v1.tool.call',
      conversation_id: 'conv_web_host',
      sender: { kind: 'agent', id: 'agent_console' },
      payload: {
        call_id: `call_console_${UUID}`,
        tool: 'pomodoro.start',
        inventory_revision: 'inv_7',
        arguments: { minutes: 25 },
      },
    });
    expect(envelope.sender).not.toBe(CONSOLE_SENDER);
  });

  it('passes the client parser, agent to client', () => {
    expect(envelopeProblem(envelope)).toBeNull();
  });

  it('names where an envelope would be refused', () => {
    expect(envelopeProblem({ ...envelope, conversation_id: 'has space' })).toBe('conversation_id');
    expect(envelopeProblem({ ...envelope, payload: { ...envelope.payload, tool: 'no_dot' } })).toBe(
      'payload.tool',
    );
  });
});

describe('watching a call', () => {
  const call = watchCall(envelope, 1_000, 60_000);

  it('starts as sent, with nothing seen', () => {
    expect(call).toMatchObject({
      callId: `call_console_${UUID}`,
      envelopeId: `console_${UUID}`,
      tool: 'pomodoro.start',
      arguments: { minutes: 25 },
      receivedAt: null,
      progress: [],
      result: null,
    });
    expect(callPhase(call, 1_500)).toBe('sent');
  });

  it('follows the client receiving it, its progress and its one final result', () => {
    let calls = [call];
    calls = [...observe(calls, log('in', envelope, 1_100))];
    expect(calls[0]?.receivedAt).toBe(1_100);
    expect(callPhase(calls[0]!, 1_200)).toBe('received');

    const progress = clientMessage('lineup.v1.tool.progress', {
      call_id: call.callId,
      app_scope: 'pomodoro',
      status: 'started',
    });
    calls = [...observe(calls, log('out', progress, 1_300))];
    expect(calls[0]?.progress).toEqual([
      { call_id: call.callId, app_scope: 'pomodoro', status: 'started', at: 1_300 },
    ]);
    expect(callPhase(calls[0]!, 1_400)).toBe('in_progress');

    const result = clientMessage('lineup.v1.tool.result', {
      call_id: call.callId,
      outcome: 'completed',
      result: { status: 'completed', minutes: 25 },
    });
    calls = [...observe(calls, log('out', result, 1_500))];
    expect(calls[0]?.result).toEqual({
      call_id: call.callId,
      outcome: 'completed',
      result: { status: 'completed', minutes: 25 },
      at: 1_500,
    });
    // A final result ends the watch: the wait no longer matters.
    expect(callPhase(calls[0]!, 10_000_000)).toBe('completed');

    // A replayed result is the same call's persisted one: the first stays.
    const replay = clientMessage('lineup.v1.tool.result', {
      call_id: call.callId,
      outcome: 'error',
      error: { code: 'call_id_conflict' },
    });
    expect(observe(calls, log('out', replay, 1_600))).toBe(calls);
  });

  it('shows an error outcome with its code', () => {
    const failed = observe(
      [call],
      log(
        'out',
        clientMessage('lineup.v1.tool.result', {
          call_id: call.callId,
          outcome: 'error',
          error: { code: 'stale_inventory' },
        }),
      ),
    );
    expect(failed[0]?.result?.error?.code).toBe('stale_inventory');
    expect(callPhase(failed[0]!, 2_000)).toBe('error');
  });

  it('says overdue once the wait passed without a final result', () => {
    expect(callPhase(call, 1_000 + 59_999)).toBe('sent');
    expect(callPhase(call, 1_000 + 60_000)).toBe('overdue');
  });

  it.each([
    [
      'another call id',
      'out',
      clientMessage('lineup.v1.tool.result', {
        call_id: 'call_other',
        outcome: 'error',
        error: { code: 'timeout' },
      }),
    ],
    [
      'a progress receipt received rather than sent',
      'in',
      clientMessage('lineup.v1.tool.progress', {
        call_id: call.callId,
        app_scope: 'pomodoro',
        status: 'accepted',
      }),
    ],
    ['another envelope id', 'in', { ...envelope, id: 'agent_msg_1' }],
    ['an unrelated type', 'out', clientMessage('lineup.v1.chat.user_message', { text: 'hi' })],
  ] as const)('ignores %s', (_name, direction, message) => {
    const calls = [call];
    expect(observe(calls, log(direction, message))).toBe(calls);
  });

  it(`keeps the newest ${MAX_WATCHED_CALLS} calls, newest first`, () => {
    let calls: readonly ReturnType<typeof watchCall>[] = [];
    for (let index = 0; index < MAX_WATCHED_CALLS + 3; index++)
      calls = addWatchedCall(calls, { ...call, callId: `call_${index}` });
    expect(calls).toHaveLength(MAX_WATCHED_CALLS);
    expect(calls[0]?.callId).toBe(`call_${MAX_WATCHED_CALLS + 2}`);
    expect(calls.at(-1)?.callId).toBe('call_3');
  });
});
