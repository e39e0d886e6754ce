/**
 * The first delivery as a user meets it (`pnpm bench:delivery`, not part of `test:e2e`): the built Web Reference
 * Host on fresh pages, each connected to a WebSocket agent (e2e/test-agent.ts) that sends the maximum document
 * (the render benchmark's: 262,144 bytes, 200 components, 66 Markdown blocks) as soon as the page has said it is
 * connected and sent its inventory — the earliest an agent can. Timed in the page, from the moment the message
 * arrives (its `message` event, before the host's own listener) until every node, every Markdown block filled in,
 * is in the DOM and laid out. Between the two: the host's envelope checks, the runtime keeping the document,
 * the conversation's render and the renderer's. Each page then times `JSON.parse` + `parseDocument` of the same
 * document text (parse-speed-page.ts, built from this checkout's sources for every version), and the delivery is
 * reported as a ratio to it, page by page. It reports; it asserts no timing.
 * `LINEUP_DELIVERY_HOST_DIST=<folder>` serves another build of the host (another version's `dist/`) instead of this
 * one's; `LINEUP_DELIVERY_BASELINE_DIST=<folder>` serves a second build beside it (on PORT + 1) and alternates the
 * two page by page, to compare two versions on one machine (separate runs of a few pages cannot tell 20 ms apart
 * on a busy 2-core machine). `LINEUP_DELIVERY_WAIT_MS=<ms>` sends the document that long after the page is connected
 * (an agent that answers the user, not the earliest one). Each page also notes, in the page, when it sent its first
 * inventory: how long after navigation it was connected (the test's own wait for that polls).
 */
import { fileURLToPath } from 'node:url';
import { type Browser, expect, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { connectedTo, rememberAgentLink } from '../agent-page.ts';
import { startAgent } from '../test-agent.ts';
import { buildMarkdownMaxDocument, MARKDOWN_BLOCKS } from './max-markdown-document.ts';
import { benchPageScript } from './page-script.ts';

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PORT = Number(process.env.PORT ?? 4198);
/** Fresh pages (an odd count: the median is one of them). */
const PAGES = Number(process.env.LINEUP_DELIVERY_PAGES ?? 7);
const TITLE = 'Delivery benchmark';
/** How long after the page is connected its agent sends the document (0: at once, the earliest an agent can). */
const WAIT_MS = Number(process.env.LINEUP_DELIVERY_WAIT_MS ?? 0);
/** Timings of `JSON.parse` + `parseDocument` in each page (their median is the reference). */
const PARSE_RUNS = 15;
const PARSE_ENTRY = fileURLToPath(new URL('./parse-speed-page.ts', import.meta.url));

let reference = '';

/**
 * Runs in each page before the host's scripts: notes when the first message of more than 200,000 characters
 * arrives on a WebSocket, then when the document titled `TITLE` shows every Markdown block filled in.
 */
function watch({ title, blocks }: { title: string; blocks: number }): void {
  const times = window as unknown as { __arrived?: number; __complete?: number; __inventorySent?: number };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    // When the page sent its first inventory: connected, as far as the agent can tell (the test's own wait for
    // that polls, so the agent's document leaves up to a few hundred milliseconds later).
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (
        times.__inventorySent === undefined &&
        typeof data === 'string' &&
        data.includes('"lineup.v1.client.inventory"')
      )
        times.__inventorySent = performance.now();
      super.send(data);
    }

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

/** A build of the host the benchmark serves: this checkout's `dist/` (or LINEUP_DELIVERY_HOST_DIST), and a baseline. */
interface Version {
  readonly label: string;
  readonly outDir: string | undefined;
  readonly port: number;
  server?: PreviewServer;
  readonly delivered: number[];
  /** `JSON.parse` + `parseDocument` of the document's text in the same page, after its delivery. */
  readonly parses: number[];
  readonly arrivals: number[];
  /** When the page sent its first inventory, after navigation. */
  readonly connected: number[];
  /** The host's User Timing mark `lineup:renderer-prepared` (its idle preparation done), before the message came. */
  readonly preparedAhead: (number | null)[];
}

const version = (label: string, outDir: string | undefined, port: number): Version => ({
  label,
  outDir,
  port,
  delivered: [],
  parses: [],
  arrivals: [],
  connected: [],
  preparedAhead: [],
});

const versions: Version[] = [
  version(
    process.env.LINEUP_DELIVERY_HOST_DIST ?? 'this checkout (dist/)',
    process.env.LINEUP_DELIVERY_HOST_DIST,
    PORT,
  ),
  ...(process.env.LINEUP_DELIVERY_BASELINE_DIST === undefined
    ? []
    : [
        version(
          `baseline ${process.env.LINEUP_DELIVERY_BASELINE_DIST}`,
          process.env.LINEUP_DELIVERY_BASELINE_DIST,
          PORT + 1,
        ),
      ]),
];

test.beforeAll(async () => {
  reference = await benchPageScript(PARSE_ENTRY, 'parseSpeedPage');
  for (const each of versions)
    each.server = await preview({
      root: APP_ROOT,
      logLevel: 'warn',
      ...(each.outDir === undefined ? {} : { build: { outDir: each.outDir } }),
      preview: { host: '127.0.0.1', port: each.port, strictPort: true },
    });
});

test.afterAll(async () => {
  for (const each of versions) await each.server?.close();
});

/** One fresh page of `each`: its own agent sends the maximum document as soon as the page is connected. */
async function deliverOnce(browser: Browser, each: Version, run: number): Promise<void> {
  // An agent of its own for each page: what it receives is that page's.
  const agent = await startAgent();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(watch, { title: TITLE, blocks: MARKDOWN_BLOCKS });
  // Allowed before, as after an earlier "Connect": the page dials at once, and the timing holds no click.
  await rememberAgentLink(page, agent.url);
  await page.goto(`http://127.0.0.1:${each.port}/?agent=${encodeURIComponent(agent.url)}`);
  await connectedTo(page, agent);
  if (WAIT_MS > 0) await page.waitForTimeout(WAIT_MS);
  // Each page its own Markdown texts (nothing cached by text), into the conversation this page opened.
  const document = { ...buildMarkdownMaxDocument(run), id: `delivery-${run}`, title: TITLE };
  agent.send('lineup.v1.ui.document', { document });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __complete?: number }).__complete), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  const { arrived, complete, prepared, connected } = await page.evaluate(() => {
    const times = window as unknown as { __arrived: number; __complete: number; __inventorySent: number };
    const mark = performance.getEntriesByName('lineup:renderer-prepared')[0];
    return {
      arrived: times.__arrived,
      complete: times.__complete,
      prepared: mark?.startTime ?? null,
      connected: times.__inventorySent,
    };
  });
  each.connected.push(connected);
  each.preparedAhead.push(prepared === null ? null : arrived - prepared);
  each.delivered.push(complete - arrived);
  await page.addScriptTag({ content: reference });
  each.parses.push(
    await page.evaluate(([text, runs]) => window.lineupParseTime(text, runs), [
      JSON.stringify(document),
      PARSE_RUNS,
    ] as const),
  );
  each.arrivals.push(arrived);
  await context.close();
  await agent.close();
}

