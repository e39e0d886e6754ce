/**
 * The chat-completions brain on the agent host, with a scripted model: its component stream's cursors are the
 * host's persisted `StreamRecords`, so across a restart of the host (a new run epoch on the same store) a patch of
 * the earlier run is refused with the last valid snapshot, and the model opens a new generation from it (seed 004
 * §5) — which reaches the device as generation 2 of the same UI.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope, type TestDevice } from '../../test/device.js';
import { restartableHost } from '../../test/hosts.js';
import type { SqlDatabase } from '../store/sql.js';
import { chatCompletionsBrain } from './chat-completions.js';
import type { ChatCompletion, ChatMessage, ChatModel } from './llm/chat.js';
import { VIEW_CONTEXT_HEADING } from './llm/user-turn.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../shared/fixtures/${name}`, import.meta.url), 'utf8'));

/** A model that answers from a queue; each answer sees the messages so far. */
function scriptedModel(answers: ((messages: readonly ChatMessage[]) => ChatCompletion)[]) {
  const seen: (readonly ChatMessage[])[] = [];
  const model: ChatModel = {
    async complete(messages) {
      seen.push(messages);
      const next = answers.shift();
      if (next === undefined) throw new Error('The scripted model has no more answers.');
      return next(messages);
    },
  };
  return { model, seen };
}

const toolCall = (id: string, name: string, args: object): ChatCompletion => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  finishReason: 'tool_calls',
});
const text = (content: string): ChatCompletion => ({
  message: { role: 'assistant', content },
  finishReason: 'stop',
});
const text_ = (frame: Record<string, unknown>) => String((frame.payload as { text?: unknown }).text);
const lastToolAnswer = (messages: readonly ChatMessage[]) => {
  const last = messages.at(-1);
  return last?.role === 'tool' ? last.content : '';
};

