import { expect, shownConversation, test } from './fixtures.ts';

test('the Web Reference Host renders its shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('LineUp — Web Reference Host');
  await expect(page.getByRole('heading', { level: 1, name: 'LineUp' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Conversation' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'MiniApps' })).toBeVisible();
  await page.screenshot({ path: 'test-results/shell.png', fullPage: true });
});

test('a pasted agent turn renders its Markdown through the DSL allowlist, never as HTML', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  const conversation = await shownConversation(page);
  await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
    JSON.stringify({
      v: 1,
      id: 'msg_reply_1',
      type: 'lineup.v1.chat.agent_message',
      conversation_id: conversation,
      sender: { kind: 'agent', id: 'agent_e2e' },
      payload: {
        text: 'Opening **Markdown check**. <img src=x onerror=alert(1)> [docs](javascript:alert(1))',
      },
    }),
  );
  await page.getByRole('button', { name: 'Deliver' }).click();
  const reply = page.locator('.host__chat-turn--agent').filter({ hasText: 'Markdown check' });
  await expect(reply.locator('strong')).toHaveText('Markdown check');
  await expect(reply.locator('img')).toHaveCount(0);
  await expect(reply.locator('a[href^="javascript"]')).toHaveCount(0);
});
