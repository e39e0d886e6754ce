import { buildToolTable, createChatCompletionsModel, functionNameOf } from '@lineup/agent';
import { type ReferenceAgentServer, readConfig, startReferenceAgent } from '@lineup/reference-agent';
import { INTELLIGENT_UI_TOOL_NAMES } from '@lineup/shared/agent';
import type { AgentToolInventoryEntry } from '@lineup/shared/protocol';
import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import {
  type ChatCompletionsStub,
  startChatCompletionsStub,
  textAnswer,
  toolCallAnswer,
} from './chat-completions-stub.ts';
import { expect, test } from './fixtures.ts';
import { answerToolQuestion, MCP_CORPUS, mcpUrl, toolQuestion, viewFrame } from './mcp-servers.ts';

/**
 * The reference agent (`examples/reference-agent`, `@lineup/reference-agent`: the agent host of `@lineup/agent` on an
 * in-memory store) driving the built host over a real WebSocket, in both of its modes: started in this test process
 * on a free port and dialled with `?agent=` and its device URL, `ws://…/agent?token=…`.
 * - scripted: the demo phrases, in English and Chinese, drive Pomodoro, a DSL document and a Surface;
 * - llm: a scripted OpenAI-compatible chat completions server on 127.0.0.1 stands in for the model, so the model's
 *   tool calls (an Agent Tool, `intelligent_ui`) run in the page and its text shows as the agent's chat reply.
 * Nothing here reaches a real network, and nothing assumes the conversation id the host uses: the agent answers
 * whatever `conversation_id` arrives.
 */

const cleanups: (() => Promise<void>)[] = [];
/** What the reference agent reported to `onProblem` during a test. */
let problems: unknown[] = [];

test.beforeEach(() => {
  problems = [];
});

test.afterEach(async ({ page }) => {
  // The page first, so it does not dial the closed agent again (a refused connection logs a console error).
  await page.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startScripted(): Promise<ReferenceAgentServer> {
  const server = await startReferenceAgent({
    mode: 'scripted',
    port: 0,
    onProblem: (problem) => problems.push(problem),
  });
  cleanups.push(server.close);
  return server;
}

/** The llm mode configured as its CLI is, from flags and `OPENAI_*` variables, with the stub as the provider. */
async function startLLM(stub: ChatCompletionsStub): Promise<ReferenceAgentServer> {
  const config = readConfig(['--mode', 'llm', '--port', '0'], {
    OPENAI_BASE_URL: stub.baseUrl,
    OPENAI_API_KEY: 'stub-key',
    OPENAI_MODEL: 'stub-model',
  });
  if (config.llm === undefined) throw new Error('readConfig gave no llm settings in llm mode.');
  // Belt and braces: the model client may reach the stub and nothing else.
  const onlyTheStub: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith(`${stub.baseUrl}/`)
      ? fetch(input, init)
      : Promise.reject(new Error(`No real network in tests: ${url}`));
  };
  const server = await startReferenceAgent({
    mode: config.mode,
    port: config.port,
    host: config.host,
    model: createChatCompletionsModel({ ...config.llm, fetch: onlyTheStub }),
    onProblem: (problem) => problems.push(problem),
  });
  cleanups.push(server.close);
  return server;
}

/** One `lineup.v1` envelope on the agent's WebSocket, as the page sent or received it (acks left out). */
interface WireEnvelope {
  readonly direction: 'sent' | 'received';
  readonly type: string;
  readonly conversation_id: string;
  readonly payload: Record<string, unknown>;
}

/**
 * Records the envelopes on the page's WebSocket to `url` (the device URL, token included, as the page dials it), in
 * the order the browser saw them.
 */
function recordWire(page: Page, url: string): WireEnvelope[] {
  const wire: WireEnvelope[] = [];
  page.on('websocket', (socket) => {
    if (socket.url() !== url) return;
    const record =
      (direction: WireEnvelope['direction']) =>
      ({ payload }: { payload: string | Buffer }) => {
        if (typeof payload !== 'string') return;
        const value = JSON.parse(payload) as Partial<WireEnvelope> & { ack?: string };
        if (typeof value.type === 'string') wire.push({ ...(value as WireEnvelope), direction });
      };
    socket.on('framesent', record('sent'));
    socket.on('framereceived', record('received'));
  });
  return wire;
}

/** Opens the host on the agent and waits for it to say connected; returns the wire log. */
async function open(page: Page, server: ReferenceAgentServer): Promise<WireEnvelope[]> {
  const wire = recordWire(page, server.url);
  await page.goto(`/?agent=${encodeURIComponent(server.url)}`);
  await confirmAgentLink(page);
  const chinese = (await page.locator('html').getAttribute('lang')) === 'zh-CN';
  // The page names the agent with its device token masked.
  const shown = `${server.baseUrl}?token=…`;
  await expect(page.getByRole('status').filter({ hasText: chinese ? '智能体：' : 'Agent:' })).toHaveText(
    chinese ? `智能体：已连接 (${shown})` : `Agent: connected (${shown})`,
  );
  return wire;
}

async function say(page: Page, text: string) {
  const chinese = (await page.locator('html').getAttribute('lang')) === 'zh-CN';
  const field = page.getByLabel(chinese ? '发给智能体的消息' : 'Message to the agent');
  await field.fill(text);
  // Enter in the field, as a user sends. A click goes to the Send button's position, and the composer follows the
  // conversation: a Surface above that resizes itself between Playwright's stability check and the click (its
  // content reports its size after it drew) can move the button away from under it.
  await expect(page.getByRole('button', { name: chinese ? '发送' : 'Send' })).toBeEnabled();
  await field.press('Enter');
  // The turn shows once it is recorded: seconds on a machine busy with a whole CI run (5 s was missed once there).
  try {
    await expect(page.locator('.host__chat-turn--user').last()).toContainText(text, { timeout: 15_000 });
  } catch (error) {
    // Seen in CI right after a Surface opened: say what the page showed, to find out next time.
    const field = await page.locator('#chat-message').inputValue();
    const notes = await page.locator('.host__note').allTextContents();
    const turns = await page.locator('.host__chat-turn--user').allTextContents();
    throw new Error(
      `"${text}" did not show as sent; the field holds "${field}"; notes: ${JSON.stringify(notes.slice(-5))}; user turns: ${JSON.stringify(turns.slice(-3))}`,
      { cause: error },
    );
  }
}

const agentTurns = (page: Page) => page.locator('.host__chat-turn--agent');
const workspace = (page: Page) => page.getByRole('region', { name: 'Pomodoro' });
const phase = (page: Page) =>
  page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]');

