import type { Page } from '@playwright/test';
import { confirmAgentLink } from './agent-page.ts';
import { expect, shownConversation, test } from './fixtures.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * A remote agent over a real WebSocket (`?agent=ws://…`), started by the test: the inventory arrives first, a chat
 * turn round-trips, and the agent drives the Pomodoro story while its socket is killed in the middle — the client
 * dials again, nothing is lost and nothing runs twice. The agent speaks the `lineup.v1.ack` subprotocol and
 * acknowledges every envelope, so the host keeps a row pending until the agent has it.
 */

/** What the agent got about `callId`: progress statuses and the final result's status. */
function about(agent: TestAgent, callId: string): string[] {
  return agent.received.flatMap((envelope) => {
    if (envelope.payload.call_id !== callId) return [];
    if (envelope.type === 'lineup.v1.tool.progress') return [String(envelope.payload.status)];
    if (envelope.type === 'lineup.v1.tool.result')
      return [
        `result ${(envelope.payload.result as { status?: string } | undefined)?.status ?? envelope.payload.outcome}`,
      ];
    return [];
  });
}

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a hook uses from this pattern.
test.afterEach(async ({}, testInfo) => {
  // A failure prints what the agent got (ids, types, call ids, statuses): what a flaky run needs to be understood.
  if (testInfo.status !== testInfo.expectedStatus)
    console.log(
      agent.received
        .map(
          (envelope) =>
            `${envelope.id} ${envelope.type} ${envelope.conversation_id} ${String(envelope.payload.call_id ?? envelope.payload.revision ?? '')} ${String(envelope.payload.status ?? envelope.payload.outcome ?? '')}`,
        )
        .join('\n'),
    );
  await agent.close();
});

async function open(page: Page) {
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await confirmAgentLink(page);
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    `Agent: connected (${agent.url})`,
  );
  // The agent writes into the conversation its first inventory came from: it must have arrived (else a call would
  // start another conversation, and a resend in the right one would be a new call there).
  await expect
    .poll(() => agent.received.some((envelope) => envelope.type === 'lineup.v1.client.inventory'))
    .toBe(true);
}

test('the inventory arrives first, and a chat turn round-trips', async ({ page }) => {
  await open(page);
  await expect.poll(() => agent.received.length).toBeGreaterThan(0);
  expect(agent.received[0]).toMatchObject({
    type: 'lineup.v1.client.inventory',
    conversation_id: await shownConversation(page),
    payload: { revision: 'inventory-2' },
  });
  await page.getByLabel('Message to the agent').fill('start a 20 minute focus');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect
    .poll(() => agent.received.filter((envelope) => envelope.type === 'lineup.v1.chat.user_message'))
    .toEqual([expect.objectContaining({ payload: { text: 'start a 20 minute focus' } })]);
  agent.send('lineup.v1.chat.agent_message', { text: 'Opening **Pomodoro** for 20 minutes.' });
  await expect(page.locator('.host__chat-turn--agent strong')).toHaveText('Pomodoro');
  // A remote agent is connected: the message box cannot speak for it.
  await page.getByLabel('Document or lineup.v1 message (JSON)').fill('{"v":1,"type":"lineup.v1.ui.close"}');
  await page.getByRole('button', { name: 'Deliver' }).click();
  await expect(page.locator('.host__note--refused').last()).toContainText('cannot speak for it');
});

