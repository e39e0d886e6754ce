import { expect, test } from './fixtures.ts';

test('the Web Reference Host renders its shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('LineUp — Web Reference Host');
  await expect(page.getByRole('heading', { level: 1, name: 'LineUp' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Conversation' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'MiniApps' })).toBeVisible();
  await page.screenshot({ path: 'test-results/shell.png', fullPage: true });
});
