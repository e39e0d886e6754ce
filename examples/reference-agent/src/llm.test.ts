/**
 * LLM mode against a scripted chat completions server on localhost (never a real network), with the real
 * LineUp client dialling the reference agent.
 */

import { createChatCompletionsModel } from '@lineup/agent';
import { acceptCheckpoint, parseDocument } from '@lineup/shared';
import { INTELLIGENT_UI_TOOL_NAMES } from '@lineup/shared/agent';
import productComparison from '@lineup/shared/fixtures/product-comparison.json' with { type: 'json' };
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACTION_DOCUMENT,
  type ChatRequest,
  CONVERSATION,
  connectClient,
  envelopesOf,
  fakeChatServer,
  openRawSocket,
  rawEnvelope,
  rawInventory,
} from '../test/harness.js';
import { type ReferenceAgentServer, startReferenceAgent } from './agent-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Answer = Parameters<typeof fakeChatServer>[0][number];
const toolCall = (id: string, name: string, args: object): Answer => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  finish_reason: 'tool_calls',
});
const text = (content: string): Answer => ({
  message: { role: 'assistant', content },
  finish_reason: 'stop',
});

async function setUp(answers: readonly Answer[]) {
  const model = await fakeChatServer(answers);
  cleanups.push(model.close);
  const problems: unknown[] = [];
  const server: ReferenceAgentServer = await startReferenceAgent({
    mode: 'llm',
    port: 0,
    model: createChatCompletionsModel({ baseUrl: model.baseUrl, apiKey: 'test-key', model: 'fake-model' }),
    onProblem: (problem) => problems.push(problem),
  });
  cleanups.push(server.close);
  const client = await connectClient(server.url);
  cleanups.push(client.stop);
  return { model, server, client, problems };
}

const lastMessage = (request: ChatRequest | undefined) => request?.messages.at(-1);

