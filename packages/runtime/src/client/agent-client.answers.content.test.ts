/**
 * What the client answers to content the envelope cannot judge (docs/protocol.md "What the client answers"): a
 * document parseDocument refuses, a message the host's check refuses, and component stream frames that conflict or
 * come after the end (judged against the journal after a reload) — the exact answer the agent gets, and that the
 * message was neither recorded nor handed to the host.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION, setUp } from '../../test/agent-client.js';
import { answersAfter, ready } from '../../test/agent-client-answers.js';
import { agentEnvelope } from '../../test/envelopes.js';

const document = (id = 'doc1') => ({
  version: '1.0',
  id,
  mode: 'structured_ui',
  title: 'Hi',
  state: {},
  derived: {},
  root: { type: 'Text', id: 't', props: { text: 'Hi' } },
});

describe('content the envelope cannot judge', () => {
  it('a document that parseDocument refuses is answered with its issues, and neither recorded nor handed on', async () => {
    const { agent, frames, handlers, store } = await ready({ journal: true });
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: { ...document(), mode: 'chat' } }, 'd1'));
    agent.send(agentEnvelope('lineup.v1.ui.document', { document: document() }, 'd2'));
    await vi.waitFor(() => expect(handlers.document).toHaveBeenCalledTimes(1));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'd1',
          message_type: 'lineup.v1.ui.document',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.document.mode', code: 'invalid_value' })],
        },
      },
    ]);
    expect(vi.mocked(handlers.document).mock.calls[0]?.[0].id).toBe('d2');
    const recorded = (await store!.allMessages(CONVERSATION)).filter((record) => record.direction === 'in');
    expect(recorded.map((record) => record.id)).toEqual(['d2']);
    // The document handed on is parseDocument's own frozen copy.
    expect(Object.isFrozen(vi.mocked(handlers.document).mock.calls[0]?.[0].payload.document)).toBe(true);
  });

  it("the host's check refuses a message with its issues below payload", async () => {
    const { agent, frames, handlers } = await ready({
      client: {
        handlers: {
          check: (message) => {
            if (message.type === 'lineup.v1.chat.agent_message' && message.payload.text.includes('<iframe'))
              throw new LineUpProtocolError([
                { path: 'text', code: 'invalid_value', message: 'No frames here.' },
              ]);
          },
          agentMessage: vi.fn(),
        },
      },
    });
    void handlers;
    agent.send(agentEnvelope('lineup.v1.chat.agent_message', { text: 'look <iframe>' }, 'c1'));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'c1',
          message_type: 'lineup.v1.chat.agent_message',
          reason: 'invalid_message',
          issues: [{ path: 'payload.text', code: 'invalid_value', message: 'No frames here.' }],
        },
      },
    ]);
  });
});

describe('component streams', () => {
  const frame = (
    seq: number,
    revision: number,
    type: string,
    title: string,
    baseRevision: number | null,
  ) => ({
    protocol: 'dsh.intelligent-ui.stream',
    version: '1.0',
    sourceCallId: 'call_stream',
    uiId: 'doc1',
    generation: 1,
    seq,
    baseRevision,
    revision,
    type,
    snapshot: { ...document(), title },
  });

  it('a conflict or a frame after the end is answered with its stream issue; a stale frame changes nothing', async () => {
    const { agent, frames, handlers } = await ready({ journal: true });
    const send = (id: string, checkpoint: object) =>
      agent.send(agentEnvelope('lineup.v1.ui.checkpoint', { checkpoint }, id));
    send('f1', frame(1, 0, 'snapshot', 'A', null));
    send('f3', frame(3, 1, 'update', 'C', 0));
    send('f2', frame(2, 1, 'update', 'B', 0)); // stale: seq 2 was skipped by the gap
    send('f3x', frame(3, 1, 'update', 'X', 0)); // seq 3 again, other content
    send('f4', frame(4, 1, 'complete', 'C', 1));
    send('f5', frame(5, 2, 'update', 'D', 1)); // after complete
    await vi.waitFor(() => expect(handlers.checkpoint).toHaveBeenCalledTimes(4));
    expect(vi.mocked(handlers.checkpoint).mock.calls.map(([message]) => message.id)).toEqual([
      'f1',
      'f3',
      'f2',
      'f4',
    ]);
    const answers = await answersAfter(frames, 1, 2);
    expect(answers).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: expect.objectContaining({
          message_id: 'f3x',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'duplicate_id' })],
        }),
      },
      {
        type: 'lineup.v1.unsupported',
        payload: expect.objectContaining({
          message_id: 'f5',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.checkpoint.seq', code: 'invalid_value' })],
        }),
      },
    ]);
  });

  it('after a reload the stream is judged against what the journal recorded', async () => {
    const first = await ready({ journal: true });
    const send = (agent: typeof first.agent, id: string, checkpoint: object) =>
      agent.send(agentEnvelope('lineup.v1.ui.checkpoint', { checkpoint }, id));
    send(first.agent, 'f1', frame(1, 0, 'snapshot', 'A', null));
    send(first.agent, 'f2', frame(2, 1, 'update', 'B', 0));
    await vi.waitFor(() => expect(first.handlers.checkpoint).toHaveBeenCalledTimes(2));
    first.client.stop();
    // A new client on the same database: its receivers are empty, the journal is not.
    const second = await setUp({ client: { journal: first.store! } });
    await vi.waitFor(() => expect(second.frames).toHaveLength(1));
    send(second.agent, 'f2x', frame(2, 1, 'update', 'Other', 0));
    send(second.agent, 'f3', frame(3, 2, 'update', 'C', 1));
    await vi.waitFor(() => expect(second.handlers.checkpoint).toHaveBeenCalledTimes(1));
    expect(vi.mocked(second.handlers.checkpoint).mock.calls[0]?.[0].id).toBe('f3');
    expect((await answersAfter(second.frames, 1, 1))[0]?.payload).toMatchObject({
      message_id: 'f2x',
      reason: 'invalid_message',
      issues: [expect.objectContaining({ code: 'duplicate_id' })],
    });
  });
});
