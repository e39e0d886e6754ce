import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentStore, openPGlite, StreamRecords, StreamRefusal } from '@lineup/agent';

const key = { deviceId: 'laptop', conversationId: 'conv-1' };

// A small DSL 1.0 document: the snapshot a stream opens with.
const document = {
  version: '1.0',
  id: 'trip_plan',
  mode: 'structured_ui',
  title: 'Trip plan',
  state: {},
  derived: {},
  root: {
    id: 'root',
    type: 'Column',
    props: {},
    children: [{ id: 'status', type: 'Text', props: { text: 'Looking for trains…' } }],
  },
};

// A component stream across a restart: steps of the first run are persisted; after the restart the stream takes
// no step (`stream_epoch_ended`), and a new generation opens from its last persisted snapshot.
export async function main() {
  const folder = mkdtempSync(join(tmpdir(), 'lineup-agent-example-'));
  try {
    // First run: open generation 1 (the `intelligent_ui_open` call id is its sourceCallId), then one step.
    const first = await AgentStore.open(await openPGlite(folder));
    const streams = new StreamRecords(first);
    let state = await streams.open(key, 'call-open-1', document);
    state = await streams.step(
      key,
      { sourceCallId: 'call-open-1', generation: state.generation, baseRevision: state.revision },
      {
        type: 'add',
        parentId: 'root',
        index: 1,
        node: { id: 'train', type: 'Text', props: { text: '08:12' } },
      },
    );
    await first.close(); // the process stops

    // Second run: a new run epoch. The next step of the old stream is refused, with its last valid checkpoint.
    const second = await AgentStore.open(await openPGlite(folder));
    const restarted = new StreamRecords(second);
    const cursor = { sourceCallId: 'call-open-1', generation: 1, baseRevision: state.revision };
    const refusal = await restarted.step(key, cursor, { type: 'complete' }).catch((error: unknown) => error);
    if (!(refusal instanceof StreamRefusal)) throw new Error('The old stream should have been refused.');
    // The model goes on with a new intelligent_ui_open call: generation 2 of the same uiId, from that snapshot.
    const reopened = await restarted.open(key, 'call-open-2', refusal.checkpoint?.snapshot);
    const records = await restarted.list(key);
    await second.close();
    return {
      epochs: [first.epoch, second.epoch],
      refusal: refusal.code, // 'stream_epoch_ended'
      reopened: { uiId: reopened.uiId, generation: reopened.generation, revision: reopened.revision },
      records: records.map(({ sourceCallId, generation, status, revision, live }) => ({
        sourceCallId,
        generation,
        status,
        revision,
        live,
      })),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