test('first delivery of the maximum document on fresh pages of the built host', async ({ browser }) => {
  test.setTimeout(300_000 * versions.length);
  // With a baseline, the two builds alternate page by page: what the machine does meanwhile falls on both.
  for (let run = 0; run < PAGES; run++)
    // Each build goes first in every other pair: a page's place in its pair does not fall on one build.
    for (const each of run % 2 === 0 ? versions : [...versions].reverse())
      await deliverOnce(browser, each, run);
  const lines = [
    `document: 262,144 bytes, 200 components, ${MARKDOWN_BLOCKS} Markdown blocks, ${WAIT_MS > 0 ? `sent ${WAIT_MS} ms after the page was connected` : 'sent as soon as the page was connected'}`,
  ];
  for (const each of versions)
    lines.push(
      `host: ${each.label}`,
      `  inventory sent (connected) ${range(each.connected)} after navigation (median ${median(each.connected).toFixed(0)} ms); message arrived ${range(each.arrivals)} (median ${median(each.arrivals).toFixed(0)} ms)`,
      `  host's idle preparation done before the message: ${each.preparedAhead.map((ahead) => (ahead === null ? 'not done (or no mark)' : `${ahead.toFixed(0)} ms`)).join(', ')}`,
      `  message → every node in the DOM, Markdown filled in, laid out (median of ${PAGES} fresh pages): ${median(each.delivered).toFixed(1)} ms (${range(each.delivered)})`,
      `  JSON.parse + parseDocument of the same text in the page, after it (median of ${PARSE_RUNS} per page, median of pages): ${median(each.parses).toFixed(1)} ms; the delivery is ${median(each.delivered.map((value, index) => value / (each.parses[index] ?? Number.NaN))).toFixed(1)}× it (median of the pages' ratios)`,
    );
  const [current, baseline] = versions;
  if (current !== undefined && baseline !== undefined)
    lines.push(
      `baseline − this, page by page (median of ${PAGES} pairs): ${median(current.delivered.map((value, index) => (baseline.delivered[index] ?? Number.NaN) - value)).toFixed(1)} ms`,
    );
  console.log(`[host-delivery]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: 'host-delivery', description: lines.join(' | ') });
  expect(
    versions.every((each) => each.delivered.length === PAGES && each.delivered.every((value) => value > 0)),
  ).toBe(true);
});