type WireTest = (envelope: WireEnvelope) => boolean;
const progress =
  (status: string, callId?: string): WireTest =>
  ({ type, payload }) =>
    type === 'lineup.v1.tool.progress' &&
    payload.status === status &&
    (callId === undefined || payload.call_id === callId);
/** A final `tool.result` whose `result` has these fields. */
const result =
  (fields: Record<string, unknown>, callId?: string): WireTest =>
  ({ type, payload }) =>
    type === 'lineup.v1.tool.result' &&
    (callId === undefined || payload.call_id === callId) &&
    Object.entries(fields).every(
      ([key, value]) => (payload.result as Record<string, unknown> | undefined)?.[key] === value,
    );
const reply =
  (text: RegExp): WireTest =>
  ({ type, payload }) =>
    type === 'lineup.v1.chat.agent_message' && text.test(String(payload.text));

/** The `tool.call`s the agent sent, in order. */
const toolCalls = (wire: readonly WireEnvelope[]) =>
  wire.filter((envelope) => envelope.type === 'lineup.v1.tool.call');

/**
 * Whether, on the wire, the agent answered with `answer` after the page sent `cause`, in the same conversation
 * (whatever its id): the agent's reply really follows the tool progress or result it reacts to.
 */
function follows(wire: readonly WireEnvelope[], cause: WireTest, answer: WireTest): boolean {
  const index = wire.findIndex((envelope) => envelope.direction === 'sent' && cause(envelope));
  const conversation = wire[index]?.conversation_id;
  return (
    index >= 0 &&
    wire
      .slice(index + 1)
      .some(
        (envelope) =>
          envelope.direction === 'received' && envelope.conversation_id === conversation && answer(envelope),
      )
  );
}

