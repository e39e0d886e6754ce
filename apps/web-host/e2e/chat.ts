/** The conversation view as the agent specs drive it: saying something, and what the agent and Pomodoro show. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export const agentTurns = (page: Page) => page.locator('.host__chat-turn--agent');
export const pomodoroWorkspace = (page: Page) => page.getByRole('region', { name: 'Pomodoro' });
export const pomodoroPhase = (page: Page) =>
  page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]');

/**
 * Says `text` to the agent with Enter (a Surface resizing itself can move the Send button away from a click) and waits
 * until it shows as the user's last turn.
 */
export async function say(page: Page, text: string): Promise<void> {
  const field = page.getByLabel('Message to the agent');
  await field.fill(text);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await field.press('Enter');
  await expect(page.locator('.host__chat-turn--user').last()).toContainText(text, { timeout: 15_000 });
}
