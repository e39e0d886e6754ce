/**
 * Both sides of the protocol in process, as the Web Reference Host runs its demo agent: the real runtime
 * (`AppRegistry`, `ToolRuntime`, `OutboxDelivery` on fake-indexeddb) behind the real `AgentClient`, an
 * in-process transport, and the scripted agent on its far end. This proves what the unit tests cannot: the
 * runtime accepts the agent's calls (revision, tool, arguments against Pomodoro's published input schema) and
 * the agent understands what the runtime answers.
 */
import 'fake-indexeddb/auto';
import {
  AgentClient,
  AppRegistry,
  createInProcessTransport,
  OutboxDelivery,
  openRuntimeDatabase,
  ToolRuntime,
} from '@lineup/runtime';
import { parseDocument } from '@lineup/shared';
import type { UIActionAnswerPayload } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { POMODORO_MANIFEST } from '../test/pomodoro.js';
import { createScriptedAgent } from './agent.js';

const CONVERSATION = 'conv_demo';
let databases = 0;

async function setUp() {
  let now = Date.parse('2026-01-01T10:00:00Z');
  const clock = { now: () => now };
  const db = await openRuntimeDatabase(`scripted-agent-${databases++}`);
  const registry = new AppRegistry(db, { clock });
  await registry.install(POMODORO_MANIFEST, { bundleUrl: '/apps/pomodoro/' });
  const foreground: string[] = [];
  const runtime = new ToolRuntime(db, registry, {
    clock,
    host: {
      requestForeground: (target) => void foreground.push(target.appScope),
      closeApp() {},
      sessionDataChanged() {},
    },
  });
  const outbox = new OutboxDelivery(db, { locks: null });
  const { transport, agent: agentEnd } = createInProcessTransport();
  const replies: string[] = [];
  const documents: unknown[] = [];
  const problems: unknown[] = [];
  const answers: [string, UIActionAnswerPayload][] = [];
  const deliver = () => outbox.deliver((message) => client.sendOutboxMessage(message));
  const client: AgentClient = new AgentClient({
    transport,
    clientId: 'web-host',
    inventory: () => registry.inventory(),
    // Where an ActionRunner would settle the receipt: recorded, with when it came relative to the replies.
    actions: {
      async receiveAnswer(conversationId, answer) {
        answers.push([conversationId, answer]);
        replies.push(`(answer ${answer.operation_id}: ${answer.status})`);
      },
    },
    tools: {
      async receive(conversationId, call) {
        const received = await runtime.receive(conversationId, call);
        void deliver();
        return received;
      },
    },
    handlers: {
      agentMessage: (message) => void replies.push(message.payload.text),
      document: (message) => void documents.push(message.payload.document),
      problem: (problem) => void problems.push(problem),
    },
    conversations: [CONVERSATION],
    onSessionStart: () => void deliver(),
  });
  const demo = createScriptedAgent({
    send: (text) => agentEnd.send(text),
    onProblem: (problem) => problems.push(problem),
  });
  agentEnd.onFrame((text) => demo.receive(text));
  client.start();
  await vi.waitFor(() => expect(client.status).toBe('open'));
  return {
    client,
    runtime,
    replies,
    documents,
    problems,
    answers,
    foreground,
    deliver,
    advance: (milliseconds: number) => {
      now += milliseconds;
    },
  };
}

describe('the scripted agent with the real runtime', () => {
  it('runs a Pomodoro session from the first words to the completed result', async () => {
    const setup = await setUp();
    await setup.client.sendUserMessage(CONVERSATION, '现在开始 1 分钟的冥想，帮我计时');
    await vi.waitFor(() => expect(setup.foreground).toEqual(['pomodoro']));
    expect(setup.replies).toEqual(['正在打开**番茄钟**，准备 1 分钟的冥想。你看到它之后计时才会开始。']);
    await setup.runtime.confirmForeground(CONVERSATION, 'pomodoro');
    await setup.deliver();
    await vi.waitFor(() => expect(setup.replies).toHaveLength(2));
    expect(setup.replies[1]).toBe('计时已开始：**1 分钟**冥想。说「停止」可以提前结束。');
    setup.advance(60_000);
    await setup.runtime.settle();
    await setup.deliver();
    await vi.waitFor(() => expect(setup.replies).toHaveLength(3));
    expect(setup.replies[2]).toBe('完成了：**1 分钟**的冥想已结束，做得好！');
    expect(setup.problems).toEqual([]);
  });

  it('stops a running session', async () => {
    const setup = await setUp();
    await setup.client.sendUserMessage(CONVERSATION, 'start a 20 minute focus');
    await vi.waitFor(() => expect(setup.foreground).toEqual(['pomodoro']));
    await setup.runtime.confirmForeground(CONVERSATION, 'pomodoro');
    await setup.deliver();
    await vi.waitFor(() => expect(setup.replies).toHaveLength(2));
    setup.advance(125_000);
    await setup.client.sendUserMessage(CONVERSATION, 'stop the timer');
    await vi.waitFor(() => expect(setup.replies).toHaveLength(5));
    expect(setup.replies.slice(2).sort()).toEqual(
      [
        'Asking **Pomodoro** to stop the timer…',
        'Stopped: the timer is no longer running.',
        'The focus session was stopped after **2 minutes 5 seconds**.',
      ].sort(),
    );
    await setup.client.sendUserMessage(CONVERSATION, 'stop');
    await vi.waitFor(() => expect(setup.replies).toHaveLength(7));
    expect(setup.replies.at(-1)).toBe('There was no timer running, so there was nothing to stop.');
    expect(setup.problems).toEqual([]);
  });

  it('shows a document the client can validate', async () => {
    const setup = await setUp();
    await setup.client.sendUserMessage(CONVERSATION, 'compare two products');
    await vi.waitFor(() => expect(setup.documents).toHaveLength(1));
    expect(parseDocument(setup.documents[0]).id).toBe('product-comparison');
  });

  it('answers an agent action the client sends, then replies to its prompt in chat', async () => {
    const setup = await setUp();
    await setup.client.sendUIAction(CONVERSATION, {
      operation_id: 'op_0005',
      action_id: 'explain',
      document: { source_call_id: 'call_ui_0007', ui_id: 'compact_reader', generation: 0, revision: 0 },
      prompt: 'compare two products',
    });
    await vi.waitFor(() => expect(setup.documents).toHaveLength(1));
    expect(setup.answers).toEqual([[CONVERSATION, { operation_id: 'op_0005', status: 'accepted' }]]);
    expect(setup.replies[0]).toBe('(answer op_0005: accepted)');
    expect(setup.replies).toHaveLength(2);
    expect(parseDocument(setup.documents[0]).id).toBe('product-comparison');
    expect(setup.problems).toEqual([]);
  });
});
