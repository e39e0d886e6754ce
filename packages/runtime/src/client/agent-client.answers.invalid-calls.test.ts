/**
 * What the client answers to a call whose message is invalid (docs/protocol.md "What the client answers"): one row
 * per kind of call, asserting the exact answer the agent gets — its own result, `invalid_message`, under its call_id
 * (by envelope id when the call_id cannot be read) — and that nothing ran or was recorded.
 */
import { describe, expect, it, vi } from 'vitest';
import { answersAfter, appCall, ready } from '../../test/agent-client-answers.js';
import { agentEnvelope } from '../../test/envelopes.js';

const call = (call_id: string, extra: object = {}) => ({
  call_id,
  inventory_revision: 'inventory-1',
  tool: 'focus.interrupt',
  arguments: {},
  ...extra,
});

describe('calls whose message is invalid', () => {
  it('a tool.call with a readable call_id is answered with its own result, invalid_message, and never recorded', async () => {
    const { agent, frames, db, deliver } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1', { inventory_revision: undefined }), 'm1'));
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_2', { arguments: [] }), 'm2'));
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_3', { extra: true }), 'm3'));
    expect(await answersAfter(frames, 1, 3)).toEqual(
      [
        ['call_1', 'payload.inventory_revision', 'missing_property'],
        ['call_2', 'payload.arguments', 'invalid_type'],
        ['call_3', 'payload', 'unknown_property'],
      ].map(([callId, path, code]) => ({
        type: 'lineup.v1.tool.result',
        payload: {
          call_id: callId,
          outcome: 'error',
          error: {
            code: 'invalid_message',
            message: 'The call message is invalid: it was not recorded and did not run.',
            issues: [expect.objectContaining({ path, code })],
          },
        },
      })),
    );
    expect(await db.count('tool_calls')).toBe(0);
    // The call_id is not taken: the corrected call runs.
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1'), 'm4'));
    await vi.waitFor(async () => {
      await deliver();
      expect(frames.at(-1)?.payload).toMatchObject({ call_id: 'call_1', outcome: 'completed' });
    });
    expect(await db.count('tool_calls')).toBe(1);
  });

  it('an invalid message under a call_id already recorded is call_id_conflict, and the recorded call is untouched', async () => {
    const { agent, frames, db, deliver } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1'), 'm1'));
    await vi.waitFor(async () => {
      await deliver();
      expect(frames).toHaveLength(3);
    });
    agent.send(agentEnvelope('lineup.v1.tool.call', call('call_1', { tool: 'Not A Tool' }), 'm2'));
    expect(await answersAfter(frames, 3, 1)).toEqual([
      {
        type: 'lineup.v1.tool.result',
        payload: {
          call_id: 'call_1',
          outcome: 'error',
          error: { code: 'call_id_conflict', message: 'This call_id was already used for a different call.' },
        },
      },
    ]);
    expect((await db.getAll('tool_calls')).map((record) => record.status)).toEqual(['accepted']);
  });

  it('an app.call is answered with its own app.result, failed invalid_message', async () => {
    const { agent, frames } = await ready();
    agent.send(agentEnvelope('lineup.v1.app.call', appCall('cap_1', { expires_at: 'tomorrow' }), 'm1'));
    agent.send(agentEnvelope('lineup.v1.app.call', appCall('cap_2', { reason: undefined }), 'm2'));
    expect(await answersAfter(frames, 1, 2)).toEqual([
      {
        type: 'lineup.v1.app.result',
        payload: {
          call_id: 'cap_1',
          status: 'failed',
          error: expect.objectContaining({
            code: 'invalid_message',
            issues: [expect.objectContaining({ path: 'payload.expires_at' })],
          }),
        },
      },
      {
        type: 'lineup.v1.app.result',
        payload: {
          call_id: 'cap_2',
          status: 'failed',
          error: expect.objectContaining({
            code: 'invalid_message',
            issues: [expect.objectContaining({ path: 'payload.reason', code: 'missing_property' })],
          }),
        },
      },
    ]);
  });

  it('a call_id outside the id pattern cannot be answered by call: the envelope is, by id', async () => {
    const { agent, frames } = await ready();
    agent.send(agentEnvelope('lineup.v1.tool.call', call('has space'), 'm1'));
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.unsupported',
        payload: {
          message_id: 'm1',
          message_type: 'lineup.v1.tool.call',
          reason: 'invalid_message',
          issues: [expect.objectContaining({ path: 'payload.call_id', code: 'invalid_value' })],
        },
      },
    ]);
  });

  it('a call without an envelope id is still answered by its call_id', async () => {
    const { agent, frames } = await ready();
    const envelope: Record<string, unknown> = agentEnvelope('lineup.v1.tool.call', call('call_9'));
    delete envelope.id;
    agent.send(envelope);
    expect(await answersAfter(frames, 1, 1)).toEqual([
      {
        type: 'lineup.v1.tool.result',
        payload: expect.objectContaining({
          call_id: 'call_9',
          error: expect.objectContaining({ code: 'invalid_message' }),
        }),
      },
    ]);
  });
});
