/**
 * Consent benchmark in Chromium: how soon the question is on screen after the call's intake committed. The built
 * host, connected to a `ws` agent on 127.0.0.1, gets calls of an MCP server's tool that asks (a counting server of
 * the test's own); a probe in the page notes when the transaction that recorded each call waiting
 * (`stage: 'awaiting_consent'`, the same transaction as its intake) completed, and when the dialog first showed that
 * call's arguments (a mutation observer), counting the animation frames in between. Each question is then dismissed
 * (Escape) before the next call. It reports the median and p95 in milliseconds and in frames, against one frame; it
 * does not assert timings. Run from apps/web-host after building the host:
 *
 *   PORT=4393 npx playwright test -c e2e/bench/playwright.config.ts consent
 *
 * `LINEUP_CONSENT_CALLS` changes the number of calls (40 by default).
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { z } from 'zod';
import { PREVIEW_PORT } from '../../preview-port.ts';
import { connectedTo, rememberAgentLink } from '../agent-page.ts';
import { addMcpServer } from '../mcp-servers.ts';
import { startAgent, type TestAgent } from '../test-agent.ts';
import { startTestMcpServer, type TestMcpServer } from '../test-mcp-server.ts';

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CALLS = Number(process.env.LINEUP_CONSENT_CALLS ?? 40);

interface Probe {
  readonly committed: Record<string, { at: number; frame: number }>;
  readonly shown: Record<string, { at: number; frame: number }>;
}

let server: PreviewServer;
let agent: TestAgent;
let mcp: TestMcpServer;

test.beforeAll(async () => {
  server = await preview({
    root: APP_ROOT,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: PREVIEW_PORT, strictPort: true },
  });
  agent = await startAgent();
  mcp = await startTestMcpServer({
    name: 'Files',
    tools: [{ name: 'touch', input: z.object({ note: z.string() }), run: () => ({ content: [] }) }],
  });
});

test.afterAll(async () => {
  await agent?.close();
  await mcp?.close();
  await new Promise((resolve) => server?.httpServer.close(resolve));
});

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

test('the question is on screen within a frame of the intake commit', async ({ page }) => {
  test.setTimeout(300_000);
  await rememberAgentLink(page, agent.url);
  await page.addInitScript(() => {
    const probe = { committed: {}, shown: {}, frame: 0 } as Probe & { frame: number };
    (window as unknown as { __consent: typeof probe }).__consent = probe;
    const tick = () => {
      probe.frame++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const request = put.call(this, value, key);
      const record = value as { stage?: string; callId?: string } | null;
      if (this.name === 'tool_calls' && record?.stage === 'awaiting_consent' && record.callId !== undefined) {
        const callId = record.callId;
        this.transaction.addEventListener('complete', () => {
          probe.committed[callId] = { at: performance.now(), frame: probe.frame };
        });
      }
      return request;
    };
    new MutationObserver(() => {
      const dialog = document.querySelector('dialog.host__consent[open]');
      const match = dialog?.textContent?.match(/note: (bench_\d+)/);
      if (match?.[1] !== undefined && probe.shown[match[1]] === undefined)
        probe.shown[match[1]] = { at: performance.now(), frame: probe.frame };
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.goto(`http://127.0.0.1:${PREVIEW_PORT}/?agent=${encodeURIComponent(agent.url)}`);
  await connectedTo(page, agent);
  await addMcpServer(page, mcp.url);
  await expect
    .poll(() =>
      agent.received.some(
        (envelope) =>
          envelope.type === 'lineup.v1.client.inventory' &&
          JSON.stringify(envelope.payload).includes('files.touch'),
      ),
    )
    .toBe(true);
  const revision = () =>
    String(
      agent.received.filter((envelope) => envelope.type === 'lineup.v1.client.inventory').at(-1)?.payload
        .revision,
    );
  const dialog = page.getByRole('dialog', { name: 'The agent asks to run a tool' });
  for (let index = 0; index < CALLS; index++) {
    const callId = `bench_${index}`;
    agent.send('lineup.v1.tool.call', {
      call_id: callId,
      inventory_revision: revision(),
      tool: 'files.touch',
      arguments: { note: callId },
    });
    await expect(dialog).toContainText(`note: ${callId}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  const probe = await page.evaluate(() => (window as unknown as { __consent: Probe }).__consent);
  const ms: number[] = [];
  const frames: number[] = [];
  for (let index = 0; index < CALLS; index++) {
    const committed = probe.committed[`bench_${index}`];
    const shown = probe.shown[`bench_${index}`];
    if (committed === undefined || shown === undefined) throw new Error(`bench_${index} was not probed`);
    ms.push(shown.at - committed.at);
    frames.push(shown.frame - committed.frame);
  }
  const frameMs = 1000 / 60;
  console.log(
    `Consent question on screen after the intake commit, ${CALLS} calls (one frame at 60 Hz: ${frameMs.toFixed(1)} ms):`,
  );
  console.log(
    `  milliseconds: median ${quantile(ms, 0.5).toFixed(1)}, p95 ${quantile(ms, 0.95).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}`,
  );
  console.log(
    `  animation frames between: median ${quantile(frames, 0.5)}, p95 ${quantile(frames, 0.95)}, max ${Math.max(...frames)}`,
  );
  console.log(
    `  within one frame: ${quantile(ms, 0.5) <= frameMs ? 'median yes' : 'median NO'}, ${quantile(ms, 0.95) <= frameMs ? 'p95 yes' : 'p95 NO'}`,
  );
  console.log(JSON.stringify({ calls: CALLS, ms, frames }));
  expect(mcp.calls).toEqual([]);
});
