import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  addMcpServer as addServer,
  answerToolQuestion,
  callToolFromConsole as callFromConsole,
  MCP_CORPUS,
  mcpUrl,
  viewFrame,
} from './mcp-servers.ts';

/**
 * Real MCP App servers that the ext-apps project publishes on the npm registry (the corpus: e2e/mcp-servers.ts,
 * started over Streamable HTTP by playwright.config.ts), installed into the built host from its app center by URL,
 * their tool called from the agent console, their kept view shown beside the call in a contained frame with the
 * host's theme and language, a button in the view calling a server tool through the runtime, and a disabled server
 * refused. The views' console messages are their own (the SDK logs at debug level); the host page must log no error.
 */

const [VANILLA, REACT] = MCP_CORPUS;

async function openHost(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
}

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

test.describe('the vanilla JS MCP App server', () => {
  // The view logs the refusal of its call after the server was disabled (its own console, in its frame).
  test.use({ allowedConsoleErrors: /ProtocolError: disabled: This MCP server is disabled\./ });
  test('installed by URL, its tool called, its view contained and answering', async ({ page }) => {
    await openHost(page);
    const center = page.locator('aside.host__apps');
    const before = await center.locator('.host__inventory code').textContent();
    await addServer(
      page,
      mcpUrl(VANILLA.port),
      /^Installed Basic MCP App Server \(Vanilla JS\) 1\.0\.0\+[0-9a-f]{12}\.$/,
    );
    // The server is an app of the center: its tool, its kept view, a new inventory revision.
    const app = center.getByRole('listitem', { name: 'Basic MCP App Server (Vanilla JS)' });
    await expect(app).toContainText('MCP server');
    await expect(app).toContainText(`Server: ${mcpUrl(VANILLA.port)}`);
    await expect(app.getByRole('list', { name: /Agent Tools$/ })).toContainText(
      'basic_mcp_app_server_vanilla_js.get_time',
    );
    await expect(app).toContainText('ui://get-time/mcp-app.html');
    const after = await center.locator('.host__inventory code').textContent();
    expect(after).not.toBe(before);

    // The agent console calls it as an agent would: the whole pipeline, the server answers, the result goes out.
    const call = await callFromConsole(page, 'basic_mcp_app_server_vanilla_js.get_time');
    await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    // This server's tool has an output schema: the agent gets its structured content, checked against it.
    await expect(call.locator('.host__console-result')).toContainText('"time"');

    // Its view opens beside the call, contained, with the call's result.
    const view = viewFrame(page);
    await expect(view.locator('#server-time')).toHaveText(ISO_TIME, { timeout: 30_000 });
    const first = await view.locator('#server-time').textContent();
    // A button of the view calls the server's tool through the runtime (a local UI action): a new time comes back.
    await page.waitForTimeout(1_100);
    await view.getByRole('button', { name: 'Get Server Time' }).click();
    // The view's call asks the user first, as the agent's did (attributed to the view).
    await expect(page.getByRole('dialog')).toContainText('The view of the MCP server');
    await answerToolQuestion(page);
    await expect(view.locator('#server-time')).not.toHaveText(first ?? '', { timeout: 15_000 });
    await expect(view.locator('#server-time')).toHaveText(ISO_TIME);
    await page
      .locator('.host__mcp-view')
      .last()
      .screenshot({ path: 'test-results/mcp-view-vanillajs-light-en.png' });

    // The view's message goes into the message box, for the user to send (or not).
    await view.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByLabel('Message to the agent')).toHaveValue('This is message text.');
    await expect(page.locator('#chat-proposed')).toContainText('Basic MCP App Server (Vanilla JS)');

    // What the view logs (its "Send Log": notifications/message) shows in the agent console's view log.
    await view.getByRole('button', { name: 'Send Log' }).click();
    await expect(page.getByRole('log', { name: 'What views logged' })).toContainText(
      'Basic MCP App Server (Vanilla JS): get-time',
    );

    // Disabled: the tool leaves the inventory, and the view's own calls are refused.
    await app.getByRole('button', { name: 'Disable Basic MCP App Server (Vanilla JS)' }).click();
    await expect(app).toContainText('disabled');
    await expect(center.locator('.host__inventory code')).not.toHaveText(after ?? '');
    const region = page.getByRole('region', { name: 'Agent console' });
    await expect(region.getByLabel('Agent Tool', { exact: true }).locator('option')).not.toContainText([
      'basic_mcp_app_server_vanilla_js.get_time',
    ]);
    await view.getByRole('button', { name: 'Get Server Time' }).click();
    await expect(view.locator('#server-time')).toHaveText('[ERROR]', { timeout: 15_000 });

    // Closed: the view and its frames leave the conversation.
    await page.getByRole('button', { name: 'Close the view of Basic MCP App Server (Vanilla JS)' }).click();
    await expect(page.locator('.host__mcp-view')).toHaveCount(0);
    await expect(page.locator('.host__mcp-view iframe')).toHaveCount(0);
  });
});

for (const [scheme, language] of [
  ['light', 'en'],
  ['dark', 'zh'],
] as const)
  test.describe(`in ${language === 'en' ? 'English' : 'Chinese'}, ${scheme}`, () => {
    test.use({ locale: language === 'zh' ? 'zh-CN' : 'en-US', colorScheme: scheme });
    test(`the React MCP App server's view takes the host's theme and language`, async ({ page }) => {
      await page.goto('/');
      const center = page.locator('aside.host__apps');
      const label =
        language === 'zh' ? 'MCP 服务器 URL（Streamable HTTP）' : 'MCP server URL (Streamable HTTP)';
      await center.getByLabel(label).fill(mcpUrl(REACT.port));
      await center.getByRole('button', { name: language === 'zh' ? '添加服务器' : 'Add server' }).click();
      await expect(center.locator('.host__app-kind')).toHaveCount(1, { timeout: 30_000 });
      const region = page
        .locator('section.host__console, [aria-label="Agent console"], [aria-label="智能体控制台"]')
        .first();
      await region.locator('button[aria-expanded="false"]').first().click();
      await region.locator('select').first().selectOption('basic_mcp_app_server_react.get_time');
      await region.locator('button.host__console-call, button[type="submit"]').last().click();
      await answerToolQuestion(page);
      const view = viewFrame(page);
      // The React view shows the result and follows the host's theme (the SDK applies it to its document).
      await expect(view.locator('body')).toContainText(ISO_TIME, { timeout: 30_000 });
      await expect
        .poll(() => view.locator('html').evaluate((root) => getComputedStyle(root).colorScheme))
        .toContain(scheme);
      // A view measures itself in an animation frame, which Chromium runs only for frames in view (the console
      // below scrolled the page): once in view, the frame takes the height the view asks for.
      await page.locator('.host__mcp-view').last().scrollIntoViewIfNeeded();
      await expect
        .poll(() =>
          page
            .locator('.host__mcp-view iframe')
            .last()
            .evaluate((frame) => frame.clientHeight),
        )
        .toBeGreaterThan(200);
      await page.waitForTimeout(300);
      await page
        .locator('.host__mcp-view')
        .last()
        .screenshot({
          path: `test-results/mcp-view-react-${scheme}-${language}.png`,
        });
      await page.screenshot({
        path: `test-results/mcp-app-center-${scheme}-${language}.png`,
        fullPage: true,
      });
    });
  });
