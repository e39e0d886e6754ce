import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { CORPUS_PDF, MCP_CORPUS } from '../mcp-servers.ts';
import type { CallTimings, OpenTimings } from './mcp-speed-page.ts';
import { benchPageScript } from './page-script.ts';

/**
 * The MCP benchmark (`pnpm bench:mcp`, not part of `test:e2e`): one of the corpus' servers from the npm registry on
 * 127.0.0.1, and a page of the host's origin built from the workspace sources (mcp-speed-page.ts). It reports, in
 * one run, medians and the 95th percentile of
 * 1. a tool call through LineUp's whole pipeline against the same call with a bare SDK client (in turns), and the
 *    exactly-once skeleton against the same bare call: that call between two strict IndexedDB transactions of one
 *    row each, nothing of the runtime (the least any call with a receipt and a kept result costs);
 * 2. opening the kept view to its `ui/initialize` in a contained Surface frame against a bare sandboxed `srcdoc`
 *    frame, with a frame loaded for it (cold) and with a spare frame loaded ahead (warm), and a bare sandboxed frame
 *    loaded ahead with no containment that writes the same HTML into itself (the least a frame loaded ahead costs);
 * 3. showing a view the host prepared ahead (initialized out of sight) against the same bare frame;
 * 4. the same three opens for the largest view of the corpus (`server-pdf`'s, 4.1 MiB, kept since the 8 MiB default),
 *    against a bare frame of the same HTML and against the small view of (2) in the same run.
 * It asserts nothing about time: the figures are the report.
 */

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = fileURLToPath(new URL('./mcp-speed-page.ts', import.meta.url));
const PORT = Number(process.env.PORT ?? 4199);
const PAGE_PATH = '/__mcp-bench';
const SERVER_PORT = 3431;
/** The largest view of the corpus (4.1 MiB), served beside the small one, with the one PDF it may show. */
const LARGE_BIN = 'mcp-pdf-server';
const LARGE_ARGS = [CORPUS_PDF];
const LARGE_PORT = 3432;
const ROUNDS = Number(process.env.LINEUP_MCP_ROUNDS ?? 40);

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const p95 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
/** Quartiles of ratios: `p25 / median / p75`. */
const spread = (ratios: readonly number[]) => {
  const sorted = [...ratios].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor((sorted.length - 1) * q)] ?? Number.NaN).toFixed(2);
  return `quartiles ${at(0.25)} / ${at(0.5)} / ${at(0.75)}`;
};

