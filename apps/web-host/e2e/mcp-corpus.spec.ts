import { MCP_SERVER_LIMITS } from '@lineup/shared/protocol';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  addMcpServer,
  answerToolQuestion,
  CORPUS_PDF,
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
 * (Chart.js, React), a WebGL one and sheet music (the two largest views, 614 and 706 KiB); views that need what a
 * contained view never gets, each showing in itself what it could not do — a video read back as a server resource,
 * the microphone, Wikipedia, CesiumJS from its CDN; the PDF viewer, the largest view (4.1 MiB), given a local PDF;
 * and a view larger than this host keeps (8 MiB by default), refused with the reason. No request of the page leaves
 * 127.0.0.1.
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

/** The agent console's entry of the latest call of `tool`. */
function consoleCall(page: Page, tool: string) {
  return page
    .getByRole('region', { name: 'Agent console' })
    .getByRole('listitem', { name: new RegExp(`^${tool.replace(/\./g, '\\.')} call_console_`) })
    .last();
}

/** The server's view in the conversation, after its call (with `fields` filled in) completed. */
async function calledView(
  page: Page,
  tool: string,
  name: string,
  fields: Readonly<Record<string, string>> = {},
) {
  // Allowed for the conversation: the view's own calls of the same tool then run without asking again.
  const call = await callToolFromConsole(page, tool, fields, 'remember');
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

test('ShaderToy: its own full-screen button shows it full screen, drawn still; its Escape brings it back', async ({
  page,
}) => {
  const outside = await openHost(page);
  const name = 'ShaderToy Server';
  await addMcpServer(
    page,
    mcpUrl(corpusServer('mcp-shadertoy-server').port),
    /^Installed ShaderToy Server 1\.0\.0\+/,
  );
  const view = await calledView(page, 'shadertoy_server.render_shadertoy', name);
  const canvas = viewFrame(page).locator('canvas').first();
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  const inlineWidth = (await canvas.boundingBox())?.width ?? 0;
  // Its button asks for full screen (ui/request-display-mode): the frame moves into the host's dialog, not reloaded.
  await viewFrame(page).locator('#fullscreen-btn').click();
  const dialog = page.locator('dialog.host__mcp-fullscreen');
  await expect(dialog).toBeVisible();
  const full = dialog.locator('iframe').contentFrame().locator('iframe').contentFrame();
  await expect(full.locator('canvas').first()).toBeVisible();
  await expect
    .poll(async () => (await full.locator('canvas').first().boundingBox())?.width ?? 0)
    .toBeGreaterThan(inlineWidth);
  await page.screenshot({ path: 'test-results/mcp-corpus-shadertoy-fullscreen.png' });
  // Escape in the view: the view asks for inline itself, and the host hears the Escape too; either way it comes back.
  await full.locator('canvas').first().click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(view.locator('iframe')).toHaveCount(1);
  await expect(viewFrame(page).locator('canvas').first()).toBeVisible();
  expect(outside).toEqual([]);
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

test.describe('Video Resource', () => {
  // The view's own log of the refused read, in its frame.
  test.use({
    allowedConsoleErrors: /Error fetching resource: ProtocolError: videos:\/\/bunny-1mb is not kept/,
  });
  test('installed and called; its view draws, and shows in itself that it could not load the video', async ({
    page,
  }) => {
    const outside = await openHost(page);
    const name = 'Video Resource Server';
    await addMcpServer(
      page,
      mcpUrl(corpusServer('mcp-video-resource-server').port),
      /^Installed Video Resource Server 1\.0\.0\+/,
    );
    const view = await calledView(page, 'video_resource_server.play_video', name, { videoId: 'bunny-1mb' });
    // The call's result names the video as a resource of the server…
    await expect(consoleCall(page, 'video_resource_server.play_video')).toContainText(
      '"videoUri": "videos://bunny-1mb"',
    );
    // …which the view then asks the host to read (`resources/read`): none of the server's kept views, so refused
    // with why, a JSON-RPC error (it never reaches the server, which could not fetch the video offline anyway). The
    // view says so in its own document.
    const frame = viewFrame(page);
    await expect(frame.locator('#error')).toBeVisible({ timeout: 30_000 });
    await expect(frame.locator('#error .error-title')).toHaveText('Error loading video');
    await expect(frame.locator('#error-message')).toHaveText(
      "videos://bunny-1mb is not kept: a view may read only its server's views as kept at install, never a resource fetched again.",
    );
    await expect(frame.locator('#player')).toBeHidden();
    // The host is whole: no problem shown for the view, the agent still connected, the view closes.
    await expect(view.locator('.host__surface-problem')).toHaveCount(0);
    await view.screenshot({ path: 'test-results/mcp-corpus-mcp-video-resource-server.png' });
    await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
      'Agent: connected (demo agent)',
    );
    await page.getByRole('button', { name: `Close the view of ${name}` }).click();
    await expect(page.locator('.host__mcp-view')).toHaveCount(0);
    expect(outside).toEqual([]);
  });
});

test.describe('Transcript', () => {
  // The browser's refusal of the microphone to the view's frame, and the view's own log of it.
  test.use({
    allowedConsoleErrors:
      /microphone is not allowed in this document|\[Transcript\] Failed to start audio capture/,
  });
  test('installed and called; the app center lists the devices it declares, and its view gets no microphone', async ({
    page,
  }) => {
    const outside = await openHost(page);
    const name = 'Transcript Server';
    const center = await addMcpServer(
      page,
      mcpUrl(corpusServer('mcp-transcript-server').port),
      /^Installed Transcript Server 1\.0\.0\+/,
    );
    // It declares `permissions: {microphone, clipboardWrite}`: the center offers clipboard writing (not granted), and
    // says the microphone is never given.
    const views = center.getByRole('list', { name: `${name} Views` });
    await expect(views).toContainText('ui://transcript/mcp-app.html');
    await expect(views).toContainText(
      'It asks to use the clipboard (writing). Not allowed: it runs with no network and no device.',
    );
    await expect(views).toContainText(
      'It declares it needs the camera or the microphone, which LineUp never gives a view.',
    );
    // It asks for a device only: the button allows devices, not "connections".
    await expect(
      views.getByRole('button', {
        name: 'Allow these devices: ui://transcript/mcp-app.html to use the clipboard (writing)',
      }),
    ).toHaveText('Allow these devices');
    await views.screenshot({ path: 'test-results/mcp-corpus-mcp-transcript-server-app-center.png' });
    const view = await calledView(page, 'transcript_server.transcribe', name);
    await expect(view.locator('.host__mcp-view-note')).toHaveText(
      'Its view declares that it needs network or device access it was not given; it runs without.',
    );
    const frame = viewFrame(page);
    await expect(frame.locator('.transcript-placeholder')).toHaveText('Your speech will appear here...', {
      timeout: 30_000,
    });
    // Start asks the browser for the microphone: the contained frame has none to give.
    await frame.getByRole('button', { name: 'Start' }).click();
    await expect(frame.locator('#transcript')).toContainText('Microphone access denied', { timeout: 15_000 });
    await expect(frame.getByRole('button', { name: 'Start' })).toBeVisible();
    await view.screenshot({ path: 'test-results/mcp-corpus-mcp-transcript-server.png' });
    expect(outside).toEqual([]);
  });
});

test('Wiki Explorer: installed and called with no internet; its view draws the page it could not fetch as an error', async ({
  page,
}) => {
  const outside = await openHost(page);
  const name = 'Wiki Explorer';
  const url = 'https://en.wikipedia.org/wiki/Model_Context_Protocol';
  await addMcpServer(
    page,
    mcpUrl(corpusServer('mcp-wiki-explorer-server').port),
    /^Installed Wiki Explorer 1\.0\.0\+/,
  );
  // Its default page, named: the result is the page with no links and the server's `error`, not an error result.
  const view = await calledView(page, 'wiki_explorer.get_first_degree_links', name, { url });
  await expect(consoleCall(page, 'wiki_explorer.get_first_degree_links')).toContainText(
    '"error": "fetch failed"',
  );
  const frame = viewFrame(page);
  const canvas = frame.locator('#graph canvas');
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  expect((await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(300);
  // The page's node, at the graph's centre: clicked (in its upper half, so that the popup opens below in the short
  // frame), its popup shows the error instead of an Expand button.
  const popup = frame.locator('#popup');
  await expect
    .poll(
      async () => {
        const box = await canvas.boundingBox();
        if (box !== null) await canvas.click({ position: { x: box.width / 2, y: box.height / 2 - 25 } });
        return popup.isVisible();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await expect(popup.locator('.popup-title')).toHaveText('Model Context Protocol');
  await expect(popup.locator('.popup-error')).toHaveText('fetch failed');
  await expect(popup.locator('#expand-btn')).toBeHidden();
  await view.screenshot({ path: 'test-results/mcp-corpus-mcp-wiki-explorer-server.png' });
  expect(outside).toEqual([]);
});

test.describe('CesiumJS map', () => {
  // The view adds CesiumJS from its CDN as it starts: refused by the frame's policy, and its own log of that (once
  // for the view prepared at the install, once for the call's).
  test.use({
    allowedConsoleErrors:
      /\[APP\] Failed to initialize: TypeError: LineUp Surface: a Surface cannot load scripts or workers|Content Security Policy|Trusted Types/,
  });
  test('installed and called; the app center shows the origins it asks for, and its view reaches none', async ({
    page,
  }) => {
    const outside = await openHost(page);
    const name = 'CesiumJS Map Server';
    const center = await addMcpServer(
      page,
      mcpUrl(corpusServer('mcp-map-server').port),
      /^Installed CesiumJS Map Server 1\.0\.0\+/,
    );
    // Its declared `connectDomains`, offered to the user and not granted: the view runs with no network.
    const views = center.getByRole('list', { name: `${name} Views` });
    const origins = 'https://*.openstreetmap.org, https://cesium.com, https://*.cesium.com';
    await expect(views).toContainText(`It asks to connect to ${origins}`);
    await expect(views).toContainText('Not allowed: it runs with no network.');
    await expect(
      views.getByRole('button', {
        name: `Allow these connections: ui://cesium-map/mcp-app.html to ${origins}`,
      }),
    ).toBeVisible();
    await views.screenshot({ path: 'test-results/mcp-corpus-mcp-map-server-app-center.png' });
    const view = await calledView(page, 'cesiumjs_map_server.show_map', name, {
      west: '2.22',
      south: '48.81',
      east: '2.47',
      north: '48.90',
      label: 'Paris',
    });
    await expect(consoleCall(page, 'cesiumjs_map_server.show_map')).toContainText(
      'Displaying globe at: W:2.2200, S:48.8100, E:2.4700, N:48.9000 (Paris)',
    );
    await expect(view.locator('iframe')).toHaveCount(1);
    await expect(view.locator('iframe')).toBeVisible();
    // Its script element for CesiumJS never gets a source (the frame's Trusted Types policy refuses any): the view
    // says it could not start, and draws no globe.
    await expect(viewFrame(page).locator('#loading')).toHaveText(
      'Error: LineUp Surface: a Surface cannot load scripts or workers.',
      { timeout: 30_000 },
    );
    await expect(viewFrame(page).locator('#cesiumContainer canvas')).toHaveCount(0);
    await view.screenshot({ path: 'test-results/mcp-corpus-mcp-map-server.png' });
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

test.describe('PDF', () => {
  // pdf.js runs its parser in a worker it makes from a data: URL, and falls back to importing it: a view may do
  // neither (no workers, no code but its own), and pdf.js logs both.
  test.use({ allowedConsoleErrors: /Content Security Policy|Trusted Type|worker|Worker|fake worker|pdf/i });

  test('installed (4.1 MiB, the largest view) and called with a local PDF; its view draws pdf.js refusing to run without a worker', async ({
    page,
  }) => {
    const outside = await openHost(page);
    const name = 'PDF Server';
    const center = await addMcpServer(
      page,
      mcpUrl(corpusServer('mcp-pdf-server').port),
      /^Installed PDF Server /,
    );
    const views = center.getByRole('list', { name: `${name} Views` });
    await expect(views).toContainText('ui://pdf-viewer/mcp-app.html');
    await expect(views).toContainText('kept, 4.1 MiB');
    await views.screenshot({ path: 'test-results/mcp-corpus-mcp-pdf-server-app-center.png' });
    const view = await calledView(page, 'pdf_server.display_pdf', name, { url: CORPUS_PDF });
    await expect(consoleCall(page, 'pdf_server.display_pdf')).toContainText('"totalBytes": 592');
    // Its view reads the document through read_pdf_bytes, a tool only views call: the user is asked, and allows it.
    await expect(toolQuestion(page)).toContainText('pdf_server.read_pdf_bytes', { timeout: 30_000 });
    await answerToolQuestion(page, 'remember');
    // pdf.js parses in a worker made from a data: URL, then falls back to importing that URL: a view may do neither
    // (no workers; no code but its own, inline), so the view draws pdf.js's own refusal, and no page.
    const frame = viewFrame(page);
    await expect(frame.locator('body')).toContainText('Setting up fake worker failed', { timeout: 30_000 });
    await expect(frame.locator('body')).not.toContainText('Hello from LineUp');
    await view.screenshot({ path: 'test-results/mcp-corpus-mcp-pdf-server.png' });
    expect(outside).toEqual([]);
  });
});
