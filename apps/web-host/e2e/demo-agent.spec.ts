import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The built-in demo agent (`@lineup/scripted-agent` on the far end of the in-process transport), as a user
 * meets it after `npm start`: it answers chat in the user's language and drives the real messages — Pomodoro
 * through the runtime, a document, a Surface, a stream.
 */

async function say(page: Page, text: string) {
  const chinese = (await page.locator('html').getAttribute('lang')) === 'zh-CN';
  const field = page.getByLabel(chinese ? '发给智能体的消息' : 'Message to the agent');
  await field.fill(text);
  // Enter in the field, as a user sends. A click goes to the Send button's position, and the composer follows the
  // conversation: a Surface above that resizes itself between Playwright's stability check and the click (its
  // content reports its size after it drew) can move the button away from under it.
  await expect(page.getByRole('button', { name: chinese ? '发送' : 'Send' })).toBeEnabled();
  await field.press('Enter');
  try {
    await expect(page.locator('.host__chat-turn--user').last()).toContainText(text);
  } catch (error) {
    // Seen once in CI and never reproduced (20 local runs): say what the page showed, to find out next time.
    const field = await page.locator('#chat-message').inputValue();
    const notes = await page.locator('.host__note').allTextContents();
    throw new Error(
      `"${text}" did not show as sent; the field holds "${field}"; notes: ${JSON.stringify(notes.slice(-5))}`,
      {
        cause: error,
      },
    );
  }
}

const agentTurns = (page: Page) => page.locator('.host__chat-turn--agent');
const workspace = (page: Page) => page.getByRole('region', { name: 'Pomodoro' });
const phase = (page: Page) =>
  page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]');

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('现在开始 20 分钟的冥想，帮我计时 — then 停止', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: '智能体：' })).toHaveText(
      '智能体：已连接 (演示智能体)',
    );
    await say(page, '现在开始 20 分钟的冥想，帮我计时');
    await expect(workspace(page)).toBeVisible();
    await expect(phase(page)).toHaveAttribute('data-phase', 'running');
    await expect(agentTurns(page).last()).toContainText(/计时/);
    await page.screenshot({ path: 'test-results/demo-agent-zh.png', fullPage: true });
    await page.clock.fastForward(5 * 60_000);
    await say(page, '停止');
    await expect(workspace(page)).toHaveCount(0);
    // The focus ended interrupted by the agent, and the demo agent says so, in Chinese.
    await expect(agentTurns(page).last()).toContainText(/中断|停止|专注了/);
    await expect(page.locator('.host__note--to-agent code').filter({ hasText: '"by":"agent"' })).toHaveCount(
      1,
    );
  });
});

test('start a 1 minute focus — completes, and the agent reports it', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  await say(page, 'start a 1 minute focus');
  await expect(phase(page)).toHaveAttribute('data-phase', 'running');
  await page.clock.fastForward(61_000);
  await expect(phase(page)).toHaveAttribute('data-phase', 'completed');
  await expect(agentTurns(page).last()).toContainText(/complete/i);
  await page.screenshot({ path: 'test-results/demo-agent-en.png', fullPage: true });
});

test('the demo agent shows a document, a Surface and a stream, and explains itself', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  await say(page, 'show a compound interest calculator');
  await expect(page.getByRole('listitem', { name: 'Agent document' })).toHaveCount(1);
  await say(page, 'open a weather surface');
  await expect(page.locator('.host__surface iframe')).toHaveCount(1);
  await say(page, 'stream an interface');
  await expect(page.getByRole('listitem', { name: 'Streamed interface' })).toHaveCount(1);
  await say(page, 'what is the meaning of life?');
  await expect(agentTurns(page).last()).toContainText(/demo/i);
  await page.screenshot({ path: 'test-results/demo-agent-interfaces.png', fullPage: true });
});

test('what the user types while the last message is still on its way is kept', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  const field = page.getByLabel('Message to the agent');
  // The demo agent streams its interface over a few hundred milliseconds; the send completes after that.
  await field.fill('stream an interface');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(field).toHaveValue('');
  await field.fill('what is the meaning of life?');
  await expect(page.getByRole('group', { name: 'Projected balance' })).toBeVisible();
  await expect(page.getByText('Generating…')).toHaveCount(0);
  await expect(page.locator('.host__chat-turn--user').last()).toContainText('stream an interface');
  await expect(field).toHaveValue('what is the meaning of life?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('.host__chat-turn--user').last()).toContainText('what is the meaning of life?');
  await expect(agentTurns(page).last()).toContainText(/demo/i);
});
