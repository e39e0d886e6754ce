/**
 * A Pomodoro start request read from the user's words: how long (`readMinutes`) and what for (the label shown
 * in Pomodoro). The agent's own bounds are Pomodoro's (`pomodoro.start` takes 1–180 whole minutes): a request
 * outside them is refused in chat, never sent to be refused by the runtime.
 */
import { readMinutes } from '../conversation/duration.js';

export const POMODORO_LIMITS = Object.freeze({
  /** The shortest session the agent starts, in minutes. */
  minMinutes: 1,
  /** The longest: Pomodoro's `MAX_FOCUS_MINUTES`. */
  maxMinutes: 180,
  /** A classic pomodoro, when the user names no length. */
  defaultMinutes: 25,
} as const);

/** What the session is for; each has a label in both languages (`replies.ts`). The last is the default. */
export const FOCUS_KINDS = ['meditation', 'study', 'reading', 'work', 'focus'] as const;
export type FocusKind = (typeof FOCUS_KINDS)[number];

const FOCUS_PATTERNS: Readonly<Record<Exclude<FocusKind, 'focus'>, RegExp>> = {
  meditation: /meditat|冥想|打坐|静坐/,
  study: /\bstudy|学习|复习/,
  reading: /\bread(?:ing)?\b|阅读|读书|看书/,
  work: /\bwork(?:ing)?\b|工作|写代码|\bcoding\b/,
};

export type FocusRequest =
  | {
      readonly kind: 'start';
      readonly minutes: number;
      readonly focus: FocusKind;
      /** The user named no length: `POMODORO_LIMITS.defaultMinutes`. */
      readonly defaulted: boolean;
    }
  /** Not a whole number of minutes within the limits. */
  | { readonly kind: 'out_of_range'; readonly minutes: number };

/** The request in a normalized message the intent table recognized as a start. */
export function readFocusRequest(text: string): FocusRequest {
  const asked = readMinutes(text);
  const focus = FOCUS_KINDS.find((kind) => kind === 'focus' || FOCUS_PATTERNS[kind].test(text)) ?? 'focus';
  if (asked === undefined)
    return { kind: 'start', minutes: POMODORO_LIMITS.defaultMinutes, focus, defaulted: true };
  if (!Number.isInteger(asked) || asked < POMODORO_LIMITS.minMinutes || asked > POMODORO_LIMITS.maxMinutes)
    return { kind: 'out_of_range', minutes: asked };
  return { kind: 'start', minutes: asked, focus, defaulted: false };
}
