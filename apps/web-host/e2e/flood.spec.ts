import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { connectedTo, openWithAgent } from './agent-page.ts';
import { expect, shownConversation, test } from './fixtures.ts';
import { readMessages } from './runtime-db.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * A burst of agent messages over a real WebSocket (`?agent=ws://…`): the page keeps answering input while it
 * takes the burst in, every message is recorded (a reload shows the conversation as before), the conversation
 * shows its latest 200 entries with a notice of the others and "Show earlier", and the agent console keeps its
 * last 500 envelopes and says how many it dropped. Not timed: how fast is the flood benchmark's business
 * (e2e/bench/flood.bench.ts).
 */

/** The conversation's latest entries shown at once (Conversation.tsx `CONVERSATION_WINDOW`). */
const WINDOW = 200;
const BURST = 2_000;
/** A burst is taken in at some hundred messages a second; a loaded machine may be ten times slower. */
const ABSORB_TIMEOUT_MS = 150_000;

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async () => {
  await agent.close();
});

function sendBurst(count: number, from = 1, to = count): void {
  for (let index = from; index <= to; index++)
    agent.send('lineup.v1.chat.agent_message', {
      text: `Flood message ${index} of ${count}: a **small** turn.`,
    });
}

const entries = (page: Page) => page.locator('ol.host__entries > li');
const notice = (page: Page) => page.locator('.host__earlier');

/** The number the "N earlier messages are not shown" notice says (0 when there is none). */
async function hiddenCount(page: Page): Promise<number> {
  if ((await notice(page).count()) === 0) return 0;
  const text = (await notice(page).textContent()) ?? '';
  const match = /([\d,]+) earlier messages? (is|are) not shown\./.exec(text);
  if (match === null) throw new Error(`Unexpected notice: ${text}`);
  return Number(match[1]!.replaceAll(',', ''));
}

interface MessageRecord {
  readonly conversationId: string;
  readonly direction: 'in' | 'out';
  readonly type: string;
  readonly seq: number;
  readonly message: { readonly id: string; readonly payload: { readonly text?: string } };
}

test('a burst of 2,000 agent messages: typing and Send work during it, all are recorded, a reload shows them', async ({
  page,
}) => {
  test.setTimeout(ABSORB_TIMEOUT_MS * 2 + 60_000);
  await openWithAgent(page, agent);
  const conversation = await shownConversation(page);
  // The first half of the burst comes in at once and the user types and sends meanwhile; the agent sends the
  // second half once it has the user's turn (so the turn lies inside the burst, however fast the page takes it).
  sendBurst(BURST, 1, BURST / 2);
  const box = page.getByLabel('Message to the agent');
  await box.click();
  await box.pressSequentially('said during the burst');
  await expect(box).toHaveValue('said during the burst');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(box).toHaveValue('');
  await expect
    .poll(() => agent.received.filter((envelope) => envelope.type === 'lineup.v1.chat.user_message').length)
    .toBe(1);
  sendBurst(BURST, BURST / 2 + 1, BURST);

  const last = `Flood message ${BURST} of ${BURST}`;
  await expect(page.locator('.host__chat-turn--agent').last()).toContainText(last, {
    timeout: ABSORB_TIMEOUT_MS,
  });

  // Every message is recorded once, in order; the user's turn comes before the second half.
  const records = (await readMessages<MessageRecord>(page)).filter(
    (record) => record.conversationId === conversation,
  );
  const flood = records.filter((record) => record.type === 'lineup.v1.chat.agent_message');
  expect(flood).toHaveLength(BURST);
  expect(new Set(flood.map((record) => record.message.id)).size).toBe(BURST);
  expect(flood.map((record) => record.message.payload.text)).toEqual(
    Array.from({ length: BURST }, (_, index) => `Flood message ${index + 1} of ${BURST}: a **small** turn.`),
  );
  const userTurn = records.find((record) => record.type === 'lineup.v1.chat.user_message');
  expect(userTurn?.message.payload.text).toBe('said during the burst');
  expect(userTurn?.seq).toBeLessThan(flood[BURST / 2]!.seq);

  // The latest 200 entries are shown; the notice counts the others (every entry is one of the two).
  const total = records.length; // the inventory note, 2,000 agent turns, the user's turn
  expect(total).toBe(BURST + 2);
  await expect(entries(page)).toHaveCount(WINDOW);
  expect(await hiddenCount(page)).toBe(total - WINDOW);

  // The agent console kept the last 500 envelopes and says how many it dropped.
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(
    page.getByText(`${total - 500} older messages were dropped; the log keeps the last 500.`),
  ).toBeVisible();

  // A reload shows the conversation as it was: the same latest entries, the notice counting the others (the
  // new session's inventory note is one more entry).
  await page.reload();
  await connectedTo(page, agent);
  await expect(page.locator('section.host__conversation[aria-busy="false"]')).toBeVisible();
  const again = (await readMessages<MessageRecord>(page)).filter(
    (record) => record.conversationId === conversation,
  );
  await expect(entries(page)).toHaveCount(WINDOW);
  expect(await hiddenCount(page)).toBe(again.length - WINDOW);
  await expect(
    page.locator('.host__chat-turn--agent').filter({ hasText: `Flood message ${BURST - 1} of ${BURST}` }),
  ).toHaveCount(1);

  // "Show earlier" shows 200 more and keeps focus on itself while there are still more.
  const showEarlier = page.getByRole('button', { name: 'Show earlier' });
  await showEarlier.click();
  await expect(entries(page)).toHaveCount(2 * WINDOW);
  expect(await hiddenCount(page)).toBe(again.length - 2 * WINDOW);
  await expect(showEarlier).toBeFocused();
});

test('"Show earlier" reveals the rest, moves focus to the first entry, and reads in Chinese too (screenshots)', async ({
  page,
}) => {
  test.setTimeout(ABSORB_TIMEOUT_MS + 60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openWithAgent(page, agent);
  const count = 250;
  sendBurst(count);
  await expect(page.locator('.host__chat-turn--agent').last()).toContainText(
    `Flood message ${count} of ${count}`,
    {
      timeout: ABSORB_TIMEOUT_MS,
    },
  );
  const total = count + 1; // and the inventory note
  await expect(notice(page)).toHaveText(`${total - WINDOW} earlier messages are not shown. Show earlier`);
  const results = await new AxeBuilder({ page })
    .include('.host__conversation')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  await notice(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/flood-earlier-en.png' });

  await page.getByRole('button', { name: '中文', exact: true }).click();
  await expect(notice(page)).toHaveText(`还有 ${total - WINDOW} 条更早的消息未显示。 显示更早的消息`);
  await notice(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/flood-earlier-zh.png' });

  await page.getByRole('button', { name: '显示更早的消息' }).click();
  await expect(notice(page)).toHaveCount(0);
  await expect(entries(page)).toHaveCount(total);
  // The control is gone: focus goes to the first entry instead of falling to the page.
  await expect(entries(page).first()).toBeFocused();
});
