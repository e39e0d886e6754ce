/**
 * The agent's options (its id, the envelope ids, `send`), and a transport that answers from inside `send`.
 */
import { describe, expect, it } from 'vitest';
import { createHarness } from '../test/harness.js';
import { POMODORO_INVENTORY_TOOLS } from '../test/pomodoro.js';
import { createScriptedAgent, DEFAULT_AGENT_ID } from './agent.js';

describe('options', () => {
  it('signs every envelope with the agent id, `lineup-demo-agent` by default', () => {
    const harness = createHarness();
    harness.say('help');
    expect(harness.sent[0]?.sender).toEqual({ kind: 'agent', id: DEFAULT_AGENT_ID });
    const named = createHarness({ agentId: 'agent_hermes_main' });
    named.say('help');
    expect(named.sent[0]?.sender).toEqual({ kind: 'agent', id: 'agent_hermes_main' });
  });

  it('refuses an agent id that is not a valid id, and a missing send', () => {
    expect(() => createScriptedAgent({ agentId: 'two words', send() {} })).toThrow(TypeError);
    expect(() => createScriptedAgent({ agentId: '', send() {} })).toThrow(TypeError);
    expect(() => createScriptedAgent({} as never)).toThrow(TypeError);
  });

  it('uses random UUIDs by default', () => {
    const sent: string[] = [];
    const agent = createScriptedAgent({ send: (text) => sent.push(text) });
    agent.receive(
      JSON.stringify({
        v: 1,
        id: 'm',
        type: 'lineup.v1.chat.user_message',
        conversation_id: 'c',
        sender: { kind: 'client', id: 'h' },
        payload: { text: 'help' },
      }),
    );
    expect(JSON.parse(sent[0] ?? '{}').id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a transport that answers from inside send', () => {
  it('still knows the call, and the message, it is sending', () => {
    const replies: string[] = [];
    let respond: ((text: string) => void) | undefined;
    let id = 0;
    const envelope = (type: string, payload: object) =>
      JSON.stringify({
        v: 1,
        id: `c${++id}`,
        type,
        conversation_id: 'c',
        sender: { kind: 'client', id: 'h' },
        payload,
      });
    const agent = createScriptedAgent({
      ids: () => `a${++id}`,
      send(text) {
        const message = JSON.parse(text);
        if (message.type === 'lineup.v1.chat.agent_message') replies.push(message.payload.text);
        respond?.(text);
      },
    });
    agent.receive(
      envelope('lineup.v1.client.inventory', {
        revision: 'r1',
        standard_components: [],
        applications: [],
        capabilities: [],
        tools: POMODORO_INVENTORY_TOOLS,
      }),
    );
    respond = (text) => {
      const message = JSON.parse(text);
      if (message.type !== 'lineup.v1.tool.call') return;
      respond = undefined;
      agent.receive(
        envelope('lineup.v1.tool.result', {
          call_id: message.payload.call_id,
          outcome: 'completed',
          result: { status: 'nothing_to_interrupt' },
        }),
      );
    };
    agent.receive(envelope('lineup.v1.chat.user_message', { text: 'stop' }));
    expect(replies).toEqual([
      'Asking **Pomodoro** to stop the timer…',
      'There was no timer running, so there was nothing to stop.',
    ]);
  });
});
