import { LINEUP_CONNECTION_REFUSALS } from '@lineup/shared/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope, type TestDevice } from '../../test/device.js';
import type { SqlDatabase } from '../store/sql.js';
import { AgentStore } from '../store/store.js';
import type { AgentBrain } from './brain.js';
import { type AgentHost, type AgentHostLimits, startAgentHost } from './server.js';

/** A brain that echoes what the user says, and counts what it was handed. */
function echoBrain(seen: { conversation: string; type: string; id: string }[]): AgentBrain {
  let counter = 0;
  return (context) => ({
    receive(message) {
      seen.push({ conversation: context.key.conversationId, type: message.type, id: message.id });
      if (message.type !== 'lineup.v1.chat.user_message') return;
      counter += 1;
      context.send(
        JSON.stringify({
          v: 1,
          id: `echo-${context.key.deviceId}-${counter}-${Math.random().toString(36).slice(2)}`,
          type: 'lineup.v1.chat.agent_message',
          conversation_id: context.key.conversationId,
          sender: { kind: 'agent', id: context.agentId },
          payload: { text: `echo: ${message.payload.text}` },
        }),
      );
    },
  });
}

const isAgentMessage = (text: string) => (frame: Record<string, unknown>) =>
  frame.type === 'lineup.v1.chat.agent_message' && (frame.payload as { text?: string }).text === text;

