import { fileURLToPath } from 'node:url';
import { benchPageScript } from './bench/page-script.ts';
import { expect, test } from './fixtures.ts';
import type { WriteOnlyReport } from './runtime-write-only-page.ts';

/**
 * The runtime's steps that read nothing, in real Chromium on its real IndexedDB (the unit tests run them on
 * fake-indexeddb): after the first call of an MCP server's tool, receiving a call and keeping its result read
 * nothing and ask to commit at once; what they assume is asserted in the same transaction by writes that unique
 * indexes refuse when it is false (the inventory's guard against the fences of replaced counters; a final result's
 * `requestEnded`), so a registry change made on another connection (another tab) is never missed and a late answer
 * to a call that ended is never kept. The page (runtime-write-only-page.ts) is built from the workspace sources and
 * served on a secure origin of its own.
 */

const ORIGIN = 'http://localhost:4987';

test('a call reads nothing after the first, and what it assumes is asserted in Chromium', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const script = await benchPageScript(
    fileURLToPath(new URL('./runtime-write-only-page.ts', import.meta.url)),
    'runtimeWriteOnlyPage',
  );
  await page.route(`${ORIGIN}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html><body><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
    }),
  );
  await page.goto(`${ORIGIN}/`);
  const report = (await page.evaluate(() => window.lineupWriteOnly.run())) as WriteOnlyReport;
  // call_1 reads the registry; call_2 and call_3 read nothing. call_4 names the revision this runtime knew, which
  // the other tab replaced: its receipt without a read fails its assertion, and the step that reads refuses it (and
  // reads the new registry), so call_5 and call_6 read nothing again.
  expect(report.readsPerCall).toEqual([expect.any(Number), 0, 0, 0, 0]);
  expect(report.readsPerCall[0]).toBeGreaterThan(0);
  const completed = (callId: string) => ({ call_id: callId, outcome: 'completed', result: { sum: 5 } });
  expect(report.finals).toEqual({
    call_1: completed('call_1'),
    call_2: completed('call_2'),
    call_3: completed('call_3'),
    call_4: expect.objectContaining({
      outcome: 'error',
      error: expect.objectContaining({ code: 'stale_inventory' }),
    }),
    call_5: completed('call_5'),
    call_6: completed('call_6'),
    call_7: { call_id: 'call_7', outcome: 'error', error: { code: 'timeout' } },
  });
  expect(report.resultRows).toEqual({
    call_1: 1,
    call_2: 1,
    call_3: 1,
    call_4: 1,
    call_5: 1,
    call_6: 1,
    call_7: 1,
  });
  // The stale call never reached the server; the timed-out one did, once.
  expect(report.sent).toEqual(['call_1', 'call_2', 'call_3', 'call_5', 'call_6', 'call_7']);
  expect(report.inventoryKeys).toEqual(['current']);
  expect(report.inFlight).toBe(0);
  // Installing published counter 1; the other tab's disable and enable published 2 and 3, fencing 1 and 2. The guard
  // holds the counter the last receipt without a read assumed; the registry's stamp is the last change's.
  expect(report.fences).toEqual([
    { key: 'guard', retired: 3 },
    { key: 'registry', stamp: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    { key: 'retired\n1', retired: 1 },
    { key: 'retired\n2', retired: 2 },
  ]);
  // Each request ended once, by the one final result of its call (call_7's by its timeout, not its late answer).
  const requests = ['call_1', 'call_2', 'call_3', 'call_5', 'call_6', 'call_7'].map(
    (id) => report.requests[id],
  );
  expect(new Set(requests).size).toBe(6);
  expect(report.requestsEnded).toEqual(requests);
  // Early commits of the steps that read nothing: call_1's result; both steps of call_2, 3, 5 and 6; call_4's receipt
  // (refused by the guard); call_7's receipt and its late answer (refused by the request's end); the replay of call_6
  // (its `add` refused: the call is recorded) — 13. And of the steps that read, which ask to commit once their work is
  // issued too: call_1's receipt, call_4's refusal, call_6's replay, and settle's two (call_7's timeout; nothing
  // more) — 5.
  expect(report.commitsAsked).toBe(13 + 5);
});
