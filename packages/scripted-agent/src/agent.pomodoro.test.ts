/**
 * The agent seen from the client: the Pomodoro flow with every final result, in both languages, numbers out of
 * range, and stop. Every envelope the agent sends is parsed by the harness as a client would.
 */
import { TOOL_ERROR_CODES } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { type Harness, ofType, texts, types } from '../test/harness.js';
import type { Language } from './conversation/language.js';
import { REPLIES } from './conversation/replies.js';

/** Starts a session and returns its call id, with the replies sent so far taken. */
function start(harness: Harness, phrase: string): string {
  harness.say(phrase);
  const [call] = ofType(harness.take(), 'lineup.v1.tool.call');
  if (call === undefined) throw new Error('No tool call was sent.');
  return call.payload.call_id;
}

const progress = (harness: Harness, callId: string, status: string) =>
  harness.receive('lineup.v1.tool.progress', { call_id: callId, app_scope: 'pomodoro', status });
const completed = (harness: Harness, callId: string, result: object) =>
  harness.receive('lineup.v1.tool.result', { call_id: callId, outcome: 'completed', result });

describe('the Pomodoro flow', () => {
  it.each([
    {
      language: 'en' as Language,
      phrase: 'start a 20 minute focus',
      replies: [
        'Opening **Pomodoro** for a 20-minute focus session. The timer starts once you see it.',
        'The timer is running: **20 minutes** of focus. Say *stop* to end it early.',
        'Done: you completed **20 minutes** of focus. Well done!',
      ],
    },
    {
      language: 'zh' as Language,
      phrase: '现在开始 20 分钟的冥想，帮我计时',
      replies: [
        '正在打开**番茄钟**，准备 20 分钟的冥想。你看到它之后计时才会开始。',
        '计时已开始：**20 分钟**冥想。说「停止」可以提前结束。',
        '完成了：**20 分钟**的冥想已结束，做得好！',
      ],
    },
  ])('start → starting → started → completed ($language)', ({ phrase, replies }) => {
    const harness = withInventory();
    harness.say(phrase);
    const first = harness.take();
    expect(types(first)).toEqual(['chat.agent_message', 'tool.call']);
    // Opening, not started: the timer runs only once the user sees Pomodoro (seed 003 §7).
    expect(texts(first)).toEqual([replies[0]]);
    const callId = ofType(first, 'lineup.v1.tool.call')[0]?.payload.call_id ?? '';
    progress(harness, callId, 'accepted');
    progress(harness, callId, 'starting');
    expect(harness.take()).toEqual([]);
    progress(harness, callId, 'started');
    expect(texts(harness.take())).toEqual([replies[1]]);
    completed(harness, callId, {
      status: 'completed',
      minutes: 20,
      started_at: '2026-01-01T10:00:00Z',
      ended_at: '2026-01-01T10:20:00Z',
    });
    expect(texts(harness.take())).toEqual([replies[2]]);
  });

  it('says the default when no length was named', () => {
    const harness = withInventory();
    harness.say('start a pomodoro');
    const sent = harness.take();
    expect(ofType(sent, 'lineup.v1.tool.call')[0]?.payload.arguments).toEqual({
      minutes: 25,
      label: 'Focus',
    });
    expect(texts(sent)[0]).toContain('you named no length, so a classic 25 minutes');
  });

  it('answers in the language of the conversation at the time of the result', () => {
    const harness = withInventory();
    const callId = start(harness, 'start a 20 minute focus');
    harness.say('你好');
    harness.take();
    progress(harness, callId, 'started');
    expect(texts(harness.take())).toEqual(['计时已开始：**20 分钟**专注。说「停止」可以提前结束。']);
  });

  it.each([
    [
      { status: 'interrupted', by: 'agent', focused_seconds: 754 },
      'The focus session was stopped after **12 minutes 34 seconds**.',
    ],
    [
      { status: 'interrupted', by: 'user_left', focused_seconds: 60 },
      'The focus session ended because you left Pomodoro, after **1 minute**.',
    ],
    [
      { status: 'interrupted', by: 'agent', focused_seconds: 1 },
      'The focus session was stopped after **1 second**.',
    ],
    [
      { status: 'not_started', reason: 'foreground_not_confirmed' },
      'The timer never started: Pomodoro did not come to the foreground in time.',
    ],
    [
      { status: 'not_started', reason: 'cancelled' },
      'The timer never started: the start was cancelled before Pomodoro opened.',
    ],
    [{ status: 'exploded' }, '`pomodoro.start` answered with a result I do not understand.'],
  ])('a final result %o → %s', (result, reply) => {
    const harness = withInventory();
    const callId = start(harness, 'start a 20 minute focus');
    const times =
      result.status === 'interrupted'
        ? { started_at: '2026-01-01T10:00:00Z', interrupted_at: '2026-01-01T10:12:34Z' }
        : {};
    completed(harness, callId, { ...result, ...times });
    expect(texts(harness.take())).toEqual([reply]);
  });

  it.each([
    [{ status: 'interrupted', by: 'agent', focused_seconds: 754 }, '冥想已停止，共进行了 **12 分 34 秒**。'],
    [
      { status: 'interrupted', by: 'user_left', focused_seconds: 120 },
      '你离开了番茄钟，冥想已结束，共进行了 **2 分钟**。',
    ],
    [
      { status: 'not_started', reason: 'foreground_not_confirmed' },
      '计时没有开始：番茄钟没能及时显示在前台。',
    ],
    [{ status: 'not_started', reason: 'cancelled' }, '计时没有开始：番茄钟打开之前就被取消了。'],
  ])('a final result %o in Chinese → %s', (result, reply) => {
    const harness = withInventory();
    const callId = start(harness, '冥想 20 分钟');
    const times =
      result.status === 'interrupted'
        ? { started_at: '2026-01-01T10:00:00Z', interrupted_at: '2026-01-01T10:12:34Z' }
        : {};
    completed(harness, callId, { ...result, ...times });
    expect(texts(harness.take())).toEqual([reply]);
  });

  it.each(TOOL_ERROR_CODES)('an error %s is reported with its code, in both languages', (code) => {
    for (const [language, phrase] of [
      ['en', 'start a 20 minute focus'],
      ['zh', '专注 20 分钟'],
    ] as const) {
      const harness = withInventory();
      const callId = start(harness, phrase);
      harness.receive('lineup.v1.tool.result', { call_id: callId, outcome: 'error', error: { code } });
      const [reply] = texts(harness.take());
      expect(reply).toBe(REPLIES[language].toolError('pomodoro.start', code));
      expect(reply).toContain(`\`${code}\``);
    }
  });

  it('progress that is not `started` says nothing; a failed start is told by its result', () => {
    const harness = withInventory();
    const callId = start(harness, 'start a 20 minute focus');
    for (const status of [
      'accepted',
      'starting',
      'activation_ready',
      'activation_failed',
      'activation_cancelled',
    ])
      progress(harness, callId, status);
    expect(harness.take()).toEqual([]);
    harness.receive('lineup.v1.tool.result', {
      call_id: callId,
      outcome: 'error',
      error: { code: 'app_activation_failed' },
    });
    expect(texts(harness.take())).toEqual([REPLIES.en.toolError('pomodoro.start', 'app_activation_failed')]);
  });
});