describe.each(BACKENDS)('the agent host on $name', (backend) => {
  let db: SqlDatabase;
  let store: AgentStore;
  let host: AgentHost;
  let token: string;
  const devices: TestDevice[] = [];
  const seen: { conversation: string; type: string; id: string }[] = [];
  const problems: unknown[] = [];

  const start = async (limits?: Partial<AgentHostLimits>) => {
    host = await startAgentHost({
      store,
      brain: echoBrain(seen),
      port: 0,
      onProblem: (problem) => problems.push(problem),
      ...(limits === undefined ? {} : { limits }),
    });
  };
  const device = async (options: Parameters<typeof connectDevice>[1] = { token }) => {
    const connected = await connectDevice(host.url, options);
    devices.push(connected);
    return connected;
  };

  beforeAll(async () => {
    db = await backend.openFolder();
    store = await AgentStore.open(db);
    token = await store.issueDeviceToken('device-a', 'test');
    await start();
  });
  afterEach(async () => {
    for (const connected of devices.splice(0)) await connected.close();
    seen.length = 0;
  });
  afterAll(async () => {
    await host.close();
    await store.close();
    await backend.cleanup();
  });

  describe('authentication', () => {
    it.each([
      ['no token', {}],
      ['an unknown token', { token: `lat_${'A'.repeat(43)}` }],
      ['a malformed token', { token: 'hello' }],
      ['an empty token', { token: '' }],
    ])('%s: closed at once with 4008, nothing read', async (_name, options) => {
      const connected = await device(options);
      connected.send(inventoryEnvelope('conv-unauth', 'r1'));
      const { code, reason } = await connected.closed;
      expect(code).toBe(LINEUP_CONNECTION_REFUSALS.unauthorized.code);
      expect(reason).toBe(LINEUP_CONNECTION_REFUSALS.unauthorized.reason);
      expect(connected.frames).toEqual([]);
      expect(await store.log({ deviceId: 'device-a', conversationId: 'conv-unauth' })).toEqual([]);
    });

    it('revoking or replacing a token closes the connections open with it (4008); other devices go on', async () => {
      const first = await store.issueDeviceToken('device-k');
      const revoked = await device({ token: first });
      revoked.send(inventoryEnvelope('conv-k', 'r1'));
      await revoked.next((frame) => frame.ack === 'inv:r1:conv-k');
      const replacedToken = await store.issueDeviceToken('device-j');
      const replaced = await device({ token: replacedToken });
      const bystander = await device();
      await store.revokeDevice('device-k');
      const newer = await store.issueDeviceToken('device-j'); // the earlier token of device-j stops working
      expect(await revoked.closed).toEqual(LINEUP_CONNECTION_REFUSALS.unauthorized);
      expect(await replaced.closed).toEqual(LINEUP_CONNECTION_REFUSALS.unauthorized);
      // The device with its newer token, and every other device, are served as before.
      const again = await device({ token: newer });
      again.send(inventoryEnvelope('conv-j', 'r1'));
      await again.next((frame) => frame.ack === 'inv:r1:conv-j');
      bystander.send(inventoryEnvelope('conv-bystander', 'r1'));
      await bystander.next((frame) => frame.ack === 'inv:r1:conv-bystander');
      expect(bystander.socket.readyState).toBe(bystander.socket.OPEN);
    });

    it('a revoked token is refused; the token as a subprotocol works and is never selected', async () => {
      const other = await store.issueDeviceToken('device-r');
      await store.revokeDevice('device-r');
      expect((await (await device({ token: other })).closed).code).toBe(4008);
      const byProtocol = await device({ token, tokenAs: 'protocol' });
      expect(byProtocol.protocol).toBe('lineup.v1.ack');
      byProtocol.send(inventoryEnvelope('conv-proto', 'r1'));
      await byProtocol.next((frame) => frame.ack === 'inv:r1:conv-proto');
    });
  });

  it('acknowledges a message before what it makes the agent say, and hands it to the brain once', async () => {
    const connected = await device();
    connected.send(inventoryEnvelope('conv-1', 'r1'));
    const message = clientEnvelope('conv-1', 'lineup.v1.chat.user_message', { text: 'hello' }, { id: 'u1' });
    connected.send(message);
    connected.send(message); // a copy: acknowledged again, handled no more
    const reply = await connected.next(isAgentMessage('echo: hello'));
    const acks = connected.frames.filter((frame) => frame.ack === 'u1');
    await connected.next((frame) => frame.ack === 'u1' && frame !== acks[0]);
    expect(connected.frames.indexOf(acks[0] as never)).toBeLessThan(connected.frames.indexOf(reply));
    expect(seen.filter((entry) => entry.id === 'u1')).toHaveLength(1);
    expect(
      connected.envelopes().filter((frame) => frame.type === 'lineup.v1.chat.agent_message'),
    ).toHaveLength(1);
  });

  it('two devices whose envelope ids collide are both answered', async () => {
    const tokenB = await store.issueDeviceToken('device-b');
    const a = await device();
    const b = await device({ token: tokenB });
    for (const [connected, text] of [
      [a, 'from a'],
      [b, 'from b'],
    ] as const) {
      connected.send(inventoryEnvelope('conv-same', 'r1', [], 'web-host'));
      connected.send(
        clientEnvelope(
          'conv-same',
          'lineup.v1.chat.user_message',
          { text },
          { id: 'web-host:o1', sender: 'web-host' },
        ),
      );
    }
    await a.next(isAgentMessage('echo: from a'));
    await b.next(isAgentMessage('echo: from b'));
    // Each device sees only its own conversation.
    expect(a.envelopes().some((frame) => JSON.stringify(frame).includes('from b'))).toBe(false);
    expect(b.envelopes().some((frame) => JSON.stringify(frame).includes('from a'))).toBe(false);
  });

  it('what the agent said while the device was away goes out at its next session start, same id, until acknowledged', async () => {
    const first = await device({ token, autoAck: false });
    first.send(inventoryEnvelope('conv-away', 'r1'));
    first.send(clientEnvelope('conv-away', 'lineup.v1.chat.user_message', { text: 'one' }));
    const reply = await first.next(isAgentMessage('echo: one'));
    await first.close(); // never acknowledged
    const second = await device({ token });
    second.send(inventoryEnvelope('conv-away', 'r1'));
    const again = await second.next(isAgentMessage('echo: one'));
    expect(again.id).toBe(reply.id);
    await second.next((frame) => frame.ack === 'inv:r1:conv-away');
    await new Promise((resolve) => setTimeout(resolve, 200)); // its ack is taken
    await second.close();
    const third = await device({ token });
    third.send(inventoryEnvelope('conv-away', 'r1'));
    await third.next((frame) => frame.ack === 'inv:r1:conv-away');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(third.envelopes().filter((frame) => frame.type === 'lineup.v1.chat.agent_message')).toEqual([]);
  });

  describe('hostile frames: each answered or refused by the binding, the host goes on', () => {
    const refusedWith = async (
      send: (connected: TestDevice) => void,
      refusal: keyof typeof LINEUP_CONNECTION_REFUSALS,
    ) => {
      const connected = await device();
      send(connected);
      const closed = await connected.closed;
      expect(closed).toEqual(LINEUP_CONNECTION_REFUSALS[refusal]);
      // The host still answers others.
      const healthy = await device();
      healthy.send(inventoryEnvelope('conv-healthy', 'r1'));
      healthy.send(
        clientEnvelope('conv-healthy', 'lineup.v1.chat.user_message', { text: `after ${refusal}` }),
      );
      await healthy.next(isAgentMessage(`echo: after ${refusal}`));
    };

    it('a binary frame closes with 4003', () =>
      refusedWith((c) => c.sendRaw(Buffer.from('{}'), true), 'binary_frame'));
    it('text that is not JSON closes with 4007', () =>
      refusedWith((c) => c.sendRaw('not json {'), 'not_json'));
    it('JSON that is no envelope closes with 4007', () =>
      refusedWith((c) => c.send({ hello: 'world' }), 'not_an_envelope'));
    it('an oversize frame whose header is unreadable closes with 4009', () =>
      refusedWith((c) => c.sendRaw(`{"payload":"${'x'.repeat(1_100_000)}"}`), 'too_large'));

    it('deep nesting with a readable id is answered unsupported invalid_message, acknowledged, and recorded nowhere', async () => {
      const connected = await device();
      connected.send(inventoryEnvelope('conv-h', 'r1'));
      let deep: unknown = 1;
      for (let depth = 0; depth < 200; depth += 1) deep = [deep];
      connected.send({
        ...clientEnvelope('conv-h', 'lineup.v1.chat.user_message', null, { id: 'deep-1' }),
        payload: deep,
      });
      const answer = await connected.next((frame) => frame.type === 'lineup.v1.unsupported');
      expect(answer.payload).toMatchObject({ message_id: 'deep-1', reason: 'invalid_message' });
      await connected.next((frame) => frame.ack === 'deep-1');
      expect(seen.some((entry) => entry.id === 'deep-1')).toBe(false);
    });

    it('an unknown type is answered unsupported unknown_type', async () => {
      const connected = await device();
      connected.send(inventoryEnvelope('conv-h', 'r1'));
      connected.send(clientEnvelope('conv-h', 'lineup.v1.ui.frobnicate', {}, { id: 'frob-1' }));
      const answer = await connected.next((frame) => frame.type === 'lineup.v1.unsupported');
      expect(answer.payload).toEqual({
        message_id: 'frob-1',
        message_type: 'lineup.v1.ui.frobnicate',
        reason: 'unknown_type',
      });
    });

    it('an agent-only message from a device is answered invalid_message', async () => {
      const connected = await device();
      connected.send(inventoryEnvelope('conv-h', 'r1'));
      connected.send(
        clientEnvelope(
          'conv-h',
          'lineup.v1.chat.agent_message',
          { text: 'I am the agent' },
          { id: 'forged-1' },
        ),
      );
      const answer = await connected.next((frame) => frame.type === 'lineup.v1.unsupported');
      expect(answer.payload).toMatchObject({ message_id: 'forged-1' });
      expect(seen.some((entry) => entry.id === 'forged-1')).toBe(false);
    });
  });

  it('a flood past the waiting limit closes with 4013; what came before it is handled', async () => {
    await host.close();
    await start({ maxWaitingFrames: 20 });
    const connected = await device();
    connected.send(inventoryEnvelope('conv-flood', 'r1'));
    for (let index = 0; index < 500; index += 1)
      connected.send(
        clientEnvelope(
          'conv-flood',
          'lineup.v1.chat.user_message',
          { text: `m${index}` },
          { id: `f${index}` },
        ),
      );
    expect(await connected.closed).toEqual(LINEUP_CONNECTION_REFUSALS.overloaded);
    const handled = () =>
      seen.filter((entry) => entry.conversation === 'conv-flood' && entry.type.endsWith('user_message'))
        .length;
    const logged = async () =>
      (await store.log({ deviceId: 'device-a', conversationId: 'conv-flood' })).filter((entry) =>
        entry.type.endsWith('user_message'),
      ).length;
    // What was taken before the refusal is handled: every message in the log reaches the brain, and it was not all.
    await expect.poll(async () => handled() > 0 && handled() === (await logged())).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled()).toBe(await logged());
    expect(handled()).toBeLessThan(500);
    await host.close();
    await start();
  });

  it('after a restart, the new brain gets the conversation’s inventory first; copies stay copies', async () => {
    const connected = await device();
    connected.send(inventoryEnvelope('conv-restart', 'r7'));
    connected.send(
      clientEnvelope('conv-restart', 'lineup.v1.chat.user_message', { text: 'before' }, { id: 'rb1' }),
    );
    await connected.next(isAgentMessage('echo: before'));
    await connected.close();
    await host.close();
    store = await AgentStore.open(db);
    seen.length = 0;
    await start();
    const again = await device();
    again.send(inventoryEnvelope('conv-restart', 'r7')); // the same revision: a copy
    again.send(
      clientEnvelope('conv-restart', 'lineup.v1.chat.user_message', { text: 'before' }, { id: 'rb1' }),
    );
    again.send(
      clientEnvelope('conv-restart', 'lineup.v1.chat.user_message', { text: 'after' }, { id: 'ra1' }),
    );
    await again.next(isAgentMessage('echo: after'));
    expect(seen.map((entry) => entry.id)).toEqual(['inv:r7:conv-restart', 'ra1']);
  });
});
