/**
 * The first delivery as a user meets it (`pnpm bench:delivery`, not part of `test:e2e`): the built Web Reference
 * Host on fresh pages, each connected to a WebSocket agent (e2e/test-agent.ts) that sends the maximum document
 * (the render benchmark's: 262,144 bytes, 200 components, 66 Markdown blocks) as soon as the page has said it is
 * connected and sent its inventory — the earliest an agent can. Timed in the page, from the moment the message
 * arrives (its `message` event, before the host's own listener) until every node, every Markdown block filled in,
 * is in the DOM and laid out. Between the two: the host's envelope checks, the runtime keeping the document,
 * the conversation's render and the renderer's. It reports; it asserts no timing.
 * `LINEUP_DELIVERY_HOST_DIST=<folder>` serves another build of the host (another version's `dist/`) instead of this
 * one's, to compare two versions on one machine.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { connectedTo } from '../agent-page.ts';
import { startAgent } from '../test-agent.ts';
import { buildMarkdownMaxDocument, MARKDOWN_BLOCKS } from './max-markdown-document.ts';

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PORT = Number(process.env.PORT ?? 4198);
/** Fresh pages (an odd count: the median is one of them). */
const PAGES = Number(process.env.LINEUP_DELIVERY_PAGES ?? 7);
const TITLE = 'Delivery benchmark';

/**
 * Runs in each page before the host's scripts: notes when the first message of more than 200,000 characters
 * arrives on a WebSocket, then when the document titled `TITLE` shows every Markdown block filled in.
 */
function watch({ title, blocks }: { title: string; blocks: number }): void {
  const times = window as unknown as { __arrived?: number; __complete?: number };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Added before the host's listener: it runs first.
      this.addEventListener('message', (event) => {
        if (times.__arrived !== undefined) return;
        if (typeof event.data !== 'string' || event.data.length < 200_000) return;
        times.__arrived = performance.now();
        const check = new MutationObserver(() => {
          const region = [...document.querySelectorAll('section.lu-ui')].find(
            (section) => section.querySelector('.lu-title')?.textContent === title,
          );
          if (
            region === undefined ||
            region.querySelector('.lu-body-pending') !== null ||
            region.querySelectorAll('.lu-markdown').length !== blocks ||
            region.querySelector('.lu-markdown[aria-busy]') !== null ||
            region.querySelectorAll('.lu-markdown > *').length === 0
          )
            return;
          void (region as HTMLElement).offsetHeight; // the layout the page needs before it can paint
          times.__complete = performance.now();
          check.disconnect();
        });
        check.observe(document.body, { childList: true, subtree: true, attributes: true });
      });
    }
  };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const range = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;

let server: PreviewServer;

test.beforeAll(async () => {
  server = await preview({
    root: APP_ROOT,
    logLevel: 'warn',
    ...(process.env.LINEUP_DELIVERY_HOST_DIST === undefined
      ? {}
      : { build: { outDir: process.env.LINEUP_DELIVERY_HOST_DIST } }),
    preview: { host: '127.0.0.1', port: PORT, strictPort: true },
  });
});

test.afterAll(async () => {
  await server?.close();
});

test('first delivery of the maximum document on fresh pages of the built host', async ({ browser }) => {
  test.setTimeout(300_000);
  const delivered: number[] = [];
  const arrivals: number[] = [];
  /** The host's User Timing mark `lineup:renderer-prepared` (its idle preparation done), before the message came. */
  const preparedAhead: (number | null)[] = [];
  for (let run = 0; run < PAGES; run++) {
    // An agent of its own for each page: what it receives is that page's.
    const agent = await startAgent();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(watch, { title: TITLE, blocks: MARKDOWN_BLOCKS });
    await page.goto(`http://127.0.0.1:${PORT}/?agent=${encodeURIComponent(agent.url)}`);
    await connectedTo(page, agent);
    // Each page its own Markdown texts (nothing cached by text), into the conversation this page opened.
    const document = { ...buildMarkdownMaxDocument(run), id: `delivery-${run}`, title: TITLE };
    agent.send('lineup.v1.ui.document', { document });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __complete?: number }).__complete), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const { arrived, complete, prepared } = await page.evaluate(() => {
      const times = window as unknown as { __arrived: number; __complete: number };
      const mark = performance.getEntriesByName('lineup:renderer-prepared')[0];
      return { arrived: times.__arrived, complete: times.__complete, prepared: mark?.startTime ?? null };
    });
    preparedAhead.push(prepared === null ? null : arrived - prepared);
    delivered.push(complete - arrived);
    arrivals.push(arrived);
    await context.close();
    await agent.close();
  }
  const lines = [
    `host: ${process.env.LINEUP_DELIVERY_HOST_DIST ?? 'this checkout (dist/)'}`,
    `document: 262,144 bytes, 200 components, ${MARKDOWN_BLOCKS} Markdown blocks, sent as soon as the page was connected`,
    `message arrived ${range(arrivals)} after navigation (median ${median(arrivals).toFixed(0)} ms)`,
    `host's preparation (prepareAgentClient, prepareRenderer and its renders) done before the message: ${preparedAhead.map((ahead) => (ahead === null ? 'not done' : `${ahead.toFixed(0)} ms`)).join(', ')}`,
    `message → every node in the DOM, Markdown filled in, laid out (median of ${PAGES} fresh pages): ${median(delivered).toFixed(1)} ms (${range(delivered)})`,
  ];
  console.log(`[host-delivery]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: 'host-delivery', description: lines.join(' | ') });
  expect(delivered.every((value) => value > 0)).toBe(true);
});
