/**
 * DSL 1.1 agent actions (`lineup.v1.ui.action`): the agent answers `ui.action_result` `accepted` first, once per
 * envelope and per `operation_id`, then handles the prompt exactly as a `chat.user_message` with the same text.
 */
import type { LineUpMessage } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { CONVERSATION, createHarness, type Harness, ofType, texts, types } from '../test/harness.js';
import { createScriptedAgent } from './agent.js';
import { INTENT_NAMES, INTENTS } from './conversation/intents.js';
import { LANGUAGES } from './conversation/language.js';
import { REPLIES } from './conversation/replies.js';

const DOCUMENT = { source_call_id: 'call_ui_0007', ui_id: 'compact_reader', generation: 0, revision: 0 };

/** The payload of a click on the agent action `explain` of `DOCUMENT`. */
const action = (operationId: string, prompt: string) => ({
  operation_id: operationId,
  action_id: 'explain',
  document: DOCUMENT,
  prompt,
});

function click(
  harness: Harness,
  operationId: string,
  prompt: string,
  options?: { id?: string; conversation?: string },
): void {
  harness.receive('lineup.v1.ui.action', action(operationId, prompt), options);
}

/** A harness with an inventory listing Pomodoro's tools at `inv-1`. */
function withInventory(): Harness {
  const harness = createHarness();
  harness.inventory('inv-1');
  return harness;
}

/** What a client can compare between two runs: types, chat texts and tool call arguments (not the ids). */
const shape = (sent: readonly LineUpMessage[]) => ({
  types: types(sent),
  texts: texts(sent),
  calls: ofType(sent, 'lineup.v1.tool.call').map((call) => [call.payload.tool, call.payload.arguments]),
});

describe('an agent action the user clicked', () => {
  it('is answered accepted first, for its operation_id, then the prompt is answered in chat', () => {
    const harness = withInventory();
    click(harness, 'op_0005', 'help');
    const sent = harness.take();
    expect(types(sent)).toEqual(['ui.action_result', 'chat.agent_message']);
    expect(sent[0]).toMatchObject({
      conversation_id: CONVERSATION,
      payload: { operation_id: 'op_0005', status: 'accepted' },
    });
    // `accepted` carries no message: the reply comes in the conversation.
    expect(ofType(sent, 'lineup.v1.ui.action_result')[0]?.payload).toEqual({
      operation_id: 'op_0005',
      status: 'accepted',
    });
    expect(texts(sent)).toEqual([REPLIES.en.help()]);
    expect(harness.problems).toEqual([]);
  });

  const rows = INTENT_NAMES.flatMap((name) =>
    LANGUAGES.map((language) => ({ name, language, phrase: INTENTS[name].examples[language][0] as string })),
  );

  it.each(rows)('with the prompt "$phrase" does what typing it does ($name)', ({ phrase }) => {
    const typed = withInventory();
    typed.say(phrase);
    const clicked = withInventory();
    click(clicked, 'op_1', phrase);
    const [answer, ...rest] = clicked.take();
    expect(answer?.type).toBe('lineup.v1.ui.action_result');
    expect(shape(rest)).toEqual(shape(typed.take()));
    expect(clicked.problems).toEqual([]);
  });

  it.each([
    ['Explain what README.md is for, in three sentences.', 'en'],
    ['解释一下 README.md 是做什么的', 'zh'],
  ] as const)(
    'with a prompt it has no script for (%s) is accepted, then not understood',
    (prompt, language) => {
      const harness = withInventory();
      click(harness, 'op_2', prompt);
      const sent = harness.take();
      expect(types(sent)).toEqual(['ui.action_result', 'chat.agent_message']);
      expect(ofType(sent, 'lineup.v1.ui.action_result')[0]?.payload.status).toBe('accepted');
      expect(texts(sent)).toEqual([REPLIES[language].unknown()]);
    },
  );

  it('in a conversation the agent has not seen is still answered; a tool needs its inventory, as in chat', () => {
    const harness = createHarness();
    click(harness, 'op_5', 'start a 20 minute focus', { conversation: 'conv_new' });
    const sent = harness.take();
    expect(types(sent)).toEqual(['ui.action_result', 'chat.agent_message']);
    expect(sent.every((message) => message.conversation_id === 'conv_new')).toBe(true);
    expect(ofType(sent, 'lineup.v1.ui.action_result')[0]?.payload.operation_id).toBe('op_5');
    expect(texts(sent)).toEqual([REPLIES.en.noInventory()]);
    // A document needs no inventory.
    click(harness, 'op_6', 'compound interest', { conversation: 'conv_other' });
    expect(types(harness.take())).toEqual(['ui.action_result', 'chat.agent_message', 'ui.document']);
  });

  it('calls a tool with the latest inventory revision, like a typed start', () => {
    const harness = withInventory();
    harness.inventory('inv-2');
    click(harness, 'op_7', 'start a 20 minute focus');
    const sent = harness.take();
    expect(types(sent)).toEqual(['ui.action_result', 'chat.agent_message', 'tool.call']);
    expect(ofType(sent, 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      inventory_revision: 'inv-2',
      tool: 'pomodoro.start',
      arguments: { minutes: 20, label: 'Focus' },
    });
  });
});

