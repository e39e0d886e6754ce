/** Scripted mode: the real LineUp client dials the reference agent, which answers with the scripted demo brain. */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_FRAME_DELAY_MS } from '@lineup/scripted-agent';
import { LINEUP_CONNECTION_REFUSALS } from '@lineup/shared/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACTION_DOCUMENT,
  CONVERSATION,
  connectClient,
  envelopesOf,
  openRawSocket,
  rawEnvelope,
  rawInventory,
} from '../test/harness.js';
import { REFERENCE_AGENT_ID, type ReferenceAgentServer, startReferenceAgent } from './agent-server.js';

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

describe('the device token and close()', () => {
  /** The close code and reason of a socket that dialled `url`. */
  async function closeOf(url: string) {
    const { socket } = await openRawSocket(url);
    return new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  it('gives the device URL with its token; without it, or with another token, the device is refused with 4008', async () => {
    const { server, problems } = await scriptedServer();
    expect(server.url).toBe(`${server.baseUrl}?token=${server.token}`);
    expect(server.baseUrl).toBe(`ws://127.0.0.1:${server.port}/agent`);
    expect(server.token).toMatch(/^lat_[A-Za-z0-9_-]{43}$/);
    const refused = LINEUP_CONNECTION_REFUSALS.unauthorized;
    expect(await closeOf(server.baseUrl)).toEqual(refused);
    expect(await closeOf(`${server.baseUrl}?token=lat_${'A'.repeat(43)}`)).toEqual(refused);
    expect(problems).toEqual([]);
  });

  it('with a store in a folder, a new start issues a new token and the earlier one is refused', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'reference-agent-'));
    try {
      const first = await startReferenceAgent({ mode: 'scripted', port: 0, store: folder });
      await first.close();
      server = await startReferenceAgent({ mode: 'scripted', port: 0, store: folder });
      expect(server.token).not.toBe(first.token);
      expect(await closeOf(`${server.baseUrl}?token=${first.token}`)).toEqual(
        LINEUP_CONNECTION_REFUSALS.unauthorized,
      );
      const { socket, frames } = await openRawSocket(server.url);
      cleanups.push(() => socket.terminate());
      socket.send(rawInventory());
      await vi.waitFor(() => expect(frames).toEqual(['{"ack":"inv:r1:conv_raw"}']));
      await server.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('once closed, sends nothing more and reports nothing: a component stream in flight is cancelled', async () => {
    const { server, problems } = await scriptedServer();
    const { socket, frames } = await openRawSocket(server.url);
    cleanups.push(() => socket.terminate());
    socket.send(rawInventory());
    socket.send(rawEnvelope('msg_3', 'lineup.v1.chat.user_message', { text: 'stream an interface' }));
    const streamFrames = () => frames.filter((frame) => frame.includes('lineup.v1.ui.checkpoint'));
    // The stream has begun: its next frames are scheduled STREAM_FRAME_DELAY_MS apart.
    await vi.waitFor(() => expect(streamFrames().length).toBeGreaterThan(0));
    const sent = streamFrames().length;
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 3 * STREAM_FRAME_DELAY_MS));
    expect(streamFrames()).toHaveLength(sent);
    expect(problems).toEqual([]);
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

  it('answers once per envelope and per operation, in a conversation with no message before, then replies', async () => {
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
    // The inventory opens the conversation's session (the host writes into none before); then, with no earlier
    // message, the clicks: one repeated under its envelope id, one under another id for the same operation.
    socket.send(rawInventory());
    socket.send(click('msg_client_31', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_31', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_32', 'op_0005', 'Explain what README.md is for, in three sentences.'));
    socket.send(click('msg_client_33', 'op_0006', 'help'));
    // Every envelope is acknowledged, the copy too.
    await vi.waitFor(() => expect(frames.filter((frame) => frame.startsWith('{"ack"'))).toHaveLength(5));
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
    expect(sent.every((message) => message.sender.id === REFERENCE_AGENT_ID)).toBe(true);
    expect(sent[0]?.payload).toEqual({ operation_id: 'op_0005', status: 'accepted' });
    expect(sent[2]?.payload).toEqual({ operation_id: 'op_0006', status: 'accepted' });
    // A prompt it has no script for gets its usual "demo agent" reply.
    expect(sent[1]?.payload).toMatchObject({ text: expect.stringContaining('demo agent') });
    expect(problems).toEqual([]);
  });
});
