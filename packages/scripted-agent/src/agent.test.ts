/**
 * The agent seen from the client: every phrase of the table in both languages, the inventory rule, dedupe,
 * the Pomodoro flow with every final result, Surfaces, streams, `unsupported` both ways and bad input. Every
 * envelope the agent sends is parsed by the harness as a client would, so an invalid one fails the test.
 */
import { acceptCheckpoint, parseDocument, type UIStreamState } from '@lineup/shared';
import { type LineUpMessage, TOOL_ERROR_CODES, UIOpenPayloadSchema } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { CONVERSATION, createHarness, type Harness, ofType, texts, types } from '../test/harness.js';
import { POMODORO_INVENTORY_TOOLS } from '../test/pomodoro.js';
import { createScriptedAgent, DEFAULT_AGENT_ID, STREAM_FRAME_DELAY_MS } from './agent.js';
import { INTENT_NAMES, INTENTS } from './conversation/intents.js';
import { LANGUAGES, type Language } from './conversation/language.js';
import { REPLIES } from './conversation/replies.js';

const HAN = /\p{Script=Han}/u;

/** A harness with an inventory listing Pomodoro's tools at `inv-1`. */
function withInventory(): Harness {
  const harness = createHarness();
  harness.inventory('inv-1');
  return harness;
}

/** The Pomodoro start arguments each start example must produce; every example of the table is listed. */
const START_ARGUMENTS: Record<string, { minutes: number; label: string }> = {
  'start a 20 minute focus': { minutes: 20, label: 'Focus' },
  'start a focus session for 25 minutes': { minutes: 25, label: 'Focus' },
  'meditate for 10 minutes': { minutes: 10, label: 'Meditation' },
  'set a timer for half an hour': { minutes: 30, label: 'Focus' },
  '现在开始 20 分钟的冥想，帮我计时': { minutes: 20, label: '冥想' },
  '专注 25 分钟': { minutes: 25, label: '专注' },
  开始番茄钟: { minutes: 25, label: '专注' },
  帮我计时一个小时: { minutes: 60, label: '专注' },
};

/** What each intent sends after its chat reply, checked on the envelopes. */
const EXPECTED: Record<(typeof INTENT_NAMES)[number], (sent: LineUpMessage[], phrase: string) => void> = {
  focus_card(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', 'ui.open']);
    const open = ofType(sent, 'lineup.v1.ui.open')[0];
    expect(UIOpenPayloadSchema.safeParse(open?.payload).success).toBe(true);
    // By reference only: no code of the agent's.
    expect(open?.payload).not.toHaveProperty('app');
    expect(open?.payload.surface).toEqual({ app_id: 'com.lineup.pomodoro', surface_id: 'focus' });
  },
  pomodoro_start(sent, phrase) {
    expect(types(sent)).toEqual(['chat.agent_message', 'tool.call']);
    const [call] = ofType(sent, 'lineup.v1.tool.call');
    expect(call?.payload).toMatchObject({
      inventory_revision: 'inv-1',
      tool: 'pomodoro.start',
      arguments: START_ARGUMENTS[phrase],
    });
  },
  pomodoro_stop(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', 'tool.call']);
    expect(ofType(sent, 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      inventory_revision: 'inv-1',
      tool: 'pomodoro.interrupt',
      arguments: {},
    });
  },
  compound_interest(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', 'ui.document']);
    const document = parseDocument(ofType(sent, 'lineup.v1.ui.document')[0]?.payload.document);
    expect(document.id).toBe('compound-interest');
    expect(document.mode).toBe('interactive_ui');
  },
  product_comparison(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', 'ui.document']);
    const document = parseDocument(ofType(sent, 'lineup.v1.ui.document')[0]?.payload.document);
    expect(document.id).toBe('product-comparison');
  },
  weather_surface(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', 'ui.open']);
    const open = ofType(sent, 'lineup.v1.ui.open')[0];
    expect(UIOpenPayloadSchema.safeParse(open?.payload).success).toBe(true);
    expect(open?.payload.app).toMatchObject({ id: 'com.lineup.demo.weather', version: '1.0.0' });
  },
  ui_stream(sent) {
    expect(types(sent)).toEqual(['chat.agent_message', ...Array(5).fill('ui.checkpoint')]);
    let state: UIStreamState | null = null;
    for (const frame of ofType(sent, 'lineup.v1.ui.checkpoint'))
      state = acceptCheckpoint(state, frame.payload.checkpoint);
    expect(state?.status).toBe('completed');
    expect(state?.seq).toBe(5);
  },
  help(sent) {
    expect(types(sent)).toEqual(['chat.agent_message']);
  },
};