test('the agent drives Pomodoro; its socket is killed mid-focus; nothing is lost or run twice', async ({
  page,
}) => {
  await page.clock.install();
  await open(page);
  agent.send('lineup.v1.tool.call', {
    call_id: 'call_ws_start',
    inventory_revision: 'inventory-2',
    tool: 'pomodoro.start',
    arguments: { minutes: 1 },
  });
  await expect.poll(() => about(agent, 'call_ws_start')).toEqual(['accepted', 'starting', 'started']);
  await expect(page.getByRole('region', { name: 'Pomodoro' })).toBeVisible();

  agent.refuse(true);
  agent.kill();
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: disconnected, retrying…',
  );
  // The focus completes while the agent is away: the result waits in the outbox.
  await page.clock.fastForward(61_000);
  await expect(
    page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]'),
  ).toHaveAttribute('data-phase', 'completed');
  expect(about(agent, 'call_ws_start')).toEqual(['accepted', 'starting', 'started']);
  // The agent is back: the next retry (at most 30 s away, by the page's clock) connects.
  agent.refuse(false);
  await page.clock.fastForward(31_000);
  await expect.poll(() => agent.connections(), { timeout: 15_000 }).toBe(2);
  // The outbox goes out after the new session's inventory; on a loaded machine that can take a few seconds.
  await expect
    .poll(() => about(agent, 'call_ws_start'), { timeout: 15_000 })
    .toEqual(['accepted', 'starting', 'started', 'result completed']);
  // The agent, unsure, sends the call again: it is answered from the record, not run again.
  agent.send('lineup.v1.tool.call', {
    call_id: 'call_ws_start',
    inventory_revision: 'inventory-2',
    tool: 'pomodoro.start',
    arguments: { minutes: 1 },
  });
  await expect.poll(() => about(agent, 'call_ws_start')).toHaveLength(5);
  expect(about(agent, 'call_ws_start')[4]).toBe('result completed');
  const calls = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('lineup-runtime');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const count = request.result.transaction('operations').objectStore('operations').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
  expect(calls).toBe(1);
  await page.screenshot({ path: 'test-results/agent-websocket.png', fullPage: true });
});

test('what the user says while the agent is away waits, survives a reload, and goes out once it is back', async ({
  page,
}) => {
  await page.clock.install();
  await open(page);
  await expect.poll(() => agent.received.length).toBeGreaterThan(0);
  agent.refuse(true);
  agent.kill();
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: disconnected, retrying…',
  );
  await page.getByLabel('Message to the agent').fill('are you still there?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const turn = page.locator('.host__chat-turn--user').filter({ hasText: 'are you still there?' });
  await expect(turn).toContainText('waiting for the agent');
  // The page is reloaded while the agent is still away: the turn is still there, still waiting.
  await page.reload();
  await expect(turn).toContainText('waiting for the agent');
  expect(agent.received.filter((envelope) => envelope.type === 'lineup.v1.chat.user_message')).toEqual([]);
  agent.refuse(false);
  await page.clock.fastForward(31_000);
  await expect
    .poll(() => agent.received.filter((envelope) => envelope.type === 'lineup.v1.chat.user_message'), {
      timeout: 15_000,
    })
    .toEqual([expect.objectContaining({ payload: { text: 'are you still there?' } })]);
  await expect(turn).not.toContainText('waiting for the agent', { timeout: 15_000 });
  await expect(turn).toHaveCount(1);
  // After the reconnect the inventory came before the waiting message.
  const types = agent.received.map((envelope) => envelope.type);
  expect(types.lastIndexOf('lineup.v1.client.inventory')).toBeLessThan(
    types.indexOf('lineup.v1.chat.user_message'),
  );
});

test('two browser profiles never send alike envelope ids; a profile keeps its id across reloads', async ({
  page,
  browser,
}) => {
  await open(page);
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await second.goto(`/?agent=${encodeURIComponent(agent.url)}`);
    await confirmAgentLink(second);
    await expect(second.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
      `Agent: connected (${agent.url})`,
    );
    const senders = () => [...new Set(agent.received.map((envelope) => envelope.id.split(':')[0]))];
    await expect.poll(() => senders().length).toBe(2);
    for (const sender of senders()) expect(sender).toMatch(/^web-host-[0-9a-f]{16}$/);
    // Both profiles count their outbox from 1, yet no envelope id is sent by both.
    const ids = agent.received.map((envelope) => envelope.id);
    expect(new Set(ids).size).toBe(ids.length);
    const before = senders();
    await second.reload();
    await expect(second.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
      `Agent: connected (${agent.url})`,
    );
    await expect.poll(() => agent.connections()).toBe(3);
    expect(senders()).toEqual(before);
  } finally {
    await other.close();
  }
});
