import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AgentHost,
  AgentStore,
  type ChatCompletion,
  type ChatMessage,
  type ChatModel,
  chatCompletionsBrain,
  openPGlite,
  openPostgres,
  scriptedBrain,
  startAgentHost,
} from '@lineup/agent';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };
import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import { agentTurns, pomodoroPhase, pomodoroWorkspace, say } from './chat.ts';
import { expect, test } from './fixtures.ts';

/**
 * The built host against `@lineup/agent` (the agent host package) with the scripted brain, on an embedded store in
 * a temporary folder, dialled with `?agent=ws://…?token=…` as `lineup-agent serve` prints it: the Pomodoro story,
 * the story across a restart of the agent host (a new run epoch on the same store), and a wrong token.
 */

interface Running {
  readonly folder: string;
  store: AgentStore;
  host: AgentHost;
  readonly problems: unknown[];
}

const running: Running[] = [];

async function startOn(folder: string, port = 0, problems: unknown[] = []) {
  const store = await AgentStore.open(await openPGlite(folder));
  const host = await startAgentHost({
    store,
    brain: scriptedBrain(),
    port,
    onProblem: (problem) => problems.push(problem),
  });
  return { store, host };
}

async function startAgentHostFor(): Promise<Running & { token: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'lineup-agent-e2e-'));
  const problems: unknown[] = [];
  const { store, host } = await startOn(folder, 0, problems);
  const token = await store.issueDeviceToken('e2e-browser', 'Playwright');
  const entry = { folder, store, host, problems };
  running.push(entry);
  return { ...entry, token };
}

async function stop(entry: Running) {
  await entry.host.close();
  await entry.store.close();
}

test.afterEach(async ({ page }) => {
  await page.close();
  for (const entry of running.splice(0)) {
    await stop(entry).catch(() => {});
    rmSync(entry.folder, { recursive: true, force: true });
  }
});

const toolCallCompletion = (id: string, name: string, args: object): ChatCompletion => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  finishReason: 'tool_calls',
});
const textCompletion = (content: string): ChatCompletion => ({
  message: { role: 'assistant', content },
  finishReason: 'stop',
});

const deviceUrl = (host: AgentHost, token: string) => `${host.url}?token=${token}`;

async function open(page: Page, url: string) {
  await page.goto(`/?agent=${encodeURIComponent(url)}`);
  await confirmAgentLink(page);
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: 'Agent:' });

test('the Pomodoro story through the agent host: every envelope persisted, each call recorded once with its final result', async ({
  page,
}) => {
  test.slow();
  const agent = await startAgentHostFor();
  await open(page, deviceUrl(agent.host, agent.token));
  // The page names the agent, never its device token.
  await expect(status(page)).toHaveText(`Agent: connected (${agent.host.url}?token=…)`);

  await say(page, 'start a 20 minute focus');
  await expect(pomodoroWorkspace(page)).toBeVisible();
  await expect(pomodoroPhase(page)).toHaveAttribute('data-phase', 'running');
  await expect(agentTurns(page).last()).toContainText('The timer is running: 20 minutes of focus');
  await say(page, 'stop');
  await expect(pomodoroWorkspace(page)).toHaveCount(0);
  await expect(agentTurns(page).filter({ hasText: 'Stopped: the timer is no longer running.' })).toHaveCount(
    1,
  );
  await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);

  // What the agent host kept: the conversation's log, both calls with their one final result each.
  const { rows } = await agent.store.db.query<{ conversation_id: string; tool: string; status: string }>(
    `SELECT conversation_id, tool, status FROM lineup_tool_calls WHERE device_id = 'e2e-browser' ORDER BY sent_at`,
  );
  expect(rows.map((row) => [row.tool, row.status])).toEqual([
    ['pomodoro.start', 'final'],
    ['pomodoro.interrupt', 'final'],
  ]);
  const key = { deviceId: 'e2e-browser', conversationId: rows[0]?.conversation_id as string };
  const log = await agent.store.log(key);
  expect(log[0]?.type).toBe('lineup.v1.client.inventory');
  expect(log.filter((entry) => entry.type === 'lineup.v1.chat.user_message')).toHaveLength(2);
  // Everything the agent said was acknowledged by the page.
  expect(await agent.store.undelivered(key)).toEqual([]);
  expect(agent.problems).toEqual([]);
  expect(await page.locator('body').textContent()).not.toContain(agent.token);
  await page.screenshot({ path: 'test-results/agent-host-pomodoro.png', fullPage: true });
});

