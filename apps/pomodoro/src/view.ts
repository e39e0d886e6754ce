/**
 * What the Pomodoro page shows, as a pure function of the runtime's projection and the clock. The runtime
 * owns the focus session (`pomodoro.start` runs on its `deadline_operation` built-in) and commits it into the
 * app session's data under `operation`; the page only turns that value into text, a ring fraction and the
 * moment the display next changes. Nothing here reads the DOM, the clock or the URL, so it is tested in Node.
 *
 * `operation` is absent (no session yet) or one of (times ISO-8601 UTC):
 * - `{ status: 'running', minutes, label?, started_at, deadline_at }`
 * - `{ status: 'completed', minutes, started_at, ended_at }`
 * - `{ status: 'interrupted', started_at, interrupted_at, focused_seconds, by: 'agent' | 'user_left' }`
 * Anything else is an unknown state: a neutral message, never an exception.
 */
import { formatRemaining } from './format.ts';

export type Language = 'en' | 'zh';

export type SessionPhase = 'idle' | 'running' | 'completed' | 'interrupted' | 'unknown';

export interface SessionView {
  readonly phase: SessionPhase;
  /** The big `mm:ss`: remaining time while running, the focused time once it ended, `--:--` otherwise. */
  readonly time: string;
  /** The same time in words, for the timer's accessible name. */
  readonly timeLabel: string;
  /** The small word under the time: "remaining", "focused", or empty. */
  readonly caption: string;
  /**
   * How much of the session has elapsed, 0..1: grows while running, 1 once completed, `null` when there is no
   * meaningful fraction (idle, interrupted — its planned length is not projected — and unknown).
   */
  readonly progress: number | null;
  /** The heading: 专注中 / Focusing, 已完成 / Completed, … */
  readonly title: string;
  /** One line under the heading: the label, or what happened. */
  readonly detail: string;
  /**
   * The sentence for the page's `role="status"` line. It changes with the phase (and once when the deadline
   * passes), never with the seconds, so a screen reader is not spammed.
   */
  readonly announcement: string;
  /** When (epoch ms) the display changes next without new data; `null` when it stays as it is. */
  readonly nextChangeAt: number | null;
}

/** The placeholder for the big time when there is no time to show. */
export const NO_TIME = '--:--';

/** The fragment parameter a host may set to choose the page's language, e.g. `lang=zh-CN`. */
export const LANGUAGE_PARAMETER = 'lang';

/**
 * The page's language: `zh` when the fragment has `lang=zh…`; without a `lang` parameter, `zh` when the
 * browser's language starts with `zh`; English otherwise.
 */
export function chooseLanguage(hash: string, navigatorLanguage: string | undefined): Language {
  const parameters = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const requested = parameters.get(LANGUAGE_PARAMETER);
  const tag = requested ?? navigatorLanguage ?? '';
  return /^zh(?:$|[-_])/i.test(tag.trim()) ? 'zh' : 'en';
}

