/**
 * Fixtures of the conversation model's tests (`src/conversation/model.*.test.ts`): every envelope is a real
 * `lineup.v1` message from `parseEnvelope`, as the receiver on the other end would parse it, plus the stream frames
 * of the shared fixture and small readers of a model's entries.
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
} from '@lineup/shared/protocol';
import { expect, type Mock, vi } from 'vitest';
import { type ConversationMessage, ConversationModel, type Entry } from '../src/conversation/model.ts';

export const CONVERSATION = 'conv_model_test';

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

export const fromAgent = <T extends LineUpMessageType>(type: T, payload: object, options?: MessageOptions) =>
  envelope('agent_to_client', type, payload, options);
export const fromClient = <T extends LineUpMessageType>(type: T, payload: object, options?: MessageOptions) =>
  envelope('client_to_agent', type, payload, options);

export const received = (message: LineUpMessage): ConversationMessage => ({ direction: 'in', message });
export const sent = (message: LineUpMessage, pending = false): ConversationMessage => ({
  direction: 'out',
  message,
  pending,
});

// --- Messages --------------------------------------------------------------------------------------------------

export const agentSays = (text: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.chat.agent_message', { text }, options);
export const userSays = (text: string, options?: MessageOptions) =>
  fromClient('lineup.v1.chat.user_message', { text }, options);

export const bundle = (name: string) => ({
  id: 'com.lineup.test.counter',
  name,
  version: '1.0.0',
  html: '<p id="count"></p>',
  css: 'p { margin: 0; }',
  js: 'LineUpSurface.onState(function (state) { document.getElementById("count").textContent = String(state.count); });',
});

export const open = (instanceId: string, state: object, name = 'Counter', options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.open', { instance_id: instanceId, app: bundle(name), state }, options);
export const patch = (instanceId: string, state: object, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.patch', { instance_id: instanceId, state }, options);
export const close = (instanceId: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.close', { instance_id: instanceId, reason: 'completed' }, options);
export const uiEvent = (instanceId: string, event: string, data: object = {}, options?: MessageOptions) =>
  fromClient('lineup.v1.ui.event', { instance_id: instanceId, event, data }, options);

export const document = (id: string, text: string) => ({
  version: '1.0',
  id,
  mode: 'structured_ui',
  title: 'Agent document',
  state: {},
  derived: {},
  root: { id: 'text', type: 'Text', props: { text } },
});
export const uiDocument = (id: string, text: string, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.document', { document: document(id, text) }, options);

export const checkpointMessage = (checkpoint: unknown, options?: MessageOptions) =>
  fromAgent('lineup.v1.ui.checkpoint', { checkpoint }, options);

export const inventory = (options?: MessageOptions) =>
  fromClient(
    'lineup.v1.client.inventory',
    { revision: 'rev_1', standard_components: [], applications: [], capabilities: [] },
    options,
  );
export const toolCall = (options?: MessageOptions) =>
  fromAgent(
    'lineup.v1.tool.call',
    { call_id: 'call_1', inventory_revision: 'rev_1', tool: 'pomodoro.start', arguments: { minutes: 25 } },
    options,
  );
export const toolProgress = (options?: MessageOptions) =>
  fromClient(
    'lineup.v1.tool.progress',
    { call_id: 'call_1', app_scope: 'pomodoro', status: 'accepted' },
    options,
  );
export const appCall = (options?: MessageOptions) =>
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
export const unsupported = (messageType: string | undefined, options?: MessageOptions) =>
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
export function streamStates(sourceCallId: string, generation = 1): UIStreamState[] {
  const states = [startUIStream(streamInitial, sourceCallId, generation)];
  for (const mutation of streamMutations) states.push(advanceUIStream(states.at(-1)!, mutation));
  states.push(advanceUIStream(states.at(-1)!, { type: 'complete' }));
  return states;
}
export const frames = (sourceCallId: string, generation = 1) =>
  streamStates(sourceCallId, generation).map((state) => state.checkpoint);

/** The same frame with other content: a conflicting duplicate of its seq. */
export function forged(checkpoint: unknown): unknown {
  const copy = structuredClone(checkpoint) as { snapshot: { title: string } };
  copy.snapshot.title = 'Forged';
  return copy;
}

// --- Helpers ---------------------------------------------------------------------------------------------------

export function only<K extends Entry['kind']>(
  model: ConversationModel,
  kind: K,
): Extract<Entry, { kind: K }> {
  const matching = model.entries.filter((entry) => entry.kind === kind);
  expect(matching).toHaveLength(1);
  return matching[0] as Extract<Entry, { kind: K }>;
}

export const ofKind = <K extends Entry['kind']>(model: ConversationModel, kind: K) =>
  model.entries.filter((entry): entry is Extract<Entry, { kind: K }> => entry.kind === kind);

export const surfaceOf = (model: ConversationModel, instanceId: string) =>
  ofKind(model, 'surface').find((entry) => entry.payload.instance_id === instanceId);

export const notes = (model: ConversationModel, tone: 'to-agent' | 'refused') =>
  ofKind(model, 'note').filter((entry) => entry.tone === tone);

/** A model and a count of its listener's calls. */
export function watched(conversationId = CONVERSATION): { model: ConversationModel; listener: Mock } {
  const model = new ConversationModel(conversationId);
  const listener = vi.fn();
  model.subscribe(listener);
  return { model, listener };
}