describe('every phrase of the table', () => {
  const rows = INTENT_NAMES.flatMap((name) =>
    LANGUAGES.flatMap((language) =>
      INTENTS[name].examples[language].map((phrase) => ({ name, language, phrase })),
    ),
  );

  it.each(rows)('$phrase ($language) → $name', ({ name, language, phrase }) => {
    const harness = withInventory();
    harness.say(phrase);
    const sent = harness.take();
    EXPECTED[name](sent, phrase);
    const [reply] = texts(sent);
    expect(reply).toBeDefined();
    // The reply is in the user's language.
    expect(HAN.test(reply ?? '')).toBe(language === 'zh');
    expect(sent.every((message) => message.conversation_id === CONVERSATION)).toBe(true);
    expect(sent.every((message) => message.sender.kind === 'agent')).toBe(true);
    expect(harness.problems).toEqual([]);
  });

  it('lists an expected start for every start example', () => {
    expect(Object.keys(START_ARGUMENTS).sort()).toEqual(
      [...INTENTS.pomodoro_start.examples.en, ...INTENTS.pomodoro_start.examples.zh].sort(),
    );
  });
});

describe('what the agent does not understand', () => {
  it.each([
    ['what is the meaning of life', 'en'],
    ['今天吃什么', 'zh'],
  ] as const)('%s → a demo explanation in %s listing what it understands', (phrase, language) => {
    const harness = withInventory();
    harness.say(phrase);
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    const [reply] = texts(sent);
    expect(reply).toBe(REPLIES[language].unknown());
    expect(reply).toContain(language === 'zh' ? '演示 Agent' : 'demo agent');
    for (const name of INTENT_NAMES.filter((intent) => intent !== 'help'))
      expect(reply).toContain(INTENTS[name].examples[language][0]);
  });
});

describe('the inventory', () => {
  it.each([
    ['start a 20 minute focus', 'en'],
    ['专注 25 分钟', 'zh'],
    ['stop', 'en'],
    ['停止计时', 'zh'],
  ] as const)('without one, %s calls no tool and says why', (phrase, language) => {
    const harness = createHarness();
    harness.say(phrase);
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    expect(texts(sent)).toEqual([REPLIES[language].noInventory()]);
  });

  it('an inventory of another conversation does not count', () => {
    const harness = createHarness();
    harness.inventory('inv-1', POMODORO_INVENTORY_TOOLS, 'conv_other');
    harness.say('start a 20 minute focus');
    expect(types(harness.take())).toEqual(['chat.agent_message']);
  });

  it('without the tool in the latest inventory, no call is sent', () => {
    const harness = withInventory();
    harness.inventory('inv-2', []);
    harness.say('start a 20 minute focus');
    harness.say('stop');
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message', 'chat.agent_message']);
    expect(texts(sent)).toEqual([
      REPLIES.en.toolMissing('pomodoro.start'),
      REPLIES.en.toolMissing('pomodoro.interrupt'),
    ]);
  });

  it('every call carries the revision of the latest inventory of its conversation', () => {
    const harness = withInventory();
    harness.say('start a 20 minute focus');
    harness.inventory('inv-2');
    harness.say('stop');
    harness.inventory('inv-9', POMODORO_INVENTORY_TOOLS, 'conv_other');
    harness.say('start a 5 minute focus', 'conv_other');
    harness.say('stop');
    const calls = ofType(harness.take(), 'lineup.v1.tool.call').map((call) => [
      call.conversation_id,
      call.payload.tool,
      call.payload.inventory_revision,
    ]);
    expect(calls).toEqual([
      [CONVERSATION, 'pomodoro.start', 'inv-1'],
      [CONVERSATION, 'pomodoro.interrupt', 'inv-2'],
      ['conv_other', 'pomodoro.start', 'inv-9'],
      [CONVERSATION, 'pomodoro.interrupt', 'inv-2'],
    ]);
  });

  it('documents, Surfaces and streams need no inventory', () => {
    const harness = createHarness();
    harness.say('compound interest');
    harness.say('open a weather surface');
    harness.say('stream an interface');
    expect(types(harness.take()).filter((type) => type !== 'chat.agent_message')).toEqual([
      'ui.document',
      'ui.open',
      ...Array(5).fill('ui.checkpoint'),
    ]);
  });
});

