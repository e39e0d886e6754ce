/**
 * The conversation model, as the view drives it: what the client sends. Every envelope is a real `lineup.v1`
 * message from `parseEnvelope`; user turns, notes to the agent and the user's close of a Surface.
 */
import { describe, expect, it } from 'vitest';
import {
  CONVERSATION,
  fromAgent,
  fromClient,
  inventory,
  ofKind,
  only,
  open,
  received,
  sent,
  surfaceOf,
  toolProgress,
  uiEvent,
  userSays,
} from '../../test/conversation-model.ts';
import { ConversationModel } from './model.ts';

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
