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
  outbox = new OutboxDelivery(db, { clock: { now: () => 1_000 }, locks: null });
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
    expect((await db.getAll('outbox')).map((row) => [row.pending, row.deliveredAt])).toEqual([
      [undefined, 1_000],
      [undefined, 1_000],
    ]);
    expect(await outbox.deliver(() => {})).toEqual({ delivered: 0, error: null });
  });

  it('finds pending rows through the index, however long the delivered history', async () => {
    await outbox.deliver(() => {});
    const history = db.transaction('outbox', 'readwrite');
    for (let index = 0; index < 2_000; index++)
      void history.store.add({
        at: index,
        deliveredAt: index,
        type: 'lineup.v1.client.inventory',
        payload: {},
      } as never);
    void history.store.add({ at: 5, pending: 1, type: 'lineup.v1.client.inventory', payload: {} } as never);
    await history.done;
    expect((await outbox.pending()).map((row) => row.at)).toEqual([5]);
  });

  it("takes the profile's Web Lock around a run, so two tabs never send at once", async () => {
    const names: string[] = [];
    let held = false;
    let overlapped = false;
    const queue: (() => void)[] = [];
    const locks = {
      async request<T>(name: string, callback: () => Promise<T>): Promise<T> {
        names.push(name);
        while (held) await new Promise<void>((resolve) => queue.push(resolve));
        held = true;
        try {
          return await callback();
        } finally {
          held = false;
          queue.shift()?.();
        }
      },
    };
    const tabA = new OutboxDelivery(db, { locks });
    const tabB = new OutboxDelivery(db, { locks });
    const sent: number[] = [];
    const send = async (message: OutboxMessage) => {
      if (held === false) overlapped = true;
      sent.push(message.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await Promise.all([tabA.deliver(send), tabB.deliver(send)]);
    expect(names).toEqual([`lineup-outbox:${db.name}`, `lineup-outbox:${db.name}`]);
    expect(overlapped).toBe(false);
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(2);
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

  it('a delivery asked for during a run is not lost: the run reads the pending rows again before it ends', async () => {
    const sent: string[] = [];
    let added = false;
    const first = outbox.deliver(async (message) => {
      sent.push(message.type);
      if (!added) {
        added = true;
        // A new row is written while the run sends, and someone asks for delivery.
        await db.add('outbox', {
          at: 2_000,
          pending: 1,
          conversationId: 'conv_1',
          type: 'lineup.v1.tool.result',
          payload: { call_id: 'late', outcome: 'error', error: { code: 'timeout' } },
        });
        void outbox.deliver(() => {
          throw new Error('a second run must not start');
        });
      }
    });
    expect(await first).toEqual({ delivered: 3, error: null });
    expect(sent).toEqual(['lineup.v1.client.inventory', 'lineup.v1.tool.progress', 'lineup.v1.tool.result']);
    expect(await outbox.pending()).toEqual([]);
  });

  it('a delivery asked for in the moment a run ends is not lost either', async () => {
    // A row written while the last pass sends, and a `deliver` call some microtasks after that pass ended: at
    // every such delay, the row goes out (by the same run reading again, or by a run of its own).
    for (let ticks = 0; ticks <= 12; ticks++) {
      const database = await openRuntimeDatabase(`outbox-window-${n++}`);
      await database.add('outbox', {
        at: 1,
        pending: 1,
        type: 'lineup.v1.client.inventory',
        payload: {},
      } as never);
      const sent: number[] = [];
      let late: Promise<unknown> = Promise.resolve();
      const delivery = new OutboxDelivery(database, {
        clock: { now: () => 1_000 },
        locks: {
          request: (_name, callback) =>
            callback().then((report) => {
              if (sent.length === 1) {
                let wait: Promise<void> = Promise.resolve();
                for (let tick = 0; tick < ticks; tick++) wait = wait.then(() => {});
                late = wait.then(() => delivery.deliver((message) => void sent.push(message.id)));
              }
              return report;
            }),
        },
      });
      await delivery.deliver(async (message) => {
        sent.push(message.id);
        if (sent.length === 1)
          await database.add('outbox', {
            at: 2,
            pending: 1,
            type: 'lineup.v1.client.inventory',
            payload: {},
          } as never);
      });
      await late;
      await delivery.deliver(() => {
        throw new Error('nothing may be left for a later run');
      });
      expect({ ticks, pending: (await delivery.pending()).length, sent: sent.length }).toEqual({
        ticks,
        pending: 0,
        sent: 2,
      });
      database.close();
    }
  });
});