const STRINGS = {
  en: {
    appName: 'Pomodoro',
    remaining: 'remaining',
    focused: 'focused',
    idleTitle: 'Ready to focus',
    idleDetail: 'Ask your assistant to start a focus session.',
    idleTimeLabel: 'No timer running',
    idleAnnouncement: 'No focus session yet.',
    runningTitle: 'Focusing',
    runningDetail: (minutes: number) => `${minutes}-minute focus session`,
    runningAnnouncement: (detail: string) => `Focus session started: ${detail}.`,
    timesUpTitle: "Time's up",
    timesUpAnnouncement: "Time's up. Wrapping up the session.",
    remainingLabel: (duration: string) => `${duration} remaining`,
    completedTitle: 'Completed',
    completedDetail: (minutes: number) => `Completed ${plural(minutes, 'minute')} of focus`,
    completedAnnouncement: (minutes: number) => `Focus session completed: ${plural(minutes, 'minute')}.`,
    focusedLabel: (duration: string) => `Focused for ${duration}`,
    interruptedTitle: 'Interrupted',
    stoppedAfter: (seconds: number) =>
      seconds < 60 ? `Stopped after ${seconds} s` : `Stopped after ${Math.floor(seconds / 60)} min`,
    byUser: 'you left the session',
    byAgent: 'stopped by the assistant',
    interruptedDetail: (stopped: string, by: string) => `${stopped} — ${by}`,
    interruptedAnnouncement: (detail: string) => `Focus session interrupted. ${detail}.`,
    unknownTitle: 'Session unavailable',
    unknownDetail: "This focus session can't be shown right now.",
    unknownTimeLabel: 'No time to show',
    unknownAnnouncement: "The focus session can't be shown right now.",
    endedTitle: 'Session ended',
    endedDetail: 'This focus session is no longer running.',
    endedAnnouncement: 'The focus session has ended.',
    standaloneTitle: 'Pomodoro',
    standaloneDetail: 'Pomodoro runs inside a LineUp host. Open it from LineUp to see your focus sessions.',
    duration: (minutes: number, seconds: number) =>
      [
        minutes > 0 ? plural(minutes, 'minute') : '',
        seconds > 0 || minutes === 0 ? plural(seconds, 'second') : '',
      ]
        .filter(Boolean)
        .join(' '),
  },
  zh: {
    appName: '番茄钟',
    remaining: '剩余',
    focused: '已专注',
    idleTitle: '准备专注',
    idleDetail: '让助手为你开始一段专注吧。',
    idleTimeLabel: '没有正在进行的计时',
    idleAnnouncement: '还没有进行中的专注。',
    runningTitle: '专注中',
    runningDetail: (minutes: number) => `专注 ${minutes} 分钟`,
    runningAnnouncement: (detail: string) => `专注已开始：${detail}。`,
    timesUpTitle: '时间到',
    timesUpAnnouncement: '时间到，正在结束本次专注。',
    remainingLabel: (duration: string) => `剩余 ${duration}`,
    completedTitle: '已完成',
    completedDetail: (minutes: number) => `完成了 ${minutes} 分钟专注`,
    completedAnnouncement: (minutes: number) => `专注已完成：${minutes} 分钟。`,
    focusedLabel: (duration: string) => `已专注 ${duration}`,
    interruptedTitle: '已中断',
    stoppedAfter: (seconds: number) =>
      seconds < 60 ? `专注了 ${seconds} 秒` : `专注了 ${Math.floor(seconds / 60)} 分钟`,
    byUser: '你离开了会话',
    byAgent: '助手停止了计时',
    interruptedDetail: (stopped: string, by: string) => `${stopped}，${by}`,
    interruptedAnnouncement: (detail: string) => `专注已中断。${detail}。`,
    unknownTitle: '暂时无法显示',
    unknownDetail: '暂时无法显示这次专注的状态。',
    unknownTimeLabel: '没有可显示的时间',
    unknownAnnouncement: '暂时无法显示这次专注的状态。',
    endedTitle: '会话已结束',
    endedDetail: '这次专注已不再进行。',
    endedAnnouncement: '专注会话已结束。',
    standaloneTitle: '番茄钟',
    standaloneDetail: '番茄钟运行在 LineUp 之中。请从 LineUp 打开它，查看你的专注计时。',
    duration: (minutes: number, seconds: number) =>
      minutes > 0 ? (seconds > 0 ? `${minutes} 分 ${seconds} 秒` : `${minutes} 分钟`) : `${seconds} 秒`,
  },
} as const;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The app's name in `language`: Pomodoro / 番茄钟. */
export function appName(language: Language): string {
  return STRINGS[language].appName;
}

// ISO-8601 date-times with a zone, as the runtime writes them (`2025-01-01T09:00:00.000Z`).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Epoch ms of an ISO-8601 date-time, or `undefined` for anything else. */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : undefined;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `mm:ss` of whole seconds, and the same in words. */
function clock(totalSeconds: number, language: Language): { time: string; words: string } {
  return {
    time: formatRemaining(totalSeconds * 1000),
    words: STRINGS[language].duration(Math.floor(totalSeconds / 60), totalSeconds % 60),
  };
}

