import type { FrameLocator, Page } from '@playwright/test';
import { expect, shownConversation, test } from './fixtures.ts';
import { driveVisibility } from './visibility.ts';

/**
 * The Pomodoro story of seed 003 §7 in Chromium, as a user sees it: an agent's `pomodoro.start` brings
 * Pomodoro into the workspace by itself, the timer starts only once it is shown, the page counts down from the
 * persisted deadline, and the one final result reaches the agent when the focus completes, is interrupted by
 * the agent, is left by the user, or never starts. Time is Playwright's clock; everything else is real (the
 * built host, the runtime in IndexedDB, Pomodoro's page in its sandboxed frame).
 */

let sequence = 0;

/** The message box's labels in the host's language. */
const BOX = {
  en: { paste: 'Document or lineup.v1 message (JSON)', deliver: 'Deliver' },
  zh: { paste: '文档或 lineup.v1 消息（JSON）', deliver: '投递' },
} as const;

/** Delivers an agent `tool.call` through the host's message box, as the agent transport would. */
async function callTool(
  page: Page,
  call_id: string,
  tool: string,
  args: object = {},
  box: (typeof BOX)[keyof typeof BOX] = BOX.en,
) {
  const conversation = await shownConversation(page);
  await page.getByLabel(box.paste).fill(
    JSON.stringify({
      v: 1,
      id: `msg_pomodoro_${++sequence}`,
      type: 'lineup.v1.tool.call',
      conversation_id: conversation,
      sender: { kind: 'agent', id: 'agent_e2e' },
      payload: { call_id, inventory_revision: 'inventory-2', tool, arguments: args },
    }),
  );
  await page.getByRole('button', { name: box.deliver }).click();
}

/** The notes of what the client sent the agent about `callId`, as `status` or the final result JSON. */
async function sentAbout(page: Page, callId: string): Promise<string[]> {
  const texts = await page.locator('.host__note--to-agent code').allTextContents();
  return texts.flatMap((text) => {
    const match = /^lineup\.v1\.tool\.(progress|result) (.*)$/.exec(text);
    if (match === null) return [];
    const payload = JSON.parse(match[2]!) as {
      call_id: string;
      status?: string;
      outcome?: string;
      result?: unknown;
      error?: { code: string };
    };
    if (payload.call_id !== callId) return [];
    if (match[1] === 'progress') return [payload.status!];
    return [
      payload.outcome === 'completed' ? JSON.stringify(payload.result) : `error ${payload.error?.code}`,
    ];
  });
}

const workspace = (page: Page) => page.getByRole('region', { name: 'Pomodoro' });
const pomodoro = (page: Page): FrameLocator =>
  page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe');

