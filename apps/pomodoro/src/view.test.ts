import { describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  describeSession,
  endedView,
  idleView,
  type Language,
  NO_TIME,
  type SessionView,
  standaloneView,
  unknownView,
} from './view.ts';

const START = Date.parse('2025-03-01T09:00:00.000Z');
const iso = (time: number) => new Date(time).toISOString();
const LANGUAGES: readonly Language[] = ['en', 'zh'];

function running(minutes = 25, extra: Record<string, unknown> = {}) {
  return {
    status: 'running',
    minutes,
    started_at: iso(START),
    deadline_at: iso(START + minutes * 60_000),
    ...extra,
  };
}

const completed = {
  status: 'completed',
  minutes: 25,
  started_at: iso(START),
  ended_at: iso(START + 25 * 60_000),
};

function interrupted(focusedSeconds: number, by: 'agent' | 'user_left') {
  return {
    status: 'interrupted',
    started_at: iso(START),
    interrupted_at: iso(START + focusedSeconds * 1000),
    focused_seconds: focusedSeconds,
    by,
  };
}

/** Every string a view shows, for the "no text left untranslated" checks. */
const texts = (view: SessionView) => [
  view.title,
  view.detail,
  view.announcement,
  view.timeLabel,
  view.caption,
];

describe('chooseLanguage', () => {
  it.each([
    ['#lineup-instance=a&lang=zh', 'en-US', 'zh'],
    ['#lang=zh-CN&lineup-instance=a', undefined, 'zh'],
    ['#lang=zh-Hant-TW', 'en', 'zh'],
    ['#lang=ZH_cn', 'en', 'zh'],
    ['lang=zh', 'en', 'zh'],
    ['#lineup-instance=a', 'zh-CN', 'zh'],
    ['#lineup-instance=a', 'zh', 'zh'],
    ['', 'zh-TW', 'zh'],
    ['#lineup-instance=a', 'en-GB', 'en'],
    ['#lineup-instance=a', undefined, 'en'],
    ['#lineup-instance=a', '', 'en'],
    // An explicit language wins over the browser's.
    ['#lineup-instance=a&lang=en', 'zh-CN', 'en'],
    ['#lineup-instance=a&lang=fr', 'zh-CN', 'en'],
    // Only the language subtag counts: `zhx` is not Chinese.
    ['#lang=zhx', 'en', 'en'],
    ['', 'zha', 'en'],
  ] as const)('hash %j with navigator.language %j is %s', (hash, navigatorLanguage, expected) => {
    expect(chooseLanguage(hash, navigatorLanguage)).toBe(expected);
  });
});

describe('describeSession: idle', () => {
  it.each([undefined, null])('%s is no session yet', (operation) => {
    const view = describeSession(operation, START, 'en');
    expect(view).toEqual(idleView('en'));
    expect(view).toMatchObject({
      phase: 'idle',
      time: NO_TIME,
      progress: null,
      nextChangeAt: null,
      title: 'Ready to focus',
    });
  });

  it('speaks Chinese', () => {
    expect(describeSession(undefined, START, 'zh')).toMatchObject({
      phase: 'idle',
      time: NO_TIME,
      title: '准备专注',
      detail: '让助手为你开始一段专注吧。',
      timeLabel: '没有正在进行的计时',
    });
  });
});

