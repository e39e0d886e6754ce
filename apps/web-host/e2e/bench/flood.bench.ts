/**
 * Flood benchmark in Chromium: the built host connected to a `ws` agent on 127.0.0.1 that sends a burst of small
 * valid envelopes, while Playwright types into the chat's message box at a steady pace. It measures, inside the
 * page, each keystroke's input delay (`performance.now() - event.timeStamp` in a capturing keydown listener) and
 * the time from the keystroke to the next animation frame, during the burst and with no burst (the baseline, the
 * same page, the same pace), the time until the last envelope shows, the list's commits per message (mutation
 * records batches of the conversation's list) and the long tasks. It reports; it does not assert timings (the
 * machine decides them). Run from apps/web-host after building the host:
 *
 *   PORT=4392 npx playwright test -c e2e/bench/playwright.config.ts flood
 *
 * `LINEUP_FLOOD_COUNT` changes the size of the chat burst (5,000 by default); `LINEUP_FLOOD_PROFILE=<file>`
 * writes a Chromium CPU profile of the chat burst there (`.cpuprofile`, open it in DevTools) and prints the
 * functions with the most self time; `LINEUP_FLOOD_TRACE=<file>` writes a performance trace of it instead and
 * prints the main thread's time by kind of work (script, style, layout, paint, IndexedDB callbacks).
 * `LINEUP_FLOOD_HOST_DIST=<folder>` serves another build of the host (another version's `dist/`) instead of this
 * one's, to compare two versions on one machine.
 */
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { PREVIEW_PORT } from '../../preview-port.ts';
import { connectedTo, rememberAgentLink } from '../agent-page.ts';
import { startAgent, type TestAgent } from '../test-agent.ts';
import type { JournalTiming } from './journal-speed-page.ts';
import { benchPageScript } from './page-script.ts';

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JOURNAL_PAGE = fileURLToPath(new URL('./journal-speed-page.ts', import.meta.url));
const CHAT_BURST = Number(process.env.LINEUP_FLOOD_COUNT ?? 5_000);
const PATCH_BURST = 5_000;
const DOCUMENT_BURST = 1_000;
/** Keystrokes of the baseline, and the pace of every typing loop (20 keys a second, a fast typist). */
const BASELINE_KEYS = 60;
const KEY_INTERVAL_MS = 50;
/** The main-thread time per frame the "journal alone, busy" run takes away (about what a frame of the host costs). */
const JOURNAL_BUSY_MS_PER_FRAME = 8;
/** The longest a burst may take before the run gives up (a stuck page, not a slow one). */
const BURST_TIMEOUT_MS = 240_000;

/** What the page's probes recorded over one phase. */
interface PhaseProbe {
  /** `performance.now() - event.timeStamp` of each keydown in the message box, in milliseconds. */
  readonly inputDelays: number[];
  /** From each keydown's timestamp to the next animation frame: when the typed letter can be painted. */
  readonly toNextFrame: number[];
  /** Mutation-record batches of the conversation's list: at most one per commit that touched it. */
  readonly listCommits: number;
  readonly longTasks: number;
  readonly longTaskMs: number;
  readonly frames: number;
  readonly elapsedMs: number;
}

interface FloodWindow {
  __flood: {
    reset(): void;
    read(): PhaseProbe;
    /** Resolves with `performance.now()` once the conversation's last entry has `text` in it. */
    waitForLast(text: string): Promise<number>;
  };
}

