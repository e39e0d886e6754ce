import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The agent console (src/console/AgentConsole.tsx) in Chromium, on the real built host: it calls an Agent Tool
 * as the agent would (a `lineup.v1.tool.call` from the in-process agent end, through the real runtime and
 * Pomodoro's page), shows the call's progress and final result live and its envelopes in the message log both
 * ways, and refuses invalid arguments without sending anything. Time is Playwright's clock.
 */

async function openConsole(page: Page): Promise<Locator> {
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  const region = page.getByRole('region', { name: 'Agent console' });
  await region.getByRole('button', { name: 'Show' }).click();
  await expect(region.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  await region.getByLabel('Agent Tool', { exact: true }).selectOption('pomodoro.start');
  return region;
}

/** The log's rows about `callId` travelling one way (each row names its direction for screen readers). */
const rows = (log: Locator, direction: 'received from the agent' | 'sent to the agent', callId: string) =>
  log.getByRole('listitem').filter({ hasText: direction }).filter({ hasText: callId });

test('calls pomodoro.start from the console, then sees its progress, its result and its envelopes both ways', async ({
  page,
}) => {
  const region = await openConsole(page);
  await region.getByLabel('minutes').fill('1');
  await region.getByLabel('label', { exact: true }).fill('Console check');
  await region.getByRole('button', { name: 'Call tool' }).click();

  const call = region.getByRole('listitem', { name: /^pomodoro\.start call_console_/ });
  await expect(call).toHaveCount(1);
  const callId = (await call.getAttribute('aria-label'))?.split(' ')[1] ?? '';
  expect(callId).toMatch(/^call_console_[0-9a-f-]{36}$/);

  // The runtime takes the call as an agent's: Pomodoro comes forward and the timer starts.
  await expect(page.getByRole('region', { name: 'Pomodoro' })).toBeVisible();
  await expect(call.locator('.host__console-progress li')).toHaveText([/accepted$/, /starting$/, /started$/]);
  await expect(call.locator('.host__console-phase')).toHaveText('in progress');
  await expect(call).toContainText('Waiting for the final result…');

  await page.clock.fastForward(61_000);
  await expect(call.locator('.host__console-phase')).toHaveText('completed');
  await expect(call.locator('.host__console-result')).toContainText('"status": "completed"');
  await expect(call.locator('.host__console-result')).toContainText('"minutes": 1');

  // The message log has the call coming in and every answer going out.
  const log = region.getByRole('log', { name: 'Message log' });
  await region.getByLabel('Filter by type').fill('tool.');
  const incoming = rows(log, 'received from the agent', callId);
  await expect(incoming).toHaveCount(1);
  await expect(incoming).toContainText('tool.call');
  const outgoing = rows(log, 'sent to the agent', callId);
  await expect(outgoing).toHaveCount(4);
  await expect(outgoing.filter({ hasText: 'tool.progress' })).toHaveCount(3);
  await expect(outgoing.filter({ hasText: 'tool.result' })).toContainText(`${callId} completed`);

  // Opened, a row shows the whole envelope: the console spoke as an agent, from the current inventory.
  await incoming.locator('summary').click();
  const envelope = JSON.parse((await incoming.locator('pre').textContent()) ?? '') as Record<string, unknown>;
  expect(envelope).toMatchObject({
    v: 1,
    type: 'lineup.v1.tool.call',
    sender: { kind: 'agent', id: 'agent_console' },
    payload: {
      call_id: callId,
      tool: 'pomodoro.start',
      inventory_revision: 'inventory-2',
      arguments: { minutes: 1, label: 'Console check' },
    },
  });
  expect(envelope.id).toBe(callId.replace(/^call_/, ''));
  await region.screenshot({ path: 'test-results/agent-console.png' });
});

test('refuses invalid arguments with an error and sends nothing', async ({ page }) => {
  const region = await openConsole(page);
  const log = region.getByRole('log', { name: 'Message log' });
  await expect(log.getByRole('listitem')).not.toHaveCount(0); // the inventory the client sent
  const logged = await log.getByRole('listitem').count();
  const call = region.getByRole('button', { name: 'Call tool' });
  const minutes = region.getByLabel('minutes');

  await minutes.fill('0');
  await call.click();
  await expect(region.getByRole('alert')).toHaveText('Not sent:“minutes” must be at least 1.');
  await expect(minutes).toHaveAttribute('aria-invalid', 'true');

  await minutes.fill('twenty');
  await region.getByLabel('label', { exact: true }).fill('x'.repeat(65));
  await call.click();
  await expect(region.getByRole('alert').getByRole('listitem')).toHaveText([
    '“minutes” must be a number, like 25 or 2.5.',
    '“label” must be at most 64 characters long.',
  ]);

  // The whole-object editor is held to the same schema: a key it does not declare is refused.
  await minutes.fill('5');
  await region.getByLabel('label', { exact: true }).fill('');
  await region.getByLabel('Edit the arguments as JSON').check();
  const json = region.getByLabel('Arguments (JSON object)');
  await expect(json).toHaveValue('{\n  "minutes": 5\n}');
  await json.fill('{"minutes": 5, "colour": "red"}');
  await call.click();
  await expect(region.getByRole('alert')).toContainText('“colour” is not a parameter of this tool');

  await json.fill('{"minutes": 5');
  await call.click();
  await expect(region.getByRole('alert')).toContainText('The arguments cannot be read as JSON text.');

  // Nothing went out: no call is watched, and the log has no tool message at all.
  await expect(region.getByText('No call yet.')).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(log.getByRole('listitem')).toHaveCount(logged);
  await expect(log.getByRole('listitem').filter({ hasText: 'tool.' })).toHaveCount(0);
  await expect(page.locator('.host__note--to-agent').filter({ hasText: 'tool.' })).toHaveCount(0);
});