/** What to show for the runtime's `operation` value at `now` (epoch ms), in `language`. */
export function describeSession(operation: unknown, now: number, language: Language): SessionView {
  const t = STRINGS[language];
  if (operation === undefined || operation === null) return idleView(language);
  if (!isRecord(operation) || !Number.isFinite(now)) return unknownView(language);
  switch (operation.status) {
    case 'running': {
      const { minutes, label } = operation;
      const startedAt = instant(operation.started_at);
      const deadlineAt = instant(operation.deadline_at);
      if (!isPositiveInteger(minutes) || startedAt === undefined || deadlineAt === undefined)
        return unknownView(language);
      if (deadlineAt <= startedAt || (label !== undefined && typeof label !== 'string'))
        return unknownView(language);
      const total = deadlineAt - startedAt;
      // Clamped both ways: 00:00 once the deadline passed (the runtime then settles it), and never more than
      // the whole session when this device's clock is behind the runtime's.
      const remaining = Math.min(Math.max(deadlineAt - now, 0), total);
      const seconds = Math.ceil(remaining / 1000);
      const { time, words } = clock(seconds, language);
      const trimmed = typeof label === 'string' ? label.trim() : '';
      const detail = trimmed === '' ? t.runningDetail(minutes) : trimmed;
      const over = remaining === 0;
      return {
        phase: 'running',
        time,
        timeLabel: t.remainingLabel(words),
        caption: t.remaining,
        progress: 1 - remaining / total,
        title: over ? t.timesUpTitle : t.runningTitle,
        detail,
        announcement: over ? t.timesUpAnnouncement : t.runningAnnouncement(detail),
        // The text shows whole seconds rounded up: it changes when the remaining time reaches the next lower
        // whole second, i.e. at `deadline - (seconds - 1) s`; after the deadline only new data changes it.
        nextChangeAt: over ? null : deadlineAt - (seconds - 1) * 1000,
      };
    }
    case 'completed': {
      const { minutes } = operation;
      if (!isPositiveInteger(minutes) || instant(operation.started_at) === undefined)
        return unknownView(language);
      if (instant(operation.ended_at) === undefined) return unknownView(language);
      const { time, words } = clock(minutes * 60, language);
      return {
        phase: 'completed',
        time,
        timeLabel: t.focusedLabel(words),
        caption: t.focused,
        progress: 1,
        title: t.completedTitle,
        detail: t.completedDetail(minutes),
        announcement: t.completedAnnouncement(minutes),
        nextChangeAt: null,
      };
    }
    case 'interrupted': {
      const { focused_seconds: focused, by } = operation;
      if (typeof focused !== 'number' || !Number.isSafeInteger(focused) || focused < 0)
        return unknownView(language);
      if (by !== 'agent' && by !== 'user_left') return unknownView(language);
      if (instant(operation.started_at) === undefined || instant(operation.interrupted_at) === undefined)
        return unknownView(language);
      const { time, words } = clock(focused, language);
      const detail = t.interruptedDetail(t.stoppedAfter(focused), by === 'agent' ? t.byAgent : t.byUser);
      return {
        phase: 'interrupted',
        time,
        timeLabel: t.focusedLabel(words),
        caption: t.focused,
        progress: null,
        title: t.interruptedTitle,
        detail,
        announcement: t.interruptedAnnouncement(detail),
        nextChangeAt: null,
      };
    }
    default:
      return unknownView(language);
  }
}

function still(
  phase: SessionPhase,
  title: string,
  detail: string,
  timeLabel: string,
  announcement: string,
): SessionView {
  return {
    phase,
    time: NO_TIME,
    timeLabel,
    caption: '',
    progress: null,
    title,
    detail,
    announcement,
    nextChangeAt: null,
  };
}

/** No focus session yet. */
export function idleView(language: Language): SessionView {
  const t = STRINGS[language];
  return still('idle', t.idleTitle, t.idleDetail, t.idleTimeLabel, t.idleAnnouncement);
}

/** A value the page does not understand: neutral, never an error. */
export function unknownView(language: Language): SessionView {
  const t = STRINGS[language];
  return still('unknown', t.unknownTitle, t.unknownDetail, t.unknownTimeLabel, t.unknownAnnouncement);
}

/**
 * After the runtime closed the session (a lifecycle `close`, which never says why) while the page still
 * showed no final state: the page stops counting and says the session ended.
 */
export function endedView(language: Language): SessionView {
  const t = STRINGS[language];
  return still('unknown', t.endedTitle, t.endedDetail, t.unknownTimeLabel, t.endedAnnouncement);
}

/** The page was opened outside a LineUp host (no `#lineup-instance`): a calm note instead of an error. */
export function standaloneView(language: Language): SessionView {
  const t = STRINGS[language];
  return still('idle', t.standaloneTitle, t.standaloneDetail, t.idleTimeLabel, t.standaloneDetail);
}
