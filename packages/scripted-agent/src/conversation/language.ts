/**
 * The two languages the demo agent speaks. A message with any Han character is Chinese; everything else is
 * answered in English.
 */
export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

const HAN = /\p{Script=Han}/u;

export function languageOf(text: string): Language {
  return HAN.test(text) ? 'zh' : 'en';
}

/**
 * What the phrase tables match against: Unicode-compatibility folded (full-width digits and punctuation become
 * ASCII, so `２０分钟` reads as `20分钟`), trimmed and lower-cased.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase();
}