test.describe('across a restart', () => {
  // While the agent host goes down and is down, the page's attempts to dial it fail at the connection (and
  // Chromium logs each one): refused once the port is closed, reset or closed unanswered while it is closing. A
  // handshake the host answers with an error status is still a failure.
  test.use({
    allowedConsoleErrors:
      /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/agent\?token=[^']+' failed: .*(ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|Connection closed before receiving a handshake response)/,
  });

  test('the agent host restarts mid-focus: the page reconnects, the conversation goes on where it was, nothing is doubled', async ({
    page,
  }) => {
    test.slow();
    const agent = await startAgentHostFor();
    await open(page, deviceUrl(agent.host, agent.token));
    await expect(status(page)).toContainText('Agent: connected');
    await say(page, 'start a 20 minute focus');
    await expect(pomodoroPhase(page)).toHaveAttribute('data-phase', 'running');
    await expect(agentTurns(page).last()).toContainText('The timer is running');
    const epoch = agent.store.epoch;

    // A restart on the same store and port: a new run epoch.
    await stop(agent);
    await expect(status(page)).not.toContainText('Agent: connected');
    const again = await startOn(agent.folder, agent.host.port, agent.problems);
    Object.assign(running[0] as Running, again);
    expect(again.store.epoch).toBeGreaterThan(epoch);
    await expect(status(page)).toContainText('Agent: connected', { timeout: 40_000 });

    // The new brain got the conversation's inventory: it can call Pomodoro's tools.
    await say(page, 'stop');
    await expect(pomodoroWorkspace(page)).toHaveCount(0);
    await expect(
      agentTurns(page).filter({ hasText: 'Stopped: the timer is no longer running.' }),
    ).toHaveCount(1);
    // The focus started before the restart is still the agent's own (its brain replayed the log): its final
    // result, interrupted by the agent, is answered too — once.
    await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);
    await page.waitForTimeout(1_000);
    await expect(agentTurns(page).filter({ hasText: 'The timer is running' })).toHaveCount(1);
    await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);
    const { rows } = await again.store.db.query<{ tool: string; n: string }>(
      `SELECT tool, count(*) AS n FROM lineup_tool_calls WHERE device_id = 'e2e-browser' GROUP BY tool ORDER BY tool`,
    );
    expect(rows.map((row) => [row.tool, Number(row.n)])).toEqual([
      ['pomodoro.interrupt', 1],
      ['pomodoro.start', 1],
    ]);
    await page.screenshot({ path: 'test-results/agent-host-restart.png', fullPage: true });
  });
});

test('a wrong token: the agent host refuses the connection, the page says why and does not dial again', async ({
  page,
}) => {
  const agent = await startAgentHostFor();
  let dialled = 0;
  page.on('websocket', () => {
    dialled += 1;
  });
  await open(page, deviceUrl(agent.host, `lat_${'A'.repeat(43)}`));
  await expect(
    page.getByText(/The agent refused this device: it has no valid device token \(4008\)/),
  ).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(dialled).toBe(1);
  await expect(status(page)).toHaveText('Agent: refused this device (no valid device token)');
  const { rows } = await agent.store.db.query<{ n: string }>('SELECT count(*) AS n FROM lineup_log');
  expect(Number(rows[0]?.n)).toBe(0);
  await page.screenshot({ path: 'test-results/agent-host-wrong-token.png', fullPage: true });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a wrong token: the status says so in the host language', async ({ page }) => {
    const agent = await startAgentHostFor();
    await open(page, deviceUrl(agent.host, `lat_${'B'.repeat(43)}`));
    await expect(page.getByRole('status').filter({ hasText: '智能体：' })).toHaveText(
      '智能体：拒绝了此设备（没有有效的设备令牌）',
    );
    await page.screenshot({ path: 'test-results/agent-host-wrong-token-zh.png', fullPage: true });
  });
});

/**
 * Two `lineup-agent serve` workers (the built CLI) on one PostgreSQL, behind a TCP proxy standing in for a load
 * balancer; the page dials the proxy. Worker A is killed with SIGKILL in the middle of a focus and the proxy sends
 * the page's next connection to worker B, which takes the conversation over once A's lease ran out and goes on.
 * Runs when LINEUP_TEST_POSTGRES_URL names a server (`.ci/run` starts one).
 */
