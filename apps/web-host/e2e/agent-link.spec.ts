import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { agentLinkQuestion, confirmAgentLink, connectedTo } from './agent-page.ts';
import { expect, test } from './fixtures.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * An agent named by a page link (`?agent=…`) is dialled only after the user presses "Connect" in the host
 * (src/agent/agent-link.ts, AgentLinkPanel.tsx): before that no WebSocket is created and the agent receives no
 * frame; "Connect" is remembered by the agent's origin in this browser profile, so a reload connects without asking,
 * until the user forgets it; "Don't connect" dials nothing and leaves the page usable with no agent; a `ws://` link
 * to a host that is not this computer is refused without a question. Every page here counts the WebSockets it
 * creates, so "nothing dialled" is checked at the page as well as at the agent.
 */

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async ({ page }) => {
  await page.close();
  await agent.close();
});

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Counts every WebSocket the page creates, with its URL (`window.__sockets`). */
async function countSockets(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const opened: string[] = [];
    (window as unknown as { __sockets: string[] }).__sockets = opened;
    window.WebSocket = new Proxy(window.WebSocket, {
      construct(target, args: ConstructorParameters<typeof WebSocket>) {
        opened.push(String(args[0]));
        return Reflect.construct(target, args);
      },
    });
  });
}

const socketsOf = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __sockets: string[] }).__sockets]);

const linkTo = (url: string) => `/?agent=${encodeURIComponent(url)}`;
const origin = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
};
const agentStatus = (page: Page) => page.getByRole('status').filter({ hasText: /^(Agent:|智能体：)/ });

