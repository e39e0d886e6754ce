import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import type { TestAgent } from './test-agent.ts';

/**
 * The host page connected to a test agent (`?agent=ws://…`), for the specs that drive it from the agent's end.
 * Every page counts the modal dialogs it opens (`showModal`), so "no dialog" is checked, not just not seen.
 */
export async function openWithAgent(page: Page, agent: TestAgent): Promise<void> {
  await page.addInitScript(() => {
    const counter = window as unknown as { __modalsShown: number };
    counter.__modalsShown = 0;
    const showModal = HTMLDialogElement.prototype.showModal;
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      counter.__modalsShown++;
      showModal.call(this);
    };
  });
  await page.goto(`/?agent=${encodeURIComponent(agent.url)}`);
  await connectedTo(page, agent);
}

/** The page is connected and the agent has its inventory (so `agent.send` knows the conversation). */
export async function connectedTo(page: Page, agent: TestAgent): Promise<void> {
  await expect(
    page.getByRole('status').filter({ hasText: /^(Agent: connected|智能体：已连接)/ }),
  ).toBeVisible();
  await expect
    .poll(() => agent.received.some((envelope) => envelope.type === 'lineup.v1.client.inventory'))
    .toBe(true);
}

/** How many modal dialogs this page has opened since it loaded. */
export const dialogsShown = (page: Page) =>
  page.evaluate(() => (window as unknown as { __modalsShown: number }).__modalsShown);
