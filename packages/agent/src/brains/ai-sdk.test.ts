/**
 * The Vercel AI SDK adapter: an AI SDK language model runs the host's LLM loop. With the SDK's own mock model the
 * Pomodoro story goes through the host end to end (the inventory's Agent Tool and the `intelligent_ui*` tools offered
 * as AI SDK tools, the call sent as a persisted `tool.call`, its result read back as an AI SDK tool result); a turn a
 * restart cut off runs again with the history rebuilt from the log; and a real provider
 * (`@ai-sdk/openai-compatible`) speaks HTTP to a local chat completions server.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { INTELLIGENT_UI_TOOL_NAMES } from '@lineup/shared/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { POMODORO_INVENTORY_TOOLS } from '../../../scripted-agent/test/pomodoro.js';
import { BACKENDS } from '../../test/databases.js';
import { clientEnvelope, connectDevice, inventoryEnvelope } from '../../test/device.js';
import { restartableHost } from '../../test/hosts.js';
import { aiSdkBrain, aiSdkChatModel, lineUpToolSet, toModelMessages } from './ai-sdk.js';

type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** Pomodoro's `pomodoro.start` as a client lists it (from the app's committed manifest). */
const POMODORO_START = POMODORO_INVENTORY_TOOLS.find(
  (tool) => tool.name === 'pomodoro.start',
) as (typeof POMODORO_INVENTORY_TOOLS)[number];

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const answer = (...content: LanguageModelV3GenerateResult['content']): LanguageModelV3GenerateResult => ({
  content,
  finishReason: {
    unified: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop',
    raw: undefined,
  },
  usage: USAGE,
  warnings: [],
});
const callOf = (toolCallId: string, toolName: string, input: unknown) =>
  answer({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });
const textOf = (text: string) => answer({ type: 'text', text });

/** A mock AI SDK model answering from a queue; it records every call's options (prompt, tools). */
function mockModel(answers: ((options: LanguageModelV3CallOptions) => LanguageModelV3GenerateResult)[]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const next = answers.shift();
      if (next === undefined) throw new Error('The mock model has no more answers.');
      return next(options);
    },
  });
  return { model, calls };
}

const lastToolResult = (options: LanguageModelV3CallOptions) => {
  const last = options.prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  const part = last.content[0];
  return part?.type === 'tool-result' ? part : undefined;
};

describe('translating the loop’s history into AI SDK messages', () => {
  it('keeps the order, moves tool calls into parts and names each tool result by its call', () => {
    expect(
      toModelMessages([
        { role: 'system', content: 'ignored here' },
        { role: 'user', content: 'start a focus' },
        {
          role: 'assistant',
          content: 'Starting.',
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'pomodoro__start', arguments: '{"minutes":20}' },
            },
            { id: 'c2', type: 'function', function: { name: 'intelligent_ui', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c2', content: 'diagnostics' },
        { role: 'tool', tool_call_id: 'c1', content: '{"outcome":"completed"}' },
        { role: 'tool', tool_call_id: 'nobody', content: 'x' },
      ]),
    ).toEqual([
      { role: 'user', content: 'start a focus' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Starting.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'pomodoro__start', input: { minutes: 20 } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'intelligent_ui', input: 'not json' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'intelligent_ui',
            output: { type: 'text', value: 'diagnostics' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'pomodoro__start',
            output: { type: 'text', value: '{"outcome":"completed"}' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'nobody',
            toolName: 'unknown',
            output: { type: 'text', value: 'x' },
          },
        ],
      },
    ]);
  });

  it('offers an inventory as an AI SDK ToolSet: Agent Tools by function name, then the intelligent_ui* tools', () => {
    const { tools, agentTools } = lineUpToolSet([POMODORO_START]);
    expect(Object.keys(tools)).toEqual(['pomodoro__start', ...INTELLIGENT_UI_TOOL_NAMES]);
    expect(agentTools.get('pomodoro__start')).toBe('pomodoro.start');
    for (const entry of Object.values(tools)) expect(entry.execute).toBeUndefined();
  });

  it('a model that fails becomes a ChatModelError (the loop answers the user politely)', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('rate limited');
      },
    });
    await expect(
      aiSdkChatModel(model, { maxRetries: 0 }).complete([{ role: 'user', content: 'hi' }], []),
    ).rejects.toThrow(/The AI SDK model failed: .*rate limited/);
  });
});

