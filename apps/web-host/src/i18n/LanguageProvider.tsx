/**
 * The language the host shows, and its text in it. The language follows the browser (`navigator.language`) until
 * the user picks one with the switch in the header, which is remembered in this browser.
 */
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { HOST_TEXT, type HostText } from './host-text.ts';
import { type HostLanguage, languageOf } from './language.ts';

const STORAGE_KEY = 'lineup-host-language';

function initialLanguage(): HostLanguage {
  try {
    const chosen = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (chosen === 'en' || chosen === 'zh') return chosen;
  } catch {
    // Storage can be unavailable (a sandboxed or private context): follow the browser.
  }
  return languageOf(globalThis.navigator?.language);
}

const LanguageContext = createContext<{
  readonly language: HostLanguage;
  readonly setLanguage: (language: HostLanguage) => void;
}>({ language: 'en', setLanguage: () => {} });

export function LanguageProvider({ children }: { readonly children: ReactNode }) {
  const [language, setState] = useState<HostLanguage>(initialLanguage);
  const setLanguage = (next: HostLanguage) => {
    setState(next);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered; the choice still applies to this page.
    }
  };
  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);
  return <LanguageContext.Provider value={{ language, setLanguage }}>{children}</LanguageContext.Provider>;
}

export function useLanguage() {
  return useContext(LanguageContext);
}

/** The host's text in the current language. */
export function useText(): HostText {
  return HOST_TEXT[useContext(LanguageContext).language];
}

/** EN / 中文, as a pair of pressed buttons. */
export function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  const text = useText();
  return (
    <fieldset className="host__language">
      <legend className="host__visually-hidden">{text.languageSwitch}</legend>
      {(['en', 'zh'] as const).map((option) => (
        <button
          key={option}
          type="button"
          lang={option === 'zh' ? 'zh-CN' : 'en'}
          aria-pressed={language === option}
          onClick={() => setLanguage(option)}
        >
          {option === 'en' ? 'EN' : '中文'}
        </button>
      ))}
    </fieldset>
  );
}