/** Axe's violations on the page, short enough to read in a report. */
async function violations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS).exclude('iframe');
  if (include !== undefined) builder.include(include);
  const results = await builder.analyze();
  return [
    ...results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 120)).join(' | ')}`,
    ),
    ...results.incomplete
      .filter((review) => review.id === 'label-content-name-mismatch')
      .map((review) => `${review.id} (needs review)`),
  ];
}

/** Nothing reached the agent: no connection, no frame; and the page created no WebSocket. */
async function nothingDialled(page: Page): Promise<void> {
  expect(agent.connections()).toBe(0);
  expect(agent.frames).toEqual([]);
  expect(await socketsOf(page)).toEqual([]);
}

test.describe('in English', () => {
  test.use({ locale: 'en-US' });

  test('a crafted link dials nothing and sends nothing until "Connect"; then the agent gets the inventory', async ({
    page,
  }) => {
    await countSockets(page);
    await page.goto(linkTo(agent.url));
    const question = agentLinkQuestion(page);
    await expect(question).toBeVisible();
    await expect(question.getByRole('heading', { level: 2 })).toHaveText(
      'Connect to the agent named in this link?',
    );
    await expect(question.locator('.host__agent-link-origin')).toHaveText(origin(agent.url));
    await expect(question.locator('.host__agent-link-url')).toHaveText(agent.url);
    await expect(question).toContainText(
      'If you connect, this agent sees the tools of every app installed here, and can ask to run them.',
    );
    // The page runs meanwhile, with no agent, and says so where the connection's state is.
    await expect(agentStatus(page)).toHaveText('Agent: not connected');
    await expect(
      page.getByRole('complementary', { name: 'MiniApps' }).getByRole('listitem').first(),
    ).toBeVisible();
    // Time for a dial, had the page made one: none comes.
    await page.waitForTimeout(1_500);
    await nothingDialled(page);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/agent-link-en-light.png' });
    await question.screenshot({ path: '/tmp/agent-link-en-light-question.png' });

    await question.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(question).toHaveCount(0);
    await connectedTo(page, agent);
    await expect(agentStatus(page)).toHaveText(`Agent: connected (${agent.url})`);
    expect(agent.connections()).toBe(1);
    expect(agent.received[0]?.type).toBe('lineup.v1.client.inventory');
    expect(await socketsOf(page)).toEqual([agent.url]);
    // The note says where this agent came from, with a way to forget it.
    const note = page.getByRole('region', { name: 'Agent link' });
    await expect(note).toContainText(`The agent at ${origin(agent.url)} comes from this page’s link`);
    await expect(note.getByRole('button', { name: 'Forget this agent' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });

  test('keyboard: the question takes the focus, "Don\'t connect" comes first, Enter on "Connect" connects', async ({
    page,
  }) => {
    await page.goto(linkTo(agent.url));
    const question = agentLinkQuestion(page);
    await expect(question).toBeFocused();
    const decline = question.getByRole('button', { name: 'Don’t connect' });
    const connect = question.getByRole('button', { name: 'Connect', exact: true });
    await expect(connect).toBeEnabled();
    await page.keyboard.press('Tab');
    await expect(decline).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(connect).toBeFocused();
    await page.keyboard.press('Enter');
    await connectedTo(page, agent);
    // The question went with the answer: the focus is in the message box, not lost to the page.
    await expect(page.getByLabel('Message to the agent')).toBeFocused();
  });

  test('a reload connects a remembered origin without asking; "Forget" in the console ends it and asks again', async ({
    page,
  }) => {
    await countSockets(page);
    await page.goto(linkTo(agent.url));
    await confirmAgentLink(page);
    await connectedTo(page, agent);

    await page.reload();
    await connectedTo(page, agent);
    await expect(agentLinkQuestion(page)).toHaveCount(0);
    expect(agent.connections()).toBe(2);
    expect(await socketsOf(page)).toEqual([agent.url]);

    const console = page.getByRole('region', { name: 'Agent console' });
    await console.getByRole('button', { name: 'Show' }).click();
    const remembered = console.getByRole('region', { name: 'Agents allowed from links' });
    await expect(remembered.getByRole('listitem')).toHaveText([`${origin(agent.url)}Forget`]);
    expect(await violations(page, '.host__console')).toEqual([]);
    await remembered.screenshot({ path: '/tmp/agent-link-console-en-light.png' });
    await remembered.getByRole('button', { name: `Forget ${origin(agent.url)}` }).click();
    await expect(remembered.getByRole('status')).toHaveText(
      `Forgot ${origin(agent.url)}: LineUp asks before connecting to it again.`,
    );
    await expect(remembered.getByRole('listitem')).toHaveCount(0);
    await expect(remembered.getByRole('heading', { name: 'Agents allowed from links' })).toBeFocused();
    // This page's connection to it ends now, for good; the page says so.
    await expect(agentStatus(page)).toHaveText('Agent: disconnected');
    await expect.poll(() => agent.openConnections()).toBe(0);
    await expect(page.locator('[data-agent-link="forgotten"]')).toContainText(
      `You forgot ${origin(agent.url)}`,
    );

    const before = agent.frames.length;
    await page.reload();
    await expect(agentLinkQuestion(page)).toBeVisible();
    await page.waitForTimeout(1_000);
    expect(agent.connections()).toBe(2);
    expect(agent.frames).toHaveLength(before);
    expect(await socketsOf(page)).toEqual([]);
  });

  test('"Forget this agent" beside the connection ends it, and the next load asks', async ({ page }) => {
    await page.goto(linkTo(agent.url));
    await confirmAgentLink(page);
    await connectedTo(page, agent);
    await page
      .getByRole('region', { name: 'Agent link' })
      .getByRole('button', { name: 'Forget this agent' })
      .click();
    const note = page.locator('[data-agent-link="forgotten"]');
    await expect(note).toBeFocused();
    await expect(note.getByRole('heading')).toHaveText(
      `You forgot ${origin(agent.url)}: this page disconnected from it, and LineUp asks before connecting to it again.`,
    );
    await expect(agentStatus(page)).toHaveText('Agent: disconnected');
    await expect.poll(() => agent.openConnections()).toBe(0);
    await page.reload();
    await expect(agentLinkQuestion(page)).toBeVisible();
    expect(agent.connections()).toBe(1);
  });

  test('"Don\'t connect" never dials; the page runs with no agent, says so, and stays usable', async ({
    page,
  }) => {
    await countSockets(page);
    await page.goto(linkTo(agent.url));
    await agentLinkQuestion(page).getByRole('button', { name: 'Don’t connect' }).click();
    await expect(agentLinkQuestion(page)).toHaveCount(0);
    const note = page.locator('[data-agent-link="declined"]');
    await expect(note).toBeFocused();
    await expect(note.getByRole('heading')).toHaveText(
      `Not connected: you chose not to connect to ${origin(agent.url)}.`,
    );
    await expect(note).toContainText('This page runs with no agent.');
    await expect(agentStatus(page)).toHaveText('Agent: not connected');
    await page.screenshot({ path: '/tmp/agent-link-declined-en-light.png' });
    // No demo agent speaks in its place: a message waits, unanswered, and nothing leaves the page.
    await page.getByLabel('Message to the agent').fill('hello, anyone?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.locator('.host__chat-turn--user')).toContainText('hello, anyone?');
    await expect(page.locator('.host__chat-turn--user .host__pending')).toBeVisible();
    // The apps are there, and the console says why it cannot call tools.
    await expect(
      page.getByRole('complementary', { name: 'MiniApps' }).getByRole('listitem').first(),
    ).toBeVisible();
    const console = page.getByRole('region', { name: 'Agent console' });
    await console.getByRole('button', { name: 'Show' }).click();
    await expect(console).toContainText('This page has no agent');
    await page.waitForTimeout(1_500);
    await expect(page.locator('.host__chat-turn--agent')).toHaveCount(0);
    await nothingDialled(page);
    expect(await violations(page)).toEqual([]);
    // The way out: the same page without the agent link.
    await expect(note.getByRole('link', { name: 'Open LineUp without the agent link' })).toHaveAttribute(
      'href',
      '/',
    );

    // Not remembered: the link asks again.
    await page.reload();
    await expect(agentLinkQuestion(page)).toBeVisible();
    await page.waitForTimeout(500);
    await nothingDialled(page);
  });

  test('ws:// to a host that is not this computer is refused: no question, no socket', async ({ page }) => {
    await countSockets(page);
    await page.goto(linkTo('ws://example.com/agent'));
    const refusal = page.getByRole('region', { name: 'Agent link refused' });
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(
      'LineUp did not connect to the agent named in this page’s link, and asked nothing: ws:// (unencrypted) is allowed only to this computer (localhost, 127.0.0.1 or [::1]); any other host needs wss://.',
    );
    await expect(refusal.locator('.host__agent-link-url')).toHaveText('ws://example.com/agent');
    await expect(agentLinkQuestion(page)).toHaveCount(0);
    await expect(agentStatus(page)).toHaveText('Agent: not connected');
    await page.waitForTimeout(1_500);
    expect(await socketsOf(page)).toEqual([]);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/agent-link-refused-en-light.png' });

    // Not a WebSocket URL at all: refused the same way.
    await page.goto(linkTo('https://example.com/agent'));
    await expect(page.getByRole('region', { name: 'Agent link refused' })).toContainText(
      'an agent’s address starts with wss:// (or ws:// on this computer).',
    );
    expect(await socketsOf(page)).toEqual([]);
  });

  test('the control: the socket counter sees the WebSocket a page creates', async ({ page }) => {
    await countSockets(page);
    await page.goto('/');
    await page.evaluate((url) => {
      new WebSocket(url).close();
    }, agent.url);
    expect(await socketsOf(page)).toEqual([agent.url]);
  });
});

test.describe('in Chinese, dark', () => {
  test.use({ locale: 'zh-CN', colorScheme: 'dark' });

  test('the question is in Chinese and axe-clean in the dark theme; "连接" connects', async ({ page }) => {
    await countSockets(page);
    await page.goto(linkTo(agent.url));
    const question = agentLinkQuestion(page);
    await expect(question.getByRole('heading', { level: 2 })).toHaveText('连接此链接指定的智能体？');
    await expect(question).toContainText(
      '连接后，该智能体能看到这里已安装的所有应用的工具，并可以请求运行它们。',
    );
    await expect(question.locator('.host__agent-link-origin')).toHaveText(origin(agent.url));
    await expect(question.getByRole('button', { name: '不连接' })).toBeVisible();
    await expect(agentStatus(page)).toHaveText('智能体：未连接');
    await page.waitForTimeout(1_000);
    await nothingDialled(page);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/agent-link-zh-dark.png' });
    await question.screenshot({ path: '/tmp/agent-link-zh-dark-question.png' });

    await confirmAgentLink(page);
    await connectedTo(page, agent);
    await expect(page.getByRole('region', { name: '智能体链接' })).toContainText(
      `${origin(agent.url)} 的智能体来自本页链接`,
    );
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/agent-link-allowed-zh-dark.png' });
  });

  test('a refused link says why in Chinese', async ({ page }) => {
    await page.goto(linkTo('ws://example.com/agent'));
    await expect(page.getByRole('region', { name: '已拒绝智能体链接' })).toContainText(
      'ws://（未加密）只允许连接本机（localhost、127.0.0.1 或 [::1]）；其他主机必须使用 wss://。',
    );
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/agent-link-refused-zh-dark.png' });
  });
});
