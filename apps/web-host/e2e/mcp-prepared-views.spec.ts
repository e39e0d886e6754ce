import type { Page } from '@playwright/test';
import { z } from 'zod';
import { expect, test } from './fixtures.ts';
import {
  addMcpServer as addServer,
  answerToolQuestion,
  callToolFromConsole as callFromConsole,
  MCP_CORPUS,
  mcpUrl,
  toolQuestion,
  viewFrame,
} from './mcp-servers.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';

/**
 * MCP App views prepared ahead (`PreparedMcpViews`, src/conversation/mcp-views.ts) in the built host: a server just
 * installed gets its view loaded and initialized out of sight, and the call's view is that very document, moved into
 * the conversation without reloading; another is prepared for the next call; after a reload, one is prepared once the
 * user sends a message; a disabled server's prepared view is discarded; and what a prepared view asks for before it
 * is shown waits, reaching nothing until its call shows it.
 */

const [VANILLA] = MCP_CORPUS;
const PREPARED = '[data-lineup-prepared-view] iframe';

let servers: TestMcpServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function openHost(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
}

/** Marks the document of the view waiting prepared, to recognise it after it is shown. */
async function markPrepared(page: Page, mark: string): Promise<void> {
  await expect(page.locator(PREPARED)).toHaveCount(1, { timeout: 15_000 });
  await page
    .frameLocator(PREPARED)
    .frameLocator('iframe')
    .locator('html')
    .evaluate((_root, value) => {
      (window as unknown as { mark: string }).mark = value;
    }, mark);
}

const markOf = (view: ReturnType<typeof viewFrame>) =>
  view.locator('html').evaluate(() => (window as unknown as { mark?: string }).mark ?? null);

