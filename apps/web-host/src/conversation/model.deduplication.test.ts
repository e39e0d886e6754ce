/**
 * The conversation model, as the view drives it: the same envelope applied twice (live, and again from
 * `ConversationStore`'s structured clones), pending turns becoming sent, and envelopes of another conversation.
 */
import { describe, expect, it } from 'vitest';
import {
  agentSays,
  CONVERSATION,
  checkpointMessage,
  close,
  frames,
  inventory,
  notes,
  only,
  open,
  patch,
  received,
  sent,
  toolProgress,
  uiDocument,
  uiEvent,
  unsupported,
  userSays,
  watched,
} from '../../test/conversation-model.ts';
import { type ConversationMessage, ConversationModel } from './model.ts';

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