/** The page's probes: keydown delays, frames, long tasks and commits to the conversation's list. */
function installProbes(page: Page) {
  return page.evaluate(() => {
    let inputDelays: number[] = [];
    let toNextFrame: number[] = [];
    let listCommits = 0;
    let longTasks = 0;
    let longTaskMs = 0;
    let frames = 0;
    let since = performance.now();
    document.addEventListener(
      'keydown',
      (event) => {
        if ((event.target as Element | null)?.id !== 'chat-message') return;
        const stamp = event.timeStamp;
        inputDelays.push(performance.now() - stamp);
        requestAnimationFrame(() => toNextFrame.push(performance.now() - stamp));
      },
      { capture: true },
    );
    const countFrame = () => {
      frames++;
      requestAnimationFrame(countFrame);
    };
    requestAnimationFrame(countFrame);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longTasks++;
        longTaskMs += entry.duration;
      }
    }).observe({ type: 'longtask' });
    const list = document.querySelector('ol.host__entries');
    if (list === null) throw new Error('The conversation list is not on the page.');
    new MutationObserver(() => {
      listCommits++;
    }).observe(list, { childList: true, subtree: true, characterData: true, attributes: true });
    (window as unknown as FloodWindow).__flood = {
      reset() {
        inputDelays = [];
        toNextFrame = [];
        listCommits = 0;
        longTasks = 0;
        longTaskMs = 0;
        frames = 0;
        since = performance.now();
      },
      read: () => ({
        inputDelays,
        toNextFrame,
        listCommits,
        longTasks,
        longTaskMs,
        frames,
        elapsedMs: performance.now() - since,
      }),
      waitForLast(text) {
        return new Promise((resolve) => {
          // Polled once a frame, and only the last entry: the probe must not add work that grows with the list.
          const check = () => {
            if (list.lastElementChild?.textContent?.includes(text) === true) resolve(performance.now());
            else requestAnimationFrame(check);
          };
          check();
        });
      },
    };
  });
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as FloodWindow).__flood.read());
const resetProbe = (page: Page) => page.evaluate(() => (window as unknown as FloodWindow).__flood.reset());
const now = (page: Page) => page.evaluate(() => performance.now());

/** Presses letters in the message box every `KEY_INTERVAL_MS` until `count` keys or `until` says stop. */
async function typeAtPace(page: Page, options: { count?: number; until?: () => boolean }): Promise<number> {
  let pressed = 0;
  const next = () => String.fromCharCode(97 + (pressed % 26));
  while (options.count === undefined ? !options.until?.() : pressed < options.count) {
    const started = Date.now();
    await page.keyboard.press(next());
    pressed++;
    // A fixed pace from the start of each press: a press the page holds up is not followed by a faster one.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, KEY_INTERVAL_MS - (Date.now() - started))),
    );
  }
  return pressed;
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (value: number, base: number) => `${(value / Math.max(base, 0.1)).toFixed(1)}×`;

function describePhase(name: string, phase: PhaseProbe, baseline?: PhaseProbe): string {
  const median = quantile(phase.inputDelays, 0.5);
  const p95 = quantile(phase.inputDelays, 0.95);
  const frameMedian = quantile(phase.toNextFrame, 0.5);
  const frameP95 = quantile(phase.toNextFrame, 0.95);
  const versus =
    baseline === undefined
      ? ''
      : ` (${ratio(median, quantile(baseline.inputDelays, 0.5))} / ${ratio(p95, quantile(baseline.inputDelays, 0.95))} of the baseline)`;
  const fps = (phase.frames / phase.elapsedMs) * 1000;
  return (
    `${name}: ${phase.inputDelays.length} keys, input delay median ${ms(median)}, p95 ${ms(p95)}, max ${ms(Math.max(...phase.inputDelays))}${versus}; ` +
    `key to next frame median ${ms(frameMedian)}, p95 ${ms(frameP95)}; ${fps.toFixed(0)} frames/s; ` +
    `${phase.longTasks} long tasks (${ms(phase.longTaskMs)})`
  );
}

/** Self time per function of a CPU profile, the largest first. */
function topSelfTime(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    if (frame === undefined) return;
    const file = frame.url.split('/').at(-1) ?? '';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas?.[index] ?? 0) / 1000);
  });
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([name, time]) => `${ms(time).padStart(10)}  ${name}`);
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string };
}