describe('dedupe', () => {
  it('acts once on an envelope id received again (a resend after a reconnect)', () => {
    const harness = withInventory();
    harness.receive('lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }, { id: 'msg_1' });
    harness.receive('lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }, { id: 'msg_1' });
    const [call] = ofType(harness.take(), 'lineup.v1.tool.call');
    const callId = call?.payload.call_id ?? '';
    const started = { call_id: callId, app_scope: 'pomodoro', status: 'started' };
    harness.receive('lineup.v1.tool.progress', started, { id: 'row_2' });
    harness.receive('lineup.v1.tool.progress', started, { id: 'row_2' });
    const result = {
      call_id: callId,
      outcome: 'completed',
      result: {
        status: 'completed',
        minutes: 20,
        started_at: '2026-01-01T10:00:00Z',
        ended_at: '2026-01-01T10:20:00Z',
      },
    };
    harness.receive('lineup.v1.tool.result', result, { id: 'row_3' });
    harness.receive('lineup.v1.tool.result', result, { id: 'row_3' });
    expect(types(harness.sent)).toEqual([
      'chat.agent_message',
      'tool.call',
      'chat.agent_message',
      'chat.agent_message',
    ]);
  });

  it('a second result for the same call (under another id) is not reported twice', () => {
    const harness = withInventory();
    harness.say('stop');
    const callId = ofType(harness.take(), 'lineup.v1.tool.call')[0]?.payload.call_id ?? '';
    const result = { call_id: callId, outcome: 'completed', result: { status: 'nothing_to_interrupt' } };
    harness.receive('lineup.v1.tool.result', result);
    harness.receive('lineup.v1.tool.result', result);
    expect(texts(harness.take())).toEqual([REPLIES.en.stopResult('nothing_to_interrupt')]);
  });

  it('ignores progress and results of calls it did not make', () => {
    const harness = withInventory();
    harness.receive('lineup.v1.tool.progress', { call_id: 'x', app_scope: 'pomodoro', status: 'started' });
    harness.receive('lineup.v1.tool.result', { call_id: 'x', outcome: 'error', error: { code: 'timeout' } });
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toEqual([]);
  });
});

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

describe('the weather Surface', () => {
  it('answers its events in chat, and refreshes it with the next sample', () => {
    const harness = createHarness();
    harness.say('打开天气');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    const instanceId = open?.payload.instance_id ?? '';
    expect(open?.payload.state).toMatchObject({ city: '北京', refresh: '刷新' });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'refresh', data: {} });
    const refreshed = harness.take();
    expect(types(refreshed)).toEqual(['chat.agent_message', 'ui.patch']);
    expect(texts(refreshed)).toEqual([REPLIES.zh.weatherRefreshed('上海')]);
    expect(ofType(refreshed, 'lineup.v1.ui.patch')[0]?.payload).toMatchObject({
      instance_id: instanceId,
      state: { city: '上海', temperature: 28 },
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'resized', data: {} });
    expect(texts(harness.take())).toEqual(['天气小窗口发来了事件 `resized`。']);
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'close', data: {} });
    expect(texts(harness.take())).toEqual(['你关闭了天气小窗口。']);
    // Closed: later events of the instance are not answered.
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'refresh', data: {} });
    expect(harness.take()).toEqual([]);
  });

  it('ignores events of Surfaces it did not open', () => {
    const harness = createHarness();
    harness.receive('lineup.v1.ui.event', {
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: {},
    });
    harness.say('open a weather surface');
    harness.take();
    harness.receive('lineup.v1.ui.event', { instance_id: 'other.01', event: 'refresh', data: {} });
    harness.receive(
      'lineup.v1.ui.event',
      { instance_id: 'lineup-demo.weather', event: 'refresh', data: {} },
      { conversation: 'conv_other' },
    );
    expect(harness.take()).toEqual([]);
  });
});

