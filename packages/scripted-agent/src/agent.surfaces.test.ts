/**
 * The agent seen from the client: the Surfaces it opens (the weather Surface inline, Pomodoro's focus card by
 * reference) and the events it answers, and the streams it paces through `schedule`.
 */
import { acceptCheckpoint, type UIStreamState } from '@lineup/shared';
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { createHarness, ofType, texts, types } from '../test/harness.js';
import { STREAM_FRAME_DELAY_MS } from './agent.js';
import { REPLIES } from './conversation/replies.js';

describe('the weather Surface', () => {
  it('answers its events in chat, and refreshes it with the next sample', () => {
    const harness = createHarness();
    harness.say('打开天气');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    const instanceId = open?.payload.instance_id ?? '';
    expect(open?.payload.state).toMatchObject({ city: '北京', refresh: '刷新' });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'refresh', data: {} });
    const refreshed = harness.take();
    expect(types(refreshed)).toEqual(['chat.agent_message', 'ui.patch']);
    expect(texts(refreshed)).toEqual([REPLIES.zh.weatherRefreshed('上海')]);
    expect(ofType(refreshed, 'lineup.v1.ui.patch')[0]?.payload).toMatchObject({
      instance_id: instanceId,
      state: { city: '上海', temperature: 28 },
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'resized', data: {} });
    expect(texts(harness.take())).toEqual(['天气小窗口发来了事件 `resized`。']);
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'close', data: {} });
    expect(texts(harness.take())).toEqual(['你关闭了天气小窗口。']);
    // Closed: later events of the instance are not answered.
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'refresh', data: {} });
    expect(harness.take()).toEqual([]);
  });

  it('ignores events of Surfaces it did not open', () => {
    const harness = createHarness();
    harness.receive('lineup.v1.ui.event', {
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: {},
    });
    harness.say('open a weather surface');
    harness.take();
    harness.receive('lineup.v1.ui.event', { instance_id: 'other.01', event: 'refresh', data: {} });
    harness.receive(
      'lineup.v1.ui.event',
      { instance_id: 'lineup-demo.weather', event: 'refresh', data: {} },
      { conversation: 'conv_other' },
    );
    expect(harness.take()).toEqual([]);
  });
});

describe("Pomodoro's focus card (a Surface by reference)", () => {
  it('opens it in the user language, and turns its start and stop into tool calls', () => {
    const harness = withInventory();
    harness.say('打开专注卡片');
    const open = ofType(harness.take(), 'lineup.v1.ui.open')[0];
    expect(open?.payload.state).toEqual({ minutes: 25, lang: 'zh-CN' });
    const instanceId = open?.payload.instance_id ?? '';
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'start', data: { minutes: 40 } });
    const started = harness.take();
    expect(types(started)).toEqual(['chat.agent_message', 'tool.call']);
    expect(ofType(started, 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      tool: 'pomodoro.start',
      arguments: { minutes: 40 },
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'stop', data: {} });
    expect(ofType(harness.take(), 'lineup.v1.tool.call')[0]?.payload).toMatchObject({
      tool: 'pomodoro.interrupt',
      arguments: {},
    });
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'close', data: {} });
    expect(texts(harness.take())).toEqual([REPLIES.zh.focusCardClosed()]);
    // Closed: later events of the instance are not answered.
    harness.receive('lineup.v1.ui.event', { instance_id: instanceId, event: 'start', data: { minutes: 5 } });
    expect(harness.take()).toEqual([]);
  });

  it('says so, and opens nothing, when the inventory lists no focus card', () => {
    const harness = withInventory();
    harness.inventory('inv-2', []);
    harness.say('open the focus card');
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    expect(texts(sent)).toEqual([REPLIES.en.focusCardMissing()]);
  });
});

describe('streams', () => {
  it('paces the frames through `schedule`, in order', () => {
    const scheduled: { callback: () => void; delayMs: number }[] = [];
    const harness = createHarness({ schedule: (callback, delayMs) => scheduled.push({ callback, delayMs }) });
    harness.say('stream an interface');
    expect(types(harness.take())).toEqual(['chat.agent_message', 'ui.checkpoint']);
    let state: UIStreamState | null = acceptCheckpoint(
      null,
      ofType(harness.sent, 'lineup.v1.ui.checkpoint')[0]?.payload.checkpoint,
    );
    for (let frame = 2; frame <= 5; frame += 1) {
      expect(scheduled).toHaveLength(frame - 1);
      expect(scheduled.at(-1)?.delayMs).toBe(STREAM_FRAME_DELAY_MS);
      scheduled.at(-1)?.callback();
      const [checkpoint] = ofType(harness.take(), 'lineup.v1.ui.checkpoint');
      expect(checkpoint?.payload.checkpoint).toMatchObject({ seq: frame });
      state = acceptCheckpoint(state, checkpoint?.payload.checkpoint);
    }
    expect(scheduled).toHaveLength(4);
    expect(state?.status).toBe('completed');
  });

  it('each stream has its own source call, so a second one is a new stream', () => {
    const harness = createHarness();
    harness.say('stream an interface');
    harness.say('流式界面');
    const frames = ofType(harness.take(), 'lineup.v1.ui.checkpoint').map(
      (frame) => frame.payload.checkpoint as { sourceCallId: string; snapshot: { title: string } },
    );
    expect(new Set(frames.map((frame) => frame.sourceCallId)).size).toBe(2);
    expect(frames[0]?.snapshot.title).toBe('Savings projection');
    expect(frames[5]?.snapshot.title).toBe('储蓄预测');
  });
});
