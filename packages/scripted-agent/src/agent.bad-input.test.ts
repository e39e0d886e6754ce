/**
 * The agent seen from the client: bad input. Frames that are not valid envelopes are reported and ignored, and
 * the agent never throws, even when sending or its problem handler fails.
 */
import { describe, expect, it } from 'vitest';
import { CONVERSATION, createHarness } from '../test/harness.js';
import { POMODORO_INVENTORY_TOOLS } from '../test/pomodoro.js';
import { createScriptedAgent } from './agent.js';

describe('bad input', () => {
  it.each([
    ['not JSON', 'start a 20 minute focus'],
    ['an array', '[]'],
    ['a malformed envelope', JSON.stringify({ v: 1, type: 'lineup.v1.chat.user_message' })],
    [
      'a message travelling the wrong way',
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.agent_message',
        conversation_id: CONVERSATION,
        sender: { kind: 'agent', id: 'impostor' },
        payload: { text: 'hi' },
      }),
    ],
    [
      'an invalid payload',
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.user_message',
        conversation_id: CONVERSATION,
        sender: { kind: 'client', id: 'host' },
        payload: { text: '' },
      }),
    ],
    ['text over the envelope budget', 'x'.repeat(1_048_577)],
  ])('%s is reported and ignored', (_, text) => {
    const harness = createHarness();
    expect(() => harness.receiveText(text)).not.toThrow();
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toHaveLength(1);
  });

  it('never throws, even when given no text, when sending fails or when the problem handler fails', () => {
    const failing = createScriptedAgent({
      send() {
        throw new Error('The socket is closed.');
      },
      onProblem() {
        throw new Error('The logger is broken.');
      },
    });
    expect(() => failing.receive(undefined as unknown as string)).not.toThrow();
    const envelope = {
      v: 1,
      id: 'm',
      type: 'lineup.v1.chat.user_message',
      conversation_id: CONVERSATION,
      sender: { kind: 'client', id: 'host' },
      payload: { text: 'compound interest' },
    };
    expect(() => failing.receive(JSON.stringify(envelope))).not.toThrow();
  });

  it('does not register a call whose envelope could not be sent', () => {
    const problems: unknown[] = [];
    let fail = false;
    const sent: string[] = [];
    const agent = createScriptedAgent({
      ids: (() => {
        let id = 0;
        return () => `a${++id}`;
      })(),
      send(text) {
        if (fail && text.includes('tool.call')) throw new Error('The socket is closed.');
        sent.push(text);
      },
      onProblem: (problem) => problems.push(problem),
    });
    const envelope = (id: string, type: string, payload: object) =>
      JSON.stringify({ v: 1, id, type, conversation_id: 'c', sender: { kind: 'client', id: 'h' }, payload });
    agent.receive(
      envelope('1', 'lineup.v1.client.inventory', {
        revision: 'r1',
        standard_components: [],
        applications: [],
        capabilities: [],
        tools: POMODORO_INVENTORY_TOOLS,
      }),
    );
    fail = true;
    agent.receive(envelope('2', 'lineup.v1.chat.user_message', { text: 'stop' }));
    expect(problems).toHaveLength(1);
    // The id the failed call would have had; its result is not answered.
    agent.receive(
      envelope('3', 'lineup.v1.tool.result', {
        call_id: 'a2',
        outcome: 'completed',
        result: { status: 'interrupted' },
      }),
    );
    expect(sent.map((text) => JSON.parse(text).type)).toEqual(['lineup.v1.chat.agent_message']);
  });

  it('reports an id that makes an invalid envelope, and sends nothing', () => {
    const harness = createHarness({ ids: () => 'has a space' });
    harness.say('help');
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toHaveLength(1);
  });
});
