import type { BrowserContext, Page } from '@playwright/test';
import { connectedTo, dialogsShown, openWithAgent } from './agent-page.ts';
import { expect, test } from './fixtures.ts';
import { readStore } from './runtime-db.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * One LineUp runtime per profile across tabs (`holdRuntimeLock`: a Web Lock named after the database), with two
 * pages of one browser context — one profile — and a real WebSocket agent on 127.0.0.1. The tab that holds the
 * lock runs the runtime; a second tab connects no agent and says LineUp is open in another tab; "Use LineUp here"
 * moves it (the holder stops, closes its database, lets go; the agent sees one connection at a time); a row the
 * old tab left pending reaches the agent once, from the new tab, with its envelope id; a consent question open in
 * the old tab is answered once; closing the holder lets the waiting tab start by itself; a frozen holder has the
 * lock stolen. The last test is the control: without Web Locks both tabs connect.
 */

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a hook uses from this pattern.
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    console.log(
      `connections ${agent.connections()}, open ${agent.openConnections()}, peak ${agent.peakConnections()}\n` +
        agent.frames
          .map((envelope) => `${envelope.id} ${envelope.type} ${String(envelope.payload.call_id ?? '')}`)
          .join('\n'),
    );
  await agent.close();
});

const TEXT = {
  en: {
    waiting:
      'LineUp is open in another tab. Only one tab runs it at a time: this one starts by itself when the other closes.',
    moved: 'LineUp moved to another tab. Nothing here runs or is saved until you take it back.',
    useHere: 'Use LineUp here',
    agent: 'Agent:',
    notConnected: 'Agent: not connected',
  },
  zh: {
    waiting:
      'LineUp 已在另一个标签页中打开。同一时间只有一个标签页运行它：另一个标签页关闭后，这里会自动启动。',
    moved: 'LineUp 已移到另一个标签页。在你把它移回之前，这里不会运行或保存任何内容。',
    useHere: '在此使用 LineUp',
    agent: '智能体：',
    notConnected: '智能体：未连接',
  },
} as const;

type Text = (typeof TEXT)[keyof typeof TEXT];

const tabNotice = (page: Page) => page.locator('[role="alert"][data-notice]');
const agentStatus = (page: Page, text: Text = TEXT.en) =>
  page.getByRole('status').filter({ hasText: text.agent });
const pomodoroFrame = (page: Page) =>
  page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe');
/** How often a page from `openSecond` opened the runtime database. */
const runtimeOpens = (page: Page) =>
  page.evaluate(() => (window as unknown as { __runtimeOpens: number }).__runtimeOpens);

/** A second tab of the profile on the same host URL: it waits, and says so. */
async function openSecond(context: BrowserContext, text: Text = TEXT.en): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    // Every open of the runtime database from this page, counted: a waiting tab must not hold a connection.
    const opens = window as unknown as { __runtimeOpens: number };
    opens.__runtimeOpens = 0;
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      if (name === 'lineup-runtime') opens.__runtimeOpens++;
      return version === undefined ? open.call(this, name) : open.call(this, name, version);
    };
    const counter = window as unknown as { __modalsShown: number };
    counter.__modalsShown = 0;
    const showModal = HTMLDialogElement.prototype.showModal;
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      counter.__modalsShown++;
      showModal.call(this);
    };
  });
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await expect(tabNotice(page)).toHaveText(text.waiting + text.useHere);
  return page;
}

/** Presses "Use LineUp here" in `page` and waits until it is connected and `from` says LineUp moved. */
async function takeOver(page: Page, from: Page, text: Text = TEXT.en): Promise<void> {
  await tabNotice(page).getByRole('button', { name: text.useHere }).click();
  await expect(tabNotice(from)).toHaveText(text.moved + text.useHere);
  await expect(agentStatus(from, text)).toHaveText(text.notConnected);
  await expect(tabNotice(page)).toHaveCount(0);
}

/** The agent holds one open connection now, and never held two at once. */
function oneConnection(): void {
  expect(agent.openConnections()).toBe(1);
  expect(agent.peakConnections()).toBe(1);
}

/** Every frame the agent got (copies included) about `callId` of `type`. */
const framesAbout = (type: string, callId: string) =>
  agent.frames.filter((envelope) => envelope.type === type && envelope.payload.call_id === callId);

for (const [locale, text, suffix] of [
  ['en-US', TEXT.en, ''],
  ['zh-CN', TEXT.zh, '-zh'],
] as const)
  test.describe(locale, () => {
    test.use({ locale });

    test('a second tab connects no agent and says LineUp is open in another tab; "use it here" moves the connection', async ({
      page,
      context,
    }) => {
      await openWithAgent(page, agent);
      const second = await openSecond(context, text);
      await expect(agentStatus(second, text)).toHaveText(text.notConnected);
      // Time for a second dial, had the tab started anything: none comes.
      await second.waitForTimeout(1_500);
      expect(agent.connections()).toBe(1);
      oneConnection();
      expect(await runtimeOpens(second)).toBe(0);
      await expect(
        second.getByRole('complementary', { name: /MiniApps|小程序/ }).getByRole('listitem'),
      ).toHaveCount(0);
      await second.screenshot({ path: `test-results/tabs-waiting${suffix}.png` });

      await takeOver(second, page, text);
      await connectedTo(second, agent);
      expect(await runtimeOpens(second)).toBe(1);
      expect(agent.connections()).toBe(2);
      oneConnection();
      await page.screenshot({ path: `test-results/tabs-moved${suffix}.png` });

      // And back: the first tab takes it again the same way.
      await takeOver(page, second, text);
      await connectedTo(page, agent);
      expect(agent.connections()).toBe(3);
      oneConnection();
    });
  });