describe.each(BACKENDS)('the AI SDK brain on the agent host, $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await backend.cleanup();
  });

  it('plays the Pomodoro story: the Agent Tool as an AI SDK tool, called on the device, its result read back', async () => {
    const { model, calls } = mockModel([
      () => callOf('call_start', 'pomodoro__start', { minutes: 20 }),
      () => textOf('Your 20-minute focus has started.'),
      () => callOf('call_ui_bad', 'intelligent_ui', { document: { nope: true } }),
      () => textOf('Could not show that.'),
    ]);
    const agent = await restartableHost(
      await backend.openFolder(),
      aiSdkBrain({ model, settings: { maxRetries: 0 } }),
    );
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-ai');
    const device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-ai', 'r1', [POMODORO_START]));
    device.send(
      clientEnvelope('conv-ai', 'lineup.v1.chat.user_message', { text: 'start a 20 minute focus' }),
    );
    const call = await device.next((frame) => frame.type === 'lineup.v1.tool.call');
    expect(call.payload).toEqual({
      call_id: 'call_start',
      inventory_revision: 'r1',
      tool: 'pomodoro.start',
      arguments: { minutes: 20 },
    });
    // What the model was offered: the Agent Tool with the inventory's schema, and the five intelligent_ui* tools.
    const offered = calls[0]?.tools ?? [];
    expect(offered.map((entry) => entry.name)).toEqual(['pomodoro__start', ...INTELLIGENT_UI_TOOL_NAMES]);
    expect(offered[0]).toMatchObject({
      type: 'function',
      inputSchema: { properties: { minutes: { type: 'integer', minimum: 1, maximum: 180 } } },
    });
    expect(calls[0]?.prompt[0]).toMatchObject({ role: 'system' });
    device.send(
      clientEnvelope('conv-ai', 'lineup.v1.tool.result', {
        call_id: 'call_start',
        outcome: 'completed',
        result: { status: 'started', minutes: 20 },
      }),
    );
    const reply = await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    expect(reply.payload).toEqual({ text: 'Your 20-minute focus has started.' });
    expect(lastToolResult(calls[1] as LanguageModelV3CallOptions)).toMatchObject({
      toolCallId: 'call_start',
      toolName: 'pomodoro__start',
      output: {
        type: 'text',
        value: JSON.stringify({ outcome: 'completed', result: { status: 'started', minutes: 20 } }),
      },
    });
    // The call and its final result are in the store, once.
    const record = await agent.store.call({ deviceId: 'device-ai', conversationId: 'conv-ai' }, 'call_start');
    expect(record).toMatchObject({
      status: 'final',
      result: { call_id: 'call_start', outcome: 'completed' },
    });

    // A document the validators refuse: nothing reaches the device, the model reads the shared diagnostics.
    device.send(clientEnvelope('conv-ai', 'lineup.v1.chat.user_message', { text: 'show me a chart' }));
    await device.next(
      (frame) =>
        frame.type === 'lineup.v1.chat.agent_message' &&
        (frame.payload as { text: string }).text === 'Could not show that.',
    );
    expect(device.envelopes().filter((frame) => frame.type === 'lineup.v1.ui.document')).toEqual([]);
    const diagnostics = lastToolResult(calls[3] as LanguageModelV3CallOptions);
    expect(diagnostics?.toolName).toBe('intelligent_ui');
    expect(diagnostics?.output).toMatchObject({ type: 'text', value: expect.stringMatching(/document/) });
    await device.close();
  });

  it('a turn a restart cut off runs again, the history rebuilt from the log as AI SDK messages', async () => {
    let generated = 0;
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        prompts.push(options.prompt);
        generated += 1;
        if (generated === 2) return new Promise<never>(() => {}); // the first run never gets this answer
        return Promise.resolve(textOf(generated === 1 ? 'Hello! How can I help?' : 'Resumed: a haiku.'));
      },
    });
    const agent = await restartableHost(
      await backend.openFolder(),
      aiSdkBrain({ model, settings: { maxRetries: 0 } }),
    );
    cleanups.push(() => agent.close());
    const token = await agent.store.issueDeviceToken('device-ai-cut');
    let device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-ai-cut', 'r1'));
    device.send(clientEnvelope('conv-ai-cut', 'lineup.v1.chat.user_message', { text: 'hi' }));
    await device.next((frame) => frame.type === 'lineup.v1.chat.agent_message');
    device.send(clientEnvelope('conv-ai-cut', 'lineup.v1.chat.user_message', { text: 'write a haiku' }));
    await expect.poll(() => generated).toBe(2);
    await device.close();
    await agent.restart();
    device = await connectDevice(agent.host.url, { token });
    device.send(inventoryEnvelope('conv-ai-cut', 'r1'));
    const resumed = await device.next(
      (frame) =>
        frame.type === 'lineup.v1.chat.agent_message' &&
        (frame.payload as { text: string }).text.startsWith('Resumed'),
    );
    expect(resumed.payload).toEqual({ text: 'Resumed: a haiku.' });
    expect(
      (prompts[2] ?? [])
        .filter((message) => message.role !== 'system')
        .map((message) => [
          message.role,
          (message.content as { type: string; text?: string }[]).map((part) => part.text).join(''),
        ]),
    ).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello! How can I help?'],
      ['user', 'write a haiku'],
    ]);
    await device.close();
  });
});