test.describe('two workers on one PostgreSQL', () => {
  const postgresUrl = process.env.LINEUP_TEST_POSTGRES_URL;
  test.skip(postgresUrl === undefined || postgresUrl === '', 'LINEUP_TEST_POSTGRES_URL is not set');
  test.use({
    allowedConsoleErrors: /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/agent\?token=[^']+' failed/,
  });

  const CLI = fileURLToPath(new URL('../../../packages/agent/dist/cli.js', import.meta.url));
  const processes: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  test.afterEach(async () => {
    for (const child of processes.splice(0)) child.kill('SIGKILL');
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  function worker(store: string): Promise<{ child: ChildProcess; port: number }> {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--store', store], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    processes.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += String(chunk);
        const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
        if (match !== null) resolve({ child, port: Number(match[1]) });
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
    });
  }

  /** A TCP proxy whose upstream can be switched: what a load balancer does when a backend dies. */
  async function proxy(initial: number) {
    let upstream = initial;
    const sockets = new Set<Socket>();
    const server = createServer((client) => {
      const target = connect(upstream, '127.0.0.1');
      for (const socket of [client, target]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          target.destroy();
        });
      }
      client.pipe(target).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return {
      port: (server.address() as AddressInfo).port,
      switchTo: (port: number) => {
        upstream = port;
      },
    };
  }

  test('SIGKILL of the worker mid-focus: the page reconnects through the proxy to the other worker, and the story goes on once', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // A fresh database on the server, dropped afterwards.
    const admin = await openPostgres(postgresUrl as string);
    const name = `lineup_e2e_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    closers.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    });
    const target = new URL(postgresUrl as string);
    target.pathname = `/${name}`;
    const store = await AgentStore.open(await openPostgres(target.toString()));
    const token = await store.issueDeviceToken('e2e-browser');
    closers.push(() => store.close());
    const a = await worker(target.toString());
    const b = await worker(target.toString());
    const balancer = await proxy(a.port);

    await open(page, `ws://127.0.0.1:${balancer.port}/agent?token=${token}`);
    await expect(status(page)).toContainText('Agent: connected');
    await say(page, 'start a 20 minute focus');
    await expect(pomodoroPhase(page)).toHaveAttribute('data-phase', 'running');
    await expect(agentTurns(page).last()).toContainText('The timer is running');

    balancer.switchTo(b.port);
    a.child.kill('SIGKILL');
    await expect(status(page)).not.toContainText('Agent: connected');
    await expect(status(page)).toContainText('Agent: connected', { timeout: 40_000 });
    await say(page, 'stop');
    // B answers once A's lease on the conversation has run out: the stop may wait that long (as the turn below).
    await expect(pomodoroWorkspace(page)).toHaveCount(0, { timeout: 30_000 });
    await expect(
      agentTurns(page).filter({ hasText: 'Stopped: the timer is no longer running.' }),
    ).toHaveCount(1, {
      timeout: 30_000,
    });
    await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);
    await page.waitForTimeout(1_000);
    await expect(agentTurns(page).filter({ hasText: 'The timer is running' })).toHaveCount(1);
    const { rows } = await store.db.query<{ tool: string; status: string }>(
      'SELECT tool, status FROM lineup_tool_calls ORDER BY sent_at',
    );
    expect(rows.map((row) => [row.tool, row.status])).toEqual([
      ['pomodoro.start', 'final'],
      ['pomodoro.interrupt', 'final'],
    ]);
    await page.screenshot({ path: 'test-results/agent-host-two-workers.png', fullPage: true });
  });
});