describe('describeSession: running', () => {
  it('counts down from the deadline, with the label as the detail', () => {
    const now = START + 7 * 60_000 + 47_400; // 17:12.6 left
    const view = describeSession(running(25, { label: 'Write the report' }), now, 'en');
    expect(view).toEqual({
      phase: 'running',
      time: '17:13',
      timeLabel: '17 minutes 13 seconds remaining',
      caption: 'remaining',
      progress: (7 * 60_000 + 47_400) / (25 * 60_000),
      title: 'Focusing',
      detail: 'Write the report',
      announcement: 'Focus session started: Write the report.',
      nextChangeAt: START + 25 * 60_000 - 17 * 60_000 - 12_000,
    });
  });

  it('speaks Chinese', () => {
    const view = describeSession(running(25, { label: '撰写季度报告' }), START + 60_000, 'zh');
    expect(view).toMatchObject({
      phase: 'running',
      time: '24:00',
      timeLabel: '剩余 24 分钟',
      caption: '剩余',
      title: '专注中',
      detail: '撰写季度报告',
      announcement: '专注已开始：撰写季度报告。',
    });
  });

  it.each([
    ['en', 'Focusing', '50-minute focus session'],
    ['zh', '专注中', '专注 50 分钟'],
  ] as const)('without a label (%s) the detail names the length', (language, title, detail) => {
    expect(describeSession(running(50), START, language)).toMatchObject({ title, detail });
    expect(describeSession(running(50, { label: '   ' }), START, language)).toMatchObject({ detail });
  });

  it('shows the whole session, progress 0, at the start', () => {
    const view = describeSession(running(25), START, 'en');
    expect(view).toMatchObject({ time: '25:00', progress: 0, timeLabel: '25 minutes remaining' });
    expect(view.nextChangeAt).toBe(START + 1000);
  });

  it('rounds partial seconds up and words single units', () => {
    const deadline = START + 60_000;
    expect(describeSession(running(1), deadline - 61_000, 'en')).toMatchObject({
      time: '01:00',
      timeLabel: '1 minute remaining',
    });
    expect(describeSession(running(1), deadline - 1, 'en')).toMatchObject({
      time: '00:01',
      timeLabel: '1 second remaining',
    });
    expect(describeSession(running(1), deadline - 1, 'zh')).toMatchObject({ timeLabel: '剩余 1 秒' });
    expect(describeSession(running(2), START + 59_000, 'en')).toMatchObject({
      time: '01:01',
      timeLabel: '1 minute 1 second remaining',
    });
  });

  it.each([
    [START, 0],
    [START + 15 * 60_000, 0.25],
    [START + 30 * 60_000, 0.5],
    [START + 45 * 60_000, 0.75],
    [START + 60 * 60_000, 1],
  ])('progress at %d is %d', (now, progress) => {
    expect(describeSession(running(60), now, 'en').progress).toBeCloseTo(progress, 10);
  });

  it.each(LANGUAGES)(
    'clamps at 00:00 once the deadline passed (%s) until the runtime settles it',
    (language) => {
      const deadline = START + 25 * 60_000;
      for (const now of [deadline, deadline + 1, deadline + 10 * 60_000]) {
        const view = describeSession(running(25), now, language);
        expect(view).toMatchObject({ phase: 'running', time: '00:00', progress: 1, nextChangeAt: null });
        expect(view.title).toBe(language === 'en' ? "Time's up" : '时间到');
        expect(view.timeLabel).toBe(language === 'en' ? '0 seconds remaining' : '剩余 0 秒');
      }
      // One millisecond before, the display still says a second is left and changes at the deadline.
      expect(describeSession(running(25), deadline - 1, language)).toMatchObject({
        time: '00:01',
        nextChangeAt: deadline,
        title: language === 'en' ? 'Focusing' : '专注中',
      });
    },
  );

  it('never shows more than the whole session when this clock is behind the runtime', () => {
    const view = describeSession(running(25), START - 5_000, 'en');
    expect(view).toMatchObject({ time: '25:00', progress: 0 });
    expect(view.nextChangeAt).toBe(START + 1000);
  });

  it('schedules the next change exactly when the mm:ss text changes, always in the future', () => {
    const operation = running(3);
    const deadline = START + 3 * 60_000;
    for (let now = START - 2_000; now < deadline; now += 137) {
      const view = describeSession(operation, now, 'en');
      const next = view.nextChangeAt;
      expect(next).not.toBeNull();
      expect(next!).toBeGreaterThan(now);
      expect(next! - now).toBeLessThanOrEqual(3_000);
      // Just before the change the text is the same; at the change it differs.
      if (next! - 1 > now) expect(describeSession(operation, next! - 1, 'en').time).toBe(view.time);
      expect(describeSession(operation, next!, 'en').time).not.toBe(view.time);
    }
  });

  it('announces the same sentence every second, so a screen reader hears it once', () => {
    const announcements = new Set(
      [0, 1_000, 2_500, 60_000, 24 * 60_000].map(
        (elapsed) => describeSession(running(25, { label: 'Read' }), START + elapsed, 'en').announcement,
      ),
    );
    expect(announcements.size).toBe(1);
  });
});

