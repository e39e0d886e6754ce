import { fileURLToPath } from 'node:url';
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { answerGrantQuestionIfAsked } from './grant-question.ts';

/** A one-page PDF the PDF server is started with: the only document it may show (it reads no other offline). */
export const CORPUS_PDF = fileURLToPath(new URL('./fixtures/hello.pdf', import.meta.url));

/**
 * The MCP App servers of the e2e corpus: example servers that the ext-apps project publishes on the npm registry
 * (pinned dev dependencies of this app), started over Streamable HTTP by Playwright (`playwright.config.ts`), each on
 * its own port of 127.0.0.1. Nobody here wrote them.
 */
export const MCP_CORPUS = [
  { package: '@modelcontextprotocol/server-basic-vanillajs', bin: 'mcp-server-basic-vanillajs', port: 3411 },
  { package: '@modelcontextprotocol/server-basic-react', bin: 'mcp-server-basic-react', port: 3412 },
  // The same basic view in four more frameworks (mcp-corpus.spec.ts).
  { package: '@modelcontextprotocol/server-basic-preact', bin: 'mcp-server-basic-preact', port: 3413 },
  { package: '@modelcontextprotocol/server-basic-solid', bin: 'mcp-server-basic-solid', port: 3414 },
  { package: '@modelcontextprotocol/server-basic-svelte', bin: 'mcp-server-basic-svelte', port: 3415 },
  { package: '@modelcontextprotocol/server-basic-vue', bin: 'mcp-server-basic-vue', port: 3416 },
  // Data views (Chart.js, React, WebGL), and two large views (614 and 706 KiB).
  {
    package: '@modelcontextprotocol/server-budget-allocator',
    bin: 'mcp-budget-allocator-server',
    port: 3417,
  },
  { package: '@modelcontextprotocol/server-cohort-heatmap', bin: 'mcp-cohort-heatmap-server', port: 3418 },
  {
    package: '@modelcontextprotocol/server-customer-segmentation',
    bin: 'mcp-customer-segmentation-server',
    port: 3419,
  },
  { package: '@modelcontextprotocol/server-shadertoy', bin: 'mcp-shadertoy-server', port: 3420 },
  {
    package: '@modelcontextprotocol/server-scenario-modeler',
    bin: 'mcp-scenario-modeler-server',
    port: 3421,
  },
  { package: '@modelcontextprotocol/server-sheet-music', bin: 'mcp-sheet-music-server', port: 3422 },
  // Live system charts (its view polls a tool only views may call), and a Three.js scene (1.12 MiB).
  {
    package: '@modelcontextprotocol/server-system-monitor',
    bin: 'mcp-system-monitor-server',
    port: 3423,
  },
  { package: '@modelcontextprotocol/server-threejs', bin: 'mcp-threejs-server', port: 3424 },
  // Views that need more than a contained view gets: a video read back from the server as a resource, the
  // microphone, Wikipedia, and CesiumJS from its CDN; and the largest view (4.1 MiB: pdf.js and its worker inlined),
  // its server given one local PDF.
  {
    package: '@modelcontextprotocol/server-video-resource',
    bin: 'mcp-video-resource-server',
    port: 3425,
  },
  { package: '@modelcontextprotocol/server-transcript', bin: 'mcp-transcript-server', port: 3426 },
  { package: '@modelcontextprotocol/server-wiki-explorer', bin: 'mcp-wiki-explorer-server', port: 3427 },
  { package: '@modelcontextprotocol/server-map', bin: 'mcp-map-server', port: 3428 },
  { package: '@modelcontextprotocol/server-pdf', bin: 'mcp-pdf-server', port: 3429, args: [CORPUS_PDF] },
] as const satisfies readonly {
  readonly package: string;
  readonly bin: string;
  readonly port: number;
  readonly args?: readonly string[];
}[];

/** The corpus server of `bin`. */
export function corpusServer(bin: (typeof MCP_CORPUS)[number]['bin']): (typeof MCP_CORPUS)[number] {
  return MCP_CORPUS.find((server) => server.bin === bin) as (typeof MCP_CORPUS)[number];
}

