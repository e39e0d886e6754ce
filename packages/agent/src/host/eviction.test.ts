/**
 * Idle brains leave memory: a conversation quiet for `brainIdleMs`, with nothing queued or scheduled and a brain that
 * says it is idle, is dropped; its next work makes a brain again from the log (`restore`), which carries on exactly
 * where the dropped one was — its calls, its ids. A busy brain (a model turn running, a callback still to run) and a
 * brain that cannot say it is idle stay.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { POMODORO_INVENTORY_TOOLS } from '../../../scripted-agent/test/pomodoro.js';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope } from '../../test/device.js';
import { chatCompletionsBrain } from '../brains/chat-completions.js';
import type { ChatCompletion, ChatMessage, ChatModel } from '../brains/llm/chat.js';
import { scriptedBrain } from '../brains/scripted.js';
import { AgentStore } from '../store/store.js';
import type { AgentBrain } from './brain.js';
import { type AgentHost, startAgentHost } from './server.js';

const text = (frame: Record<string, unknown>) => String((frame.payload as { text?: unknown }).text ?? '');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('idle brains on $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await backend.cleanup();
  });

  async function hostWith(brain: AgentBrain, brainIdleMs: number) {
    const store = await AgentStore.open(await backend.openFolder());
    const host: AgentHost = await startAgentHost({ store, brain, port: 0, brainIdleMs });
    cleanups.push(async () => {
      await host.close();
      await store.close();
    });
    return { store, host, token: await store.issueDeviceToken('device-idle') };
  }

  it('the scripted brain is dropped while its Pomodoro runs, and made again from the log answers its result once', async () => {
    const { host, token } = await hostWith(scriptedBrain(), 200);
    const device = await connectDevice(host.url, { token });
    device.send(inventoryEnvelope('conv-idle', 'r1', POMODORO_INVENTORY_TOOLS));
    device.send(
      clientEnvelope('conv-idle', 'lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }),
    );
    const call = await device.next((frame) => frame.type === 'lineup.v1.tool.call');
    expect(host.stats()).toEqual({ connections: 1, brains: 1 });
    await expect.poll(() => host.stats().brains, { timeout: 5_000 }).toBe(0);

    const callId = (call.payload as { call_id: string }).call_id;
    device.send(
      clientEnvelope('conv-idle', 'lineup.v1.tool.progress', {
        call_id: callId,
        app_scope: 'pomodoro',
        status: 'started',
      }),
    );
    await device.next(
      (frame) => frame.type === 'lineup.v1.chat.agent_message' && /running/.test(text(frame)),
    );
    expect(host.stats().brains).toBe(1);
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
    device.send(clientEnvelope('conv-idle', 'lineup.v1.tool.result', result));
    await device.next(
      (frame) =>
        frame.type === 'lineup.v1.chat.agent_message' &&
        /20 minutes/.test(text(frame)) &&
        !/running/.test(text(frame)),
    );
    await sleep(300);
    const envelopes = device.envelopes();
    // Every envelope the two brains sent has its own id, and each answer came once.
    expect(new Set(envelopes.map((frame) => frame.id)).size).toBe(envelopes.length);
    expect(envelopes.filter((frame) => frame.type === 'lineup.v1.tool.call')).toHaveLength(1);
    expect(
      envelopes.filter(
        (frame) => frame.type === 'lineup.v1.chat.agent_message' && /running/.test(text(frame)),
      ),
    ).toHaveLength(1);
    await device.close();
  });

  it('a brain with a callback still to run stays until it ran; a brain that cannot say it is idle stays', async () => {
    let made = 0;
    const later: AgentBrain = (context) => {
      made += 1;
      return {
        receive(message) {
          if (message.type === 'lineup.v1.chat.user_message') context.schedule(() => {}, 2_000);
        },
        restore: () => [],
        idle: () => true,
      };
    };
    const waiting = await hostWith(later, 100);
    const device = await connectDevice(waiting.host.url, { token: waiting.token });
    device.send(inventoryEnvelope('conv-later', 'r1'));
    device.send(clientEnvelope('conv-later', 'lineup.v1.chat.user_message', { text: 'later' }));
    await expect.poll(() => made).toBe(1);
    await sleep(500);
    expect(waiting.host.stats().brains).toBe(1); // its callback has not run yet
    await expect.poll(() => waiting.host.stats().brains, { timeout: 5_000 }).toBe(0);
    await device.close();

    const plain: AgentBrain = () => ({ receive() {}, restore: () => [] }); // no idle()
    const kept = await hostWith(plain, 100);
    const other = await connectDevice(kept.host.url, { token: kept.token });
    other.send(inventoryEnvelope('conv-plain', 'r1'));
    await expect.poll(() => kept.host.stats().brains).toBe(1);
    await sleep(600);
    expect(kept.host.stats().brains).toBe(1);
    await other.close();
  });

  it('the chat-completions brain stays while a model turn runs; dropped after it, restored with the history', async () => {
    const seen: (readonly ChatMessage[])[] = [];
    let release: (completion: ChatCompletion) => void = () => {};
    const model: ChatModel = {
      complete(messages) {
        seen.push(messages);
        if (seen.length === 1) return new Promise((resolve) => (release = resolve));
        return Promise.resolve({
          message: { role: 'assistant', content: 'Second answer.' },
          finishReason: 'stop',
        });
      },
    };
    const { host, token } = await hostWith(chatCompletionsBrain({ model }), 150);
    const device = await connectDevice(host.url, { token });
    device.send(inventoryEnvelope('conv-llm-idle', 'r1'));
    device.send(clientEnvelope('conv-llm-idle', 'lineup.v1.chat.user_message', { text: 'first question' }));
    await expect.poll(() => seen.length).toBe(1);
    await sleep(600);
    expect(host.stats().brains).toBe(1); // the turn is still waiting for the model
    release({ message: { role: 'assistant', content: 'First answer.' }, finishReason: 'stop' });
    await device.next(
      (frame) => frame.type === 'lineup.v1.chat.agent_message' && text(frame) === 'First answer.',
    );
    await expect.poll(() => host.stats().brains, { timeout: 5_000 }).toBe(0);
    device.send(clientEnvelope('conv-llm-idle', 'lineup.v1.chat.user_message', { text: 'second question' }));
    await device.next(
      (frame) => frame.type === 'lineup.v1.chat.agent_message' && text(frame) === 'Second answer.',
    );
    // The brain made again had the whole conversation from the log, and asked the model once.
    expect(seen).toHaveLength(2);
    expect(
      (seen[1] ?? [])
        .filter((message) => message.role !== 'system')
        .map((message) => [message.role, message.content]),
    ).toEqual([
      ['user', 'first question'],
      ['assistant', 'First answer.'],
      ['user', 'second question'],
    ]);
    await device.close();
  });
});
