import { MCP_SERVER_LIMITS } from '@lineup/shared/protocol';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  addMcpServer,
  answerToolQuestion,
  callToolFromConsole,
  corpusServer,
  mcpUrl,
  toolQuestion,
  viewFrame,
} from './mcp-servers.ts';
import { startTestMcpServer } from './test-mcp-server.ts';

/**
 * The rest of the corpus (e2e/mcp-servers.ts): more of the ext-apps project's example servers from the npm registry,
 * each installed into the built host by URL, its tool called from the agent console, and its kept view shown
 * contained — the basic view in Preact, Solid, Svelte and Vue (its button calls the server again), four data views
 * (Chart.js, React), a WebGL one and sheet music (the two largest views, 614 and 706 KiB); and a view larger than
 * this host keeps (2 MiB by default), refused with the reason. No request of the page leaves 127.0.0.1.
 * (`mcp-apps.spec.ts` does the vanilla JS and React servers in depth.)
 */

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

async function openHost(page: Page): Promise<string[]> {
  const outside: string[] = [];
  page.context().on('request', (request) => {
    const url = request.url();
    if (!/^(http:\/\/127\.0\.0\.1[:/]|data:|about:|blob:)/.test(url)) outside.push(url);
  });
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  return outside;
}

/** The server's view in the conversation, after its call completed. */
async function calledView(page: Page, tool: string, name: string) {
  // Allowed for the conversation: the view's own calls of the same tool then run without asking again.
  const call = await callToolFromConsole(page, tool, {}, 'remember');
  await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  const view = page.locator('.host__mcp-view').filter({ hasText: name }).last();
  await expect(view).toBeVisible({ timeout: 30_000 });
  await view.scrollIntoViewIfNeeded();
  return view;
}

const BASIC = [
  ['mcp-server-basic-preact', 'Preact'],
  ['mcp-server-basic-solid', 'Solid'],
  ['mcp-server-basic-svelte', 'Svelte'],
  ['mcp-server-basic-vue', 'Vue'],
] as const;

for (const [bin, framework] of BASIC)
  test(`the basic MCP App server in ${framework}: installed, called, its view answering`, async ({
    page,
  }) => {
    const outside = await openHost(page);
    const name = `Basic MCP App Server (${framework})`;
    const scope = `basic_mcp_app_server_${framework.toLowerCase()}`;
    await addMcpServer(
      page,
      mcpUrl(corpusServer(bin).port),
      new RegExp(`^Installed ${name.replace(/[()]/g, '\\$&')} 1\\.0\\.0\\+[0-9a-f]{12}\\.$`),
    );
    const view = await calledView(page, `${scope}.get_time`, name);
    const body = viewFrame(page).locator('body');
    await expect(body).toContainText(/Server Time: ?\d{4}-/, { timeout: 30_000 });
    const time = viewFrame(page).getByText(ISO_TIME).first();
    const first = (await time.textContent())?.match(ISO_TIME)?.[0];
    expect(first).toBeDefined();
    // Its button calls the server's tool through the runtime: another time comes back.
    await page.waitForTimeout(1_100);
    await viewFrame(page).getByRole('button', { name: 'Get Server Time' }).click();
    await expect
      .poll(async () => (await time.textContent())?.match(ISO_TIME)?.[0], { timeout: 15_000 })
      .not.toBe(first);
    await view.screenshot({ path: `test-results/mcp-corpus-basic-${framework.toLowerCase()}.png` });
    await page.getByRole('button', { name: `Close the view of ${name}` }).click();
    await expect(page.locator('.host__mcp-view')).toHaveCount(0);
    expect(outside).toEqual([]);
  });

const DATA = [
  [
    'mcp-budget-allocator-server',
    'Budget Allocator Server',
    'budget_allocator_server.get_budget_data',
    'Budget Allocator',
  ],
  [
    'mcp-cohort-heatmap-server',
    'Cohort Heatmap Server',
    'cohort_heatmap_server.get_cohort_data',
    'Cohort Retention Analysis',
  ],
  [
    'mcp-customer-segmentation-server',
    'Customer Segmentation Server',
    'customer_segmentation_server.get_customer_data',
    'Customer Segmentation',
  ],
  [
    'mcp-scenario-modeler-server',
    'SaaS Scenario Modeler',
    'saas_scenario_modeler.get_scenario_data',
    'SaaS Scenario Modeler',
  ],
  ['mcp-shadertoy-server', 'ShaderToy Server', 'shadertoy_server.render_shadertoy', 'canvas'],
  ['mcp-sheet-music-server', 'Sheet Music Server', 'sheet_music_server.play_sheet_music', 'svg'],
] as const;

