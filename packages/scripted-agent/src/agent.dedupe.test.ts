/**
 * The agent seen from the client: dedupe. An envelope received again, a second result for a call, and progress or
 * results of calls it did not make are not acted on twice (or at all).
 */
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { ofType, texts, types } from '../test/harness.js';
import { REPLIES } from './conversation/replies.js';

describe('dedupe', () => {
  it('acts once on an envelope id received again (a resend after a reconnect)', () => {
    const harness = withInventory();
    harness.receive('lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }, { id: 'msg_1' });
    harness.receive('lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }, { id: 'msg_1' });
    const [call] = ofType(harness.take(), 'lineup.v1.tool.call');
    const callId = call?.payload.call_id ?? '';
    const started = { call_id: callId, app_scope: 'pomodoro', status: 'started' };
    harness.receive('lineup.v1.tool.progress', started, { id: 'row_2' });
    harness.receive('lineup.v1.tool.progress', started, { id: 'row_2' });
    const result = {
      call_id: callId,
      outcome: 'completed',
      result: {
        status: 'completed',
        minutes: 20,
        started_at: '2026-01-01T10:00:00Z',
        ended_at: '2026-01-01T10:20:00Z',
      },
    };
    harness.receive('lineup.v1.tool.result', result, { id: 'row_3' });
    harness.receive('lineup.v1.tool.result', result, { id: 'row_3' });
    expect(types(harness.sent)).toEqual([
      'chat.agent_message',
      'tool.call',
      'chat.agent_message',
      'chat.agent_message',
    ]);
  });

  it('a second result for the same call (under another id) is not reported twice', () => {
    const harness = withInventory();
    harness.say('stop');
    const callId = ofType(harness.take(), 'lineup.v1.tool.call')[0]?.payload.call_id ?? '';
    const result = { call_id: callId, outcome: 'completed', result: { status: 'nothing_to_interrupt' } };
    harness.receive('lineup.v1.tool.result', result);
    harness.receive('lineup.v1.tool.result', result);
    expect(texts(harness.take())).toEqual([REPLIES.en.stopResult('nothing_to_interrupt')]);
  });

  it('ignores progress and results of calls it did not make', () => {
    const harness = withInventory();
    harness.receive('lineup.v1.tool.progress', { call_id: 'x', app_scope: 'pomodoro', status: 'started' });
    harness.receive('lineup.v1.tool.result', { call_id: 'x', outcome: 'error', error: { code: 'timeout' } });
    expect(harness.sent).toEqual([]);
    expect(harness.problems).toEqual([]);
  });
});
