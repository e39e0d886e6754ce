/**
 * Running the DSL action ledger's agent actions (seed 002 §11, seed 004 §4) with a scripted agent: the prompt goes
 * to the agent once, and the action is settled only by the agent's answer for that operation — after a reload too,
 * and over the AgentClient while the agent is away.
 */
import 'fake-indexeddb/auto';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import { type LineUpMessage, parseEnvelopeText, type UIActionPayload } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  CONVERSATION,
  click,
  incoming,
  newDatabase,
  REFS,
  setUp,
  statuses,
} from '../../test/action-runner.js';
import { AppRegistry } from '../apps/registry.js';
import { CapabilityRuntime } from '../capabilities/capability-runtime.js';
import { AgentClient } from '../client/agent-client.js';
import { createInProcessTransport } from '../client/transport.js';
import { ConversationStore } from '../conversations/conversation-store.js';
import { ActionRunner, type ActionRunner as ActionRunnerType } from './action-runner.js';

const CALLBACK_ACTION = Object.keys(agentCallback.actions)[0] as string;

describe('agent actions', () => {
  const agentClick = () => click(REFS.callback, CALLBACK_ACTION, {});

  it('the prompt goes to the agent once; its accepted answer settles the receipt', async () => {
    const { runner, sent, receipts } = await setUp();
    const pending = runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => sent.length).toBe(1);
    const payload = sent[0] as UIActionPayload;
    expect(payload).toMatchObject({
      action_id: CALLBACK_ACTION,
      document: { source_call_id: 'msg_callback', ui_id: agentCallback.id, generation: 0, revision: 0 },
    });
    expect(payload.prompt).toContain('已找到的相关记录数');
    expect((await runner.ledger.get(CONVERSATION, payload.operation_id)).status).toBe('running');
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: payload.operation_id, status: 'accepted' }),
    ).toMatchObject({
      outcome: 'settled',
    });
    expect((await pending).status).toBe('accepted');
    expect(statuses(receipts, payload.operation_id)).toEqual(['queued', 'running', 'accepted']);
    // Answered once: a second answer changes nothing.
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: payload.operation_id, status: 'declined' }),
    ).toEqual({ outcome: 'ignored', reason: 'not_waiting' });
    expect((await runner.ledger.get(CONVERSATION, payload.operation_id)).status).toBe('accepted');
  });

  it('declined is failed with the agent’s message; answers for other operations change nothing', async () => {
    const { runner, sent } = await setUp();
    const pending = runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => sent.length).toBe(1);
    const operationId = (sent[0] as UIActionPayload).operation_id;
    const tool = await runner.submit(CONVERSATION, click(REFS.count));
    expect(await runner.receiveAnswer(CONVERSATION, { operation_id: 'op_nope', status: 'accepted' })).toEqual(
      {
        outcome: 'ignored',
        reason: 'unknown_operation',
      },
    );
    expect(
      await runner.receiveAnswer(CONVERSATION, { operation_id: tool.operationId, status: 'accepted' }),
    ).toEqual({ outcome: 'ignored', reason: 'not_an_agent_action' });
    expect(
      await runner.receiveAnswer('conv_other', { operation_id: operationId, status: 'accepted' }),
    ).toEqual({
      outcome: 'ignored',
      reason: 'unknown_operation',
    });
    expect(
      await runner.receiveAnswer(CONVERSATION, {
        operation_id: operationId,
        status: 'declined',
        message: 'I am busy with another task.',
      }),
    ).toMatchObject({ outcome: 'settled' });
    expect(await pending).toMatchObject({ status: 'failed', message: 'I am busy with another task.' });
  });

  it('without an agent nothing is sent and the action fails', async () => {
    const { runner, sent } = await setUp({ agent: false });
    expect(await runner.submit(CONVERSATION, agentClick())).toMatchObject({
      status: 'failed',
      message: 'No agent is connected to this page; nothing was sent.',
    });
    expect(sent).toEqual([]);
  });

  it('a reload after it was sent keeps it waiting; the agent’s later answer settles it', async () => {
    const setup = await setUp();
    void setup.runner.submit(CONVERSATION, agentClick());
    await expect.poll(() => setup.sent.length).toBe(1);
    const operationId = (setup.sent[0] as UIActionPayload).operation_id;
    await expect
      .poll(async () => (await setup.runner.ledger.operation(CONVERSATION, operationId)).sentAt)
      .toBeDefined();
    const after: ActionRunnerType = setup.reload();
    expect(await after.recover()).toBe(0);
    expect(setup.sent).toHaveLength(1);
    expect(
      await after.receiveAnswer(CONVERSATION, { operation_id: operationId, status: 'accepted' }),
    ).toMatchObject({
      outcome: 'settled',
      receipt: { status: 'accepted' },
    });
  });

  it('over the AgentClient: a click while the agent is away waits in the journal, reaches it once, and its answer settles it', async () => {
    const db = await newDatabase();
    const store = new ConversationStore(db);
    await store.received(incoming('msg_callback', { document: agentCallback }));
    const registry = new AppRegistry(db);
    const { transport, agent } = createInProcessTransport();
    const actions: LineUpMessage[] = [];
    agent.onFrame((text) => {
      const parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
      if (parsed.kind === 'message' && parsed.message.type === 'lineup.v1.ui.action')
        actions.push(parsed.message);
    });
    let runner: ActionRunner;
    const client = new AgentClient({
      transport,
      clientId: 'web-host',
      inventory: () => registry.inventory(),
      journal: store,
      conversations: [CONVERSATION],
      actions: { receiveAnswer: (conversationId, answer) => runner.receiveAnswer(conversationId, answer) },
    });
    runner = new ActionRunner(db, {
      documents: store,
      capabilities: new CapabilityRuntime(db, { handlers: {} }),
      bindings: [],
      agent: { sendAction: (conversationId, payload) => client.sendUIAction(conversationId, payload) },
    });
    client.start();
    await vi.waitFor(() => expect(client.status).toBe('open'));
    agent.drop();
    await vi.waitFor(() => expect(client.status).not.toBe('open'));
    const final = runner.submit(CONVERSATION, agentClick());
    // Queued in the journal (strictly) before the receipt says it was sent.
    await vi.waitFor(async () =>
      expect((await store.pending()).map((message) => message.type)).toEqual(['lineup.v1.ui.action']),
    );
    await vi.waitFor(async () => {
      const [record] = await db.getAll('action_ledger');
      expect(record?.sentAt).toBeDefined();
    });
    expect(actions).toEqual([]);
    agent.restore();
    await vi.waitFor(() => expect(actions).toHaveLength(1));
    const message = actions[0] as LineUpMessage & { payload: UIActionPayload };
    expect(message.conversation_id).toBe(CONVERSATION);
    expect(message.sender.kind).toBe('client');
    // The agent answers for another operation first: nothing changes; then for this one.
    agent.send({
      v: 1,
      id: 'msg_answer_wrong',
      type: 'lineup.v1.ui.action_result',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload: { operation_id: 'op_forged', status: 'accepted' },
    });
    agent.send({
      v: 1,
      id: 'msg_answer',
      type: 'lineup.v1.ui.action_result',
      conversation_id: CONVERSATION,
      sender: { kind: 'agent', id: 'agent_test' },
      payload: { operation_id: message.payload.operation_id, status: 'accepted', message: 'On it.' },
    });
    expect(await final).toMatchObject({ status: 'accepted', message: 'On it.' });
    expect(await db.count('action_ledger')).toBe(1);
    client.stop();
  });
});
