/**
 * The conversation model, as the view drives it: what the agent sends. Every envelope is a real `lineup.v1`
 * message from `parseEnvelope`, applied as it arrives: chat turns, documents, stream checkpoints, and the Surface
 * messages with the side effects the view plays on its live frames.
 */
import { advanceUIStream, startUIStream } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import { parseEnvelope } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import {
  agentSays,
  appCall,
  bundle,
  CONVERSATION,
  checkpointMessage,
  close,
  document,
  forged,
  frames,
  fromAgent,
  notes,
  ofKind,
  only,
  open,
  patch,
  received,
  streamStates,
  surfaceOf,
  toolCall,
  uiDocument,
  unsupported,
  watched,
} from '../../test/conversation-model.ts';
import { ConversationModel, type SideEffect } from './model.ts';
import { WEATHER_INSTANCE_ID, weatherOpenEnvelope } from './surface-example.ts';

// --- Incoming --------------------------------------------------------------------------------------------------

describe('ConversationModel: what the agent sends', () => {
  it('shows an agent_message as an agent chat turn, keyed and tied to the envelope', () => {
    const { model, listener } = watched();
    const message = agentSays('Here is **the plan**.');
    expect(model.apply(received(message))).toBeNull();
    expect(model.entries).toEqual([
      {
        kind: 'chat',
        label: 'Agent',
        from: 'agent',
        text: 'Here is **the plan**.',
        key: 1,
        messageId: message.id,
      },
    ]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('shows a ui.document as a document entry whose viewKey is the envelope id', () => {
    const model = new ConversationModel(CONVERSATION);
    const message = uiDocument('doc_plan', 'Step one');
    expect(model.apply(received(message))).toBeNull();
    const entry = only(model, 'document');
    expect(entry.viewKey).toBe(message.id);
    expect(entry.messageId).toBe(message.id);
    expect(entry.label).toBe('Agent document');
    expect(entry.document).toEqual(document('doc_plan', 'Step one'));
  });

  it('gives two documents with the same document id their own viewKeys', () => {
    const model = new ConversationModel(CONVERSATION);
    const first = uiDocument('doc_same', 'One');
    const second = uiDocument('doc_same', 'Two');
    model.apply(received(first));
    model.apply(received(second));
    expect(ofKind(model, 'document').map((entry) => entry.viewKey)).toEqual([first.id, second.id]);
  });

  describe('ui.checkpoint', () => {
    it('folds every frame of a stream into one checkpoints entry that keeps its key', () => {
      const { model, listener } = watched();
      const all = frames('call_stream_fold');
      model.apply(received(agentSays('Working on it')));
      const keys: number[] = [];
      for (const frame of all) {
        expect(model.apply(received(checkpointMessage(frame)))).toBeNull();
        keys.push(only(model, 'checkpoints').key);
      }
      expect(new Set(keys).size).toBe(1);
      const entry = only(model, 'checkpoints');
      expect(model.entries.map((item) => item.kind)).toEqual(['chat', 'checkpoints']);
      expect(entry.label).toBe('Streamed interface');
      expect(entry.viewKey).toBe('stream:call_stream_fold\nsavings_stream');
      expect(entry.stream.seq).toBe(5);
      expect(entry.stream.status).toBe('completed');
      expect(entry.stream.checkpoint).toEqual(all[4]);
      const shown = JSON.stringify(entry.stream.document);
      expect(shown).toContain('Projected balance');
      expect(shown).not.toContain('Computing the projection');
      // One change per frame, plus the chat turn.
      expect(listener).toHaveBeenCalledTimes(1 + all.length);
    });

    it('a newer generation of the same UI interrupts an older one still streaming; an ended one, another UI stay', () => {
      const model = new ConversationModel(CONVERSATION);
      const old = frames('call_gen_1', 1);
      const ended = frames('call_gen_ended', 1);
      model.apply(received(checkpointMessage(old[0])));
      model.apply(received(checkpointMessage(old[1]))); // generation 1 is streaming (the agent's run ended here)
      for (const frame of ended) model.apply(received(checkpointMessage(frame))); // completed
      const other = startUIStream({ ...structuredClone(streamInitial), id: 'other_stream' }, 'call_other', 1);
      model.apply(received(checkpointMessage(other.checkpoint))); // another UI, streaming
      expect(ofKind(model, 'checkpoints').map((entry) => entry.interrupted)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      const next = frames('call_gen_2', 2);
      model.apply(received(checkpointMessage(next[0])));
      const entries = ofKind(model, 'checkpoints');
      expect(
        entries.map((entry) => [entry.stream.sourceCallId, entry.stream.status, entry.interrupted]),
      ).toEqual([
        ['call_gen_1', 'streaming', true],
        ['call_gen_ended', 'completed', undefined],
        ['call_other', 'streaming', undefined],
        ['call_gen_2', 'streaming', undefined],
      ]);
      // Its last valid snapshot stays as it was.
      expect(entries[0]?.stream.checkpoint).toEqual(old[1]);
    });

    it('accepts a gap, then ignores the stale and the duplicate frames without a change', () => {
      const { model, listener } = watched();
      const all = frames('call_stream_stale');
      model.apply(received(checkpointMessage(all[0])));
      model.apply(received(checkpointMessage(all[2]))); // seq 3 before seq 2: every frame is a snapshot
      expect(only(model, 'checkpoints').stream.seq).toBe(3);
      const before = model.entries;
      const calls = listener.mock.calls.length;

      model.apply(received(checkpointMessage(all[1]))); // the older seq 2, late
      model.apply(received(checkpointMessage(all[2]))); // seq 3 again, same content, another envelope
      model.apply(received(checkpointMessage(all[0]))); // seq 1 again

      expect(model.entries).toBe(before);
      expect(listener).toHaveBeenCalledTimes(calls);
      expect(only(model, 'checkpoints').stream.checkpoint).toEqual(all[2]);
    });

    it('refuses a conflicting frame with a note and keeps the stream as it was', () => {
      const model = new ConversationModel(CONVERSATION);
      const all = frames('call_stream_conflict');
      model.apply(received(checkpointMessage(all[0])));
      model.apply(received(checkpointMessage(all[2])));
      const stream = only(model, 'checkpoints').stream;
      expect(model.apply(received(checkpointMessage(forged(all[2]))))).toBeNull();
      expect(only(model, 'checkpoints').stream).toBe(stream);
      const [note] = notes(model, 'refused');
      expect(note?.text).toMatch(/^Refused a stream frame at seq: /);
      expect(note?.messageId).toBeUndefined();
      // The stream goes on afterwards.
      model.apply(received(checkpointMessage(all[3])));
      expect(only(model, 'checkpoints').stream.seq).toBe(4);
    });

    it('refuses a frame that is not a stream checkpoint, and shows no stream for it', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(checkpointMessage({ protocol: 'something-else', seq: 1 })));
      expect(ofKind(model, 'checkpoints')).toHaveLength(0);
      expect(notes(model, 'refused')).toHaveLength(1);
      expect(notes(model, 'refused')[0]?.text).toMatch(/^Refused a stream frame at /);
    });

    it('refuses a frame whose snapshot is not a valid document', () => {
      const model = new ConversationModel(CONVERSATION);
      const [first] = frames('call_stream_bad_snapshot');
      const broken = structuredClone(first) as unknown as { snapshot: { root: { type: string } } };
      broken.snapshot.root.type = 'NoSuchComponent';
      model.apply(received(checkpointMessage(broken)));
      expect(ofKind(model, 'checkpoints')).toHaveLength(0);
      expect(notes(model, 'refused')[0]?.text).toMatch(/^Refused a stream frame at snapshot/);
    });

    it('refuses a frame after the generation completed', () => {
      const model = new ConversationModel(CONVERSATION);
      const states = streamStates('call_stream_after_end');
      for (const state of states) model.apply(received(checkpointMessage(state.checkpoint)));
      // A seq 6 of the same generation, built on the streaming state before `complete`.
      const late = advanceUIStream(advanceUIStream(states[3]!, { type: 'remove', nodeId: 'assumptions' }), {
        type: 'complete',
      });
      model.apply(received(checkpointMessage(late.checkpoint)));
      expect(only(model, 'checkpoints').stream.seq).toBe(5);
      expect(notes(model, 'refused')).toHaveLength(1);
    });

    it('keeps one entry per (sourceCallId, uiId)', () => {
      const model = new ConversationModel(CONVERSATION);
      const a = frames('call_stream_a');
      const b = frames('call_stream_b');
      model.apply(received(checkpointMessage(a[0])));
      model.apply(received(checkpointMessage(b[0])));
      model.apply(received(checkpointMessage(a[1])));
      model.apply(received(checkpointMessage(b[4])));
      const entries = ofKind(model, 'checkpoints');
      expect(entries.map((entry) => [entry.viewKey, entry.stream.seq])).toEqual([
        ['stream:call_stream_a\nsavings_stream', 2],
        ['stream:call_stream_b\nsavings_stream', 5],
      ]);
      expect(notes(model, 'refused')).toHaveLength(0);
    });

    it('replaces the stream in place with a newer generation and ignores the older one afterwards', () => {
      const model = new ConversationModel(CONVERSATION);
      const first = frames('call_stream_generations', 1);
      const second = frames('call_stream_generations', 2);
      model.apply(received(checkpointMessage(first[0])));
      model.apply(received(checkpointMessage(first[1])));
      const key = only(model, 'checkpoints').key;
      model.apply(received(checkpointMessage(second[0])));
      expect(only(model, 'checkpoints')).toMatchObject({ key, stream: { generation: 2, seq: 1 } });
      const before = model.entries;
      model.apply(received(checkpointMessage(first[2])));
      expect(model.entries).toBe(before);
      expect(notes(model, 'refused')).toHaveLength(0);
    });
  });

  describe('ui.open', () => {
    it('shows a Surface entry with the payload itself, its app name and the conversation', () => {
      const model = new ConversationModel(CONVERSATION);
      const message = open('counter.1', { count: 1 });
      expect(model.apply(received(message))).toBeNull();
      const entry = only(model, 'surface');
      expect(entry.payload).toBe(message.payload);
      expect(entry).toMatchObject({ label: 'Counter', conversationId: CONVERSATION });
      expect(entry.state).toBeUndefined();
    });

    it("opens the host's own example envelope", () => {
      const model = new ConversationModel(CONVERSATION);
      const parsed = parseEnvelope(weatherOpenEnvelope(CONVERSATION, 'model_test'), {
        direction: 'agent_to_client',
      });
      if (parsed.kind !== 'message') throw new Error('The example is not a message.');
      model.apply(received(parsed.message));
      expect(only(model, 'surface')).toMatchObject({
        label: 'Weather dashboard',
        payload: { instance_id: WEATHER_INSTANCE_ID, state: { city: 'Beijing', temperature: 22 } },
      });
    });

    it('replaces a re-opened instance in place: same key, same position, new payload, no old state', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(open('counter.1', { count: 1 }, 'Counter v1')));
      model.apply(received(agentSays('after the Surface')));
      model.apply(received(patch('counter.1', { count: 2 })));
      const before = only(model, 'surface');
      expect(before.state).toEqual({ count: 2 });
      const again = open('counter.1', { count: 10 }, 'Counter v2');
      expect(model.apply(received(again))).toBeNull();
      expect(model.entries.map((entry) => entry.kind)).toEqual(['surface', 'chat']);
      const after = only(model, 'surface');
      expect(after.key).toBe(before.key);
      expect(after.payload).toBe(again.payload);
      expect(after.label).toBe('Counter v2');
      expect(after.state).toBeUndefined();
    });

    it('opens another instance id as another entry', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(open('counter.1', { count: 1 })));
      model.apply(received(open('counter.2', { count: 2 })));
      expect(ofKind(model, 'surface').map((entry) => entry.payload.instance_id)).toEqual([
        'counter.1',
        'counter.2',
      ]);
    });

    it('shows a Surface reference the client let through as a Surface entry named by app and surface id', () => {
      // The agent client answered references it cannot honour before they reach the model; the entry reads
      // the app's verified files when it mounts.
      const model = new ConversationModel(CONVERSATION);
      model.apply(
        received(
          fromAgent('lineup.v1.ui.open', {
            instance_id: 'focus.1',
            surface: { app_id: 'com.lineup.pomodoro', surface_id: 'focus' },
            state: { minutes: 5 },
          }),
        ),
      );
      const [entry] = ofKind(model, 'surface');
      expect(entry).toMatchObject({
        label: 'com.lineup.pomodoro · focus',
        payload: { instance_id: 'focus.1', surface: { app_id: 'com.lineup.pomodoro', surface_id: 'focus' } },
      });
      expect(notes(model, 'refused')).toEqual([]);
    });

    it('refuses a bundle with markup a Surface can never have, located in the payload', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(
        received(
          fromAgent('lineup.v1.ui.open', {
            instance_id: 'framed.1',
            app: { ...bundle('Framed'), html: '<iframe src="https://example.com"></iframe>' },
            state: {},
          }),
        ),
      );
      expect(ofKind(model, 'surface')).toHaveLength(0);
      expect(notes(model, 'refused')[0]?.text).toMatch(/^Invalid message at payload\.app\.html: /);
    });

    it('a refused re-open leaves the open instance as it was', () => {
      const model = new ConversationModel(CONVERSATION);
      const first = open('counter.1', { count: 1 });
      model.apply(received(first));
      model.apply(
        received(
          fromAgent('lineup.v1.ui.open', {
            instance_id: 'counter.1',
            app: { ...bundle('Framed'), html: '<object data="x"></object>' },
            state: {},
          }),
        ),
      );
      expect(only(model, 'surface').payload).toBe(first.payload);
    });
  });

  describe('ui.patch', () => {
    it('keeps the new state on the entry, the payload object unchanged, and asks the live frame to patch', () => {
      const { model, listener } = watched();
      const opened = open('counter.1', { count: 1 });
      model.apply(received(opened));
      const before = only(model, 'surface');
      const message = patch('counter.1', { count: 2 });
      const effect = model.apply(received(message));
      expect(effect).toEqual({ kind: 'patch', payload: message.payload });
      expect((effect as Extract<SideEffect, { kind: 'patch' }>).payload).toBe(message.payload);
      const after = only(model, 'surface');
      expect(after).not.toBe(before); // a new entry object, so the view sees the change
      expect(after.key).toBe(before.key);
      expect(after.payload).toBe(opened.payload);
      expect(after.payload.state).toEqual({ count: 1 });
      expect(after.state).toEqual({ count: 2 });
      expect(listener).toHaveBeenCalledTimes(2);
    });

    it('keeps the latest of several patches and touches no other Surface', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(open('counter.1', { count: 1 })));
      model.apply(received(open('counter.2', { count: 100 })));
      model.apply(received(patch('counter.1', { count: 2 })));
      model.apply(received(patch('counter.1', { count: 3 })));
      expect(surfaceOf(model, 'counter.1')?.state).toEqual({ count: 3 });
      expect(surfaceOf(model, 'counter.2')?.state).toBeUndefined();
    });

    it('refuses a patch for an instance that is not open, with no side effect', () => {
      const { model, listener } = watched();
      expect(model.apply(received(patch('counter.9', { count: 2 })))).toBeNull();
      expect(model.entries).toEqual([
        {
          kind: 'note',
          label: 'Refused',
          tone: 'refused',
          text: 'No open Surface counter.9 to patch.',
          key: 1,
        },
      ]);
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('refuses a patch after the Surface was closed', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(open('counter.1', { count: 1 })));
      model.apply(received(close('counter.1')));
      expect(model.apply(received(patch('counter.1', { count: 2 })))).toBeNull();
      expect(notes(model, 'refused')).toHaveLength(1);
    });
  });

  describe('ui.close', () => {
    it('removes the Surface entry and asks the live frame to close', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(open('counter.1', { count: 1 })));
      model.apply(received(agentSays('between')));
      model.apply(received(open('counter.2', { count: 2 })));
      const message = close('counter.1');
      expect(model.apply(received(message))).toEqual({ kind: 'close', payload: message.payload });
      expect(model.entries.map((entry) => entry.kind)).toEqual(['chat', 'surface']);
      expect(surfaceOf(model, 'counter.1')).toBeUndefined();
      expect(surfaceOf(model, 'counter.2')).toBeDefined();
    });

    it('closing an instance that is not open changes no entry', () => {
      const model = new ConversationModel(CONVERSATION);
      model.apply(received(agentSays('hello')));
      const before = model.entries;
      model.apply(received(close('counter.1')));
      expect(model.entries).toEqual(before);
    });
  });

  it('shows an incoming unsupported as a refused note naming the type', () => {
    const model = new ConversationModel(CONVERSATION);
    expect(model.apply(received(unsupported('lineup.v1.ui.spin')))).toBeNull();
    model.apply(received(unsupported(undefined)));
    expect(notes(model, 'refused').map((entry) => entry.text)).toEqual([
      'The agent does not support lineup.v1.ui.spin we sent.',
      'The agent does not support a message we sent.',
    ]);
  });

  it.each([
    ['tool.call', toolCall],
    ['app.call', appCall],
  ])('shows no entry for %s (the runtime answers it)', (_name, make) => {
    const { model, listener } = watched();
    expect(model.apply(received(make()))).toBeNull();
    expect(model.entries).toEqual([]);
    expect(listener).not.toHaveBeenCalled();
  });
});