describe('numbers out of range', () => {
  it.each([
    ['start a 0 minute focus', 'en', 0],
    ['start a 181 minute focus', 'en', 181],
    ['focus for 500 minutes', 'en', 500],
    ['start a -5 minute focus', 'en', -5],
    ['start a 2.5 minute focus', 'en', 2.5],
    ['专注 0 分钟', 'zh', 0],
    ['冥想 200 分钟', 'zh', 200],
    ['冥想五个小时', 'zh', 300],
  ] as const)('%s → a polite refusal and no call', (phrase, language, minutes) => {
    const harness = withInventory();
    harness.say(phrase);
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    expect(texts(sent)).toEqual([REPLIES[language].pomodoroOutOfRange(minutes)]);
    expect(texts(sent)[0]).toContain(String(minutes));
    expect(texts(sent)[0]).toContain('180');
  });

  it('does not repeat an absurd number', () => {
    const harness = withInventory();
    harness.say('start a 99999999999999999999 minute focus');
    const [reply] = texts(harness.take());
    expect(reply).toBe(
      'I can time whole minutes from 1 to 180, so I did not start anything. Try *start a 25 minute focus*.',
    );
  });
});

describe('stop', () => {
  it.each([
    ['interrupted', 'Stopped: the timer is no longer running.', '已停止：计时不再进行。'],
    [
      'start_cancelled',
      'Cancelled: Pomodoro was still opening, so the timer never started.',
      '已取消：番茄钟还在打开，计时没有开始。',
    ],
    [
      'nothing_to_interrupt',
      'There was no timer running, so there was nothing to stop.',
      '现在没有正在进行的计时，无需停止。',
    ],
  ] as const)('%s', (status, english, chinese) => {
    for (const [phrase, reply, stopping] of [
      ['stop the timer', english, 'Asking **Pomodoro** to stop the timer…'],
      ['停止计时', chinese, '正在让**番茄钟**停止计时…'],
    ] as const) {
      const harness = withInventory();
      harness.say(phrase);
      const sent = harness.take();
      expect(texts(sent)).toEqual([stopping]);
      const callId = ofType(sent, 'lineup.v1.tool.call')[0]?.payload.call_id ?? '';
      completed(harness, callId, { status });
      expect(texts(harness.take())).toEqual([reply]);
    }
  });

  it('a stop while a session runs: the stop and the session each get their answer', () => {
    const harness = withInventory();
    const startId = start(harness, 'start a 20 minute focus');
    progress(harness, startId, 'started');
    expect(texts(harness.take())).toEqual([
      'The timer is running: **20 minutes** of focus. Say *stop* to end it early.',
    ]);
    const stopId = start(harness, 'stop');
    completed(harness, stopId, { status: 'interrupted' });
    completed(harness, startId, {
      status: 'interrupted',
      by: 'agent',
      focused_seconds: 300,
      started_at: '2026-01-01T10:00:00Z',
      interrupted_at: '2026-01-01T10:05:00Z',
    });
    expect(texts(harness.take())).toEqual([
      'Stopped: the timer is no longer running.',
      'The focus session was stopped after **5 minutes**.',
    ]);
  });

  it('an error of the interrupt is reported', () => {
    const harness = withInventory();
    const callId = start(harness, 'stop');
    harness.receive('lineup.v1.tool.result', {
      call_id: callId,
      outcome: 'error',
      error: { code: 'timeout' },
    });
    expect(texts(harness.take())).toEqual([REPLIES.en.toolError('pomodoro.interrupt', 'timeout')]);
  });

  it('an unexpected interrupt result is said to be one', () => {
    const harness = withInventory();
    const callId = start(harness, 'stop');
    completed(harness, callId, { status: 'paused' });
    expect(texts(harness.take())).toEqual([REPLIES.en.unexpectedResult('pomodoro.interrupt')]);
  });
});