describe('llm mode with the real client', () => {
  it('calls pomodoro.start for the model, feeds the final result back and relays the answer', async () => {
    const { model, client } = await setUp([
      toolCall('call_pomo_1', 'pomodoro__start', { minutes: 20 }),
      text('Done: you focused for 20 minutes.'),
    ]);
    await client.client.sendUserMessage(CONVERSATION, 'start a 20 minute focus');
    await vi.waitFor(() => expect(client.ofType('lineup.v1.tool.call')).toHaveLength(1));
    const call = client.ofType('lineup.v1.tool.call')[0]!;
    const inventory = client.sent.find((message) => message.type === 'lineup.v1.client.inventory');
    expect(call.payload).toEqual({
      call_id: 'call_pomo_1',
      inventory_revision: inventory?.type === 'lineup.v1.client.inventory' ? inventory.payload.revision : '',
      tool: 'pomodoro.start',
      arguments: { minutes: 20 },
    });
    // The runtime runs it: Pomodoro comes forward, the timer starts, and 20 minutes later it completes.
    await vi.waitFor(() =>
      expect(
        client.sent.some((m) => m.type === 'lineup.v1.tool.progress' && m.payload.status === 'started'),
      ).toBe(true),
    );
    expect(model.requests).toHaveLength(1);
    client.advance(20 * 60_000);
    await client.runtime.settle();
    await client.deliver();
    await vi.waitFor(() => expect(client.replies).toEqual(['Done: you focused for 20 minutes.']));

    const [first, second] = model.requests;
    expect(model.headers[0]?.authorization).toBe('Bearer test-key');
    expect(first?.model).toBe('fake-model');
    const names = first?.tools?.map((tool) => tool.function.name);
    expect(names).toEqual(['pomodoro__start', 'pomodoro__interrupt', ...INTELLIGENT_UI_TOOL_NAMES]);
    expect(first?.tools?.[0]?.function.parameters).toMatchObject({
      properties: { minutes: { type: 'integer' } },
    });
    expect(first?.messages[0]?.role).toBe('system');
    expect(first?.messages[0]?.content).toContain('intelligent_ui');
    expect(lastMessage(first)).toEqual({ role: 'user', content: 'start a 20 minute focus' });
    expect(second?.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_pomo_1' }] });
    const tool = lastMessage(second);
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'call_pomo_1' });
    expect(JSON.parse(tool?.content ?? '')).toMatchObject({
      outcome: 'completed',
      result: { status: 'completed', minutes: 20 },
    });
    expect(client.problems).toEqual([]);
  });

  it('lets the user stop a running operation: the waiting call gets an interim answer, the result a note', async () => {
    const { model, client } = await setUp([
      toolCall('call_pomo_2', 'pomodoro__start', { minutes: 20 }),
      text('The timer is running.'),
      toolCall('call_stop_2', 'pomodoro__interrupt', {}),
      text('Stopped.'),
      text('Your session was stopped after 1 minute.'),
    ]);
    await client.client.sendUserMessage(CONVERSATION, 'start a 20 minute focus');
    await vi.waitFor(() =>
      expect(
        client.sent.some((m) => m.type === 'lineup.v1.tool.progress' && m.payload.status === 'started'),
      ).toBe(true),
    );
    client.advance(60_000);
    await client.client.sendUserMessage(CONVERSATION, 'stop');
    await vi.waitFor(() => expect(client.replies).toHaveLength(3));
    expect(client.replies).toEqual([
      'The timer is running.',
      'Stopped.',
      'Your session was stopped after 1 minute.',
    ]);
    expect(client.ofType('lineup.v1.tool.call').map((call) => call.payload.tool)).toEqual([
      'pomodoro.start',
      'pomodoro.interrupt',
    ]);
    expect(JSON.parse(lastMessage(model.requests[1])?.content ?? '')).toMatchObject({ status: 'pending' });
    expect(lastMessage(model.requests[4])?.content).toMatch(/final result of the earlier pomodoro\.start/);
    expect(lastMessage(model.requests[4])?.content).toContain('"interrupted"');
  });

  it('turns an intelligent_ui call into a valid ui.document and feeds diagnostics back for an invalid one', async () => {
    const { model, client } = await setUp([
      toolCall('call_ui_bad', 'intelligent_ui', { document: JSON.stringify(productComparison) }),
      toolCall('call_ui_good', 'intelligent_ui', { document: productComparison }),
      text('Here is the comparison.'),
    ]);
    await client.client.sendUserMessage(CONVERSATION, 'compare two laptops');
    await vi.waitFor(() => expect(client.replies).toEqual(['Here is the comparison.']));
    const documents = client.ofType('lineup.v1.ui.document');
    expect(documents).toHaveLength(1);
    expect(parseDocument(documents[0]?.payload.document).id).toBe(productComparison.id);
    const rejected = lastMessage(model.requests[1]);
    expect(rejected).toMatchObject({ role: 'tool', tool_call_id: 'call_ui_bad' });
    expect(rejected?.content).toMatch(/^The tool arguments were rejected/);
    expect(rejected?.content).toContain('not as a JSON string');
    const receipt = lastMessage(model.requests[2]);
    expect(receipt).toMatchObject({ role: 'tool', tool_call_id: 'call_ui_good' });
    expect(receipt?.content).toContain(`Shown to the user: UI document \`${productComparison.id}\``);
    expect(client.problems).toEqual([]);
  });

  it('streams a UI: the open call id is the sourceCallId, each step a full-snapshot checkpoint, stale steps refused', async () => {
    const cursor = (baseRevision: number) => ({ sourceCallId: 'call_stream_1', generation: 1, baseRevision });
    const { model, client } = await setUp([
      toolCall('call_stream_1', 'intelligent_ui_open', { document: streamInitial }),
      toolCall('call_stream_2', 'intelligent_ui_complete', cursor(3)),
      toolCall('call_stream_3', 'intelligent_ui_complete', cursor(0)),
      toolCall('call_stream_4', 'intelligent_ui_cancel', cursor(0)),
      text('Streamed.'),
    ]);
    await client.client.sendUserMessage(CONVERSATION, 'stream something');
    await vi.waitFor(() => expect(client.replies).toEqual(['Streamed.']));
    const frames = client.ofType('lineup.v1.ui.checkpoint').map((message) => message.payload.checkpoint);
    expect(frames.map((frame) => [frame.type, frame.sourceCallId, frame.generation, frame.seq])).toEqual([
      ['snapshot', 'call_stream_1', 1, 1],
      ['complete', 'call_stream_1', 1, 2],
    ]);
    let state = acceptCheckpoint(null, frames[0]);
    state = acceptCheckpoint(state, frames[1]);
    expect(state.status).toBe('completed');
    expect(lastMessage(model.requests[1])?.content).toContain('sourceCallId "call_stream_1", generation 1');
    // A cursor that is not the stream's, then a step after its end: refused, and the model reads why.
    expect(lastMessage(model.requests[2])?.content).toMatch(/at revision 0, not 3; copy baseRevision/);
    expect(lastMessage(model.requests[4])?.content).toMatch(/generation 1 has ended \(completed\)/);
  });

  it('answers politely when the model fails, and keeps serving', async () => {
    const { client, problems } = await setUp([{ status: 500 }, text('Back again.')]);
    await client.client.sendUserMessage(CONVERSATION, 'hello');
    await vi.waitFor(() => expect(client.replies).toHaveLength(1));
    expect(client.replies[0]).toMatch(/^Sorry — I could not reach the language model/);
    expect(problems).toHaveLength(1);
    await client.client.sendUserMessage(CONVERSATION, 'hello again');
    await vi.waitFor(() => expect(client.replies).toEqual([client.replies[0], 'Back again.']));
  });
});