describe.each(BACKENDS)('the chat-completions brain on $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await backend.cleanup();
  });

  it('a stream across a restart: the old epoch’s patch is refused with its snapshot, a new generation opens from it', async () => {
    const db: SqlDatabase = await backend.openFolder();
    const [first, second] = fixture('stream-mutations.json') as unknown[];
    let snapshotSeen: unknown;
    const { model, seen } = scriptedModel([
      // Before the restart: open, one patch, then text.
      () => toolCall('call_open_1', 'intelligent_ui_open', { document: fixture('stream-initial.json') }),
      () =>
        toolCall('call_patch_1', 'intelligent_ui_patch', {
          sourceCallId: 'call_open_1',
          generation: 1,
          baseRevision: 0,
          mutation: first,
        }),
      () => text('Started the UI.'),
      // After the restart: the model patches with its old cursor, is refused, and reopens from the snapshot.
      () =>
        toolCall('call_patch_2', 'intelligent_ui_patch', {
          sourceCallId: 'call_open_1',
          generation: 1,
          baseRevision: 1,
          mutation: second,
        }),
      (messages) => {
        const answer = lastToolAnswer(messages);
        const json = answer.slice(answer.indexOf('\n{') + 1);
        snapshotSeen = JSON.parse(json);
        return toolCall('call_open_2', 'intelligent_ui_open', { document: snapshotSeen });
      },
      () => text('Continued in a new generation.'),
    ]);
    const agent = await restartableHost(db, chatCompletionsBrain({ model }));
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-llm');
    let device: TestDevice = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-llm', 'r1'));
    device.send(clientEnvelope('conv-llm', 'lineup.v1.chat.user_message', { text: 'show me a stream' }));
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    const checkpoints = () =>
      device
        .envelopes()
        .filter((frame) => frame.type === 'lineup.v1.ui.checkpoint')
        .map(
          (frame) =>
            (frame.payload as { checkpoint: { generation: number; revision: number; uiId: string } })
              .checkpoint,
        );
    expect(checkpoints().map((checkpoint) => [checkpoint.generation, checkpoint.revision])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    const uiId = checkpoints()[0]?.uiId;
    await device.close();
    await agent.restart(); // a new run epoch on the same database
    device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-llm', 'r1'));
    device.send(clientEnvelope('conv-llm', 'lineup.v1.chat.user_message', { text: 'go on' }));
    await device.next(
      (frame) =>
        frame.type === 'lineup.v1.chat.agent_message' &&
        (frame.payload as { text: string }).text.startsWith('Continued'),
    );
    // What the model read for its old cursor: the refusal, naming the restart and the snapshot at revision 1.
    const refusal = lastToolAnswer(seen[4] as ChatMessage[]);
    expect(refusal).toMatch(/was opened before the agent host restarted, so it takes no more steps/);
    expect(refusal).toMatch(/revision 1/);
    // The device got generation 2 of the same UI, from that snapshot; no step of generation 1 after the restart.
    const after = checkpoints();
    expect(after.map((checkpoint) => [checkpoint.uiId, checkpoint.generation, checkpoint.revision])).toEqual([
      [uiId, 2, 0],
    ]);
    const { store } = agent;
    const { rows } = await store.db.query<{ generation: number; epoch: string; status: string }>(
      `SELECT generation, epoch, status FROM lineup_streams WHERE device_id = 'device-llm' ORDER BY generation`,
    );
    expect(rows.map((row) => [row.generation, Number(row.epoch) === store.epoch, row.status])).toEqual([
      [1, false, 'streaming'],
      [2, true, 'streaming'],
    ]);
    await device.close();
  });

  it('a turn a restart cut off runs again on the new run, with the history rebuilt from the log', async () => {
    const db: SqlDatabase = await backend.openFolder();
    const seen: (readonly ChatMessage[])[] = [];
    let calls = 0;
    const model: ChatModel = {
      complete(messages) {
        seen.push(messages);
        calls += 1;
        // The first run's model never answers: the run ends in the middle of its turn.
        if (calls === 2) return new Promise<never>(() => {});
        if (calls === 1) return Promise.resolve(text('Hello! How can I help?'));
        return Promise.resolve(text('Resumed: a haiku about focus.'));
      },
    };
    const agent = await restartableHost(db, chatCompletionsBrain({ model }));
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-cut');
    let device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-cut', 'r1'));
    device.send(clientEnvelope('conv-cut', 'lineup.v1.chat.user_message', { text: 'hi' }));
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    device.send(
      clientEnvelope('conv-cut', 'lineup.v1.chat.user_message', { text: 'write a haiku about focus' }),
    );
    await expect.poll(() => calls).toBe(2);
    await device.close();
    await agent.restart();
    device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-cut', 'r1')); // the session starts again: nothing new is said
    const resumed = await device.next(
      (frame) => frame.type === 'lineup.v1.chat.agent_message' && text_(frame).startsWith('Resumed'),
    );
    expect(text_(resumed)).toBe('Resumed: a haiku about focus.');
    // The model's third call had the whole conversation, rebuilt from the log.
    const history = (seen[2] ?? []).filter((message) => message.role !== 'system');
    expect(history.map((message) => [message.role, 'content' in message ? message.content : null])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello! How can I help?'],
      ['user', 'write a haiku about focus'],
    ]);
    await device.close();
  });

  it("a turn's view_context reaches the model after the user's words, marked as the views', also in the history rebuilt after a restart", async () => {
    const db: SqlDatabase = await backend.openFolder();
    const { model, seen } = scriptedModel([
      () => text('Café A is closest.'),
      () => text('It is open until 22:00.'),
    ]);
    const agent = await restartableHost(db, chatCompletionsBrain({ model }));
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-views');
    let device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-views', 'r1'));
    const viewContext = [
      { call_id: 'call_map', tool: 'map.show_map', text: 'Three cafés near Pont Neuf.', data: { zoom: 16 } },
      { call_id: 'call_list', tool: 'places.list', data: { selected: 'cafe-a' } },
    ];
    device.send(
      clientEnvelope('conv-views', 'lineup.v1.chat.user_message', {
        text: 'which is closest to the river?',
        view_context: viewContext,
      }),
    );
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    const expected = [
      'which is closest to the river?',
      '',
      VIEW_CONTEXT_HEADING,
      '- map.show_map (call call_map): Three cafés near Pont Neuf. data: {"zoom":16}',
      '- places.list (call call_list): data: {"selected":"cafe-a"}',
    ].join('\n');
    expect(seen[0]?.at(-1)).toEqual({ role: 'user', content: expected });
    await device.close();
    await agent.restart();
    device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-views', 'r1'));
    device.send(clientEnvelope('conv-views', 'lineup.v1.chat.user_message', { text: 'is it open?' }));
    await device.next(
      (frame) => frame.type === 'lineup.v1.chat.agent_message' && text_(frame).startsWith('It is open'),
    );
    // Rebuilt from the log: the earlier turn as the model first read it; the new one has no views' context.
    const history = (seen[1] ?? []).filter((message) => message.role === 'user');
    expect(history.map((message) => ('content' in message ? message.content : null))).toEqual([
      expected,
      'is it open?',
    ]);
    await device.close();
  });
});