test.describe('a stream across a restart', () => {
  // While the agent host goes down and is down, the page's attempts to dial it fail at the connection (and
  // Chromium logs each one): refused once the port is closed, reset or closed unanswered while it is closing. A
  // handshake the host answers with an error status is still a failure.
  test.use({
    allowedConsoleErrors:
      /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/agent\?token=[^']+' failed: .*(ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|Connection closed before receiving a handshake response)/,
  });

  test('a streamed UI across a restart: the old run’s patch is refused, the model reopens it from the snapshot, the page shows the new generation', async ({
    page,
  }) => {
    test.slow();
    const [first, second] = streamMutations as unknown[];
    const script: ((messages: readonly ChatMessage[]) => ChatCompletion)[] = [
      () => toolCallCompletion('call_open_1', 'intelligent_ui_open', { document: streamInitial }),
      () =>
        toolCallCompletion('call_patch_1', 'intelligent_ui_patch', {
          sourceCallId: 'call_open_1',
          generation: 1,
          baseRevision: 0,
          mutation: first,
        }),
      () => textCompletion('Here is the start of your projection.'),
      // After the restart: the old cursor is refused; the model reopens from the snapshot it is given, patches, completes.
      () =>
        toolCallCompletion('call_patch_2', 'intelligent_ui_patch', {
          sourceCallId: 'call_open_1',
          generation: 1,
          baseRevision: 1,
          mutation: second,
        }),
      (messages) => {
        const refusal = String(messages.at(-1)?.content ?? '');
        return toolCallCompletion('call_open_2', 'intelligent_ui_open', {
          document: JSON.parse(refusal.slice(refusal.indexOf('\n{') + 1)),
        });
      },
      () =>
        toolCallCompletion('call_patch_3', 'intelligent_ui_patch', {
          sourceCallId: 'call_open_2',
          generation: 2,
          baseRevision: 0,
          mutation: second,
        }),
      () =>
        toolCallCompletion('call_complete_2', 'intelligent_ui_complete', {
          sourceCallId: 'call_open_2',
          generation: 2,
          baseRevision: 1,
        }),
      () => textCompletion('Continued in a new generation.'),
    ];
    const model: ChatModel = {
      async complete(messages) {
        const next = script.shift();
        if (next === undefined) throw new Error('The scripted model has no more answers.');
        return next(messages);
      },
    };
    const folder = mkdtempSync(join(tmpdir(), 'lineup-agent-e2e-'));
    let store = await AgentStore.open(await openPGlite(folder));
    let host = await startAgentHost({ store, brain: chatCompletionsBrain({ model }), port: 0 });
    running.push({ folder, store, host, problems: [] });
    const token = await store.issueDeviceToken('e2e-stream');
    await open(page, deviceUrl(host, token));
    await expect(status(page)).toContainText('Agent: connected');
    await say(page, 'show me my savings, step by step');
    await expect(agentTurns(page).last()).toContainText('Here is the start of your projection.');
    await expect(page.getByText('Balance after 10 years').last()).toBeVisible();

    const port = host.port;
    await host.close();
    await store.close();
    store = await AgentStore.open(await openPGlite(folder));
    host = await startAgentHost({ store, brain: chatCompletionsBrain({ model }), port });
    Object.assign(running[0] as Running, { store, host });
    await expect(status(page)).toContainText('Agent: connected', { timeout: 40_000 });
    await say(page, 'go on');
    await expect(agentTurns(page).last()).toContainText('Continued in a new generation.');
    // The page shows the new generation, completed: the title its second patch set, the balance from the snapshot.
    await expect(page.getByText('Projected balance').last()).toBeVisible();
    await expect(page.getByText('Balance after 10 years').last()).toBeVisible();
    // Generation 1 will take no more steps: it keeps its last valid snapshot and says it was interrupted (seed 004
    // §5), it no longer says it is generating.
    const streams = page.locator('.lu-stream');
    await expect(streams).toHaveCount(2);
    await expect(streams.first()).toHaveAttribute('data-status', 'interrupted');
    await expect(streams.first()).toContainText(
      'Generation was interrupted; this is the last complete version.',
    );
    await expect(streams.last()).toHaveAttribute('data-status', 'completed');
    await expect(page.getByText('Generating…')).toHaveCount(0);
    const { rows } = await store.db.query<{ generation: number; status: string; epoch: string }>(
      'SELECT generation, status, epoch FROM lineup_streams ORDER BY generation',
    );
    expect(rows.map((row) => [row.generation, row.status, Number(row.epoch) === store.epoch])).toEqual([
      [1, 'streaming', false],
      [2, 'completed', true],
    ]);
    await page.screenshot({ path: 'test-results/agent-host-stream-restart.png', fullPage: true });
    // In Chinese, the same: the interrupted generation says so in the host's language.
    await page.getByRole('button', { name: '中文' }).click();
    await expect(streams.first()).toContainText('生成已中断；这是最后一个完整版本。');
    await page.screenshot({ path: 'test-results/agent-host-stream-restart-zh.png', fullPage: true });
  });
});
