/**
 * What the demo agent understands: one table, keyed by intent, holding each intent's matcher, what it does and
 * the example phrases in both languages. The help text, the README's list and the tests are all derived from
 * it, so an intent cannot be understood without being documented, or documented without being tested.
 *
 * The agent is a script, not a language model: a message is normalized (`normalizeText`) and the first intent of
 * `INTENT_ORDER` whose matcher accepts it wins. Stop comes before start, so "stop the timer" never starts one.
 */
import type { Language } from './language.js';

export const INTENT_NAMES = [
  'focus_card',
  'pomodoro_stop',
  'ui_stream',
  'weather_surface',
  'compound_interest',
  'product_comparison',
  'pomodoro_start',
  'help',
] as const;
export type IntentName = (typeof INTENT_NAMES)[number];

export interface IntentEntry {
  /** What the agent does, as the help text lists it. */
  readonly does: Readonly<Record<Language, string>>;
  /** Phrases guaranteed to be understood: shown in the help text and the README, each one tested. */
  readonly examples: Readonly<Record<Language, readonly string[]>>;
  /** Whether a normalized message asks for this. */
  readonly matches: (text: string) => boolean;
}

/** Words naming a timed session. */
const TIMER_TOPIC_EN = /\b(?:pomodoro|focus|focusing|meditat\w*|timer|countdown|session|time me)\b/;
const TIMER_TOPIC_ZH = /计时|专注|冥想|番茄|倒计时|定时|打坐/;
/** Words asking for one to begin. */
const START_EN = /\b(?:start|begin|set|run|launch|open|let'?s|do|go)\b/;
const START_ZH = /开始|帮我|来|启动|开|做|进行|设|给我/;
/** A duration: a number, or `half an hour`, `半小时`. */
const DURATION =
  /\d|[零〇一二两三四五六七八九十百]\s*个?\s*(?:分|小时|钟头)|半\s*个?\s*(?:小时|钟头)|\bhalf an hour\b|\b(?:an?|one) hour\b|\bminutes?\b/;
/** Just the name of a session: `pomodoro`, `冥想`. */
const TOPIC_ALONE =
  /^(?:pomodoro|focus|meditate|meditation|timer|番茄钟?|冥想|专注|计时|倒计时|打坐)[.!。！]*$/;
const STOP_EN = /\b(?:stop|cancel|interrupt|abort|end|quit|halt)\b/;
const STOP_ALONE_EN =
  /^(?:please\s+)?(?:stop|cancel|interrupt|abort|end|quit|halt)(?:\s+(?:it|now|please|that))*\s*[.!]*$/;
const STOP_ZH = /停止|停下|停掉|结束|取消|中断|打断|别计时|不要计时/;
const STOP_ALONE_ZH = /^(?:请)?(?:停|停止|停下|停掉|结束|取消|中断)(?:吧|一下|了)?[。!！.]*$/;

const timerTopic = (text: string) => TIMER_TOPIC_EN.test(text) || TIMER_TOPIC_ZH.test(text);

export const INTENTS = {
  focus_card: {
    does: {
      en: "opens Pomodoro's focus card (a Surface of the installed app, by reference)",
      zh: '打开番茄钟的专注卡片（已安装应用的界面，按引用打开）',
    },
    examples: { en: ['open the focus card', 'show a focus card'], zh: ['打开专注卡片', '专注卡片'] },
    matches: (text) => /\bfocus cards?\b/.test(text) || /专注卡片|番茄卡片/.test(text),
  },
  pomodoro_stop: {
    does: { en: 'stops the Pomodoro timer', zh: '停止番茄钟计时' },
    examples: {
      en: ['stop', 'stop the timer', 'cancel the focus session'],
      zh: ['停止', '停止计时', '结束冥想'],
    },
    matches: (text) =>
      STOP_ALONE_EN.test(text) ||
      STOP_ALONE_ZH.test(text) ||
      ((STOP_EN.test(text) || STOP_ZH.test(text)) && timerTopic(text)),
  },
  ui_stream: {
    does: {
      en: 'streams an interface that builds up step by step',
      zh: '流式展示一个逐步生成的界面',
    },
    examples: { en: ['stream an interface', 'show a streaming UI'], zh: ['流式界面', '流式展示一个界面'] },
    matches: (text) => /\bstream(?:s|ing|ed)?\b/.test(text) || /流式|逐步生成/.test(text),
  },
  weather_surface: {
    does: { en: 'opens a small weather Surface (sample data)', zh: '打开一个天气小窗口（示例数据）' },
    examples: { en: ['open a weather surface', 'show the weather'], zh: ['打开天气', '看看天气'] },
    matches: (text) => /\bweather\b/.test(text) || /天气/.test(text),
  },
  compound_interest: {
    does: { en: 'shows a compound interest calculator', zh: '展示复利计算器' },
    examples: {
      en: ['show a compound interest calculator', 'compound interest'],
      zh: ['复利计算器', '帮我算一下复利'],
    },
    matches: (text) =>
      /\bcompound(?:ing)?\b.*\binterest\b|\binterest calculator\b|\bsavings calculator\b/.test(text) ||
      /复利|利息计算|理财计算/.test(text),
  },
  product_comparison: {
    does: { en: 'compares two products side by side', zh: '并排比较两个产品' },
    examples: {
      en: ['compare two products', 'show a product comparison'],
      zh: ['比较两个产品', '对比一下两款笔记本'],
    },
    matches: (text) =>
      /\bcompar(?:e|es|ing|ison)\b|\bversus\b|\bvs\b/.test(text) || /比较|对比|比一比/.test(text),
  },
  pomodoro_start: {
    does: {
      en: 'starts a Pomodoro timer (1–180 minutes, 25 if you name none)',
      zh: '开始番茄钟计时（1–180 分钟，没说时长就是 25 分钟）',
    },
    examples: {
      en: [
        'start a 20 minute focus',
        'start a focus session for 25 minutes',
        'meditate for 10 minutes',
        'set a timer for half an hour',
      ],
      zh: ['现在开始 20 分钟的冥想，帮我计时', '专注 25 分钟', '开始番茄钟', '帮我计时一个小时'],
    },
    matches: (text) =>
      timerTopic(text) &&
      (START_EN.test(text) || START_ZH.test(text) || DURATION.test(text) || TOPIC_ALONE.test(text)),
  },
  help: {
    does: { en: 'lists what I understand', zh: '列出我能听懂的话' },
    examples: { en: ['help', 'what can you do?'], zh: ['帮助', '你能做什么？'] },
    matches: (text) =>
      /^(?:hi|hello|hey)\b|\bhelp\b|what can you do|what do you understand/.test(text) ||
      /帮助|你能做什么|你会什么|你能干什么|^你好/.test(text),
  },
} as const satisfies Record<IntentName, IntentEntry>;

/** The intent a normalized message asks for, or `unknown`. */
export function recognizeIntent(text: string): IntentName | 'unknown' {
  return INTENT_NAMES.find((name) => INTENTS[name].matches(text)) ?? 'unknown';
}

/** What an intent does and its example phrases. */
export type IntentPhrases = Pick<IntentEntry, 'does' | 'examples'>;

function phraseTable(): Readonly<Record<IntentName, IntentPhrases>> {
  const table = {} as Record<IntentName, IntentPhrases>;
  for (const name of INTENT_NAMES) {
    const { does, examples } = INTENTS[name];
    table[name] = Object.freeze({ does, examples });
  }
  return Object.freeze(table);
}

/**
 * What each intent does and its example phrases, in both languages, without the matchers: for a host that
 * offers suggestions, and for documentation. In matching order.
 */
export const SCRIPTED_AGENT_PHRASES = phraseTable();