test.describe('scripted mode', () => {
  test('the demo phrases in English: Pomodoro, a DSL interface, a Surface, a stream, stop', async ({
    page,
  }) => {
    // Five turns in one story: about 5 s on an idle machine, up to 20 s on a busy one, so more than the default.
    test.slow();
    const agent = await startScripted();
    const wire = await open(page, agent);
    // The host speaks first: its inventory, in the conversation the agent will answer in.
    await expect.poll(() => wire[0]?.type).toBe('lineup.v1.client.inventory');

    await say(page, 'start a 20 minute focus');
    await expect(workspace(page)).toBeVisible();
    await expect(phase(page)).toHaveAttribute('data-phase', 'running');
    // The agent called pomodoro.start; once the host reports `started`, the agent says the timer runs.
    expect(toolCalls(wire)).toEqual([
      expect.objectContaining({
        direction: 'received',
        payload: expect.objectContaining({
          tool: 'pomodoro.start',
          arguments: { minutes: 20, label: 'Focus' },
        }),
      }),
    ]);
    await expect(agentTurns(page).last()).toContainText('The timer is running: 20 minutes of focus');
    await expect.poll(() => follows(wire, progress('started'), reply(/^The timer is running/))).toBe(true);

    await say(page, 'show a compound interest calculator');
    const document = page.getByRole('listitem', { name: 'Agent document' });
    await expect(document).toHaveCount(1);
    await expect(document.getByLabel('Principal ($)')).toBeVisible();
    await expect(agentTurns(page).last()).toContainText('compound interest calculator');

    await say(page, 'open a weather surface');
    await expect(page.locator('.host__surface iframe')).toHaveCount(1);
    await expect(page.getByRole('listitem', { name: 'Weather (demo)' })).toBeVisible();
    // The Surface really runs: its bundle drew the state the agent sent, in its sandboxed frame.
    await expect(
      page.frameLocator('iframe[title="Weather (demo)"]').frameLocator('iframe').locator('#city'),
    ).toHaveText('Beijing');

    await say(page, 'stream an interface');
    await expect(page.getByRole('listitem', { name: 'Streamed interface' })).toHaveCount(1);

    // The focus still runs behind all that; stop ends it.
    await expect(phase(page)).toHaveAttribute('data-phase', 'running');
    await say(page, 'stop');
    await expect(workspace(page)).toHaveCount(0);
    // Two final results go out, the interrupt's and the start's (interrupted by the agent), and the agent
    // answers each one after it arrived.
    await expect(
      agentTurns(page).filter({ hasText: 'Stopped: the timer is no longer running.' }),
    ).toHaveCount(1);
    await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);
    const [start, interrupt] = toolCalls(wire);
    expect(interrupt?.payload).toMatchObject({ tool: 'pomodoro.interrupt', arguments: {} });
    await expect
      .poll(() =>
        follows(
          wire,
          result({ status: 'interrupted', by: 'agent' }, String(start?.payload.call_id)),
          reply(/^The focus session was stopped after/),
        ),
      )
      .toBe(true);
    expect(
      follows(
        wire,
        result({ status: 'interrupted' }, String(interrupt?.payload.call_id)),
        reply(/^Stopped: the timer/),
      ),
    ).toBe(true);
    expect(problems).toEqual([]);
    await page.screenshot({ path: 'test-results/reference-agent-scripted.png', fullPage: true });
  });

  test.describe('in Chinese', () => {
    test.use({ locale: 'zh-CN' });

    test('现在开始 20 分钟的冥想，帮我计时 — then 停止', async ({ page }) => {
      const agent = await startScripted();
      const wire = await open(page, agent);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

      await say(page, '现在开始 20 分钟的冥想，帮我计时');
      await expect(workspace(page)).toBeVisible();
      await expect(phase(page)).toHaveAttribute('data-phase', 'running');
      expect(toolCalls(wire)[0]?.payload).toMatchObject({
        tool: 'pomodoro.start',
        arguments: { minutes: 20, label: '冥想' },
      });
      await expect(agentTurns(page).last()).toContainText('计时已开始：20 分钟冥想');
      await expect.poll(() => follows(wire, progress('started'), reply(/^计时已开始/))).toBe(true);

      await say(page, '停止');
      await expect(workspace(page)).toHaveCount(0);
      await expect(agentTurns(page).filter({ hasText: /冥想已停止，共进行了/ })).toHaveCount(1);
      await expect
        .poll(() => follows(wire, result({ status: 'interrupted', by: 'agent' }), reply(/^冥想已停止/)))
        .toBe(true);
      expect(problems).toEqual([]);
      await page.screenshot({ path: 'test-results/reference-agent-scripted-zh.png', fullPage: true });
    });
  });
});