describe("Pomodoro's focus card (a Surface by reference)", () => {
  it('opens it in the user language, and turns its start and stop into tool calls', () => {
    const harness = withInventory();
    harness.say('打开专注卡片');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    expect(open?.payload.state).toEqual({ minutes: 25, lang: 'zh-CN' });
    const instanceId = open?.payload.instance_id ?? '';
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'start', data: { minutes: 40 } });
    const started = harness.take();
    expect(types(started)).toEqual(['chat.agent_message', 'tool.call']);
    expect(ofType(started, 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      tool: 'pomodoro.start',
      arguments: { minutes: 40 },
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'stop', data: {} });
    expect(ofType(harness.take(), 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      tool: 'pomodoro.interrupt',
      arguments: {},
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'close', data: {} });
    expect(texts(harness.take())).toEqual([REPLIES.zh.focusCardClosed()]);
    // Closed: later events of the instance are not answered.
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'start', data: { minutes: 5 } });
    expect(harness.take()).toEqual([]);
  });

  it('says so, and opens nothing, when the inventory lists no focus card', () => {
    const harness = withInventory();
    harness.inventory('inv-2', []);
    harness.say('open the focus card');
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    expect(texts(sent)).toEqual([REPLIES.en.focusCardMissing()]);
  });
});

describe('streams', () => {
  it('paces the frames through `schedule`, in order', () => {
    const scheduled: { callback: () => void; delayMs: number }[] = [];
    const harness = createHarness({ schedule: (callback, delayMs) => scheduled.push({ callback, delayMs }) });
    harness.say('stream an interface');
    expect(types(harness.take())).toEqual(['chat.agent_message', 'ui.checkpoint']);
    let state: UIStreamState | null = acceptCheckpoint(
      null,
      ofType(harness.sent, 'lineup.v1.ui.checkpoint')[0]?.payload.checkpoint,
    );
    for (let frame = 2; frame <= 5; frame += 1) {
      expect(scheduled).toHaveLength(frame - 1);
      expect(scheduled.at(-1)?.delayMs).toBe(STREAM_FRAME_DELAY_MS);
      scheduled.at(-1)?.callback();
      const [checkpoint] = ofType(harness.take(), 'lineup.v1.ui.checkpoint');
      expect(checkpoint?.payload.checkpoint).toMatchObject({ seq: frame });
      state = acceptCheckpoint(state, checkpoint?.payload.checkpoint);
    }
    expect(scheduled).toHaveLength(4);
    expect(state?.status).toBe('completed');
  });

  it('each stream has its own source call, so a second one is a new stream', () => {
    const harness = createHarness();
    harness.say('stream an interface');
    harness.say('流式界面');
    const frames = ofType(harness.take(), 'lineup.v1.ui.checkpoint').map(
      (frame) => frame.payload.checkpoint as { sourceCallId: string; snapshot: { title: string } },
    );
    expect(new Set(frames.map((frame) => frame.sourceCallId)).size).toBe(2);
    expect(frames[0]?.snapshot.title).toBe('Savings projection');
    expect(frames[5]?.snapshot.title).toBe('储蓄预测');
  });
});