test('a server’s view is prepared at install, shown at its call without reloading, and again for the next call', async ({
  page,
}) => {
  await openHost(page);
  const center = await addServer(page, mcpUrl(VANILLA.port));
  await markPrepared(page, 'first');
  // Out of sight: the holder is inert, hidden from assistive technology, transparent.
  const holder = page.locator('[data-lineup-prepared-view]');
  await expect(holder).toHaveAttribute('aria-hidden', 'true');
  expect(await holder.evaluate((element) => (element as HTMLElement).inert)).toBe(true);

  // Allowed for the conversation: the view's button and the next call run without asking again.
  const first = await callFromConsole(page, 'basic_mcp_app_server_vanilla_js.get_time', {}, 'remember');
  await expect(first.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  const view = viewFrame(page);
  await expect(view.locator('#server-time')).toHaveText(/\d{4}-\d\d-\d\dT/, { timeout: 15_000 });
  // The view in the conversation is the document prepared ahead.
  expect(await markOf(view)).toBe('first');
  await expect(page.locator('.host__mcp-view iframe').last()).toHaveAttribute(
    'data-instance-id',
    /^mcp\.prepared\./,
  );
  // Its button still reaches the server through the runtime.
  const shown = await view.locator('#server-time').textContent();
  await page.waitForTimeout(1_100);
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  await expect(view.locator('#server-time')).not.toHaveText(shown ?? '', { timeout: 15_000 });

  // The next call finds another ready.
  await markPrepared(page, 'second');
  const second = await callFromConsole(page, 'basic_mcp_app_server_vanilla_js.get_time', {}, 'none');
  await expect(second.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  // The second view's frame (its entry may show before its frame is in it).
  await expect(page.locator('.host__mcp-view iframe')).toHaveCount(2);
  await expect(viewFrame(page).locator('#server-time')).toHaveText(/\d{4}-\d\d-\d\dT/, { timeout: 15_000 });
  expect(await markOf(viewFrame(page))).toBe('second');

  // Disabled: the view waiting for its next call is discarded.
  await expect(page.locator(PREPARED)).toHaveCount(1, { timeout: 15_000 });
  const app = center.getByRole('listitem', { name: 'Basic MCP App Server (Vanilla JS)' });
  await app.getByRole('button', { name: 'Disable Basic MCP App Server (Vanilla JS)' }).click();
  await expect(app).toContainText('disabled');
  await expect(page.locator('[data-lineup-prepared-view]')).toHaveCount(0);
});

test('after a reload nothing is prepared until the user says something; then the server’s view is, and the call shows it', async ({
  page,
}) => {
  await openHost(page);
  await addServer(page, mcpUrl(VANILLA.port));
  await expect(page.locator(PREPARED)).toHaveCount(1, { timeout: 15_000 });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  await page.waitForTimeout(1_500);
  await expect(page.locator(PREPARED)).toHaveCount(0);
  await page.getByLabel('Message to the agent').fill('hello');
  await page.getByLabel('Message to the agent').press('Enter');
  await markPrepared(page, 'after the message');
  const call = await callFromConsole(page, 'basic_mcp_app_server_vanilla_js.get_time');
  await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  await expect(viewFrame(page).locator('#server-time')).toHaveText(/\d{4}-\d\d-\d\dT/, { timeout: 15_000 });
  expect(await markOf(viewFrame(page))).toBe('after the message');
});

/** A view that calls its server's tool as soon as it initialized, and shows the answer and its call's input. */
const EAGER_VIEW = `<!doctype html><html><body><p id="out">starting</p><p id="input">none</p><script type="module">
let next = 1;
const pending = new Map();
const rpc = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
window.addEventListener('message', (event) => {
  const message = event.data;
  if (message && message.method === 'ui/notifications/tool-input')
    document.getElementById('input').textContent = JSON.stringify(message.params.arguments);
  if (message && message.id !== undefined && pending.has(message.id)) {
    pending.get(message.id)(message);
    pending.delete(message.id);
  }
});
await rpc('ui/initialize', { appInfo: { name: 'eager', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
document.getElementById('out').textContent = 'waiting';
const answer = await rpc('tools/call', { name: 'stamp', arguments: {} });
document.getElementById('out').textContent = answer.error ? 'refused: ' + answer.error.message : answer.result.content[0].text;
</script></body></html>`;

test.describe('a view that asks at once', () => {
  // The SDK's client asks the test server for a stream it does not offer (405, logged by the browser).
  test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)/ });
  test('what a prepared view asks for waits until its call shows it, and reaches nothing before', async ({
    page,
  }) => {
    const eager = await startTestMcpServer({
      name: 'Eager',
      tools: [
        {
          name: 'show',
          input: z.object({ topic: z.string() }),
          view: 'ui://eager/view.html',
          run: () => ({ content: [{ type: 'text', text: 'shown' }] }),
        },
        { name: 'stamp', visibility: ['app'], run: () => ({ content: [{ type: 'text', text: 'stamped' }] }) },
      ],
      views: { 'ui://eager/view.html': EAGER_VIEW },
    });
    servers = [eager];
    await openHost(page);
    await addServer(page, eager.url);
    await expect(page.locator(PREPARED)).toHaveCount(1, { timeout: 15_000 });
    const prepared = page.frameLocator(PREPARED).frameLocator('iframe');
    // Initialized out of sight; its tool call waits: nothing reached the server.
    await expect(prepared.locator('#out')).toHaveText('waiting');
    await page.waitForTimeout(500);
    await expect(prepared.locator('#out')).toHaveText('waiting');
    expect(eager.calls).toEqual([]);
    await markPrepared(page, 'eager');

    await callFromConsole(page, 'eager.show', { 'topic (required)': 'tides' }, 'none');
    // Shown beside the call while the user is asked: no input yet, and nothing reached the server.
    await expect(toolQuestion(page)).toContainText('eager.show');
    const view = viewFrame(page);
    await expect(view.locator('#out')).toHaveText('waiting', { timeout: 15_000 });
    await page.waitForTimeout(500);
    await expect(view.locator('#input')).toHaveText('none');
    expect(eager.calls).toEqual([]);
    await answerToolQuestion(page);
    // Allowed: its input arrives; its waiting call goes on as this view's local UI action — and asks in turn.
    await expect(view.locator('#input')).toHaveText('{"topic":"tides"}', { timeout: 15_000 });
    await expect(toolQuestion(page)).toContainText('The view of the MCP server');
    await expect.poll(() => eager.calls).toEqual(['show']);
    await answerToolQuestion(page);
    await expect(view.locator('#out')).toHaveText('stamped', { timeout: 15_000 });
    expect(await markOf(view)).toBe('eager');
    expect([...eager.calls].sort()).toEqual(['show', 'stamp']);
  });
});
