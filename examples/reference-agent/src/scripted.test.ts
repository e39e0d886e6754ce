/** Scripted mode: the real LineUp client dials the server, which answers with the scripted demo agent. */

import { STREAM_FRAME_DELAY_MS } from '@lineup/scripted-agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import {
  ACTION_DOCUMENT,
  CONVERSATION,
  connectClient,
  envelopesOf,
  openRawSocket,
  rawEnvelope,
} from '../test/harness.js';
import { type ReferenceAgentServer, startReferenceAgent } from './agent-server.js';

let server: ReferenceAgentServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await server?.close();
  server = undefined;
});

async function scriptedServer() {
  const problems: unknown[] = [];
  server = await startReferenceAgent({
    mode: 'scripted',
    port: 0,
    onProblem: (problem) => problems.push(problem),
  });
  return { server, problems };
}

describe('scripted mode with the real client', () => {
  it('gets the inventory first, starts a 20 minute focus and stops it', async () => {
    const { server, problems } = await scriptedServer();
    const setup = await connectClient(server.url);
    cleanups.push(setup.stop);
    await vi.waitFor(() => expect(setup.sent.length).toBeGreaterThan(0));
    expect(setup.sent[0]?.type).toBe('lineup.v1.client.inventory');

    await setup.client.sendUserMessage(CONVERSATION, 'start a 20 minute focus');
    await vi.waitFor(() => expect(setup.ofType('lineup.v1.tool.call')).toHaveLength(1));
    const call = setup.ofType('lineup.v1.tool.call')[0]!;
    expect(call.payload).toMatchObject({
      tool: 'pomodoro.start',
      arguments: { minutes: 20, label: 'Focus' },
    });
    const inventory = setup.sent.find((message) => message.type === 'lineup.v1.client.inventory');
    expect(call.payload.inventory_revision).toBe(
      inventory?.type === 'lineup.v1.client.inventory' ? inventory.payload.revision : undefined,
    );
    await vi.waitFor(() => expect(setup.replies).toHaveLength(2));
    expect(setup.foreground).toEqual(['pomodoro']);
    const statuses = setup.sent.flatMap((message) =>
      message.type === 'lineup.v1.tool.progress' ? [message.payload.status] : [],
    );
    expect(statuses).toEqual(expect.arrayContaining(['accepted', 'started']));
    expect(setup.replies[1]).toMatch(/20 minutes/);

    setup.advance(65_000);
    await setup.client.sendUserMessage(CONVERSATION, 'stop');
    await vi.waitFor(() => expect(setup.replies).toHaveLength(5));
    expect(setup.ofType('lineup.v1.tool.call')[1]?.payload.tool).toBe('pomodoro.interrupt');
    expect(setup.replies.slice(2).sort()).toEqual(
      [
        'Asking **Pomodoro** to stop the timer…',
        'Stopped: the timer is no longer running.',
        'The focus session was stopped after **1 minute 5 seconds**.',
      ].sort(),
    );
    // Every result reached the agent through acks: nothing stays pending in the outbox.
    await setup.deliver();
    await vi.waitFor(async () => expect(await setup.outbox.pending()).toEqual([]));
    expect(setup.problems).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the WebSocket binding', () => {
  function open(url: string, protocols: string[]) {
    const socket = new WebSocket(url, protocols);
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    return new Promise<{ socket: WebSocket; frames: string[] }>((resolve, reject) => {
      socket.once('open', () => resolve({ socket, frames }));
      socket.once('error', reject);
    });
  }
  const envelope = (id: string, type: string, payload: object) =>
    JSON.stringify({
      v: 1,
      id,
      type,
      conversation_id: 'conv_raw',
      sender: { kind: 'client', id: 'raw' },
      payload,
    });

  it('selects lineup.v1.ack, acks every envelope (repeats too) and handles each id once', async () => {
    const { server } = await scriptedServer();
    const { socket, frames } = await open(server.url, ['lineup.v1', 'lineup.v1.ack']);
    cleanups.push(() => socket.terminate());
    expect(socket.protocol).toBe('lineup.v1.ack');
    const inventory = envelope('inv_1', 'lineup.v1.client.inventory', { revision: 'r1', tools: [] });
    const help = envelope('msg_1', 'lineup.v1.chat.user_message', { text: 'help' });
    socket.send(inventory);
    socket.send(help);
    socket.send(help);
    await vi.waitFor(() => expect(frames.filter((frame) => frame.startsWith('{"ack"'))).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames.filter((frame) => frame.startsWith('{"ack"'))).toEqual([
      '{"ack":"inv_1"}',
      '{"ack":"msg_1"}',
      '{"ack":"msg_1"}',
    ]);
    const replies = frames.filter((frame) => frame.includes('lineup.v1.chat.agent_message'));
    expect(replies).toHaveLength(1);
  });

  it('handles an id once per sender and conversation: two devices using the same ids are both answered', async () => {
    const { server } = await scriptedServer();
    const { socket, frames } = await open(server.url, ['lineup.v1.ack']);
    cleanups.push(() => socket.terminate());
    const from = (sender: string, conversation: string, id: string, type: string, payload: object) =>
      JSON.stringify({
        v: 1,
        id,
        type,
        conversation_id: conversation,
        sender: { kind: 'client', id: sender },
        payload,
      });
    // Two profiles whose outboxes both count from 1, in their own conversations, and one device in two of them.
    for (const [sender, conversation] of [
      ['web-host', 'conv_a'],
      ['web-host', 'conv_b'],
      ['other-host', 'conv_a'],
    ] as const) {
      socket.send(
        from(sender, conversation, 'o1', 'lineup.v1.client.inventory', { revision: 'r1', tools: [] }),
      );
      socket.send(from(sender, conversation, 'o2', 'lineup.v1.chat.user_message', { text: 'help' }));
    }
    const replies = () => frames.filter((frame) => frame.includes('lineup.v1.chat.agent_message'));
    await vi.waitFor(() => expect(replies()).toHaveLength(3));
    // A resend of one of them is still handled once.
    socket.send(from('web-host', 'conv_b', 'o2', 'lineup.v1.chat.user_message', { text: 'help' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replies()).toHaveLength(3);
    expect(
      replies()
        .map((frame) => (JSON.parse(frame) as { conversation_id: string }).conversation_id)
        .sort(),
    ).toEqual(['conv_a', 'conv_a', 'conv_b']);
  });

  it('once closed, sends nothing more and reports nothing: a component stream in flight is cancelled', async () => {
    const { server, problems } = await scriptedServer();
    const { socket, frames } = await open(server.url, ['lineup.v1']);
    cleanups.push(() => socket.terminate());
    socket.send(envelope('msg_3', 'lineup.v1.chat.user_message', { text: 'stream an interface' }));
    const streamFrames = () => frames.filter((frame) => frame.includes('lineup.v1.ui.checkpoint'));
    // The stream has begun: its next frames are scheduled STREAM_FRAME_DELAY_MS apart.
    await vi.waitFor(() => expect(streamFrames().length).toBeGreaterThan(0));
    const sent = streamFrames().length;
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 3 * STREAM_FRAME_DELAY_MS));
    expect(streamFrames()).toHaveLength(sent);
    expect(problems).toEqual([]);
  });

  it('speaks plain lineup.v1 to a client that offers only that, and refuses other subprotocols', async () => {
    const { server } = await scriptedServer();
    const { socket, frames } = await open(server.url, ['lineup.v1']);
    cleanups.push(() => socket.terminate());
    expect(socket.protocol).toBe('lineup.v1');
    socket.send(envelope('msg_2', 'lineup.v1.chat.user_message', { text: 'help' }));
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    expect(JSON.parse(frames[0]!).type).toBe('lineup.v1.chat.agent_message');
    await expect(open(server.url, ['graphql-ws'])).rejects.toThrow();
  });
});

describe('agent actions (ui.action) in scripted mode', () => {
  it('the real client gets accepted for its operation first, then the prompt is handled as a typed message', async () => {
    const { server, problems } = await scriptedServer();
    const setup = await connectClient(server.url);
    cleanups.push(setup.stop);
    await setup.client.sendUIAction(CONVERSATION, {
      operation_id: 'op_0005',
      action_id: 'explain',
      document: ACTION_DOCUMENT,
      prompt: 'start a 20 minute focus',
    });
    await vi.waitFor(() => expect(setup.replies).toHaveLength(2));
    expect(setup.answers).toEqual([{ operation_id: 'op_0005', status: 'accepted' }]);
    const types = setup.received.map((message) => message.type);
    expect(types.indexOf('lineup.v1.ui.action_result')).toBeLessThan(
      types.indexOf('lineup.v1.chat.agent_message'),
    );
    // The same path as `chat.user_message`: the scripted start, with the inventory's revision.
    expect(setup.ofType('lineup.v1.tool.call')[0]?.payload).toMatchObject({
      tool: 'pomodoro.start',
      arguments: { minutes: 20, label: 'Focus' },
    });
    expect(setup.replies[0]).toMatch(/^Opening \*\*Pomodoro\*\*/);
    expect(setup.problems).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('answers once per envelope and per operation, in a conversation it has not seen, then replies', async () => {
    const { server, problems } = await scriptedServer();
    const { socket, frames } = await openRawSocket(server.url);
    cleanups.push(() => socket.terminate());
    const click = (id: string, operationId: string, prompt: string) =>
      rawEnvelope(id, 'lineup.v1.ui.action', {
        operation_id: operationId,
        action_id: 'explain',
        document: ACTION_DOCUMENT,
        prompt,
      });
    // No inventory, no earlier message: the first envelope of conv_raw is the click.
    socket.send(click('msg_client_31', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_31', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_32', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_33', 'op_0006', 'help'));
    await vi.waitFor(() => expect(frames.filter((frame) => frame.startsWith('{"ack"'))).toHaveLength(4));
    await vi.waitFor(() => expect(envelopesOf(frames)).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = envelopesOf(frames);
    expect(sent.map((message) => message.type)).toEqual([
      'lineup.v1.ui.action_result',
      'lineup.v1.chat.agent_message',
      'lineup.v1.ui.action_result',
      'lineup.v1.chat.agent_message',
    ]);
    expect(sent.every((message) => message.conversation_id === 'conv_raw')).toBe(true);
    expect(sent[0]?.payload).toEqual({ operation_id: 'op_0005', status: 'accepted' });
    expect(sent[2]?.payload).toEqual({ operation_id: 'op_0006', status: 'accepted' });
    // A prompt it has no script for gets its usual "demo agent" reply.
    expect(sent[1]?.payload).toMatchObject({ text: expect.stringContaining('demo agent') });
    expect(problems).toEqual([]);
  });
});
