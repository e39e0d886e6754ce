/**
 * The conversation model, as the view drives it: every envelope is a real `lineup.v1` message from
 * `parseEnvelope`, applied live (with the Surface side effects played on a stand-in for `SurfaceInstances`) or
 * replayed from structured clones, as `ConversationStore` gives its records back.
 */
import { advanceUIStream, startUIStream, type UIStreamState } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };
import {
  type LineUpDirection,
  type LineUpMessage,
  type LineUpMessageOf,
  type LineUpMessageType,
  parseEnvelope,
  type UIOpenPayload,
} from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { type ConversationMessage, ConversationModel, type Entry, type SideEffect } from './model.ts';
import { WEATHER_INSTANCE_ID, weatherOpenEnvelope } from './surface-example.ts';

const CONVERSATION = 'conv_model_test';

let serial = 0;
const nextId = () => `msg_model_${++serial}`;

interface MessageOptions {
  readonly id?: string;
  readonly conversation?: string;
}

/** A valid envelope of `type`, parsed as the receiver on the other end would parse it. */
function envelope<T extends LineUpMessageType>(
  direction: LineUpDirection,
  type: T,
  payload: object,
  { id = nextId(), conversation = CONVERSATION }: MessageOptions = {},
): LineUpMessageOf<T> {
  const parsed = parseEnvelope(
    {
      v: 1,
      id,
      type,
      conversation_id: conversation,
      sender:
        direction === 'agent_to_client'
          ? { kind: 'agent', id: 'agent_test' }
          : { kind: 'client', id: 'web-host' },
      payload,
    },
    { direction },
  );
  if (parsed.kind !== 'message' || parsed.message.type !== type)
    throw new Error(`Not a valid ${type} message: ${JSON.stringify(parsed)}`);
  return parsed.message as LineUpMessageOf<T>;
}

const fromAgent = <T extends LineUpMessageType>(type: T, payload: object, options?: MessageOptions) =>
  envelope('agent_to_client', type, payload, options);
const fromClient = <T extends LineUpMessageType>(type: T, payload: object, options?: MessageOptions) =>
  envelope('client_to_agent', type, payload, options);

const received = (message: LineUpMessage): ConversationMessage => ({ direction: 'in', message });
const sent = (message: LineUpMessage, pending = false): ConversationMessage => ({
  direction: 'out',
  message,
  pending,
});

// --- Messages --------------------------------------------------------------------------------------------------