describe('agent actions (ui.action) in llm mode', () => {
  const PROMPT = 'Explain what README.md is for, in three sentences.';
  const click = (operationId: string, prompt = PROMPT) => ({
    operation_id: operationId,
    action_id: 'explain',
    document: ACTION_DOCUMENT,
    prompt,
  });

  it('answers accepted first, then gives the model the prompt as a plain user message and relays its reply', async () => {
    const { model, client, problems } = await setUp([
      text('Hi.'),
      text('README.md introduces the project, shows how to run it and where to read more.'),
    ]);
    await client.client.sendUserMessage(CONVERSATION, 'hello');
    await vi.waitFor(() => expect(client.replies).toEqual(['Hi.']));
    await client.client.sendUIAction(CONVERSATION, click('op_0005'));
    await vi.waitFor(() => expect(client.replies).toHaveLength(2));
    expect(client.answers).toEqual([{ operation_id: 'op_0005', status: 'accepted' }]);
    const types = client.received.map((message) => message.type);
    expect(types.indexOf('lineup.v1.ui.action_result')).toBeLessThan(
      types.lastIndexOf('lineup.v1.chat.agent_message'),
    );
    expect(types.indexOf('lineup.v1.ui.action_result')).toBeGreaterThan(
      types.indexOf('lineup.v1.chat.agent_message'),
    );
    // The next user turn, with the prompt as it is: no system message, no prefix, the same system prompt.
    const request = model.requests[1];
    expect(lastMessage(request)).toEqual({ role: 'user', content: PROMPT });
    expect(request?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(request?.messages[0]).toEqual(model.requests[0]?.messages[0]);
    expect(client.problems).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('stays accepted when the model then fails: the failure is a polite chat message, as for a typed turn', async () => {
    const { model, client, problems } = await setUp([{ status: 500 }]);
    await client.client.sendUIAction(CONVERSATION, click('op_0006'));
    await vi.waitFor(() => expect(client.replies).toHaveLength(1));
    expect(client.answers).toEqual([{ operation_id: 'op_0006', status: 'accepted' }]);
    expect(client.replies[0]).toMatch(/^Sorry — I could not reach the language model/);
    expect(model.requests).toHaveLength(1);
    expect(problems).toHaveLength(1);
    expect(client.ofType('lineup.v1.ui.action_result')).toHaveLength(1);
  });

  it('answers once per envelope and per operation, in a conversation with no message before', async () => {
    const { model, server } = await setUp([text('First answer.'), text('Second answer.')]);
    const { socket, frames } = await openRawSocket(server.url);
    cleanups.push(() => socket.terminate());
    const action = (id: string, operationId: string) =>
      rawEnvelope(id, 'lineup.v1.ui.action', click(operationId), 'conv_never_seen');
    // The inventory opens the conversation's session (the host writes into none before); then the clicks.
    socket.send(rawInventory('conv_never_seen'));
    socket.send(action('msg_client_31', 'op_0007'));
    socket.send(action('msg_client_31', 'op_0007'));
    socket.send(action('msg_client_32', 'op_0007'));
    socket.send(action('msg_client_33', 'op_0008'));
    await vi.waitFor(() => expect(envelopesOf(frames)).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = envelopesOf(frames);
    const payloads = sent.map((message) => message.payload);
    // Each answer comes before the reply to its prompt (the second click may arrive during the first turn).
    expect(payloads[0]).toEqual({ operation_id: 'op_0007', status: 'accepted' });
    expect(payloads.filter((payload) => 'operation_id' in payload)).toEqual([
      { operation_id: 'op_0007', status: 'accepted' },
      { operation_id: 'op_0008', status: 'accepted' },
    ]);
    expect(payloads.filter((payload) => 'text' in payload)).toEqual([
      { text: 'First answer.' },
      { text: 'Second answer.' },
    ]);
    expect(
      payloads.findIndex((payload) => 'operation_id' in payload && payload.operation_id === 'op_0008'),
    ).toBeLessThan(payloads.findIndex((payload) => 'text' in payload && payload.text === 'Second answer.'));
    expect(sent.every((message) => message.conversation_id === 'conv_never_seen')).toBe(true);
    // Two operations, two turns: the model never saw the repeated envelopes.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.filter((message) => message.role === 'user')).toEqual([
      { role: 'user', content: PROMPT },
      { role: 'user', content: PROMPT },
    ]);
  });
});
