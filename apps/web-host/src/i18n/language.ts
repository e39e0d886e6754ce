/**
 * The host's two languages, beneath every text table: the language follows the browser (`navigator.language`)
 * until the user picks one with the switch in the header (LanguageProvider.tsx).
 */
export type HostLanguage = 'en' | 'zh';

/** A text table in both languages: the Chinese one has the English one's type, so a missing key does not compile. */
export type Bilingual<Text> = Readonly<Record<HostLanguage, Text>>;

/** The browser's language as a host language. */
export function languageOf(tag: string | undefined): HostLanguage {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
