import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { pomodoroManifest } from '../../test/manifests.js';
import { AppRegistry } from '../apps/registry.js';
import { openRuntimeDatabase, type RuntimeDatabase } from '../storage/database.js';
import { ToolCallIntake } from '../tools/intake.js';
import { OutboxDelivery, type OutboxMessage } from './delivery.js';

let db: RuntimeDatabase;
let outbox: OutboxDelivery;
let n = 0;

beforeEach(async () => {
  db = await openRuntimeDatabase(`outbox-test-${n++}`);
  const registry = new AppRegistry(db);
  await registry.install(pomodoroManifest(), { bundleUrl: '/apps/pomodoro/' });
  await new ToolCallIntake(db, registry).receive('conv_1', {
    call_id: 'call_1',
    inventory_revision: 'inventory-1',
    tool: 'pomodoro.interrupt',
    arguments: {},
  });
  outbox = new OutboxDelivery(db);
});

describe('OutboxDelivery', () => {
  it('sends pending rows in the order they were written and marks each delivered', async () => {
    const sent: OutboxMessage[] = [];
    expect(await outbox.deliver((message) => void sent.push(message))).toEqual({ delivered: 2, error: null });
    expect(sent.map((message) => message.type)).toEqual([
      'lineup.v1.client.inventory',
      'lineup.v1.tool.progress',
    ]);
    expect(sent[1]).toMatchObject({
      conversationId: 'conv_1',
      payload: { call_id: 'call_1', status: 'accepted' },
    });
    expect(await outbox.pending()).toEqual([]);
    expect(await outbox.deliver(() => {})).toEqual({ delivered: 0, error: null });
  });

  it('stops at a failed send, keeping that row and the later ones for the next run', async () => {
    const failure = new Error('offline');
    let calls = 0;
    const report = await outbox.deliver(() => {
      calls++;
      if (calls === 2) throw failure;
    });
    expect(report).toEqual({ delivered: 1, error: failure });
    expect((await outbox.pending()).map((row) => row.type)).toEqual(['lineup.v1.tool.progress']);
    const sent: string[] = [];
    expect(await outbox.deliver((message) => void sent.push(message.type))).toEqual({
      delivered: 1,
      error: null,
    });
    expect(sent).toEqual(['lineup.v1.tool.progress']);
  });

  it('never runs twice at once, so no row is sent twice', async () => {
    const sent: number[] = [];
    const slow = (message: OutboxMessage) =>
      new Promise<void>((resolve) => {
        sent.push(message.id);
        setTimeout(resolve, 5);
      });
    const [first, second] = await Promise.all([outbox.deliver(slow), outbox.deliver(slow)]);
    expect(first).toBe(second);
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(2);
  });
});