test('a Pomodoro result left pending in the old tab reaches the agent once, from the new tab, with its envelope id', async ({
  page,
  context,
}) => {
  await page.clock.install();
  await openWithAgent(page, agent);
  agent.send('lineup.v1.tool.call', {
    call_id: 'call_tabs_focus',
    inventory_revision: 'inventory-2',
    tool: 'pomodoro.start',
    arguments: { minutes: 1 },
  });
  await expect
    .poll(() => framesAbout('lineup.v1.tool.progress', 'call_tabs_focus').map((f) => f.payload.status))
    .toEqual(['accepted', 'starting', 'started']);
  // The agent goes away; the focus completes meanwhile: its result waits in the old tab's outbox.
  agent.refuse(true);
  agent.kill();
  await expect(agentStatus(page)).toHaveText('Agent: disconnected, retrying…');
  await page.clock.fastForward(61_000);
  await expect(pomodoroFrame(page).locator('[data-phase]')).toHaveAttribute('data-phase', 'completed');
  type Row = { id: number; type: string; pending?: number; payload: { call_id?: string } };
  const pending = (await readStore<Row>(page, 'outbox')).filter(
    (row) => row.type === 'lineup.v1.tool.result' && row.payload.call_id === 'call_tabs_focus',
  );
  expect(pending).toEqual([expect.objectContaining({ pending: 1 })]);
  const rowId = pending[0]!.id;

  const second = await openSecond(context);
  await takeOver(second, page);
  agent.refuse(false);
  await expect(agentStatus(second)).toHaveText(`Agent: connected (${agent.url})`, { timeout: 20_000 });
  await expect.poll(() => framesAbout('lineup.v1.tool.result', 'call_tabs_focus').length).toBe(1);
  await second.waitForTimeout(1_000);
  const results = framesAbout('lineup.v1.tool.result', 'call_tabs_focus');
  // The profile's client id: the same in both tabs, so the resent result keeps its envelope id.
  const clientId = await second.evaluate(() => localStorage.getItem('lineup-host-client-id'));
  expect(clientId).toMatch(/^web-host-[0-9a-f]{16}$/);
  expect(results.map((envelope) => envelope.id)).toEqual([`${clientId}:o${rowId}`]);
  expect(results[0]?.payload).toMatchObject({ outcome: 'completed', result: { status: 'completed' } });
  expect(agent.frames.filter((envelope) => envelope.id === `${clientId}:o${rowId}`)).toHaveLength(1);
  expect(agent.connections()).toBe(2);
  oneConnection();
  // The new tab's recovery ran no step twice: one operation, completed once.
  const operations = await readStore<{ status: string }>(second, 'operations');
  expect(operations.map((operation) => operation.status)).toEqual(['completed']);
});

const FAR_FUTURE = '2099-08-02T12:10:00Z';
const DIALOG = 'The agent asks to use a capability';

function askToOpen(callId: string) {
  agent.send('lineup.v1.app.call', {
    call_id: callId,
    capability: 'app.open_url',
    reason: 'Open the docs',
    expires_at: FAR_FUTURE,
    arguments: { url: 'https://docs.example.test/' },
  });
}

test('a consent question open in the old tab when the new one takes over is answered exactly once', async ({
  page,
  context,
}) => {
  await openWithAgent(page, agent);
  askToOpen('call_tabs_open');
  await expect(page.getByRole('dialog', { name: DIALOG })).toBeVisible();
  const second = await openSecond(context);
  await takeOver(second, page);
  await expect(page.getByRole('dialog', { name: DIALOG })).toBeHidden();
  await connectedTo(second, agent);
  // The new tab's start-up settles the call the old tab left open (it cannot be answered any more): once.
  await expect.poll(() => framesAbout('lineup.v1.app.result', 'call_tabs_open').length).toBe(1);
  await second.waitForTimeout(1_000);
  expect(framesAbout('lineup.v1.app.result', 'call_tabs_open').map((envelope) => envelope.payload)).toEqual([
    {
      call_id: 'call_tabs_open',
      status: 'cancelled',
      error: { code: 'interrupted', message: expect.any(String) },
    },
  ]);
  expect(await dialogsShown(second)).toBe(0);
  expect(await dialogsShown(page)).toBe(1);
  oneConnection();
});