/** The renderer main thread's time by event name (nested events count in their own name and their parent's). */
function mainThreadTime(trace: { traceEvents: TraceEvent[] }): string[] {
  const main = trace.traceEvents.find(
    (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
  );
  if (main === undefined) return ['(no renderer main thread in the trace)'];
  const totals = new Map<string, { time: number; count: number }>();
  for (const event of trace.traceEvents) {
    if (event.pid !== main.pid || event.tid !== main.tid || event.ph !== 'X' || event.dur === undefined)
      continue;
    const total = totals.get(event.name) ?? { time: 0, count: 0 };
    total.time += event.dur / 1000;
    total.count++;
    totals.set(event.name, total);
  }
  return [...totals]
    .sort((a, b) => b[1].time - a[1].time)
    .slice(0, 20)
    .map(([name, { time, count }]) => `${ms(time).padStart(10)}  ${name} (${count})`);
}

/** Where the preview server serves the journal page (from the server itself: Chromium lets only a page of a
 * local address dial a local agent). */
const JOURNAL_PAGE_PATH = '/__flood-journal-bench';

/**
 * The same burst into `AgentClient` + `ConversationStore` with no view (journal-speed-page.ts), on the host's
 * origin (IndexedDB needs one) in the same browser: the pace of the receive pipeline the host's views sit behind.
 */
async function journalAlone(page: Page, count: number, busyMsPerFrame = 0): Promise<JournalTiming> {
  await page.goto(`http://127.0.0.1:${PREVIEW_PORT}${JOURNAL_PAGE_PATH}`);
  await page.waitForFunction(() => window.lineupJournalBench !== undefined);
  const alone = await startAgent();
  try {
    await page.evaluate(
      ([agentUrl]) => window.lineupJournalBench.connect(agentUrl!, 'conv_flood_journal'),
      [alone.url],
    );
    await page.evaluate(
      ([total, busy]) => window.lineupJournalBench.expect(total!, busy),
      [count, busyMsPerFrame],
    );
    for (let index = 1; index <= count; index++)
      alone.send('lineup.v1.chat.agent_message', {
        text: `Flood message ${index} of ${count}: a **small** turn.`,
      });
    return await page.evaluate(() => window.lineupJournalBench.done());
  } finally {
    await alone.close();
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

let server: PreviewServer;
let agent: TestAgent;

test.beforeAll(async () => {
  const journalScript = await benchPageScript(JOURNAL_PAGE, 'journalSpeedPage');
  // The real built host, served like `pnpm preview` (this config has no webServer: the render bench needs none),
  // and the journal page beside it.
  server = await preview({
    root: APP_ROOT,
    logLevel: 'warn',
    ...(process.env.LINEUP_FLOOD_HOST_DIST === undefined
      ? {}
      : { build: { outDir: process.env.LINEUP_FLOOD_HOST_DIST } }),
    preview: { host: '127.0.0.1', port: PREVIEW_PORT, strictPort: true },
    plugins: [
      {
        name: 'flood-journal-page',
        configurePreviewServer(preview) {
          preview.middlewares.use(JOURNAL_PAGE_PATH, (request, response, next) => {
            if (request.url === '/' || request.url === '') {
              response.setHeader('content-type', 'text/html');
              response.end(
                `<!doctype html><html lang="en"><body><script src="${JOURNAL_PAGE_PATH}/page.js"></script></body></html>`,
              );
            } else if (request.url === '/page.js') {
              response.setHeader('content-type', 'text/javascript');
              response.end(journalScript);
            } else next();
          });
        },
      },
    ],
  });
});
test.afterAll(async () => {
  await server?.close();
});
test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async () => {
  await agent.close();
});

/** The host connected to the agent, the probes installed, the message box focused. */
async function openHost(page: Page): Promise<void> {
  // Allowed before, as after an earlier "Connect": the page dials at once.
  await rememberAgentLink(page, agent.url);
  await page.goto(`http://127.0.0.1:${PREVIEW_PORT}/?agent=${encodeURIComponent(agent.url)}`);
  await connectedTo(page, agent);
  await expect(page.locator('section.host__conversation[aria-busy="false"]')).toBeVisible();
  await installProbes(page);
  await page.getByLabel('Message to the agent').click();
}

/** The baseline: the same keystrokes with nothing arriving. */
async function baseline(page: Page): Promise<PhaseProbe> {
  await resetProbe(page);
  await typeAtPace(page, { count: BASELINE_KEYS });
  const result = await probe(page);
  await page.getByLabel('Message to the agent').fill('');
  return result;
}

/**
 * Sends `send()`'s burst while typing, until `shown` resolves (the page's own clock); returns the phase and the
 * time from the burst to the last envelope shown.
 */
async function burstWhileTyping(
  page: Page,
  send: () => void,
  shown: () => Promise<number>,
): Promise<{ phase: PhaseProbe; shownMs: number }> {
  await resetProbe(page);
  const watching = shown();
  const start = await now(page);
  send();
  let done = false;
  let shownAt = Number.NaN;
  const finished = watching.then((at) => {
    shownAt = at;
    done = true;
  });
  await Promise.all([typeAtPace(page, { until: () => done }), finished]);
  const phase = await probe(page);
  return { phase, shownMs: shownAt - start };
}

function report(name: string, lines: string[]): void {
  console.log(`[${name}]\n  ${lines.join('\n  ')}`);
  test.info().annotations.push({ type: name, description: lines.join(' | ') });
}

test(`a burst of ${CHAT_BURST} agent messages, against typing with no burst`, async ({ page }) => {
  test.setTimeout(2 * BURST_TIMEOUT_MS + 60_000);
  const loadAtStart = load();
  await openHost(page);
  const quiet = await baseline(page);

  let session: CDPSession | null = null;
  const browser = page.context().browser();
  const tracing = process.env.LINEUP_FLOOD_TRACE !== undefined && browser !== null;
  if (tracing)
    await browser?.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'IndexedDB'],
    });
  else if (process.env.LINEUP_FLOOD_PROFILE !== undefined) {
    session = await page.context().newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 200 });
    await session.send('Profiler.start');
  }
  const last = `Flood message ${CHAT_BURST} of ${CHAT_BURST}`;
  const { phase, shownMs } = await burstWhileTyping(
    page,
    () => {
      for (let index = 1; index <= CHAT_BURST; index++)
        agent.send('lineup.v1.chat.agent_message', {
          text: `Flood message ${index} of ${CHAT_BURST}: a **small** turn.`,
        });
    },
    () => page.evaluate((text) => (window as unknown as FloodWindow).__flood.waitForLast(text), last),
  );
  const loadDuring = load();
  const diagnosis: string[] = [];
  if (tracing && browser !== null) {
    const buffer = await browser.stopTracing();
    await writeFile(process.env.LINEUP_FLOOD_TRACE!, buffer);
    diagnosis.push(
      'main thread time (trace of the burst):',
      ...mainThreadTime(JSON.parse(buffer.toString())).map((line) => `  ${line}`),
    );
  }
  if (session !== null) {
    const { profile } = await session.send('Profiler.stop');
    await writeFile(process.env.LINEUP_FLOOD_PROFILE!, JSON.stringify(profile));
    diagnosis.push(
      'self time (CPU profile of the burst):',
      ...topSelfTime(profile).map((line) => `  ${line}`),
    );
  }
  await expect(page.locator('.host__chat-turn--agent').last()).toContainText(last);
  const alone = await journalAlone(page, CHAT_BURST);
  const aloneBusy = await journalAlone(page, CHAT_BURST, JOURNAL_BUSY_MS_PER_FRAME);
  const lines = [
    `burst: ${CHAT_BURST} lineup.v1.chat.agent_message over a real WebSocket, typing one key every ${KEY_INTERVAL_MS} ms`,
    `host: ${process.env.LINEUP_FLOOD_HOST_DIST ?? 'this checkout (dist/)'}`,
    `load average (1, 5, 15 min) at the start: ${loadAtStart}, at the end of the burst: ${loadDuring}`,
    describePhase('no burst (baseline)', quiet),
    describePhase('during the burst', phase, quiet),
    `last message shown after ${ms(shownMs)} (${((CHAT_BURST / shownMs) * 1000).toFixed(0)} messages/s; each is recorded before it is shown)`,
    `list commits: ${phase.listCommits} (${(phase.listCommits / CHAT_BURST).toFixed(3)} per message)`,
    `client + journal alone, no view (AgentClient + ConversationStore, same WebSocket agent): ${CHAT_BURST} received and recorded after ${ms(alone.lastMs)} (${((CHAT_BURST / alone.lastMs) * 1000).toFixed(0)} messages/s); the host took ${ratio(shownMs, alone.lastMs)} that`,
    `client + journal alone, with ${JOURNAL_BUSY_MS_PER_FRAME} ms of other main-thread work per frame: ${ms(aloneBusy.lastMs)} (${((CHAT_BURST / aloneBusy.lastMs) * 1000).toFixed(0)} messages/s, ${ratio(aloneBusy.lastMs, alone.lastMs)} the idle pace)`,
    ...diagnosis,
  ];
  report('flood-chat', lines);
  // Not a timing assertion: the run must have measured keys in both phases (the last message was shown, above).
  expect(quiet.inputDelays.length).toBe(BASELINE_KEYS);
  expect(phase.inputDelays.length).toBeGreaterThan(0);
  expect(alone.received).toBe(CHAT_BURST);
  expect(aloneBusy.received).toBe(CHAT_BURST);
});