describe('dedupe of agent actions', () => {
  it('an envelope received again (a resend after a reconnect) is answered and acted on once', () => {
    const harness = withInventory();
    click(harness, 'op_10', 'help', { id: 'msg_client_31' });
    click(harness, 'op_10', 'help', { id: 'msg_client_31' });
    expect(types(harness.take())).toEqual(['ui.action_result', 'chat.agent_message']);
  });

  it('an operation answered already is not answered again under another envelope id', () => {
    const harness = withInventory();
    click(harness, 'op_11', 'help', { id: 'msg_a' });
    click(harness, 'op_11', 'help', { id: 'msg_b' });
    expect(types(harness.take())).toEqual(['ui.action_result', 'chat.agent_message']);
    // Another operation, or the same id in another conversation, is its own request.
    click(harness, 'op_12', 'help');
    click(harness, 'op_11', 'help', { conversation: 'conv_other' });
    const sent = harness.take();
    expect(
      ofType(sent, 'lineup.v1.ui.action_result').map((m) => [m.conversation_id, m.payload.operation_id]),
    ).toEqual([
      [CONVERSATION, 'op_12'],
      ['conv_other', 'op_11'],
    ]);
    expect(texts(sent)).toHaveLength(2);
  });

  it('answers each click once even when the client repeats each envelope, in order', () => {
    const harness = withInventory();
    for (const operation of ['op_20', 'op_21', 'op_22']) {
      click(harness, operation, 'help', { id: `msg_${operation}` });
      click(harness, operation, 'help', { id: `msg_${operation}` });
    }
    const answers = ofType(harness.take(), 'lineup.v1.ui.action_result');
    expect(answers.map((answer) => answer.payload.operation_id)).toEqual(['op_20', 'op_21', 'op_22']);
  });
});

describe('an answer that cannot be sent', () => {
  it('is reported, the prompt is not acted on, and a later envelope for the operation is answered', () => {
    const problems: unknown[] = [];
    const sent: string[] = [];
    let fail = true;
    let id = 0;
    const agent = createScriptedAgent({
      ids: () => `a${++id}`,
      send(text) {
        if (fail && text.includes('lineup.v1.ui.action_result')) throw new Error('The socket is closed.');
        sent.push(text);
      },
      onProblem: (problem) => problems.push(problem),
    });
    const envelope = (envelopeId: string) =>
      JSON.stringify({
        v: 1,
        id: envelopeId,
        type: 'lineup.v1.ui.action',
        conversation_id: 'c',
        sender: { kind: 'client', id: 'h' },
        payload: action('op_30', 'help'),
      });
    agent.receive(envelope('m1'));
    expect(problems).toHaveLength(1);
    expect(sent).toEqual([]);
    fail = false;
    agent.receive(envelope('m2'));
    expect(sent.map((text) => JSON.parse(text).type)).toEqual([
      'lineup.v1.ui.action_result',
      'lineup.v1.chat.agent_message',
    ]);
  });
});

describe('what is not an agent action', () => {
  it('an invalid ui.action (a blank prompt) is reported and not answered', () => {
    const harness = withInventory();
    harness.receiveText(
      JSON.stringify({
        v: 1,
        id: 'bad_1',
        type: 'lineup.v1.ui.action',
        conversation_id: CONVERSATION,
        sender: { kind: 'client', id: 'h' },
        payload: action('op_40', '   '),
      }),
    );
    expect(harness.take()).toEqual([]);
    expect(harness.problems).toHaveLength(1);
  });
});