describe('unsupported', () => {
  it('says in chat which of its messages the client did not support', () => {
    const harness = createHarness();
    harness.say('open a weather surface');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    harness.receive('lineup.v1.unsupported', { message_id: open?.id ?? '', reason: 'unknown_type' });
    harness.receive('lineup.v1.unsupported', {
      message_id: 'someone-else',
      message_type: 'lineup.v1.ui.frobnicate',
      reason: 'unsupported_version',
    });
    harness.receive('lineup.v1.unsupported', { message_id: 'unknown', reason: 'unknown_type' });
    expect(texts(harness.take())).toEqual([
      'Your client did not support my `lineup.v1.ui.open` message (it does not know that type), so that part of the demo is not shown.',
      'Your client did not support my `lineup.v1.ui.frobnicate` message (it speaks an earlier protocol version), so that part of the demo is not shown.',
      'Your client did not support one of my messages (it does not know that type), so that part of the demo is not shown.',
    ]);
  });

  it('forgets a tool call the client did not support', () => {
    const harness = withInventory();
    harness.say('start a 20 minute focus');
    const call = ofType(harness.take(), 'lineup.v1.tool.call')[0];
    harness.receive('lineup.v1.unsupported', { message_id: call?.id ?? '', reason: 'unknown_type' });
    harness.take();
    harness.receive('lineup.v1.tool.result', {
      call_id: call?.payload.call_id ?? '',
      outcome: 'error',
      error: { code: 'unsupported' },
    });
    expect(harness.take()).toEqual([]);
  });

  it('answers a type it does not know with lineup.v1.unsupported, once, and runs nothing', () => {
    const harness = createHarness();
    const unknown = JSON.stringify({
      v: 1,
      id: 'msg_future',
      type: 'lineup.v1.chat.reaction',
      conversation_id: CONVERSATION,
      sender: { kind: 'client', id: 'test-host' },
      payload: { emoji: 'thumbs_up' },
    });
    harness.receiveText(unknown);
    harness.receiveText(unknown);
    harness.receiveText(
      JSON.stringify({ ...JSON.parse(unknown), id: 'msg_v2', type: 'lineup.v1.chat.user_message', v: 2 }),
    );
    const sent = harness.take();
    expect(types(sent)).toEqual(['unsupported', 'unsupported']);
    expect(sent.map((message) => message.payload)).toEqual([
      { message_id: 'msg_future', message_type: 'lineup.v1.chat.reaction', reason: 'unknown_type' },
      { message_id: 'msg_v2', message_type: 'lineup.v1.chat.user_message', reason: 'unsupported_version' },
    ]);
  });
});

describe('bad input', () => {
  it.each([
    ['not JSON', 'start a 20 minute focus'],
    ['an array', '[]'],
    ['a malformed envelope', JSON.stringify({ v: 1, type: 'lineup.v1.chat.user_message' })],
    [
      'a message travelling the wrong way',
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.agent_message',
        conversation_id: CONVERSATION,
        sender: { kind: 'agent', id: 'impostor' },
        payload: { text: 'hi' },
      }),
    ],
    [
      'an invalid payload',
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.user_message',
        conversation_id: CONVERSATION,
        sender: { kind: 'client', id: 'host' },
        payload: { text: '' },
      }),
    ],
    ['text over the envelope budget', 'x'.repeat(1_048_577)],
  ])('%s is reported and ignored', (_, text) => {
    const harness = createHarness();
    expect(() => harness.receiveText(text)).not.toThrow();
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toHaveLength(1);
  });

  it('never throws, even when given no text, when sending fails or when the problem handler fails', () => {
    const failing = createScriptedAgent({
      send() {
        throw new Error('The socket is closed.');
      },
      onProblem() {
        throw new Error('The logger is broken.');
      },
    });
    expect(() => failing.receive(undefined as unknown as string)).not.toThrow();
    const envelope = {
      v: 1,
      id: 'm',
      type: 'lineup.v1.chat.user_message',
      conversation_id: CONVERSATION,
      sender: { kind: 'client', id: 'host' },
      payload: { text: 'compound interest' },
    };
    expect(() => failing.receive(JSON.stringify(envelope))).not.toThrow();
  });

  it('does not register a call whose envelope could not be sent', () => {
    const problems: unknown[] = [];
    let fail = false;
    const sent: string[] = [];
    const agent = createScriptedAgent({
      ids: (() => {
        let id = 0;
        return () => `a${++id}`;
      })(),
      send(text) {
        if (fail && text.includes('tool.call')) throw new Error('The socket is closed.');
        sent.push(text);
      },
      onProblem: (problem) => problems.push(problem),
    });
    const envelope = (id: string, type: string, payload: object) =>
      JSON.stringify({ v: 1, id, type, conversation_id: 'c', sender: { kind: 'client', id: 'h' }, payload });
    agent.receive(
      envelope('1', 'lineup.v1.client.inventory', {
        revision: 'r1',
        standard_components: [],
        applications: [],
        capabilities: [],
        tools: POMODORO_INVENTORY_TOOLS,
      }),
    );
    fail = true;
    agent.receive(envelope('2', 'lineup.v1.chat.user_message', { text: 'stop' }));
    expect(problems).toHaveLength(1);
    // The id the failed call would have had; its result is not answered.
    agent.receive(
      envelope('3', 'lineup.v1.tool.result', {
        call_id: 'a2',
        outcome: 'completed',
        result: { status: 'interrupted' },
      }),
    );
    expect(sent.map((text) => JSON.parse(text).type)).toEqual(['lineup.v1.chat.agent_message']);
  });

  it('reports an id that makes an invalid envelope, and sends nothing', () => {
    const harness = createHarness({ ids: () => 'has a space' });
    harness.say('help');
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toHaveLength(1);
  });
});