describe('describeSession: completed', () => {
  it('shows the focused length, full progress, nothing to schedule', () => {
    expect(describeSession(completed, START + 30 * 60_000, 'en')).toEqual({
      phase: 'completed',
      time: '25:00',
      timeLabel: 'Focused for 25 minutes',
      caption: 'focused',
      progress: 1,
      title: 'Completed',
      detail: 'Completed 25 minutes of focus',
      announcement: 'Focus session completed: 25 minutes.',
      nextChangeAt: null,
    });
  });

  it('speaks Chinese', () => {
    expect(describeSession(completed, START, 'zh')).toMatchObject({
      phase: 'completed',
      time: '25:00',
      timeLabel: '已专注 25 分钟',
      caption: '已专注',
      title: '已完成',
      detail: '完成了 25 分钟专注',
      announcement: '专注已完成：25 分钟。',
    });
  });

  it('words a single minute', () => {
    expect(describeSession({ ...completed, minutes: 1 }, START, 'en')).toMatchObject({
      time: '01:00',
      detail: 'Completed 1 minute of focus',
    });
  });
});

describe('describeSession: interrupted', () => {
  it.each([
    [
      'en',
      'user_left',
      742,
      {
        time: '12:22',
        timeLabel: 'Focused for 12 minutes 22 seconds',
        caption: 'focused',
        title: 'Interrupted',
        detail: 'Stopped after 12 min — you left the session',
        announcement: 'Focus session interrupted. Stopped after 12 min — you left the session.',
      },
    ],
    [
      'en',
      'agent',
      40,
      {
        time: '00:40',
        timeLabel: 'Focused for 40 seconds',
        detail: 'Stopped after 40 s — stopped by the assistant',
      },
    ],
    [
      'zh',
      'user_left',
      742,
      {
        time: '12:22',
        timeLabel: '已专注 12 分 22 秒',
        caption: '已专注',
        title: '已中断',
        detail: '专注了 12 分钟，你离开了会话',
        announcement: '专注已中断。专注了 12 分钟，你离开了会话。',
      },
    ],
    ['zh', 'agent', 40, { time: '00:40', timeLabel: '已专注 40 秒', detail: '专注了 40 秒，助手停止了计时' }],
    [
      'en',
      'agent',
      0,
      {
        time: '00:00',
        timeLabel: 'Focused for 0 seconds',
        detail: 'Stopped after 0 s — stopped by the assistant',
      },
    ],
  ] as const)('%s, by %s after %d s', (language, by, seconds, expected) => {
    const view = describeSession(interrupted(seconds, by), START + 3_600_000, language);
    expect(view).toMatchObject({ phase: 'interrupted', progress: null, nextChangeAt: null, ...expected });
  });
});

