/**
 * The agent seen from the client: `unsupported` both ways. It says in chat which of its messages the client did
 * not support, and answers a type it does not know with `lineup.v1.unsupported`.
 */
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { CONVERSATION, createHarness, ofType, texts, types } from '../test/harness.js';

describe('unsupported', () => {
  it('says in chat which of its messages the client did not support', () => {
    const harness = createHarness();
    harness.say('open a weather surface');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    harness.receive('lineup.v1.unsupported', { message_id: open?.id ?? '', reason: 'unknown_type' });
    harness.receive('lineup.v1.unsupported', {
      message_id: 'someone-else',
      message_type: 'lineup.v1.ui.frobnicate',
      reason: 'unsupported_version',
    });
    harness.receive('lineup.v1.unsupported', { message_id: 'unknown', reason: 'unknown_type' });
    expect(texts(harness.take())).toEqual([
      'Your client did not support my `lineup.v1.ui.open` message (it does not know that type), so that part of the demo is not shown.',
      'Your client did not support my `lineup.v1.ui.frobnicate` message (it speaks an earlier protocol version), so that part of the demo is not shown.',
      'Your client did not support one of my messages (it does not know that type), so that part of the demo is not shown.',
    ]);
  });

  it('forgets a tool call the client did not support', () => {
    const harness = withInventory();
    harness.say('start a 20 minute focus');
    const call = ofType(harness.take(), 'lineup.v1.tool.call')[0];
    harness.receive('lineup.v1.unsupported', { message_id: call?.id ?? '', reason: 'unknown_type' });
    harness.take();
    harness.receive('lineup.v1.tool.result', {
      call_id: call?.payload.call_id ?? '',
      outcome: 'error',
      error: { code: 'unsupported' },
    });
    expect(harness.take()).toEqual([]);
  });

  it('answers a type it does not know with lineup.v1.unsupported, once, and runs nothing', () => {
    const harness = createHarness();
    const unknown = JSON.stringify({
      v: 1,
      id: 'msg_future',
      type: 'lineup.v1.chat.reaction',
      conversation_id: CONVERSATION,
      sender: { kind: 'client', id: 'test-host' },
      payload: { emoji: 'thumbs_up' },
    });
    harness.receiveText(unknown);
    harness.receiveText(unknown);
    harness.receiveText(
      JSON.stringify({ ...JSON.parse(unknown), id: 'msg_v2', type: 'lineup.v1.chat.user_message', v: 2 }),
    );
    const sent = harness.take();
    expect(types(sent)).toEqual(['unsupported', 'unsupported']);
    expect(sent.map((message) => message.payload)).toEqual([
      { message_id: 'msg_future', message_type: 'lineup.v1.chat.reaction', reason: 'unknown_type' },
      { message_id: 'msg_v2', message_type: 'lineup.v1.chat.user_message', reason: 'unsupported_version' },
    ]);
  });
});
