import type { LineUpMessage } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import type { LoggedMessage } from '../agent/connection.ts';
import {
  appendAllToLog,
  appendToLog,
  clockTime,
  EMPTY_MESSAGE_LOG,
  filterLog,
  MAX_SUMMARY_LENGTH,
  MESSAGE_LOG_LIMIT,
  type MessageLog,
  summarize,
} from './message-log.ts';

const message = (type: string, payload: object, kind: 'agent' | 'client' = 'client') =>
  ({
    v: 1,
    id: `msg_${type}`,
    type,
    conversation_id: 'conv_web_host',
    sender: { kind, id: kind === 'agent' ? 'agent_console' : 'web-host' },
    payload,
  }) as LineUpMessage;

const entry = (type: string, at = 0, direction: 'in' | 'out' = 'out'): LoggedMessage => ({
  direction,
  at,
  message: message(type, { text: 'hello' }),
});

describe('appendToLog', () => {
  it('keeps entries newest last, numbered in arrival order', () => {
    let log: MessageLog = EMPTY_MESSAGE_LOG;
    log = appendToLog(log, entry('lineup.v1.chat.user_message', 1));
    log = appendToLog(log, entry('lineup.v1.chat.agent_message', 2, 'in'));
    expect(log.entries.map((item) => [item.sequence, item.at, item.direction])).toEqual([
      [1, 1, 'out'],
      [2, 2, 'in'],
    ]);
    expect(log.dropped).toBe(0);
  });

  it(`keeps the last ${MESSAGE_LOG_LIMIT} and counts the dropped ones`, () => {
    let log: MessageLog = EMPTY_MESSAGE_LOG;
    for (let at = 1; at <= MESSAGE_LOG_LIMIT + 7; at++)
      log = appendToLog(log, entry('lineup.v1.chat.user_message', at));
    expect(log.entries).toHaveLength(MESSAGE_LOG_LIMIT);
    expect(log.dropped).toBe(7);
    expect(log.entries[0]?.at).toBe(8);
    expect(log.entries.at(-1)?.sequence).toBe(MESSAGE_LOG_LIMIT + 7);
  });

  it('appends a burst at once as if one by one', () => {
    let oneByOne: MessageLog = appendToLog(EMPTY_MESSAGE_LOG, entry('lineup.v1.chat.user_message', 0));
    let atOnce = oneByOne;
    const burst = Array.from({ length: MESSAGE_LOG_LIMIT * 3 + 5 }, (_, index) =>
      entry('lineup.v1.chat.agent_message', index + 1, 'in'),
    );
    for (const item of burst) oneByOne = appendToLog(oneByOne, item);
    atOnce = appendAllToLog(atOnce, burst);
    expect(atOnce).toEqual(oneByOne);
    expect(atOnce.entries).toHaveLength(MESSAGE_LOG_LIMIT);
    expect(atOnce.dropped).toBe(MESSAGE_LOG_LIMIT * 2 + 6);
    expect(atOnce.entries[0]?.sequence).toBe(MESSAGE_LOG_LIMIT * 2 + 7);
    expect(atOnce.entries.at(-1)?.at).toBe(burst.length);
  });

  it('keeps the same log when nothing is appended', () => {
    const log = appendToLog(EMPTY_MESSAGE_LOG, entry('lineup.v1.chat.user_message', 1));
    expect(appendAllToLog(log, [])).toBe(log);
  });

  it('honours a smaller limit', () => {
    let log: MessageLog = EMPTY_MESSAGE_LOG;
    for (let at = 1; at <= 5; at++) log = appendToLog(log, entry('lineup.v1.chat.user_message', at), 2);
    expect(log.entries.map((item) => item.sequence)).toEqual([4, 5]);
    expect(log.dropped).toBe(3);
  });
});

describe('filterLog', () => {
  const entries = [
    entry('lineup.v1.client.inventory'),
    entry('lineup.v1.tool.call', 0, 'in'),
    entry('lineup.v1.tool.progress'),
    entry('lineup.v1.tool.result'),
  ].map((item, index) => ({ ...item, sequence: index + 1 }));

  it.each([
    ['', 4],
    ['  ', 4],
    ['tool.', 3],
    ['TOOL.RESULT', 1],
    [' inventory ', 1],
    ['surface', 0],
  ])('a filter of %j keeps %i', (query, count) => {
    expect(filterLog(entries, query)).toHaveLength(count);
  });
});

describe('summarize', () => {
  it.each([
    [message('lineup.v1.client.inventory', { revision: 'inv_3', tools: [{}, {}] }), 'inv_3 tools=2'],
    [
      message(
        'lineup.v1.tool.call',
        {
          call_id: 'call_1',
          tool: 'pomodoro.start',
          inventory_revision: 'inv_3',
          arguments: { minutes: 25 },
        },
        'agent',
      ),
      'call_1 pomodoro.start {"minutes":25}',
    ],
    [
      message('lineup.v1.tool.progress', {
        call_id: 'call_1',
        app_scope: 'pomodoro',
        status: 'activation_failed',
        reason: 'foreground_denied',
      }),
      'call_1 activation_failed (foreground_denied)',
    ],
    [
      message('lineup.v1.tool.result', {
        call_id: 'call_1',
        outcome: 'error',
        error: { code: 'invalid_arguments' },
      }),
      'call_1 error invalid_arguments',
    ],
    [
      message('lineup.v1.tool.result', {
        call_id: 'call_1',
        outcome: 'completed',
        result: { status: 'not_started' },
      }),
      'call_1 completed {"status":"not_started"}',
    ],
    [message('lineup.v1.chat.user_message', { text: 'start a focus' }), '"start a focus"'],
    [
      message('lineup.v1.ui.event', { instance_id: 'weather-1', event: 'refresh', data: { city: 'Paris' } }),
      'weather-1 refresh {"city":"Paris"}',
    ],
    [
      message('lineup.v1.unsupported', { message_id: 'm1', message_type: 'x.y', reason: 'unknown_type' }),
      'm1 x.y unknown_type',
    ],
    [
      message('lineup.v1.unsupported', { message_id: 'm1', reason: 'unsupported_version' }),
      'm1 unsupported_version',
    ],
  ])('%#: %s', (input, expected) => {
    expect(summarize(input)).toBe(expected);
  });

  it(`cuts a summary to ${MAX_SUMMARY_LENGTH} characters`, () => {
    const long = summarize(message('lineup.v1.chat.agent_message', { text: 'x'.repeat(1_000) }, 'agent'));
    expect(long).toHaveLength(MAX_SUMMARY_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('clockTime', () => {
  it('shows local hours, minutes, seconds and milliseconds', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
    expect(clockTime(at)).toBe('03:04:05.006');
  });
});
