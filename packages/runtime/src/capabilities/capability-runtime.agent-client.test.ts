/**
 * Capabilities (seed 000 §5.2) through the agent client: the client answering an `app.call` through the runtime and
 * the outbox, the same call again from its record, and the declared capabilities in the inventory it sends.
 */
import 'fake-indexeddb/auto';
import { type LineUpMessage, parseEnvelopeText } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION, call, setUp } from '../../test/capability-runtime.js';
import { AgentClient } from '../client/agent-client.js';
import { createInProcessTransport } from '../client/transport.js';
import { OutboxDelivery } from '../outbox/delivery.js';
import { CapabilityRuntime } from './capability-runtime.js';

describe('through the agent client', () => {
  it('a new call is answered through the outbox; the same call again directly from its record', async () => {
    const setup = await setUp();
    const outbox = new OutboxDelivery(setup.db, { locks: null });
    const { transport, agent } = createInProcessTransport();
    const frames: LineUpMessage[] = [];
    agent.onFrame((text) => {
      const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
      if (parsed.kind === 'message') frames.push(parsed.message);
    });
    const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
    const runtime = new CapabilityRuntime(setup.db, {
      handlers: setup.handlers,
      clock: setup.time,
      confirm: async () => ({ decision: 'allow' }),
      onResult: () => void deliver(),
    });
    const client: AgentClient = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => setup.registry.inventory(),
      capabilities: runtime,
      conversations: [CONVERSATION],
      onSessionStart: () => void deliver(),
    });
    client.start();
    const payload = call('app.open_url', { url: 'https://example.com/docs' });
    const envelope = {
      v: 1,
      id: 'msg_call',
      type: 'lineup.v1.app.call',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload,
    };
    agent.send(envelope);
    await vi.waitFor(() =>
      expect(frames.filter((frame) => frame.type === 'lineup.v1.app.result')).toHaveLength(1),
    );
    agent.send({ ...envelope, id: 'msg_call_again' });
    await vi.waitFor(() =>
      expect(frames.filter((frame) => frame.type === 'lineup.v1.app.result')).toHaveLength(2),
    );
    const results = frames
      .filter((frame) => frame.type === 'lineup.v1.app.result')
      .map((frame) => frame.payload);
    expect(results[0]).toEqual({ call_id: payload.call_id, status: 'completed', result: { opened: true } });
    expect(results[1]).toEqual(results[0]);
    expect(setup.ran).toEqual(['open https://example.com/docs']);
    const [inventory] = frames;
    expect(inventory?.type).toBe('lineup.v1.client.inventory');
    expect((inventory as LineUpMessage).payload).toMatchObject({ capabilities: expect.any(Array) });
    expect(((inventory as LineUpMessage).payload as { capabilities: unknown[] }).capabilities).toHaveLength(
      4,
    );
    client.stop();
  });
});
