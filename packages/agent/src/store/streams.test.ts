import { readFileSync } from 'node:fs';
import { acceptCheckpoint, UIStreamError } from '@lineup/shared';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../test/databases.js';
import type { SqlDatabase } from './sql.js';
import { AgentStore } from './store.js';
import { StreamRecords, StreamRefusal } from './streams.js';

// The seed's component-stream example (seed 002 §12), shared with @lineup/shared's own tests.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../shared/fixtures/${name}`, import.meta.url), 'utf8'));
const initial = () => fixture('stream-initial.json');
const mutations = (): unknown[] => fixture('stream-mutations.json');

const key = { deviceId: 'device-a', conversationId: 'conv-1' };

describe.each(BACKENDS)('stream records on $name', (backend) => {
  const open: SqlDatabase[] = [];
  const fresh = async () => {
    const db = await backend.open();
    open.push(db);
    return db;
  };
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close().catch(() => {});
  });
  afterAll(() => backend.cleanup());

  it('opens, patches and completes: every step persisted with host-issued cursors and this run’s epoch', async () => {
    const store = await AgentStore.open(await fresh());
    const streams = new StreamRecords(store);
    let state = await streams.open(key, 'call-open-1', initial());
    expect([state.generation, state.seq, state.revision]).toEqual([1, 1, 0]);
    for (const mutation of mutations())
      state = await streams.step(
        key,
        { sourceCallId: 'call-open-1', generation: state.generation, baseRevision: state.revision },
        mutation,
      );
    state = await streams.step(
      key,
      { sourceCallId: 'call-open-1', generation: 1, baseRevision: state.revision },
      {
        type: 'complete',
      },
    );
    const record = await streams.get(key, 'call-open-1');
    expect(record).toMatchObject({
      uiId: state.uiId,
      generation: 1,
      epoch: store.epoch,
      status: 'completed',
      seq: state.seq,
      revision: state.revision,
      live: false,
    });
    // The persisted checkpoint is the accepted one, whole: a client validates it from scratch.
    expect(record?.checkpoint).toEqual(JSON.parse(JSON.stringify(state.checkpoint)));
    expect(acceptCheckpoint(null, record?.checkpoint).document).toEqual(state.document);
  });

  it('a stale cursor, an unknown stream, an ended stream and a repeated open call are refused; nothing changes', async () => {
    const store = await AgentStore.open(await fresh());
    const streams = new StreamRecords(store);
    const opened = await streams.open(key, 'call-open-1', initial());
    const [first] = mutations();
    const cursor = { sourceCallId: 'call-open-1', generation: 1, baseRevision: 0 };
    await expect(streams.step(key, { ...cursor, baseRevision: 3 }, first)).rejects.toMatchObject({
      code: 'stream_cursor_stale',
    });
    await expect(streams.step(key, { ...cursor, generation: 2 }, first)).rejects.toMatchObject({
      code: 'stream_cursor_stale',
    });
    await expect(streams.step(key, { ...cursor, sourceCallId: 'nope' }, first)).rejects.toMatchObject({
      code: 'stream_unknown',
    });
    await expect(streams.step({ ...key, deviceId: 'device-b' }, cursor, first)).rejects.toMatchObject({
      code: 'stream_unknown',
    });
    await expect(streams.open(key, 'call-open-1', initial())).rejects.toMatchObject({
      code: 'stream_call_repeated',
    });
    // A mutation the shared rules refuse: UIStreamError, and the record is as it was.
    await expect(
      streams.step(key, cursor, { type: 'remove', nodeId: 'no-such-node' }),
    ).rejects.toBeInstanceOf(UIStreamError);
    expect(await streams.get(key, 'call-open-1')).toMatchObject({ seq: opened.seq, revision: 0, live: true });
    await streams.step(key, cursor, { type: 'cancel' });
    await expect(streams.step(key, { ...cursor, baseRevision: 0 }, first)).rejects.toMatchObject({
      code: 'stream_ended',
    });
  });

  it('after a restart: the old epoch takes no step, the snapshot is kept, and a new generation opens from it', async () => {
    const db = await fresh();
    const before = new StreamRecords(await AgentStore.open(db));
    let state = await before.open(key, 'call-open-1', initial());
    const [first, second] = mutations();
    state = await before.step(key, { sourceCallId: 'call-open-1', generation: 1, baseRevision: 0 }, first);
    const completed = await before.open(key, 'call-open-2', { ...initial(), id: 'other-ui' });
    await before.step(
      key,
      { sourceCallId: 'call-open-2', generation: 1, baseRevision: 0 },
      { type: 'complete' },
    );

    const afterStore = await AgentStore.open(db);
    const after = new StreamRecords(afterStore);
    const refusal = await after
      .step(key, { sourceCallId: 'call-open-1', generation: 1, baseRevision: state.revision }, second)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StreamRefusal);
    expect(refusal).toMatchObject({ code: 'stream_epoch_ended', checkpoint: { revision: state.revision } });
    expect((refusal as StreamRefusal).message).toMatch(/restarted.*intelligent_ui_open with that snapshot/);
    // The interrupted stream keeps its last valid snapshot; the completed one restores as it was.
    const listed = await after.list(key);
    expect(listed.map((record) => [record.sourceCallId, record.status, record.live])).toEqual([
      ['call-open-1', 'streaming', false],
      ['call-open-2', 'completed', false],
    ]);
    expect(listed[1]?.checkpoint.snapshot).toEqual(JSON.parse(JSON.stringify(completed.document)));
    // The model opens a new generation of the same UI from that snapshot and goes on with it.
    const snapshot = (refusal as StreamRefusal).checkpoint?.snapshot;
    const reopened = await after.open(key, 'call-open-3', snapshot);
    expect([reopened.uiId, reopened.generation, reopened.revision]).toEqual([state.uiId, 2, 0]);
    expect(reopened.document).toEqual(state.document);
    const next = await after.step(
      key,
      { sourceCallId: 'call-open-3', generation: 2, baseRevision: 0 },
      second,
    );
    expect(next.revision).toBe(1);
    expect((await after.get(key, 'call-open-3'))?.epoch).toBe(afterStore.epoch);
  });
});