test.describe('llm mode against a stub chat completions server', () => {
  test('the model calls pomodoro.start: Pomodoro runs in the page, its result goes back, the answer shows', async ({
    page,
  }) => {
    await page.clock.install();
    const startFunction = functionNameOf('pomodoro.start');
    const stub = await startChatCompletionsStub([
      toolCallAnswer('call_focus_1', startFunction, { minutes: 20 }),
      textAnswer('Done: **20 minutes** of focus, completed.'),
    ]);
    cleanups.push(stub.close);
    const agent = await startLLM(stub);
    const wire = await open(page, agent);

    await say(page, 'start a 20 minute focus');
    await expect(workspace(page)).toBeVisible();
    await expect(phase(page)).toHaveAttribute('data-phase', 'running');
    await expect.poll(() => wire.some(progress('started', 'call_focus_1'))).toBe(true);

    // The first request: the system prompt, the user's words, and the tools — the Agent Tools of the inventory
    // the host sent, as functions exactly as `buildToolTable` makes them, then the intelligent_ui tools.
    const inventory = wire.findLast((envelope) => envelope.type === 'lineup.v1.client.inventory');
    const inventoryTools = (inventory?.payload.tools ?? []) as AgentToolInventoryEntry[];
    expect(inventoryTools.map((tool) => tool.name)).toContain('pomodoro.start');
    expect(stub.requests).toHaveLength(1);
    const [first] = stub.requests;
    expect(first?.model).toBe('stub-model');
    expect(stub.headers[0]?.authorization).toBe('Bearer stub-key');
    expect(first?.tool_choice).toBe('auto');
    expect(first?.messages[0]?.role).toBe('system');
    expect(first?.messages.at(-1)).toEqual({ role: 'user', content: 'start a 20 minute focus' });
    const names = first?.tools?.map((tool) => tool.function.name) ?? [];
    expect(names).toContain(startFunction);
    expect(names).toContain(functionNameOf('pomodoro.interrupt'));
    expect(names.slice(-INTELLIGENT_UI_TOOL_NAMES.length)).toEqual([...INTELLIGENT_UI_TOOL_NAMES]);
    expect(first?.tools).toEqual(JSON.parse(JSON.stringify(buildToolTable(inventoryTools).tools)));
    // The model's tool call reached the page as a LineUp tool call on the latest inventory.
    expect(toolCalls(wire)).toEqual([
      expect.objectContaining({
        direction: 'received',
        conversation_id: inventory?.conversation_id,
        payload: {
          call_id: 'call_focus_1',
          inventory_revision: inventory?.payload.revision,
          tool: 'pomodoro.start',
          arguments: { minutes: 20 },
        },
      }),
    ]);

    // The agent waits for the final result before it asks the model again: twenty minutes, by the page's clock.
    await page.clock.fastForward(20 * 60_000 + 1_000);
    await expect(phase(page)).toHaveAttribute('data-phase', 'completed');
    await expect(agentTurns(page).last()).toContainText('Done: 20 minutes of focus, completed.');
    await expect(agentTurns(page).last().locator('strong')).toHaveText('20 minutes');
    expect(
      follows(
        wire,
        result({ status: 'completed', minutes: 20 }, 'call_focus_1'),
        reply(/^Done: \*\*20 minutes/),
      ),
    ).toBe(true);

    expect(stub.requests).toHaveLength(2);
    const second = stub.requests[1];
    expect(second?.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_focus_1', function: { name: startFunction } }],
    });
    const toolMessage = second?.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_focus_1' });
    expect(JSON.parse(toolMessage?.content ?? '')).toMatchObject({
      outcome: 'completed',
      result: { status: 'completed', minutes: 20 },
    });
    expect(stub.unexpected).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: 'test-results/reference-agent-llm-pomodoro.png', fullPage: true });
  });

  test('the model calls intelligent_ui with a DSL document: the interface shows, then its answer', async ({
    page,
  }) => {
    const document = {
      version: '1.0',
      id: 'focus-tips',
      mode: 'structured_ui',
      title: 'Focus tips',
      state: {},
      derived: {},
      root: {
        id: 'tips',
        type: 'Column',
        props: { gap: 'sm' },
        children: [
          { id: 'tips-heading', type: 'Heading', props: { text: 'Three focus tips', level: 2 } },
          {
            id: 'tips-text',
            type: 'Text',
            props: { text: 'Silence notifications, keep one task open, and rest after each session.' },
          },
        ],
      },
    };
    const stub = await startChatCompletionsStub([
      toolCallAnswer('call_tips_1', 'intelligent_ui', { document }),
      textAnswer('Here are **three focus tips**.'),
    ]);
    cleanups.push(stub.close);
    const agent = await startLLM(stub);
    const wire = await open(page, agent);

    await say(page, 'give me some focus tips as a card');
    const shown = page.getByRole('listitem', { name: 'Agent document' });
    await expect(shown).toHaveCount(1);
    await expect(shown.getByRole('heading', { name: 'Three focus tips' })).toBeVisible();
    await expect(shown).toContainText('Silence notifications, keep one task open');
    await expect(agentTurns(page).last()).toContainText('Here are three focus tips.');
    // The document went out as `ui.document` before the model's answer, in the user's conversation.
    expect(
      follows(
        wire,
        ({ type, payload }) =>
          type === 'lineup.v1.chat.user_message' && payload.text === 'give me some focus tips as a card',
        ({ type, payload }) =>
          type === 'lineup.v1.ui.document' && (payload.document as { id?: string }).id === 'focus-tips',
      ),
    ).toBe(true);
    const received = wire
      .filter((envelope) => envelope.direction === 'received')
      .map((envelope) => envelope.type);
    expect(received.indexOf('lineup.v1.ui.document')).toBeLessThan(
      received.indexOf('lineup.v1.chat.agent_message'),
    );

    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'give me some focus tips as a card',
    });
    const receipt = stub.requests[1]?.messages.at(-1);
    expect(receipt).toMatchObject({ role: 'tool', tool_call_id: 'call_tips_1' });
    expect(receipt?.content).toContain('Shown to the user: UI document `focus-tips`');
    expect(stub.unexpected).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: 'test-results/reference-agent-llm-ui.png', fullPage: true });
  });
});

