import type { Page } from '@playwright/test';
import { expect, shownConversation, test } from './fixtures.ts';

/**
 * Conversations kept in IndexedDB, with the demo agent: a page reload in the middle of a conversation shows it
 * again as it was — the chat turns, an interface with the values the user had changed, a Surface with the state of
 * its last patch, a streamed interface — and nothing is sent or run again; a new conversation starts empty and the
 * earlier one comes back from the list.
 */

async function say(page: Page, text: string) {
  const box = page.getByLabel('Message to the agent');
  await box.fill(text);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  // Enter in the field, as a user sends. A click goes to the Send button's position, and a Surface above that
  // resizes itself between Playwright's stability check and the click can move the button away from under it:
  // the message was then never sent (CI, right after the weather Surface opened).
  await box.press('Enter');
  // Submitted: the field empties at once (a message that could not be sent comes back into it, with a note).
  await expect(box, 'the form was submitted').toHaveValue('');
  // Shown once its strict journal write is on disk: under a loaded CI machine that took over 5 s once.
  try {
    await expect(page.locator('.host__chat-turn--user').last()).toContainText(text, { timeout: 15_000 });
  } catch (error) {
    const notes = await page.locator('.host__note').allTextContents();
    throw new Error(
      `"${text}" was not shown as sent; the conversation's notes: ${JSON.stringify(notes.slice(-8))}; the field holds ${JSON.stringify(await box.inputValue())}`,
      { cause: error },
    );
  }
}

const userTurns = (page: Page) => page.locator('.host__chat-turn--user .host__chat-text');
const agentTurns = (page: Page) => page.locator('.host__chat-turn--agent');
const principal = (page: Page) =>
  page.getByRole('listitem', { name: 'Agent document' }).getByLabel('Principal ($)');

async function ready(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  return shownConversation(page);
}

test('a reload in the middle of a conversation brings it back as it was, and sends nothing again', async ({
  page,
}) => {
  await page.goto('/');
  const conversation = await ready(page);
  await say(page, 'show a compound interest calculator');
  await expect(principal(page)).toHaveValue('10000');
  await principal(page).fill('25000');
  await principal(page).blur();
  await say(page, 'open a weather surface');
  await expect(page.locator('.host__surface iframe')).toHaveCount(1);
  await say(page, 'stream an interface');
  await expect(page.getByRole('listitem', { name: 'Streamed interface' })).toHaveCount(1);
  await expect(page.locator('.lu-stream')).not.toContainText('Generating…', { timeout: 15_000 });
  const turns = { user: await userTurns(page).allTextContents(), agent: await agentTurns(page).count() };
  const sentBefore = await page.locator('.host__note--to-agent').count();
  await page.screenshot({ path: 'test-results/conversation-before-reload.png', fullPage: true });

  await page.reload();
  expect(await ready(page)).toBe(conversation);
  await expect(userTurns(page)).toHaveText(turns.user);
  await expect(agentTurns(page)).toHaveCount(turns.agent);
  await expect(principal(page)).toHaveValue('25000');
  await expect(page.locator('.host__surface iframe')).toHaveCount(1);
  await expect(page.getByRole('listitem', { name: 'Streamed interface' })).toHaveCount(1);
  await expect(page.locator('.lu-stream')).not.toContainText('Generating…');
  // The session started again: the inventory went out again under its earlier id (the agent drops the copy),
  // so no entry is shown twice and nothing else was sent.
  await page.waitForTimeout(500);
  await expect(page.locator('.host__note--to-agent')).toHaveCount(sentBefore);
  await page.screenshot({ path: 'test-results/conversation-after-reload.png', fullPage: true });
});

test('a reload keeps the Surface state of the last patch', async ({ page }) => {
  await page.goto('/');
  const conversation = await ready(page);
  await page.getByRole('button', { name: 'Inline Surface' }).click();
  const frame = page.frameLocator('iframe[title="Weather dashboard"]').frameLocator('iframe');
  await expect(frame.locator('#city')).toHaveText('Beijing');
  await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
    JSON.stringify({
      v: 1,
      id: 'msg_patch_1',
      type: 'lineup.v1.ui.patch',
      conversation_id: conversation,
      sender: { kind: 'agent', id: 'agent_e2e' },
      payload: { instance_id: 'weather.dashboard.01', state: { city: 'Reykjavík', temperature: 3 } },
    }),
  );
  await page.getByRole('button', { name: 'Deliver' }).click();
  await expect(frame.locator('#city')).toHaveText('Reykjavík');
  await page.reload();
  await ready(page);
  await expect(frame.locator('#city')).toHaveText('Reykjavík');
  await expect(frame.locator('#temperature')).toHaveText('3');
  // Closed by the user, it stays closed after the next reload.
  await page.getByRole('button', { name: 'Close Weather dashboard' }).click();
  await expect(page.locator('.host__surface')).toHaveCount(0);
  await page.reload();
  await ready(page);
  await expect(page.locator('.host__note--to-agent').last()).toContainText('weather.dashboard.01 close');
  await expect(page.locator('.host__surface')).toHaveCount(0);
});

test('a new conversation starts empty; the earlier one comes back from the list', async ({ page }) => {
  await page.goto('/');
  const first = await ready(page);
  await say(page, 'hello there');
  await expect(agentTurns(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.locator('section.host__conversation')).not.toHaveAttribute('data-conversation-id', first);
  const second = await shownConversation(page);
  expect(second).toMatch(/^conv_/);
  await expect(userTurns(page)).toHaveCount(0);
  // The new conversation gets the inventory before anything else.
  await expect(page.locator('.host__note--to-agent').first()).toContainText('lineup.v1.client.inventory');
  await say(page, 'show a compound interest calculator');
  await expect(page.getByRole('listitem', { name: 'Agent document' })).toHaveCount(1);

  const picker = page.getByLabel('Conversations');
  await expect(picker.locator('option')).toHaveCount(2);
  await expect(picker.locator('option').first()).toContainText('show a compound interest calculator');
  await picker.selectOption(first);
  await expect(userTurns(page)).toHaveText(['hello there']);
  await expect(page.getByRole('listitem', { name: 'Agent document' })).toHaveCount(0);
  // The latest conversation is the one a reload opens.
  await page.reload();
  expect(await ready(page)).toBe(first);
  await expect(userTurns(page)).toHaveText(['hello there']);
  await page.screenshot({ path: 'test-results/conversation-list.png', fullPage: true });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the conversation list and a restored conversation speak Chinese', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: '智能体：' })).toHaveText(
      '智能体：已连接 (演示智能体)',
    );
    await page.getByLabel('发给智能体的消息').fill('现在开始 20 分钟的冥想，帮我计时');
    await page.getByRole('button', { name: '发送', exact: true }).click();
    await expect(agentTurns(page).last()).toContainText(/计时/);
    await page.reload();
    await expect(userTurns(page)).toHaveText(['现在开始 20 分钟的冥想，帮我计时']);
    await expect(page.getByLabel('对话记录').locator('option')).toHaveCount(1);
    await expect(page.getByLabel('对话记录').locator('option')).toContainText('现在开始 20 分钟的冥想');
    await expect(page.getByRole('button', { name: '新对话' })).toBeVisible();
    await page.screenshot({ path: 'test-results/conversation-zh.png', fullPage: true });
  });
});