describe('describeSession: unknown state', () => {
  const invalid: ReadonlyArray<[string, unknown]> = [
    ['a string', 'running'],
    ['a number', 25],
    ['an array', [running()]],
    ['no status', { minutes: 25 }],
    ['an unknown status', { status: 'paused', started_at: iso(START) }],
    ['not_started (a tool result, not a projection)', { status: 'not_started', reason: 'cancelled' }],
    ['running without minutes', { ...running(), minutes: undefined }],
    ['running with zero minutes', running(0)],
    ['running with fractional minutes', { ...running(), minutes: 2.5 }],
    ['running with string minutes', { ...running(), minutes: '25' }],
    ['running without a deadline', { ...running(), deadline_at: undefined }],
    ['running with an unparsable deadline', { ...running(), deadline_at: 'tomorrow' }],
    ['running with a date-only deadline', { ...running(), deadline_at: '2025-03-01' }],
    ['running with an impossible date', { ...running(), deadline_at: '2025-13-45T99:00:00Z' }],
    ['running with a numeric start', { ...running(), started_at: START }],
    ['running with the deadline before the start', { ...running(), deadline_at: iso(START - 1000) }],
    ['running with the deadline at the start', { ...running(), deadline_at: iso(START) }],
    ['running with a non-string label', running(25, { label: 42 })],
    ['completed without minutes', { ...completed, minutes: undefined }],
    ['completed with negative minutes', { ...completed, minutes: -25 }],
    ['completed without ended_at', { ...completed, ended_at: undefined }],
    ['completed with an invalid start', { ...completed, started_at: 'yesterday' }],
    ['interrupted without focused_seconds', { ...interrupted(5, 'agent'), focused_seconds: undefined }],
    ['interrupted with negative seconds', interrupted(-1, 'agent')],
    ['interrupted with fractional seconds', interrupted(1.5, 'agent')],
    ['interrupted with NaN seconds', { ...interrupted(5, 'agent'), focused_seconds: Number.NaN }],
    ['interrupted by someone else', { ...interrupted(5, 'agent'), by: 'user' }],
    ['interrupted without by', { ...interrupted(5, 'agent'), by: undefined }],
    ['interrupted without interrupted_at', { ...interrupted(5, 'agent'), interrupted_at: undefined }],
  ];

  it.each(invalid)('%s', (_, operation) => {
    for (const language of LANGUAGES) {
      const view = describeSession(operation, START, language);
      expect(view).toEqual(unknownView(language));
      expect(view).toMatchObject({ phase: 'unknown', time: NO_TIME, progress: null, nextChangeAt: null });
    }
  });

  it('is neutral in both languages', () => {
    expect(unknownView('en')).toMatchObject({ title: 'Session unavailable' });
    expect(unknownView('zh')).toMatchObject({
      title: '暂时无法显示',
      detail: '暂时无法显示这次专注的状态。',
    });
  });

  it('ignores an invalid clock rather than throwing', () => {
    expect(describeSession(running(), Number.NaN, 'en').phase).toBe('unknown');
  });

  it('never throws, whatever it gets', () => {
    const values: unknown[] = [
      true,
      Symbol('x'),
      () => 1,
      Object.create(null),
      { status: { nested: true } },
      {
        status: 'running',
        minutes: Number.POSITIVE_INFINITY,
        started_at: iso(START),
        deadline_at: iso(START),
      },
      { status: 'completed', minutes: Number.MAX_VALUE, started_at: iso(START), ended_at: iso(START) },
      { status: 'interrupted', focused_seconds: Number.MAX_SAFE_INTEGER + 2, by: 'agent' },
    ];
    for (const value of values)
      for (const language of LANGUAGES) expect(() => describeSession(value, START, language)).not.toThrow();
  });

  it('accepts offsets and whole seconds as ISO-8601 times', () => {
    const operation = {
      status: 'running',
      minutes: 1,
      started_at: '2025-03-01T10:00:00+01:00',
      deadline_at: '2025-03-01T09:01:00Z',
    };
    expect(describeSession(operation, START + 30_000, 'en')).toMatchObject({
      phase: 'running',
      time: '00:30',
    });
  });
});

describe('other views', () => {
  it.each(LANGUAGES)('the ended and standalone views (%s) show no time and schedule nothing', (language) => {
    for (const view of [endedView(language), standaloneView(language)])
      expect(view).toMatchObject({ time: NO_TIME, progress: null, nextChangeAt: null });
    expect(endedView(language).phase).toBe('unknown');
    expect(standaloneView(language).phase).toBe('idle');
  });

  it('says the page runs inside a LineUp host', () => {
    expect(standaloneView('en').detail).toContain('runs inside a LineUp host');
    expect(standaloneView('zh').detail).toContain('LineUp');
    expect(endedView('zh').title).toBe('会话已结束');
  });

  it('has Chinese for every English string', () => {
    const samples = (language: Language) => [
      describeSession(undefined, START, language),
      describeSession(running(25), START, language),
      describeSession(running(25), START + 26 * 60_000, language),
      describeSession(completed, START, language),
      describeSession(interrupted(742, 'user_left'), START, language),
      describeSession(interrupted(40, 'agent'), START, language),
      unknownView(language),
      endedView(language),
      standaloneView(language),
    ];
    const en = samples('en').flatMap(texts);
    const zh = samples('zh').flatMap(texts);
    zh.forEach((text, index) => {
      if (en[index] === '') expect(text).toBe('');
      else {
        expect(text).not.toBe(en[index]);
        expect(text).toMatch(/[\u4e00-\u9fff]/);
      }
    });
  });
});
