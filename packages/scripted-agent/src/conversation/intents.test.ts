import { describe, expect, it } from 'vitest';
import { INTENT_NAMES, INTENTS, recognizeIntent, SCRIPTED_AGENT_PHRASES } from './intents.js';
import { LANGUAGES, languageOf, normalizeText } from './language.js';

const recognize = (text: string) => recognizeIntent(normalizeText(text));

describe('the phrase table', () => {
  const rows = INTENT_NAMES.flatMap((name) =>
    LANGUAGES.flatMap((language) =>
      INTENTS[name].examples[language].map((phrase) => ({ name, language, phrase })),
    ),
  );

  it.each(rows)('$phrase → $name ($language)', ({ name, language, phrase }) => {
    expect(recognize(phrase)).toBe(name);
    expect(languageOf(phrase)).toBe(language);
  });

  it('gives every intent examples in both languages', () => {
    for (const name of INTENT_NAMES)
      for (const language of LANGUAGES) expect(INTENTS[name].examples[language].length).toBeGreaterThan(0);
  });

  it('publishes the same examples without the matchers', () => {
    expect(Object.keys(SCRIPTED_AGENT_PHRASES)).toEqual([...INTENT_NAMES]);
    for (const name of INTENT_NAMES) {
      expect(SCRIPTED_AGENT_PHRASES[name]).toEqual({
        does: INTENTS[name].does,
        examples: INTENTS[name].examples,
      });
      expect(Object.isFrozen(SCRIPTED_AGENT_PHRASES[name])).toBe(true);
    }
  });
});

describe('recognizeIntent', () => {
  it.each([
    // Case, spacing and full-width forms do not matter.
    ['  START A 20 MINUTE FOCUS  ', 'pomodoro_start'],
    ['Stop!', 'pomodoro_stop'],
    ['停止！', 'pomodoro_stop'],
    ['ＳＴＯＰ', 'pomodoro_stop'],
    // Stop is matched before start: these name a timer and a verb of starting.
    ['stop the focus timer', 'pomodoro_stop'],
    ['停止计时', 'pomodoro_stop'],
    ['please cancel it', 'pomodoro_stop'],
    ['pomodoro', 'pomodoro_start'],
    ['冥想', 'pomodoro_start'],
    ['can you start a timer?', 'pomodoro_start'],
    ['focus for 25 minutes', 'pomodoro_start'],
    ['Compare the Air 13 vs the Pro 14', 'product_comparison'],
    ["what's the weather like?", 'weather_surface'],
    ['hello', 'help'],
    ['你好', 'help'],
    // Not understood: a timer word without a request, a verb without a topic, anything else.
    ['how does the timer work?', 'unknown'],
    ['计时器怎么用？', 'unknown'],
    ['start', 'unknown'],
    ['what is the meaning of life', 'unknown'],
    ['今天吃什么', 'unknown'],
    ['send me a poem', 'unknown'],
  ])('%s → %s', (text, intent) => {
    expect(recognize(text)).toBe(intent);
  });
});

describe('languageOf', () => {
  it('is Chinese when the message holds any Han character, English otherwise', () => {
    expect(languageOf('start 20 分钟')).toBe('zh');
    expect(languageOf('start a 20 minute focus')).toBe('en');
    expect(languageOf('¿qué?')).toBe('en');
  });
});