let server: PreviewServer;
const servers: ChildProcess[] = [];

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/mcp`, { method: 'OPTIONS' }).then(
    () => true,
    () => false,
  );

test.beforeAll(async () => {
  const [corpus] = MCP_CORPUS;
  for (const [bin, port, args] of [
    [corpus.bin, SERVER_PORT, []],
    [LARGE_BIN, LARGE_PORT, LARGE_ARGS],
  ] as const) {
    // Another process on the port would be measured in place of the server started here.
    if (await answers(port))
      throw new Error(`Port ${port} is taken: stop what listens there (an earlier bench's server?) first.`);
    // In a process group of its own: the shell and the server it starts stop together (afterAll).
    servers.push(
      spawn(
        bin,
        args.map((arg) => JSON.stringify(arg)),
        {
          cwd: APP_ROOT,
          env: { ...process.env, PORT: String(port) },
          stdio: 'ignore',
          shell: true,
          detached: true,
        },
      ),
    );
  }
  const script = await benchPageScript(PAGE, 'mcpSpeedPage');
  server = await preview({
    root: APP_ROOT,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: PORT, strictPort: true },
    plugins: [
      {
        name: 'mcp-bench-page',
        configurePreviewServer(preview) {
          preview.middlewares.use(PAGE_PATH, (_request, response) => {
            response.setHeader('content-type', 'text/html; charset=utf-8');
            response.end(
              `<!doctype html><html><body><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
            );
          });
        },
      },
    ],
  });
  // The servers are up once they answer.
  for (const port of [SERVER_PORT, LARGE_PORT])
    for (let attempt = 0; attempt < 100 && !(await answers(port)); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100));
});

test.afterAll(async () => {
  for (const mcp of servers)
    if (mcp.pid !== undefined) {
      try {
        process.kill(-mcp.pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    }
  await server?.close();
});

/** The three ways a kept view opens, for the server at `url` (a fresh page for each, as the test above does). */
async function openAllWays(page: import('@playwright/test').Page, url: string, rounds: number) {
  const result: Record<'cold' | 'warm' | 'prepared', OpenTimings> = {} as never;
  for (const mode of ['cold', 'warm', 'prepared'] as const) {
    await page.goto(`http://127.0.0.1:${PORT}${PAGE_PATH}`);
    await page.waitForFunction(() => window.lineupMcpBench !== undefined);
    result[mode] = (await page.evaluate(
      ([address, count, how]) =>
        window.lineupMcpBench.opens(address as string, count as number, how as 'cold' | 'warm' | 'prepared'),
      [url, rounds, mode] as const,
    )) as OpenTimings;
  }
  return result;
}

test('MCP: a call through the pipeline vs a bare SDK call; a kept view opened vs a bare frame', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(`http://127.0.0.1:${PORT}${PAGE_PATH}`);
  await page.waitForFunction(() => window.lineupMcpBench !== undefined);
  const url = `http://127.0.0.1:${SERVER_PORT}/mcp`;
  const calls = (await page.evaluate(
    ([address, rounds]) => window.lineupMcpBench.calls(address as string, rounds as number),
    [url, ROUNDS] as const,
  )) as CallTimings;
  const cold = (await page.evaluate(
    ([address, rounds]) => window.lineupMcpBench.opens(address as string, rounds as number, 'cold'),
    [url, Math.min(ROUNDS, 20)] as const,
  )) as OpenTimings;
  await page.reload();
  await page.waitForFunction(() => window.lineupMcpBench !== undefined);
  const warm = (await page.evaluate(
    ([address, rounds]) => window.lineupMcpBench.opens(address as string, rounds as number, 'warm'),
    [url, Math.min(ROUNDS, 20)] as const,
  )) as OpenTimings;
  await page.reload();
  await page.waitForFunction(() => window.lineupMcpBench !== undefined);
  const prepared = (await page.evaluate(
    ([address, rounds]) => window.lineupMcpBench.opens(address as string, rounds as number, 'prepared'),
    [url, Math.min(ROUNDS, 20)] as const,
  )) as OpenTimings;
  const line = (label: string, ours: number[], bare: number[]) =>
    `${label}: LineUp ${ms(median(ours))} (p95 ${ms(p95(ours))}) · bare ${ms(median(bare))} (p95 ${ms(p95(bare))}) · ratio ${(median(ours) / median(bare)).toFixed(2)}×`;
  const report = [
    `rounds: ${calls.pipeline.length} calls, ${cold.contained.length} opens each way`,
    line(
      'tool call to a server on localhost (whole pipeline vs bare SDK client)',
      calls.pipeline,
      calls.bare,
    ),
    `added by the pipeline: ${ms(median(calls.pipeline) - median(calls.bare))} (median against median); the target 1.5× leaves ${ms(median(calls.bare) / 2)}`,
    line(
      'the exactly-once skeleton: the bare call between two strict IndexedDB transactions of one row each, nothing of the runtime (vs bare SDK client)',
      calls.skeleton,
      calls.bare,
    ),
    line('the pipeline against the exactly-once skeleton (target ≤ 1.1×)', calls.pipeline, calls.skeleton),
    line(
      "the floor of the pipeline's facts: the bare call between two strict transactions writing exactly the rows the pipeline writes, in a database of the runtime's schema, nothing of its work (vs the skeleton)",
      calls.facts,
      calls.skeleton,
    ),
    line(
      "the pipeline against the floor of its facts (the pipeline's own work)",
      calls.pipeline,
      calls.facts,
    ),
    `  the pipeline ÷ the skeleton, per round: ${spread(calls.pipeline.map((ours, round) => ours / (calls.skeleton[round] as number)))}; ${median(calls.pipeline) / median(calls.skeleton) <= 1.1 ? 'target met' : 'target NOT met'} (medians)`,
    line(
      '  until the receipt is committed (receive returned vs first row)',
      calls.pipelineReceipt,
      calls.skeletonReceipt,
    ),
    `  after the receipt (the call and keeping its result): LineUp ${ms(median(calls.pipeline) - median(calls.pipelineReceipt))} · skeleton ${ms(median(calls.skeleton) - median(calls.skeletonReceipt))} (medians' difference)`,
    line(
      'kept view to ui/initialize, a frame loaded for it (contained vs bare srcdoc)',
      cold.contained,
      cold.bare,
    ),
    line(
      'kept view to ui/initialize, a spare frame loaded ahead (contained vs bare srcdoc)',
      warm.contained,
      warm.bare,
    ),
    line(
      'a bare sandboxed frame loaded ahead, no containment, writing the same HTML into itself, to ui/initialize (the least a frame loaded ahead costs; vs bare srcdoc)',
      warm.bareSpare ?? [],
      warm.bare,
    ),
    line(
      'kept view prepared ahead (initialized out of sight): shown, bound, tool input sent, next frame painted (vs bare srcdoc to ui/initialize)',
      prepared.contained,
      prepared.bare,
    ),
  ];
  console.log(`\n[mcp bench]\n${report.join('\n')}\n`);
  expect(calls.pipeline.length).toBe(ROUNDS);
});

test('MCP: the largest view of the corpus (4.1 MiB) opened vs a bare frame of it, and vs the small view', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const rounds = Math.min(ROUNDS, 20);
  const small = await openAllWays(page, `http://127.0.0.1:${SERVER_PORT}/mcp`, rounds);
  const large = await openAllWays(page, `http://127.0.0.1:${LARGE_PORT}/mcp`, rounds);
  const ratio = (a: readonly number[], b: readonly number[]) => (median(a) / median(b)).toFixed(2);
  const report = (['cold', 'warm', 'prepared'] as const).map((mode) => {
    const what = {
      cold: 'a frame loaded for it, to ui/initialize (Surface aim ≤ 1.2× bare)',
      warm: 'a spare frame loaded ahead, to ui/initialize',
      prepared: 'prepared ahead: shown, bound, tool input sent, next frame painted',
    }[mode];
    return `${mode} — ${what}: large ${ms(median(large[mode].contained))} (p95 ${ms(p95(large[mode].contained))}) · bare srcdoc of it ${ms(median(large[mode].bare))} · ratio ${ratio(large[mode].contained, large[mode].bare)}× · small view ${ms(median(small[mode].contained))} (large ÷ small ${ratio(large[mode].contained, small[mode].contained)}×)`;
  });
  console.log(
    `\n[mcp bench: the largest view]\nrounds: ${large.cold.contained.length} opens each way\n${report.join('\n')}\n`,
  );
  expect(large.cold.contained.length).toBe(rounds);
});