test.describe('data views', () => {
  // A view that asks its server for data as it starts, prepared out of sight at the install and replaced by the one
  // the call opened, logs the refusal of that request in its own frame (README: "Views prepared ahead").
  test.use({ allowedConsoleErrors: /The view was closed before it was shown/ });
  for (const [bin, name, tool, heading] of DATA)
    test(`${name}: installed, called, its view drawn with the call's data`, async ({ page }) => {
      const outside = await openHost(page);
      await addMcpServer(page, mcpUrl(corpusServer(bin).port), new RegExp(`^Installed ${name} 1\\.0\\.0\\+`));
      const view = await calledView(page, tool, name);
      if (heading === 'canvas' || heading === 'svg') {
        // A WebGL canvas, or the notes engraved as SVG (beside the icons' small ones), across the view.
        const drawings = viewFrame(page).locator(heading);
        await expect(drawings.first()).toBeVisible({ timeout: 30_000 });
        await expect
          .poll(
            async () =>
              Math.max(
                0,
                ...(await drawings.evaluateAll((all) =>
                  all.map((each) => each.getBoundingClientRect().width),
                )),
              ),
            { timeout: 30_000 },
          )
          .toBeGreaterThan(300);
      } else await expect(viewFrame(page).locator('body')).toContainText(heading, { timeout: 30_000 });
      await view.screenshot({ path: `test-results/mcp-corpus-${bin}.png` });
      expect(outside).toEqual([]);
    });
});

test('System Monitor: its view asks to poll a tool only views call; allowed, it draws live figures', async ({
  page,
}) => {
  const outside = await openHost(page);
  const name = 'System Monitor Server';
  await addMcpServer(
    page,
    mcpUrl(corpusServer('mcp-system-monitor-server').port),
    /^Installed System Monitor Server 1\.0\.0\+/,
  );
  const view = await calledView(page, 'system_monitor_server.get_system_info', name);
  await expect(viewFrame(page).locator('body')).toContainText('System Monitor', { timeout: 30_000 });
  // Its view polls poll-system-stats, a tool only views call: the user is asked, and allows it for the conversation.
  await expect(toolQuestion(page)).toContainText('system_monitor_server.poll-system-stats', {
    timeout: 30_000,
  });
  await answerToolQuestion(page, 'remember');
  // The figures arrive: memory in use out of the total, and an uptime.
  await expect(viewFrame(page).locator('body')).not.toContainText('-- / --', { timeout: 30_000 });
  await view.screenshot({ path: 'test-results/mcp-corpus-mcp-system-monitor-server.png' });
  expect(outside).toEqual([]);
});

test.describe('Three.js', () => {
  // The view's own error, logged in its frame.
  test.use({ allowedConsoleErrors: /unsafe-eval|Content Security Policy/ });
  test('installed (1.12 MiB) and called; its view runs the scene as code from a string, which no view may', async ({
    page,
  }) => {
    const outside = await openHost(page);
    await addMcpServer(
      page,
      mcpUrl(corpusServer('mcp-threejs-server').port),
      /^Installed Three\.js Server 1\.0\.0\+/,
    );
    const view = await calledView(page, 'three_js_server.show_threejs_scene', 'Three.js Server');
    // `new Function(code)`: the frame's policy has no 'unsafe-eval' (the containment suite's "eval and Function").
    await expect(viewFrame(page).locator('body')).toContainText(
      "'unsafe-eval' is not an allowed source of script",
      {
        timeout: 30_000,
      },
    );
    await view.screenshot({ path: 'test-results/mcp-corpus-mcp-threejs-server.png' });
    expect(outside).toEqual([]);
  });
});

test.describe('a view larger than the host keeps', () => {
  // The SDK's client asks the test server for a stream it does not offer (405, logged by the browser).
  test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)/ });
  test('is refused with both sizes, and nothing is installed', async ({ page }) => {
    const bound = MCP_SERVER_LIMITS.defaultMaxViewBytes;
    const head = '<!doctype html><html><body><p>Large</p><!--';
    const tail = '--></body></html>';
    const uri = 'ui://large/view.html';
    const server = await startTestMcpServer({
      name: 'Large View',
      tools: [{ name: 'show', view: uri, run: () => ({ content: [{ type: 'text', text: 'shown' }] }) }],
      views: { [uri]: `${head}${'x'.repeat(bound + 1 - head.length - tail.length)}${tail}` },
    });
    try {
      await openHost(page);
      const center = page.locator('aside.host__apps');
      const revision = await center.locator('.host__inventory code').textContent();
      const apps = await center.locator('.host__app').count();
      await center.getByLabel('MCP server URL (Streamable HTTP)').fill(server.url);
      await center.getByRole('button', { name: 'Add server' }).click();
      const alert = center.getByRole('alert');
      await expect(alert).toContainText('Not installed. One of its views cannot be kept; nothing was kept.', {
        timeout: 30_000,
      });
      const text = (await alert.textContent()) ?? '';
      expect(text).toContain(`The view ${uri} is ${bound + 1} bytes`);
      expect(text).toContain(`this host keeps views of at most ${bound} bytes`);
      await expect(center.locator('.host__inventory code')).toHaveText(revision ?? '');
      expect(await center.locator('.host__app').count()).toBe(apps);
    } finally {
      await server.close();
    }
  });
});