/** A corpus server's Streamable HTTP URL. */
export const mcpUrl = (port: number) => `http://127.0.0.1:${port}/mcp`;

/** The view's own document (the frame inside the Surface wrapper) of the latest MCP view in the conversation. */
export function viewFrame(page: Page): FrameLocator {
  return page.locator('.host__mcp-view iframe').last().contentFrame().locator('iframe').contentFrame();
}

/**
 * Adds the MCP server at `url` from the app center and waits for `installed` in its status; returns the app center.
 * When its views declare what the user may grant, the install asks: answered "Not now" unless `grant` says otherwise
 * (`leave`: left open for the test to look at).
 */
export async function addMcpServer(
  page: Page,
  url: string,
  installed: RegExp = /^Installed /,
  grant: 'not now' | 'allow' | 'leave' = 'not now',
): Promise<Locator> {
  const center = page.locator('aside.host__apps');
  await center.getByLabel('MCP server URL (Streamable HTTP)').fill(url);
  await center.getByRole('button', { name: 'Add server' }).click();
  await expect(center.getByRole('status').filter({ hasText: installed })).toBeVisible({ timeout: 30_000 });
  if (grant !== 'leave') await answerGrantQuestionIfAsked(page, grant);
  return center;
}

/** The consent dialog while it asks about a tool call (an agent's, the console's, or a view's). */
export function toolQuestion(page: Page): Locator {
  return page.getByRole('dialog', { name: /asks to run a tool$|请求运行一个工具$/ });
}

/**
 * Answers the open tool question: Allow (ticking "remember for this conversation" when asked), Deny, or Escape. The
 * buttons take a press only a moment after the question shows, as a person's would.
 */
export async function answerToolQuestion(
  page: Page,
  answer: 'allow' | 'remember' | 'deny' | 'escape' = 'allow',
): Promise<void> {
  const dialog = toolQuestion(page);
  await expect(dialog).toBeVisible();
  // Which question this is: the next one (a call waiting behind it, or one that comes at once) may look the same.
  const form = page.locator('dialog.host__consent form');
  const shown = await form.getAttribute('data-question');
  if (answer === 'escape') await page.keyboard.press('Escape');
  else {
    if (answer === 'remember') await dialog.getByRole('checkbox').check();
    const button = dialog.getByRole('button', {
      name: answer === 'deny' ? /^(Deny|拒绝)$/ : /^(Allow|允许)$/,
    });
    await expect(button).toBeEnabled();
    await button.click();
  }
  await expect
    .poll(async () => ((await form.count()) === 0 ? null : await form.getAttribute('data-question')))
    .not.toBe(shown);
}

/**
 * Calls `tool` from the agent console with the `fields` filled in (label → text, or the option chosen where the
 * field is a list of options), and — unless `consent` is `none` — answers the consent question it asks (an MCP
 * server's tool asks by default); returns the console's entry of the call.
 */
export async function callToolFromConsole(
  page: Page,
  tool: string,
  fields: Readonly<Record<string, string>> = {},
  consent: 'allow' | 'remember' | 'none' = 'allow',
): Promise<Locator> {
  const region = page.getByRole('region', { name: 'Agent console' });
  const show = region.getByRole('button', { name: 'Show' });
  if (await show.isVisible()) await show.click();
  await region.getByLabel('Agent Tool', { exact: true }).selectOption(tool);
  for (const [label, value] of Object.entries(fields)) {
    const field = region.getByLabel(label, { exact: true });
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  // The console lists the newest call first: the call made here is the first once one more is listed.
  const calls = region.getByRole('listitem', {
    name: new RegExp(`^${tool.replace(/\./g, '\\.')} call_console_`),
  });
  const before = await calls.count();
  await region.getByRole('button', { name: 'Call tool' }).click();
  if (consent !== 'none') await answerToolQuestion(page, consent);
  await expect(calls).toHaveCount(before + 1);
  const callId = await calls.first().getAttribute('aria-label');
  const call = region.getByRole('listitem', { name: callId ?? '', exact: true });
  await expect(call).toBeVisible();
  return call;
}