test.describe('llm mode with an MCP server installed', () => {
  test('the model calls the MCP server’s tool: the server answers, its view opens, the answer shows', async ({
    page,
  }) => {
    const [vanilla] = MCP_CORPUS;
    const tool = 'basic_mcp_app_server_vanilla_js.get_time';
    const stub = await startChatCompletionsStub([
      toolCallAnswer('call_time_1', functionNameOf(tool), {}),
      textAnswer('The server says it is **time**.'),
    ]);
    cleanups.push(stub.close);
    const agent = await startLLM(stub);
    const wire = await open(page, agent);
    // The user adds the server: its tool joins the inventory the agent gets (a new revision).
    const center = page.locator('aside.host__apps');
    await center.getByLabel('MCP server URL (Streamable HTTP)').fill(mcpUrl(vanilla.port));
    await center.getByRole('button', { name: 'Add server' }).click();
    await expect(center.getByRole('status').filter({ hasText: /^Installed / })).toBeVisible({
      timeout: 30_000,
    });
    await expect
      .poll(() =>
        wire.some(
          (envelope) =>
            envelope.type === 'lineup.v1.client.inventory' &&
            (envelope.payload.tools as { name: string }[] | undefined)?.some((entry) => entry.name === tool),
        ),
      )
      .toBe(true);

    await say(page, 'what time is it on the server?');
    // The model called the MCP tool: the user is asked first (the server is not trusted), and allows it.
    await expect(toolQuestion(page)).toContainText(tool);
    expect(stub.requests.length).toBe(1);
    await answerToolQuestion(page);
    // The model saw the MCP tool as a function, called it; the page ran it through the runtime and the server.
    await expect.poll(() => stub.requests.length, { timeout: 30_000 }).toBe(2);
    expect(stub.requests[0]?.tools?.map((entry) => entry.function.name)).toContain(functionNameOf(tool));
    const toolMessage = stub.requests[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_time_1' });
    expect(JSON.parse(toolMessage?.content ?? '')).toMatchObject({
      outcome: 'completed',
      result: { time: expect.stringMatching(/^\d{4}-/) },
    });
    // Its view opened beside the call, with the result.
    const view = viewFrame(page);
    await expect(view.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/, { timeout: 30_000 });
    await expect(agentTurns(page).last()).toContainText('The server says it is time.');
    expect(stub.unexpected).toEqual([]);
    expect(problems).toEqual([]);
  });
});