const agentSays = (text: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.chat.agent_message', { text }, options);
const userSays = (text: string, options?: MessageOptions) =>
  fromClient('lineup.v1.chat.user_message', { text }, options);

const bundle = (name: string) => ({
  id: 'com.lineup.test.counter',
  name,
  version: '1.0.0',
  html: '<p id="count"></p>',
  css: 'p { margin: 0; }',
  js: 'LineUpSurface.onState(function (state) { document.getElementById("count").textContent = String(state.count); });',
});

const open = (instanceId: string, state: object, name = 'Counter', options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.open', { instance_id: instanceId, app: bundle(name), state }, options);
const patch = (instanceId: string, state: object, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.patch', { instance_id: instanceId, state }, options);
const close = (instanceId: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.close', { instance_id: instanceId, reason: 'completed' }, options);
const uiEvent = (instanceId: string, event: string, data: object = {}, options?: MessageOptions) =>
  fromClient('lineup.v1.ui.event', { instance_id: instanceId, event, data }, options);

const document = (id: string, text: string) => ({
  version: '1.0',
  id,
  mode: 'structured_ui',
  title: 'Agent document',
  state: {},
  derived: {},
  root: { id: 'text', type: 'Text', props: { text } },
});
const uiDocument = (id: string, text: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.document', { document: document(id, text) }, options);

const checkpointMessage = (checkpoint: unknown, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.checkpoint', { checkpoint }, options);

const inventory = (options?: MessageOptions) =>
  fromClient(
    'lineup.v1.client.inventory',
    { revision: 'rev_1', standard_components: [], applications: [], capabilities: [] },
    options,
  );
const toolCall = (options?: MessageOptions) =>
  fromAgent(
    'lineup.v1.tool.call',
    { call_id: 'call_1', inventory_revision: 'rev_1', tool: 'pomodoro.start', arguments: { minutes: 25 } },
    options,
  );
const toolProgress = (options?: MessageOptions) =>
  fromClient(
    'lineup.v1.tool.progress',
    { call_id: 'call_1', app_scope: 'pomodoro', status: 'accepted' },
    options,
  );
const appCall = (options?: MessageOptions) =>
  fromAgent(
    'lineup.v1.app.call',
    {
      call_id: 'call_app_1',
      capability: 'app.open_url',
      reason: 'Open the deployment notes',
      expires_at: '2026-08-02T12:10:00Z',
      arguments: {},
    },
    options,
  );
const unsupported = (messageType: string | undefined, options?: MessageOptions) =>
  fromAgent(
    'lineup.v1.unsupported',
    {
      message_id: 'msg_sent_earlier',
      reason: 'unknown_type',
      ...(messageType === undefined ? {} : { message_type: messageType }),
    },
    options,
  );

/** The frames of one generation of the fixture stream: snapshot, three mutations, complete (seq 1–5). */
function streamStates(sourceCallId: string, generation = 1): UIStreamState[] {
  const states = [startUIStream(streamInitial, sourceCallId, generation)];
  for (const mutation of streamMutations) states.push(advanceUIStream(states.at(-1)!, mutation));
  states.push(advanceUIStream(states.at(-1)!, { type: 'complete' }));
  return states;
}
const frames = (sourceCallId: string, generation = 1) =>
  streamStates(sourceCallId, generation).map((state) => state.checkpoint);

/** The same frame with other content: a conflicting duplicate of its seq. */
function forged(checkpoint: unknown): unknown {
  const copy = structuredClone(checkpoint) as { snapshot: { title: string } };
  copy.snapshot.title = 'Forged';
  return copy;
}

// --- Helpers ---------------------------------------------------------------------------------------------------

function only<K extends Entry['kind']>(model: ConversationModel, kind: K): Extract<Entry, { kind: K }> {
  const matching = model.entries.filter((entry) => entry.kind === kind);
  expect(matching).toHaveLength(1);
  return matching[0] as Extract<Entry, { kind: K }>;
}

const ofKind = <K extends Entry['kind']>(model: ConversationModel, kind: K) =>
  model.entries.filter((entry): entry is Extract<Entry, { kind: K }> => entry.kind === kind);

const surfaceOf = (model: ConversationModel, instanceId: string) =>
  ofKind(model, 'surface').find((entry) => entry.payload.instance_id === instanceId);

const notes = (model: ConversationModel, tone: 'to-agent' | 'refused') =>
  ofKind(model, 'note').filter((entry) => entry.tone === tone);

/** A model and a count of its listener's calls. */
function watched(conversationId = CONVERSATION) {
  const model = new ConversationModel(conversationId);
  const listener = vi.fn();
  model.subscribe(listener);
  return { model, listener };
}

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

// --- Outgoing --------------------------------------------------------------------------------------------------

describe('ConversationModel: what the client sends', () => {
  it('shows a user_message as the user chat turn, pending or not', () => {
    const model = new ConversationModel(CONVERSATION);
    const now = userSays('Hello there');
    const later = userSays('Are you there?');
    expect(model.apply(sent(now))).toBeNull();
    model.apply(sent(later, true));
    expect(model.entries).toEqual([
      {
        kind: 'chat',
        label: 'You',
        from: 'user',
        text: 'Hello there',
        pending: false,
        key: 1,
        messageId: now.id,
      },
      {
        kind: 'chat',
        label: 'You',
        from: 'user',
        text: 'Are you there?',
        pending: true,
        key: 2,
        messageId: later.id,
      },
    ]);
  });

  it('shows a ui.action (a button’s agent action) as the user’s turn with its prompt and the action id; the answer adds nothing', () => {
    const model = new ConversationModel(CONVERSATION);
    const action = fromClient('lineup.v1.ui.action', {
      operation_id: 'op_1',
      action_id: 'draft_notes',
      document: { source_call_id: 'msg_doc', ui_id: 'helper', generation: 0, revision: 0 },
      prompt: 'Draft the notes <b>now</b>',
    });
    model.apply(sent(action, true));
    model.apply({
      direction: 'in',
      message: fromAgent('lineup.v1.ui.action_result', { operation_id: 'op_1', status: 'accepted' }),
    });
    expect(model.entries).toEqual([
      {
        kind: 'chat',
        label: 'You',
        from: 'user',
        text: 'Draft the notes <b>now</b>',
        pending: true,
        via: 'draft_notes',
        key: 1,
        messageId: action.id,
      },
    ]);
  });

  it('shows an inventory as one line, the whole payload folded', () => {
    const model = new ConversationModel(CONVERSATION);
    const message = inventory();
    model.apply(sent(message));
    expect(only(model, 'note')).toMatchObject({
      tone: 'to-agent',
      label: 'Sent to the agent',
      text: 'lineup.v1.client.inventory rev_1, 0 Agent Tools',
      pending: false,
      messageId: message.id,
    });
    expect(JSON.parse(only(model, 'note').detail ?? 'null')).toEqual(message.payload);
  });

  it('shows a ui.event as a note with its instance, event and data', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(sent(uiEvent('counter.1', 'increment', { by: 1 }), true));
    expect(only(model, 'note')).toMatchObject({
      tone: 'to-agent',
      text: 'lineup.v1.ui.event counter.1 increment {"by":1}',
      pending: true,
    });
  });

  it('shows a tool.progress as a note with its payload', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(sent(toolProgress()));
    expect(only(model, 'note')).toMatchObject({
      tone: 'to-agent',
      text: 'lineup.v1.tool.progress {"call_id":"call_1","app_scope":"pomodoro","status":"accepted"}',
    });
  });

  it("the user's close event removes that Surface, and only that one", () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(received(open('counter.2', { count: 2 })));
    expect(model.apply(sent(uiEvent('counter.1', 'close')))).toBeNull();
    expect(ofKind(model, 'surface').map((entry) => entry.payload.instance_id)).toEqual(['counter.2']);
    expect(only(model, 'note').text).toBe('lineup.v1.ui.event counter.1 close {}');
  });

  it('another event of a Surface leaves it open', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(sent(uiEvent('counter.1', 'closed')));
    expect(surfaceOf(model, 'counter.1')).toBeDefined();
  });
});

// --- Deduplication and delivery --------------------------------------------------------------------------------

describe('ConversationModel: the same envelope twice', () => {
  const records = (message: ConversationMessage): ConversationMessage => ({
    ...message,
    message: structuredClone(message.message),
  });

  it.each([
    ['agent_message', () => received(agentSays('once'))],
    ['ui.document', () => received(uiDocument('doc_once', 'once'))],
    ['ui.checkpoint', () => received(checkpointMessage(frames('call_once')[0]))],
    ['ui.open', () => received(open('counter.once', { count: 1 }))],
    ['unsupported', () => received(unsupported('lineup.v1.ui.spin'))],
    ['user_message', () => sent(userSays('once'))],
    ['inventory', () => sent(inventory())],
    ['ui.event', () => sent(uiEvent('counter.1', 'increment'))],
    ['tool.progress', () => sent(toolProgress())],
  ])('%s live then replayed, or replayed then live, shows once', (_name, make) => {
    const message = make();
    const liveFirst = new ConversationModel(CONVERSATION);
    liveFirst.apply(message);
    const once = liveFirst.entries;
    expect(once).toHaveLength(1);
    liveFirst.apply(records(message));
    expect(liveFirst.entries).toBe(once);

    const replayFirst = new ConversationModel(CONVERSATION);
    replayFirst.apply(records(message));
    replayFirst.apply(message);
    expect(replayFirst.entries).toEqual(once);
  });

  it('a patch applied twice patches once', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    const message = patch('counter.1', { count: 2 });
    expect(model.apply(received(message))).not.toBeNull();
    model.apply(received(patch('counter.1', { count: 3 })));
    expect(model.apply(received(records(received(message)).message))).toBeNull();
    expect(only(model, 'surface').state).toEqual({ count: 3 });
  });

  it('a close applied twice closes once, and a re-open between them stays', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    const message = close('counter.1');
    expect(model.apply(received(message))?.kind).toBe('close');
    model.apply(received(open('counter.1', { count: 5 })));
    expect(model.apply(received(message))).toBeNull();
    expect(only(model, 'surface').payload.state).toEqual({ count: 5 });
  });

  it('a refused patch replayed again adds no second note', () => {
    const model = new ConversationModel(CONVERSATION);
    const message = patch('counter.9', { count: 2 });
    model.apply(received(message));
    model.apply(received(message));
    expect(notes(model, 'refused')).toHaveLength(1);
  });

  it('the same id in the other direction is another envelope', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(sent(userSays('question', { id: 'msg_shared_id' })));
    model.apply(received(agentSays('answer', { id: 'msg_shared_id' })));
    expect(model.entries.map((entry) => entry.kind === 'chat' && entry.from)).toEqual(['user', 'agent']);
  });

  it('a pending turn becomes sent when applied again without pending, and never pending again', () => {
    const { model, listener } = watched();
    const message = userSays('queued turn');
    model.apply(sent(message, true));
    expect(only(model, 'chat').pending).toBe(true);
    expect(model.apply(sent(message, true))).toBeNull(); // still queued: no change
    expect(only(model, 'chat').pending).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);

    model.apply(sent(message));
    expect(only(model, 'chat')).toMatchObject({ pending: false, key: 1, text: 'queued turn' });
    expect(listener).toHaveBeenCalledTimes(2);

    model.apply(sent(message, true)); // a stale record saying queued
    model.apply(sent(message)); // sent again: nothing to change
    expect(only(model, 'chat').pending).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('a turn first seen sent is never made pending', () => {
    const model = new ConversationModel(CONVERSATION);
    const message = userSays('sent at once');
    model.apply(sent(message));
    model.apply(sent(message, true));
    expect(only(model, 'chat').pending).toBe(false);
  });

  it('a pending note becomes sent, and other pending entries stay pending', () => {
    const model = new ConversationModel(CONVERSATION);
    const event = uiEvent('counter.1', 'increment');
    const turn = userSays('still queued');
    model.apply(sent(event, true));
    model.apply(sent(turn, true));
    model.apply(sent(event));
    expect(model.entries.map((entry) => 'pending' in entry && entry.pending)).toEqual([false, true]);
  });

  it('an incoming envelope applied again is not taken as a delivery', () => {
    const { model, listener } = watched();
    const message = agentSays('hi');
    model.apply(received(message));
    model.apply(received(message));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('ConversationModel: another conversation', () => {
  it.each([
    ['agent_message', () => received(agentSays('elsewhere', { conversation: 'conv_other' }))],
    ['ui.open', () => received(open('counter.1', { count: 1 }, 'Counter', { conversation: 'conv_other' }))],
    ['user_message', () => sent(userSays('elsewhere', { conversation: 'conv_other' }))],
    ['ui.event close', () => sent(uiEvent('counter.1', 'close', {}, { conversation: 'conv_other' }))],
    ['ui.close', () => received(close('counter.1', { conversation: 'conv_other' }))],
    ['ui.patch', () => received(patch('counter.1', { count: 9 }, { conversation: 'conv_other' }))],
  ])('ignores its %s', (_name, make) => {
    const { model, listener } = watched();
    model.apply(received(open('counter.1', { count: 1 })));
    const before = model.entries;
    expect(model.apply(make())).toBeNull();
    expect(model.entries).toBe(before);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('an envelope ignored for another conversation is not remembered as applied', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(agentSays('elsewhere', { id: 'msg_same', conversation: 'conv_other' })));
    model.apply(received(agentSays('here', { id: 'msg_same' })));
    expect(only(model, 'chat').text).toBe('here');
  });
});

// --- Local entries and listeners -------------------------------------------------------------------------------

describe('ConversationModel: local entries and listeners', () => {
  it('add returns distinct, increasing keys shared with applied envelopes', () => {
    const model = new ConversationModel(CONVERSATION);
    const keys = [
      model.add({ kind: 'stream', label: 'Streamed interface' }),
      model.add({ kind: 'document', label: 'Pasted document', document: { any: 'thing' } }),
    ];
    model.apply(received(agentSays('between')));
    keys.push(model.add({ kind: 'note', label: 'Refused', tone: 'refused', text: 'no' }));
    const all = model.entries.map((entry) => entry.key);
    expect(new Set(all).size).toBe(4);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(keys).toEqual([all[0], all[1], all[3]]);
    // A local entry is not an agent message.
    expect(model.entries[0]?.messageId).toBeUndefined();
    expect(model.entries[2]?.messageId).toBeDefined();
  });

  it('removeSurface removes only the Surface of that instance', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(received(open('counter.2', { count: 2 })));
    model.add({ kind: 'note', label: 'Refused', tone: 'refused', text: 'counter.1' });
    model.removeSurface('counter.1');
    expect(model.entries.map((entry) => entry.kind)).toEqual(['surface', 'note']);
    expect(surfaceOf(model, 'counter.2')).toBeDefined();
  });

  it('calls listeners on every change and not after they unsubscribe', () => {
    const model = new ConversationModel(CONVERSATION);
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = model.subscribe(first);
    model.subscribe(second);
    model.add({ kind: 'stream', label: 'Streamed interface' });
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(received(patch('counter.1', { count: 2 })));
    expect(first).toHaveBeenCalledTimes(3);
    stopFirst();
    model.apply(received(close('counter.1')));
    model.apply(sent(userSays('after')));
    expect(first).toHaveBeenCalledTimes(3);
    expect(second).toHaveBeenCalledTimes(5);
  });

  it('a listener sees the new entries when it is called', () => {
    const model = new ConversationModel(CONVERSATION);
    const seen: number[] = [];
    model.subscribe(() => seen.push(model.entries.length));
    model.apply(received(agentSays('one')));
    model.apply(received(agentSays('two')));
    expect(seen).toEqual([1, 2]);
  });

  it('a listener that unsubscribes while called does not keep the others from being called', () => {
    const model = new ConversationModel(CONVERSATION);
    const later = vi.fn();
    const stop: { current: () => void } = { current: () => {} };
    stop.current = model.subscribe(() => stop.current());
    model.subscribe(later);
    model.add({ kind: 'stream', label: 'Streamed interface' });
    model.add({ kind: 'stream', label: 'Streamed interface' });
    expect(later).toHaveBeenCalledTimes(2);
  });

  it('entries keep their identity between changes (a stable snapshot for useSyncExternalStore)', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(agentSays('one')));
    const first = model.entries;
    expect(model.entries).toBe(first);
    model.apply(received(agentSays('two')));
    expect(model.entries).not.toBe(first);
    expect(first).toHaveLength(1);
  });
});

describe('ConversationModel: a burst', () => {
  it('takes 5,000 agent messages in order, each once, without changing an array it handed out', () => {
    const { model, listener } = watched();
    const handedOut: (readonly Entry[])[] = [];
    for (let index = 1; index <= 5_000; index++) {
      model.apply(received(agentSays(`turn ${index}`)));
      if (index % 1_000 === 0) handedOut.push(model.entries);
    }
    expect(model.size).toBe(5_000);
    expect(listener).toHaveBeenCalledTimes(5_000);
    const texts = model.entries.map((entry) => (entry.kind === 'chat' ? entry.text : ''));
    expect(texts[0]).toBe('turn 1');
    expect(texts.at(-1)).toBe('turn 5000');
    expect(new Set(model.entries.map((entry) => entry.key)).size).toBe(5_000);
    // Arrays handed out earlier are snapshots: a view that rendered one is never changed under it.
    expect(handedOut.map((entries) => entries.length)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it('finds the right Surface to patch and close after others were removed before it', () => {
    const model = new ConversationModel(CONVERSATION);
    for (const id of ['s.1', 's.2', 's.3', 's.4']) {
      model.apply(received(open(id, { count: 0 })));
      model.apply(received(agentSays(`after ${id}`)));
    }
    model.apply(received(close('s.1')));
    model.removeSurface('s.3');
    model.apply(received(patch('s.4', { count: 4 })));
    model.apply(received(patch('s.2', { count: 2 })));
    expect(surfaceOf(model, 's.2')?.state).toEqual({ count: 2 });
    expect(surfaceOf(model, 's.4')?.state).toEqual({ count: 4 });
    expect(surfaceOf(model, 's.1')).toBeUndefined();
    expect(surfaceOf(model, 's.3')).toBeUndefined();
    // A patch for a removed Surface is refused, not applied to a neighbour.
    model.apply(received(patch('s.3', { count: 3 })));
    expect(notes(model, 'refused').at(-1)?.text).toBe('No open Surface s.3 to patch.');
    const keys = model.entries.map((entry) => entry.key);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });
});

// --- Replay equivalence ----------------------------------------------------------------------------------------

/**
 * A stand-in for the view's Surface frames: what `SurfaceEntry` mounts for each Surface entry (the payload,
 * opened with the entry's `state` when a patch came first) and what the live side effects do to open frames.
 */
class Frames {
  /** The open frames by instance id, as `SurfaceInstances` keeps them. */
  readonly open = new Map<string, { readonly handle: object; state: unknown }>();
  /** What each mounted `SurfaceEntry` (by entry key) opened. */
  readonly #mounted = new Map<number, { readonly payload: UIOpenPayload; readonly handle: object }>();

  effect(side: SideEffect | null): void {
    if (side?.kind === 'patch') {
      const frame = this.open.get(side.payload.instance_id);
      if (frame !== undefined) frame.state = side.payload.state;
    } else if (side?.kind === 'close') this.open.delete(side.payload.instance_id);
  }

  userClose(instanceId: string): void {
    this.open.delete(instanceId);
  }

  /** A React commit: effects of unmounted or re-keyed payloads clean up, new ones open. */
  render(entries: readonly Entry[]): void {
    const surfaces = new Map(
      entries.flatMap((entry) => (entry.kind === 'surface' ? [[entry.key, entry] as const] : [])),
    );
    for (const [key, mounted] of this.#mounted) {
      if (surfaces.get(key)?.payload === mounted.payload) continue;
      const id = mounted.payload.instance_id;
      if (this.open.get(id)?.handle === mounted.handle) this.open.delete(id);
      this.#mounted.delete(key);
    }
    for (const [key, entry] of surfaces) {
      if (this.#mounted.has(key)) continue;
      const handle = {};
      this.#mounted.set(key, { payload: entry.payload, handle });
      this.open.set(entry.payload.instance_id, { handle, state: entry.state ?? entry.payload.state });
    }
  }

  states(): Record<string, unknown> {
    return Object.fromEntries([...this.open].map(([id, frame]) => [id, frame.state]));
  }
}

/** What a frame mounted from the model's entries would show: each open Surface with its latest state. */
const shownStates = (model: ConversationModel): Record<string, unknown> =>
  Object.fromEntries(
    ofKind(model, 'surface').map((entry) => [entry.payload.instance_id, entry.state ?? entry.payload.state]),
  );

/** A conversation as it was sent and received, in order. */
function realisticConversation(): ConversationMessage[] {
  const stream = frames('call_stream_conversation');
  return [
    sent(inventory()),
    sent(userSays('What is the weather, and how do my savings grow?')),
    received(agentSays('Let me open a dashboard.')),
    received(open('weather.1', { city: 'Beijing', temperature: 22 }, 'Weather')),
    received(toolCall()),
    sent(toolProgress()),
    received(checkpointMessage(stream[0])),
    received(patch('weather.1', { city: 'Beijing', temperature: 23 })),
    sent(uiEvent('weather.1', 'refresh', { unit: 'c' })),
    received(checkpointMessage(stream[2])),
    received(checkpointMessage(stream[1])),
    received(uiDocument('doc_summary', 'A summary')),
    received(open('counter.1', { count: 0 }, 'Counter')),
    received(patch('counter.1', { count: 1 })),
    received(open('weather.1', { city: 'Shanghai', temperature: 27 }, 'Weather v2')),
    received(patch('weather.1', { city: 'Shanghai', temperature: 28 })),
    sent(uiEvent('counter.1', 'close')),
    received(patch('counter.1', { count: 2 })),
    received(checkpointMessage(forged(stream[2]))),
    received(checkpointMessage(stream[3])),
    received(appCall()),
    received(checkpointMessage(stream[4])),
    received(open('counter.2', { count: 7 }, 'Counter')),
    received(patch('counter.2', { count: 8 })),
    received(patch('counter.2', { count: 9 })),
    received(close('weather.1')),
    received(unsupported('lineup.v1.ui.spin')),
    received(agentSays('Done.')),
    sent(userSays('Thanks')),
  ];
}

/** What the store gives back: a structured clone of each record (not the live objects). */
const stored = (messages: readonly ConversationMessage[]): ConversationMessage[] =>
  messages.map((item) => ({ ...item, message: structuredClone(item.message) }));

/**
 * Applies envelopes as the live view does: the user's close removes the Surface (and its frame) before the
 * `ui.event` goes out; side effects reach the frames at once, and React commits only at `renders` positions.
 */
function playLive(
  model: ConversationModel,
  frames: Frames,
  messages: readonly ConversationMessage[],
  renders: (index: number) => boolean = () => true,
  /** Ids already applied: the user's click that sent one of them happened once, before it went out. */
  seen = new Set<string>(),
): void {
  messages.forEach((item, index) => {
    const { message } = item;
    if (
      item.direction === 'out' &&
      message.type === 'lineup.v1.ui.event' &&
      message.payload.event === 'close' &&
      !seen.has(message.id)
    ) {
      frames.userClose(message.payload.instance_id);
      model.removeSurface(message.payload.instance_id);
    }
    seen.add(message.id);
    frames.effect(model.apply(item));
    if (renders(index)) frames.render(model.entries);
  });
  frames.render(model.entries);
}

function replay(messages: readonly ConversationMessage[]): ConversationModel {
  const model = new ConversationModel(CONVERSATION);
  for (const item of stored(messages))
    expect(model.apply(item) === null || item.direction === 'in').toBe(true);
  return model;
}

/** A seeded generator (mulberry32), so every ordering is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const ORDERINGS: readonly (readonly [string, (messages: ConversationMessage[]) => ConversationMessage[]])[] =
  [
    ['as sent', (messages) => messages],
    ['reversed', (messages) => [...messages].reverse()],
    [
      'Surface messages first',
      (messages) => [
        ...messages.filter(
          (item) =>
            item.message.type.startsWith('lineup.v1.ui.') && item.message.type !== 'lineup.v1.ui.checkpoint',
        ),
        ...messages.filter(
          (item) =>
            !(
              item.message.type.startsWith('lineup.v1.ui.') && item.message.type !== 'lineup.v1.ui.checkpoint'
            ),
        ),
      ],
    ],
    ...[1, 2, 3, 5, 8, 13, 21, 34].map(
      (seed) =>
        [
          `shuffled (seed ${seed})`,
          (messages: ConversationMessage[]) => shuffled(messages, seeded(seed)),
        ] as const,
    ),
  ];

describe('ConversationModel: replay equivalence', () => {
  it('the realistic conversation shows what it should', () => {
    const model = replay(realisticConversation());
    expect(model.entries.map((entry) => entry.kind)).toEqual([
      'note', // inventory
      'chat', // the user's question
      'chat', // the agent's answer (weather.1, opened next, was closed by the agent at the end)
      'note', // tool.progress
      'checkpoints',
      'note', // ui.event refresh
      'document',
      'note', // the user's close of counter.1
      'note', // patch of the closed counter.1, refused
      'note', // the forged frame, refused
      'surface', // counter.2
      'note', // unsupported, refused
      'chat',
      'chat',
    ]);
    expect(shownStates(model)).toEqual({ 'counter.2': { count: 9 } });
    expect(only(model, 'checkpoints').stream).toMatchObject({ seq: 5, status: 'completed' });
    expect(notes(model, 'refused').map((entry) => entry.text)).toEqual([
      'No open Surface counter.1 to patch.',
      expect.stringMatching(/^Refused a stream frame at seq: /),
      'The agent does not support lineup.v1.ui.spin we sent.',
    ]);
  });

  it('the agent closing weather.1 last is what removes it; before that it shows its latest state', () => {
    const messages = realisticConversation();
    const untilClose = messages.slice(
      0,
      messages.findIndex((item) => item.message.type === 'lineup.v1.ui.close'),
    );
    const model = replay(untilClose);
    expect(shownStates(model)).toEqual({
      'weather.1': { city: 'Shanghai', temperature: 28 },
      'counter.2': { count: 9 },
    });
    expect(surfaceOf(model, 'weather.1')?.label).toBe('Weather v2');
    // The re-open kept weather.1 where it first opened: right after the agent's first answer.
    expect(model.entries.findIndex((entry) => entry.kind === 'surface')).toBe(3);
  });

  describe.each(ORDERINGS)('ordering: %s', (_name, order) => {
    const messages = () => order(realisticConversation());

    it('live (with side effects) and a replay into a fresh model show the same entries and Surface states', () => {
      const sequence = messages();
      const live = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      playLive(live, frames, sequence);
      const replayed = replay(sequence);
      expect(replayed.entries).toEqual(live.entries);
      expect(shownStates(replayed)).toEqual(shownStates(live));
      // The live frames show what a frame mounted from the replayed entries opens with.
      expect(frames.states()).toEqual(shownStates(replayed));
    });

    it('live with React batching several envelopes per commit ends in the same frames', () => {
      const sequence = messages();
      const live = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      const random = seeded(sequence.length * 7919);
      playLive(live, frames, sequence, () => random() < 0.3);
      expect(live.entries).toEqual(replay(sequence).entries);
      expect(frames.states()).toEqual(shownStates(live));
    });

    it.each([0, 5, 12, 20])(
      'a page load: %i stored records, then live envelopes that repeat some of them',
      (cut) => {
        const sequence = messages();
        const model = new ConversationModel(CONVERSATION);
        for (const item of stored(sequence.slice(0, cut))) model.apply(item);
        const frames = new Frames();
        frames.render(model.entries);
        // The connection had already handed over the last few stored ones: they arrive again, live.
        const storedIds = new Set(sequence.slice(0, cut).map((item) => item.message.id));
        playLive(model, frames, sequence.slice(Math.max(0, cut - 3)), undefined, storedIds);
        expect(model.entries).toEqual(replay(sequence).entries);
        expect(frames.states()).toEqual(shownStates(model));
      },
    );

    it('every envelope applied a second time, anywhere later, changes nothing', () => {
      const sequence = messages();
      const random = seeded(sequence.length * 104729);
      const withRepeats: ConversationMessage[] = [];
      const later: ConversationMessage[] = [];
      for (const item of sequence) {
        withRepeats.push(item);
        later.push(...stored([item]));
        // Some repeats arrive right away, the rest at random later points.
        while (later.length > 0 && random() < 0.5)
          withRepeats.push(later.splice(Math.floor(random() * later.length), 1)[0]!);
      }
      withRepeats.push(...later);
      const model = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      playLive(model, frames, withRepeats);
      expect(model.entries).toEqual(replay(sequence).entries);
      expect(frames.states()).toEqual(shownStates(model));
    });
  });

  it('queued turns replayed as pending and then sent live end as a live run does', () => {
    const question = userSays('queued question');
    const event = uiEvent('counter.1', 'increment');
    const sequence: ConversationMessage[] = [
      received(open('counter.1', { count: 0 })),
      sent(question, true),
      sent(event, true),
      received(agentSays('back')),
    ];
    const live = new ConversationModel(CONVERSATION);
    for (const item of sequence) live.apply(item);
    live.apply(sent(question));
    live.apply(sent(event));

    const reloaded = new ConversationModel(CONVERSATION);
    for (const item of stored(sequence)) reloaded.apply(item); // the records still say queued
    reloaded.apply(sent(question)); // then the transport sends them
    reloaded.apply(sent(event));
    expect(reloaded.entries).toEqual(live.entries);
    expect(reloaded.entries.some((entry) => 'pending' in entry && entry.pending === true)).toBe(false);
  });
});
