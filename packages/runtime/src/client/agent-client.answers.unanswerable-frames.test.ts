/**
 * What the client answers to frames with nothing to answer in (docs/protocol.md "What the client answers"): not
 * JSON, no envelope, over the size or nesting budget before any header — the connection is refused and nothing is
 * answered or handed to the host; a frame over the budget whose header comes first is answered by id.
 */
import { LINEUP_WIRE_LIMITS } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { answersAfter, ready } from '../../test/agent-client-answers.js';
import { agentEnvelope } from '../../test/envelopes.js';

describe('frames with nothing to answer in', () => {
  it.each([
    ['not JSON', () => '{"v":1,', 'not_json'],
    ['JSON that is not an object', () => '[]', 'not_an_envelope'],
    [
      'an envelope without conversation_id',
      () => JSON.stringify({ ...agentEnvelope('x.y', {}), conversation_id: 7 }),
      'not_an_envelope',
    ],
    [
      'a message without id that is no call',
      () => JSON.stringify({ ...agentEnvelope('lineup.v1.chat.agent_message', { text: 'x' }), id: '' }),
      'not_an_envelope',
    ],
    [
      'a frame over the budget whose header comes last',
      () =>
        `{"payload":{"t":"${'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes)}"},"id":"m","conversation_id":"conv_1"}`,
      'too_large',
    ],
    [
      'nesting past the budget before any header',
      () => `{"payload":${'['.repeat(200)}${']'.repeat(200)},"id":"m","conversation_id":"conv_1"}`,
      'too_large',
    ],
  ])(
    '%s: the connection is refused (%s), nothing is answered or handed on',
    async (_name, frame, refusal) => {
      const { agent, frames, handlers } = await ready();
      agent.send(frame());
      await vi.waitFor(() => expect(agent.refusals).toEqual([refusal]));
      // The session starts again: the inventory, and nothing else.
      await vi.waitFor(() => expect(frames).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(frames.map((entry) => entry.type)).toEqual([
        'lineup.v1.client.inventory',
        'lineup.v1.client.inventory',
      ]);
      expect(handlers.agentMessage).not.toHaveBeenCalled();
      expect(handlers.problem).toHaveBeenCalled();
    },
  );

  it('a frame over the budget whose header comes first is answered by id', async () => {
    const { agent, frames } = await ready();
    const text = JSON.stringify(
      agentEnvelope(
        'lineup.v1.chat.agent_message',
        { text: 'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes) },
        'm_big',
      ),
    );
    agent.send(text);
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'm_big',
          message_type: 'lineup.v1.chat.agent_message',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: '$', code: 'too_large' })],
        },
      },
    ]);
    expect(agent.refusals).toEqual([]);
  });
});