test(`a burst of ${PATCH_BURST} ui.patch to one open Surface`, async ({ page }) => {
  test.setTimeout(BURST_TIMEOUT_MS + 60_000);
  await openHost(page);
  agent.send('lineup.v1.ui.open', {
    instance_id: 'flood.counter',
    app: {
      id: 'com.example.flood',
      name: 'Flood counter',
      version: '1.0.0',
      html: '<main id="count">0</main>',
      css: '',
      js: "LineUpSurface.onState(function (state) { document.getElementById('count').textContent = String(state.n); });",
    },
    state: { n: 0 },
  });
  const frame = page.frameLocator('iframe[title="Flood counter"]').frameLocator('iframe');
  await expect(frame.locator('#count')).toHaveText('0');
  const quiet = await baseline(page);
  const { phase, shownMs } = await burstWhileTyping(
    page,
    () => {
      for (let n = 1; n <= PATCH_BURST; n++)
        agent.send('lineup.v1.ui.patch', { instance_id: 'flood.counter', state: { n } });
    },
    // The Surface's document is another origin: its last state is read through Playwright, polled.
    async () => {
      await expect(frame.locator('#count')).toHaveText(String(PATCH_BURST), { timeout: BURST_TIMEOUT_MS });
      return now(page);
    },
  );
  report('flood-patch', [
    `burst: ${PATCH_BURST} lineup.v1.ui.patch to one inline Surface, typing one key every ${KEY_INTERVAL_MS} ms`,
    describePhase('no burst (baseline)', quiet),
    describePhase('during the burst', phase, quiet),
    `last state shown in the Surface after ${ms(shownMs)} (${((PATCH_BURST / shownMs) * 1000).toFixed(0)} patches/s)`,
    `list commits: ${phase.listCommits} (${(phase.listCommits / PATCH_BURST).toFixed(3)} per patch)`,
  ]);
  expect(phase.inputDelays.length).toBeGreaterThan(0);
});

