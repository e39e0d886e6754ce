/**
 * The scripted brain across a restart of the agent host (a new run epoch on the same store): it replays the
 * conversation's log to rebuild its memory, so the Pomodoro it started before the restart is still its own — the
 * progress and final result that arrive afterwards are answered, once — and its envelope ids go on counting.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { POMODORO_INVENTORY_TOOLS } from '../../../scripted-agent/test/pomodoro.js';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope, type TestDevice } from '../../test/device.js';
import { restartableHost } from '../../test/hosts.js';
import { scriptedBrain } from './scripted.js';

const agentTexts = (device: TestDevice) =>
  device
    .envelopes()
    .filter((frame) => frame.type === 'lineup.v1.chat.agent_message')
    .map((frame) => (frame.payload as { text: string }).text);

describe.each(BACKENDS)('the scripted brain across a restart on $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await backend.cleanup();
  });

  it('a focus started before the restart: its progress and result after it are answered once, ids go on', async () => {
    const problems: unknown[] = [];
    const agent = await restartableHost(await backend.openFolder(), scriptedBrain(), {
      onProblem: (problem) => problems.push(problem),
    });
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-s');
    let device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-s', 'r1', POMODORO_INVENTORY_TOOLS));
    device.send(clientEnvelope('conv-s', 'lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }));
    const call = await device.next((frame) => frame.type === 'lineup.v1.tool.call');
    const callId = (call.payload as { call_id: string }).call_id;
    expect(callId).toMatch(/^c[0-9a-f]{10}\.\d+$/);
    const before = device.envelopes().map((frame) => frame.id as string);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the acks are taken
    await device.close();
    await agent.restart();
    device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-s', 'r1', POMODORO_INVENTORY_TOOLS));
    device.send(
      clientEnvelope('conv-s', 'lineup.v1.tool.progress', {
        call_id: callId,
        app_scope: 'pomodoro',
        status: 'started',
      }),
    );
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
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
    device.send(clientEnvelope('conv-s', 'lineup.v1.tool.result', result));
    device.send(clientEnvelope('conv-s', 'lineup.v1.tool.result', result)); // the same result under another id
    await device.next(
      (frame) =>
        frame.type === 'lineup.v1.chat.agent_message' &&
        /20 minutes/.test(String((frame.payload as { text: string }).text)) &&
        !/running/.test(String((frame.payload as { text: string }).text)),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const texts = agentTexts(device);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/The timer is running: \*\*20 minutes\*\* of focus/);
    expect(texts[1]).not.toMatch(/running/);
    // The new ids continue after the ones sent before the restart: none is repeated.
    const after = device.envelopes().map((frame) => frame.id as string);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    expect(problems.filter((problem) => /did not replay/.test(String(problem)))).toEqual([]);
    await device.close();
  });
});