test('an app.result the user gave while the agent was away reaches it once, from the new tab', async ({
  page,
  context,
}) => {
  await openWithAgent(page, agent);
  askToOpen('call_tabs_deny');
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  agent.refuse(true);
  agent.kill();
  await expect(agentStatus(page)).toHaveText('Agent: disconnected, retrying…');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  type Row = { id: number; type: string; pending?: number; payload: { call_id?: string } };
  await expect
    .poll(async () =>
      (await readStore<Row>(page, 'outbox')).filter(
        (row) => row.type === 'lineup.v1.app.result' && row.payload.call_id === 'call_tabs_deny',
      ),
    )
    .toEqual([expect.objectContaining({ pending: 1 })]);
  const [row] = (await readStore<Row>(page, 'outbox')).filter(
    (candidate) => candidate.payload.call_id === 'call_tabs_deny',
  );
  const second = await openSecond(context);
  await takeOver(second, page);
  agent.refuse(false);
  await expect(agentStatus(second)).toHaveText(`Agent: connected (${agent.url})`, { timeout: 20_000 });
  await expect.poll(() => framesAbout('lineup.v1.app.result', 'call_tabs_deny').length).toBe(1);
  await second.waitForTimeout(1_000);
  const clientId = await second.evaluate(() => localStorage.getItem('lineup-host-client-id'));
  expect(clientId).toMatch(/^web-host-[0-9a-f]{16}$/);
  expect(framesAbout('lineup.v1.app.result', 'call_tabs_deny')).toEqual([
    expect.objectContaining({
      id: `${clientId}:o${row?.id}`,
      payload: expect.objectContaining({ status: 'rejected' }),
    }),
  ]);
  oneConnection();
});

test('closing the tab that runs LineUp lets the waiting tab start by itself', async ({ page, context }) => {
  await openWithAgent(page, agent);
  const second = await openSecond(context);
  await page.close();
  await connectedTo(second, agent);
  await expect(tabNotice(second)).toHaveCount(0);
  expect(agent.connections()).toBe(2);
  oneConnection();
});

/**
 * A holder that does not answer. Chromium's `Page.setWebLifecycleState` `frozen` changes nothing in this headless
 * build (its timers kept running when we tried), so the holder's main thread is paused with the debugger instead:
 * as in a frozen tab, none of its tasks run — it hears no message and learns of the steal only when it runs again.
 */
test('a frozen holder does not answer: the lock is stolen, and it stops at once when it runs again', async ({
  page,
  context,
}) => {
  await openWithAgent(page, agent);
  const second = await openSecond(context);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  const pressed = Date.now();
  await tabNotice(second).getByRole('button', { name: TEXT.en.useHere }).click();
  await connectedTo(second, agent);
  // Not before the answer timeout (1.5 s): the frozen tab was asked first.
  expect(Date.now() - pressed).toBeGreaterThanOrEqual(1_500);
  expect(agent.connections()).toBe(2);
  // The residual risk the runtime README names: the frozen tab's socket is still open (it sends nothing).
  expect(agent.openConnections()).toBe(2);
  await cdp.send('Debugger.resume');
  await expect(tabNotice(page)).toHaveText(TEXT.en.moved + TEXT.en.useHere);
  await expect(agentStatus(page)).toHaveText(TEXT.en.notConnected);
  await expect.poll(() => agent.openConnections()).toBe(1);
  // The new tab runs on: still connected, the only connection.
  await expect(agentStatus(second)).toHaveText(`Agent: connected (${agent.url})`);
  expect(agent.connections()).toBe(2);
});

test.describe('without Web Locks (the control)', () => {
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true });
    });
  });

  test('nothing keeps two tabs apart: both connect to the agent at once, and each says so', async ({
    page,
    context,
  }) => {
    const warning =
      'This browser cannot keep LineUp to one tab (it has no Web Locks here). Open LineUp in one tab only: two tabs could both connect to the agent and act on what it asks.';
    await openWithAgent(page, agent);
    await expect(tabNotice(page)).toHaveText(warning);
    const second = await context.newPage();
    await second.goto(`/?agent=${encodeURIComponent(agent.url)}`);
    await expect(tabNotice(second)).toHaveText(warning);
    await expect(agentStatus(second)).toHaveText(`Agent: connected (${agent.url})`);
    // What the lock prevents: the agent sees the profile twice, at the same time.
    await expect.poll(() => agent.openConnections()).toBe(2);
    expect(agent.peakConnections()).toBe(2);
    await second.screenshot({ path: 'test-results/tabs-unguarded.png' });
  });

  test.describe('in Chinese', () => {
    test.use({ locale: 'zh-CN' });
    test('the warning is in the host language', async ({ page }) => {
      await page.goto('/');
      await expect(tabNotice(page)).toHaveText(
        '此浏览器无法把 LineUp 限制在一个标签页中（这里没有 Web Locks）。请只在一个标签页中打开 LineUp：两个标签页可能都会连接智能体并执行它的请求。',
      );
      await page.screenshot({ path: 'test-results/tabs-unguarded-zh.png' });
    });
  });
});