describe('options', () => {
  it('signs every envelope with the agent id, `lineup-demo-agent` by default', () => {
    const harness = createHarness();
    harness.say('help');
    expect(harness.sent[0]?.sender).toEqual({ kind: 'agent', id: DEFAULT_AGENT_ID });
    const named = createHarness({ agentId: 'agent_hermes_main' });
    named.say('help');
    expect(named.sent[0]?.sender).toEqual({ kind: 'agent', id: 'agent_hermes_main' });
  });

  it('refuses an agent id that is not a valid id, and a missing send', () => {
    expect(() => createScriptedAgent({ agentId: 'two words', send() {} })).toThrow(TypeError);
    expect(() => createScriptedAgent({ agentId: '', send() {} })).toThrow(TypeError);
    expect(() => createScriptedAgent({} as never)).toThrow(TypeError);
  });

  it('uses random UUIDs by default', () => {
    const sent: string[] = [];
    const agent = createScriptedAgent({ send: (text) => sent.push(text) });
    agent.receive(
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.user_message',
        conversation_id: 'c',
        sender: { kind: 'client', id: 'h' },
        payload: { text: 'help' },
      }),
    );
    expect(JSON.parse(sent[0] ?? '{}').id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a transport that answers from inside send', () => {
  it('still knows the call, and the message, it is sending', () => {
    const replies: string[] = [];
    let respond: ((text: string) => void) | undefined;
    let id = 0;
    const envelope = (type: string, payload: object) =>
      JSON.stringify({
        v: 1,
        id: `c${++id}`,
        type,
        conversation_id: 'c',
        sender: { kind: 'client', id: 'h' },
        payload,
      });
    const agent = createScriptedAgent({
      ids: () => `a${++id}`,
      send(text) {
        const message = JSON.parse(text);
        if (message.type === 'lineup.v1.chat.agent_message') replies.push(message.payload.text);
        respond?.(text);
      },
    });
    agent.receive(
      envelope('lineup.v1.client.inventory', {
        revision: 'r1',
        standard_components: [],
        applications: [],
        capabilities: [],
        tools: POMODORO_INVENTORY_TOOLS,
      }),
    );
    respond = (text) => {
      const message = JSON.parse(text);
      if (message.type !== 'lineup.v1.tool.call') return;
      respond = undefined;
      agent.receive(
        envelope('lineup.v1.tool.result', {
          call_id: message.payload.call_id,
          outcome: 'completed',
          result: { status: 'nothing_to_interrupt' },
        }),
      );
    };
    agent.receive(envelope('lineup.v1.chat.user_message', { text: 'stop' }));
    expect(replies).toEqual([
      'Asking **Pomodoro** to stop the timer…',
      'There was no timer running, so there was nothing to stop.',
    ]);
  });
});
