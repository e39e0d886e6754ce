import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import type { TestAgent } from './test-agent.ts';

/** The question a page opened with `?agent=` asks before it dials anything (src/agent/AgentLinkPanel.tsx). */
export const agentLinkQuestion = (page: Page) =>
  page.getByRole('region', {
    name: /^(Connect to the agent named in this link\?|连接此链接指定的智能体？)$/,
  });

/**
 * Answers the agent link question with "Connect" (a page opened with `?agent=` dials nothing before), and waits
 * until the question is gone. The question is not a modal dialog: `__modalsShown` does not count it.
 */
export async function confirmAgentLink(page: Page): Promise<void> {
  const question = agentLinkQuestion(page);
  await expect(question).toBeVisible();
  // Its buttons accept a press only a moment after it appears: the click waits until they are enabled.
  await question.getByRole('button', { name: /^(Connect|连接)$/ }).click();
  await expect(question).toHaveCount(0);
}

/**
 * Makes this page's browser profile remember `agentUrl`'s origin as allowed before the page loads (what an earlier
 * "Connect" leaves), so the page dials at once: for the benches, whose timings must not hold a user's click.
 */
export async function rememberAgentLink(page: Page, agentUrl: string): Promise<void> {
  const url = new URL(agentUrl);
  await page.addInitScript((origin) => {
    const key = 'lineup-host-agent-origins';
    const kept = JSON.parse(localStorage.getItem(key) ?? '[]') as string[];
    if (!kept.includes(origin)) localStorage.setItem(key, JSON.stringify([...kept, origin]));
  }, `${url.protocol}//${url.host}`);
}

/**
 * The host page connected to a test agent (`?agent=ws://…`), for the specs that drive it from the agent's end:
 * the user confirms the link's agent first. Every page counts the modal dialogs it opens (`showModal`), so
 * "no dialog" is checked, not just not seen.
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
  await confirmAgentLink(page);
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