describe('a real AI SDK provider over HTTP', () => {
  it('@ai-sdk/openai-compatible: the tools go out as functions, the tool result comes back as a tool message', async () => {
    const bodies: Record<string, unknown>[] = [];
    const replies = [
      {
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_http',
                  type: 'function',
                  function: { name: 'pomodoro__start', arguments: '{"minutes":25}' },
                },
              ],
            },
          },
        ],
      },
      {
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Started 25 minutes.' } },
        ],
      },
    ];
    const server = createServer(async (request: IncomingMessage, response) => {
      let body = '';
      for await (const chunk of request) body += String(chunk);
      bodies.push({ url: request.url, ...(JSON.parse(body) as Record<string, unknown>) });
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: `r${bodies.length}`,
          object: 'chat.completion',
          created: 0,
          model: 'm',
          ...replies.shift(),
        }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const provider = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${port}/v1` });
      const chat = aiSdkChatModel(provider('local-model'), { maxRetries: 0 });
      const { tools } = { tools: lineUpToolSet([POMODORO_START]) };
      expect(tools.agentTools.size).toBe(1);
      const first = await chat.complete(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'start a 25 minute focus' },
        ],
        [
          {
            type: 'function',
            function: {
              name: 'pomodoro__start',
              description: 'Start a focus session.',
              parameters: POMODORO_START.input_schema as object,
            },
          },
        ],
      );
      expect(first.message.tool_calls).toEqual([
        {
          id: 'call_http',
          type: 'function',
          function: { name: 'pomodoro__start', arguments: '{"minutes":25}' },
        },
      ]);
      const second = await chat.complete(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'start a 25 minute focus' },
          first.message,
          { role: 'tool', tool_call_id: 'call_http', content: '{"outcome":"completed"}' },
        ],
        [],
      );
      expect(second.message).toEqual({ role: 'assistant', content: 'Started 25 minutes.' });
      expect(bodies[0]).toMatchObject({
        url: '/v1/chat/completions',
        model: 'local-model',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'start a 25 minute focus' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'pomodoro__start', parameters: { required: ['minutes'] } },
          },
        ],
      });
      expect(bodies[1]?.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'start a 25 minute focus' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_http',
              type: 'function',
              function: { name: 'pomodoro__start', arguments: '{"minutes":25}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_http', content: '{"outcome":"completed"}' },
      ]);
    } finally {
      server.close();
    }
  });
});