/** The seconds Pomodoro's page shows as remaining (`mm:ss`). */
async function remainingSeconds(frame: FrameLocator): Promise<number> {
  const text = await frame.getByTestId('remaining').textContent();
  const match = /^(\d\d):(\d\d)$/.exec(text ?? '');
  if (match === null) throw new Error(`Not a mm:ss time: ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/**
 * Holds the Pomodoro page's start until `release()`: the page is built from its kept files (nothing to hold on
 * the network), so the message its frame posts to the host — its `ready`, whose port carries `app_ready` — is held instead,
 * by a capturing listener that runs before the host's, and handed on in order on release. The app cannot come
 * to the foreground meanwhile.
 */
async function holdPomodoroPage(page: Page) {
  await page.evaluate(() => {
    const held: MessageEvent[] = [];
    const state = { holding: true, held };
    (window as unknown as { __pomodoroHold: typeof state }).__pomodoroHold = state;
    window.addEventListener(
      'message',
      (event) => {
        // The page runs in the frame inside the host's (the Surface wrapper): its `ready`, with the port its
        // messages travel on, is the one window message it posts.
        const frame = document.querySelector<HTMLIFrameElement>('.host__workspace-frame iframe');
        const content = frame?.contentWindow?.[0];
        if (!state.holding || !event.isTrusted || content === undefined || event.source !== content) return;
        event.stopImmediatePropagation();
        held.push(event);
      },
      true,
    );
  });
  const count = () =>
    page.evaluate(
      () => (window as unknown as { __pomodoroHold: { held: unknown[] } }).__pomodoroHold.held.length,
    );
  return {
    waitForHeld: () => expect.poll(count).toBeGreaterThan(0),
    release: () =>
      page.evaluate(() => {
        const state = (window as unknown as { __pomodoroHold: { holding: boolean; held: MessageEvent[] } })
          .__pomodoroHold;
        state.holding = false;
        for (const event of state.held.splice(0))
          window.dispatchEvent(
            new MessageEvent('message', {
              data: event.data,
              origin: event.origin,
              source: event.source,
              ports: [...event.ports],
            }),
          );
      }),
  };
}

async function open(page: Page) {
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByText('Inventory published to agents: inventory-2, 2 Agent Tools')).toBeVisible();
}

test('start: Pomodoro comes forward by itself, starts once seen, counts down and completes on time', async ({
  page,
}) => {
  await open(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 1, label: 'Write the report' });
  await expect(workspace(page)).toBeVisible();
  await expect(workspace(page).getByRole('status')).toHaveText('In the foreground');
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  const frame = pomodoro(page);
  await expect(frame.locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
  // Real time flows on between Playwright's jumps: the page counts from the persisted deadline.
  expect(await remainingSeconds(frame)).toBeGreaterThan(45);
  expect(await remainingSeconds(frame)).toBeLessThanOrEqual(60);
  await expect(frame.getByText('Write the report', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/pomodoro-running.png', fullPage: true });

  const before = await remainingSeconds(frame);
  await page.clock.fastForward(30_000);
  await expect.poll(() => remainingSeconds(frame)).toBeLessThanOrEqual(before - 30);
  expect(await remainingSeconds(frame)).toBeGreaterThan(before - 45);
  await page.clock.fastForward(31_000);
  await expect(frame.locator('[data-phase]')).toHaveAttribute('data-phase', 'completed');
  await expect
    .poll(() => sentAbout(page, 'call_start'))
    .toEqual(['accepted', 'starting', 'started', expect.stringContaining('"status":"completed"')]);
  const [, , , result] = await sentAbout(page, 'call_start');
  const completed = JSON.parse(result!) as { minutes: number; started_at: string; ended_at: string };
  expect(completed.minutes).toBe(1);
  expect(Date.parse(completed.ended_at) - Date.parse(completed.started_at)).toBe(60_000);
  await page.screenshot({ path: 'test-results/pomodoro-completed.png', fullPage: true });
});

test('interrupt while Pomodoro is still opening: the start ends not_started, nothing was timed', async ({
  page,
}) => {
  await open(page);
  const held = await holdPomodoroPage(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25 });
  await held.waitForHeld();
  await expect(workspace(page).getByRole('status')).toHaveText('Opening…');
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting']);
  await callTool(page, 'call_stop', 'pomodoro.interrupt');
  await expect
    .poll(() => sentAbout(page, 'call_stop'))
    .toEqual(['accepted', JSON.stringify({ status: 'start_cancelled' })]);
  await expect
    .poll(() => sentAbout(page, 'call_start'))
    .toEqual(['accepted', 'starting', JSON.stringify({ status: 'not_started', reason: 'cancelled' })]);
  // The runtime closed the instance: the workspace is gone, and a late page load changes nothing.
  await expect(workspace(page)).toHaveCount(0);
  await held.release();
  await expect.poll(() => sentAbout(page, 'call_start')).toHaveLength(3);
});

test('a start the user never sees ends not_started when the bounded wait runs out', async ({ page }) => {
  await open(page);
  const held = await holdPomodoroPage(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25 });
  await held.waitForHeld();
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting']);
  await page.clock.fastForward(31_000);
  await expect
    .poll(() => sentAbout(page, 'call_start'))
    .toEqual([
      'accepted',
      'starting',
      JSON.stringify({ status: 'not_started', reason: 'foreground_not_confirmed' }),
    ]);
  await held.release();
});

test('a hidden tab does not confirm the foreground: the timer starts only once the user comes back', async ({
  page,
}) => {
  const setHidden = await driveVisibility(page);
  await open(page);
  await setHidden(true);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25 });
  await expect(pomodoro(page).locator('[data-phase]')).toHaveAttribute('data-phase', 'idle');
  await page.clock.fastForward(10_000);
  await expect(workspace(page).getByRole('status')).toHaveText('Opening…');
  expect(await sentAbout(page, 'call_start')).toEqual(['accepted', 'starting']);
  await setHidden(false);
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  await expect(pomodoro(page).locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
  // Hiding the tab while focusing is not leaving: the focus goes on.
  await setHidden(true);
  await page.clock.fastForward(60_000);
  await setHidden(false);
  expect(await sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
});

test('the agent stops a running focus: interrupted by agent, and Pomodoro hears a close', async ({
  page,
}) => {
  await open(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25 });
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  await page.clock.fastForward(5 * 60_000);
  await callTool(page, 'call_stop', 'pomodoro.interrupt');
  await expect
    .poll(() => sentAbout(page, 'call_stop'))
    .toEqual(['accepted', JSON.stringify({ status: 'interrupted' })]);
  await expect.poll(async () => (await sentAbout(page, 'call_start')).length).toBe(4);
  const interrupted = JSON.parse((await sentAbout(page, 'call_start'))[3]!) as Record<string, unknown>;
  expect(interrupted).toMatchObject({ status: 'interrupted', by: 'agent' });
  expect(interrupted.focused_seconds).toBeGreaterThanOrEqual(300);
  await expect(workspace(page)).toHaveCount(0);
});

test('leaving the workspace interrupts the focus by user_left; talking to the agent does not', async ({
  page,
}) => {
  await open(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25 });
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  // The conversation stays usable beside the workspace.
  await page.getByRole('button', { name: 'Inline Surface' }).click();
  await page.clock.fastForward(60_000);
  await expect(pomodoro(page).locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
  await expect.poll(async () => (await sentAbout(page, 'call_start')).length).toBe(3);

  await workspace(page).getByRole('button', { name: 'Back to conversation' }).click();
  await expect(workspace(page)).toHaveCount(0);
  await expect.poll(async () => (await sentAbout(page, 'call_start')).length).toBe(4);
  const left = JSON.parse((await sentAbout(page, 'call_start'))[3]!) as Record<string, unknown>;
  expect(left).toMatchObject({ status: 'interrupted', by: 'user_left' });
});

test('a reload in the middle of a focus: Pomodoro comes back, the countdown continues and settles on time', async ({
  page,
}) => {
  await open(page);
  await callTool(page, 'call_start', 'pomodoro.start', { minutes: 2 });
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  await page.clock.fastForward(30_000);
  await page.reload();
  await expect(workspace(page)).toBeVisible();
  // The conversation came back from IndexedDB with what was sent before the reload.
  await expect.poll(() => sentAbout(page, 'call_start')).toEqual(['accepted', 'starting', 'started']);
  const frame = pomodoro(page);
  await expect(frame.locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
  // 120 s minus the 30 s jump and the real seconds the test took; the deadline came from IndexedDB.
  await expect.poll(() => remainingSeconds(frame)).toBeLessThanOrEqual(90);
  expect(await remainingSeconds(frame)).toBeGreaterThan(70);
  // Not fullPage: Chromium's full-page capture lays a sandboxed (out-of-process) frame out at a wrong width.
  await page.screenshot({ path: 'test-results/pomodoro-after-reload.png' });
  await page.clock.fastForward(91_000);
  await expect(frame.locator('[data-phase]')).toHaveAttribute('data-phase', 'completed');
  // The final result goes out after the reload, from the outbox, once.
  await expect
    .poll(() => sentAbout(page, 'call_start'))
    .toEqual(['accepted', 'starting', 'started', expect.stringContaining('"status":"completed"')]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the host and Pomodoro speak the user language', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByText('向智能体发布的清单： inventory-2, 2 个智能体工具')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await callTool(page, 'call_start', 'pomodoro.start', { minutes: 25, label: '撰写季度报告' }, BOX.zh);
    await expect(workspace(page).getByRole('status')).toHaveText('在前台');
    const frame = pomodoro(page);
    await expect(frame.locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
    await expect(frame.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('专注中');
    await expect(frame.getByText('撰写季度报告', { exact: true })).toBeVisible();
    await page.screenshot({ path: 'test-results/pomodoro-running-zh.png', fullPage: true });
    // The switch turns the host to English and remembers it.
    await page.getByRole('button', { name: 'EN' }).click();
    await expect(workspace(page).getByRole('button', { name: 'Back to conversation' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Conversation' })).toBeVisible();
  });
});
