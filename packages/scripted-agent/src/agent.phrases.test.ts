/**
 * The agent seen from the client: every phrase of the table in both languages, and what it says to a phrase it
 * does not understand. Every envelope the agent sends is parsed by the harness as a client would, so an invalid
 * one fails the test.
 */
import { acceptCheckpoint, parseDocument, type UIStreamState } from '@lineup/shared';
import { type LineUpMessage, UIOpenPayloadSchema } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { CONVERSATION, ofType, texts, types } from '../test/harness.js';
import { INTENT_NAMES, INTENTS } from './conversation/intents.js';
import { LANGUAGES } from './conversation/language.js';
import { REPLIES } from './conversation/replies.js';

const HAN = /\p{Script=Han}/u;

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