test(`a burst of ${DOCUMENT_BURST} ui.document`, async ({ page }) => {
  test.setTimeout(BURST_TIMEOUT_MS + 60_000);
  await openHost(page);
  const quiet = await baseline(page);
  const last = `Flood document ${DOCUMENT_BURST}`;
  const { phase, shownMs } = await burstWhileTyping(
    page,
    () => {
      for (let index = 1; index <= DOCUMENT_BURST; index++)
        agent.send('lineup.v1.ui.document', {
          document: {
            version: '1.0',
            id: `flood-${index}`,
            mode: 'structured_ui',
            title: `Flood document ${index}`,
            state: {},
            derived: {},
            root: { id: 'text', type: 'Text', props: { text: `Document ${index} of ${DOCUMENT_BURST}` } },
          },
        });
    },
    () => page.evaluate((text) => (window as unknown as FloodWindow).__flood.waitForLast(text), last),
  );
  report('flood-documents', [
    `burst: ${DOCUMENT_BURST} lineup.v1.ui.document (one Text each), typing one key every ${KEY_INTERVAL_MS} ms`,
    describePhase('no burst (baseline)', quiet),
    describePhase('during the burst', phase, quiet),
    `last document shown after ${ms(shownMs)} (${((DOCUMENT_BURST / shownMs) * 1000).toFixed(0)} documents/s)`,
    `list commits: ${phase.listCommits} (${(phase.listCommits / DOCUMENT_BURST).toFixed(3)} per document)`,
  ]);
  expect(phase.inputDelays.length).toBeGreaterThan(0);
});
