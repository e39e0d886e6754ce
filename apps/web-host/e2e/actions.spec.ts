import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import type { Locator, Page } from '@playwright/test';
import { connectedTo, dialogsShown, openWithAgent } from './agent-page.ts';
import { expect, test } from './fixtures.ts';
import { type Envelope, startAgent, type TestAgent } from './test-agent.ts';

/**
 * DSL 1.1 `invoke` actions (seed 002 §10–§11, seed 004 §4) in interfaces a remote agent sends over a real
 * WebSocket. A click is reserved in the runtime's action ledger, re-derived from the document the agent sent, and
 * run by risk: the seed's file reader (`read_file` → `device.pick_file`) asks the user, who picks a file, and its
 * line count is written back through `resultMap`; an agent action (`kind: agent`) reaches the agent as
 * `lineup.v1.ui.action`, and only the agent's `lineup.v1.ui.action_result` for it settles the receipt. After a
 * reload receipts are shown again from the ledger and nothing runs again. Hostile variants run nothing.
 */

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async () => {
  await agent.close();
});

const BUTTON_DIALOG = 'A button you pressed asks to use a capability';

/** The agent sends a DSL document; resolves with the entry that shows it. */
async function showDocument(page: Page, document: object): Promise<Locator> {
  agent.send('lineup.v1.ui.document', { document });
  const title = (document as { title: string }).title;
  const entry = page.locator('.host__entry').filter({ has: page.getByRole('region', { name: title }) });
  await expect(entry.last()).toBeVisible();
  return entry.last();
}

const ofType = (type: string): Envelope[] => agent.received.filter((envelope) => envelope.type === type);
const status = (entry: Locator) => entry.locator('.lu-action-status').first();

/** The file reader's "读取" button, the line count it shows, and its action's status line. */
function reader(entry: Locator) {
  return {
    read: entry.getByRole('button', { name: '读取' }),
    lines: entry.locator('.lu-result-value'),
    status: status(entry),
  };
}

test('the file reader reads a picked file through invoke: asked first, then the line count is written back', async ({
  page,
}) => {
  await openWithAgent(page, agent);
  const view = reader(await showDocument(page, fileReader));
  await expect(view.lines).toHaveText('0');
  await view.read.click();
  const dialog = page.getByRole('dialog', { name: BUTTON_DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('device.pick_file');
  await expect(dialog).toContainText('You pressed the “read_info” action of the interface “文件信息”');
  await expect(dialog).toContainText('This request waits for your answer');
  await expect(view.status).toHaveText('Waiting for your confirmation');
  await page.screenshot({ path: 'test-results/action-consent-en.png' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await (await chooser).setFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('one\ntwo\n番茄 ✓\n'),
  });
  await expect(view.lines).toHaveText('3');
  await expect(view.status).toHaveText('Done');
  await page.screenshot({ path: 'test-results/action-file-reader-en.png' });
  // A DSL action is the page's own: the agent is told nothing about it.
  expect(ofType('lineup.v1.app.result')).toEqual([]);
  expect(ofType('lineup.v1.ui.action')).toEqual([]);

  // Deny: nothing is picked, nothing is written.
  await view.read.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(view.status).toHaveText('Cancelled: You did not allow it; nothing ran.');
  await expect(view.lines).toHaveText('3');

  // After a reload the last receipt is shown again; no dialog, no file chooser, nothing runs.
  let choosers = 0;
  page.on('filechooser', () => choosers++);
  await page.reload();
  await connectedTo(page, agent);
  const again = reader(
    page.locator('.host__entry').filter({ has: page.getByRole('region', { name: '文件信息' }) }),
  );
  await expect(again.status).toHaveText('Last time: Cancelled: You did not allow it; nothing ran.');
  await expect(again.lines).toHaveText('3');
  await page.waitForTimeout(500);
  expect(await dialogsShown(page)).toBe(0);
  expect(choosers).toBe(0);
});

test('a file too large to read fails with its code; the state keeps its value', async ({ page }) => {
  await openWithAgent(page, agent);
  const view = reader(await showDocument(page, fileReader));
  await view.read.click();
  const dialog = page.getByRole('dialog', { name: BUTTON_DIALOG });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await (await chooser).setFiles({
    name: 'big.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(20_000, 'a'),
  });
  await expect(view.status).toHaveText('Failed: It did not complete (file_too_large).');
  await expect(view.lines).toHaveText('0');
});

test('a reload while the question is open: the action is cancelled, never asked again', async ({ page }) => {
  await openWithAgent(page, agent);
  const view = reader(await showDocument(page, fileReader));
  await view.read.click();
  await expect(page.getByRole('dialog', { name: BUTTON_DIALOG })).toBeVisible();
  await page.reload();
  await connectedTo(page, agent);
  const again = reader(
    page.locator('.host__entry').filter({ has: page.getByRole('region', { name: '文件信息' }) }),
  );
  await expect(again.status).toHaveText(
    'Last time: Cancelled: The page closed before this ran; it was not run.',
  );
  await page.waitForTimeout(500);
  expect(await dialogsShown(page)).toBe(0);
});

test('an agent action reaches the agent once as ui.action; its answer updates the receipt; a reload in between runs nothing again', async ({
  page,
}) => {
  await openWithAgent(page, agent);
  const entry = await showDocument(page, agentCallback);
  const draft = entry.getByRole('button', { name: '起草说明' });
  await draft.click();
  await expect.poll(() => ofType('lineup.v1.ui.action').length).toBe(1);
  const action = ofType('lineup.v1.ui.action')[0] as Envelope;
  expect(action.payload).toMatchObject({
    action_id: 'draft_notes',
    document: { ui_id: agentCallback.id, generation: 0, revision: 0 },
    prompt:
      '请为开发者撰写关于“组件流式更新”的版本说明，列出 5 条要点，并单独列出已知风险与迁移步骤。 已找到的相关记录数：0。',
  });
  // The prompt shows as the user's turn, marked as coming from the button.
  await expect(page.locator('.host__chat-turn--user').last()).toContainText(
    'pressed “draft_notes” in an interface',
  );
  await expect(page.locator('.host__chat-turn--user').last()).toContainText('组件流式更新');
  const status = entry.locator('.lu-action-status').filter({ hasText: /Running|Sent/ });
  await expect(status).toHaveText('Running');

  // The page reloads before the agent answers: the receipt is shown again, and the action is not sent again.
  await page.reload();
  await connectedTo(page, agent);
  const shown = page
    .locator('.host__entry')
    .filter({ has: page.getByRole('region', { name: agentCallback.title }) });
  await expect(shown.locator('.lu-action-status').filter({ hasText: 'Running' })).toHaveText(
    'Last time: Running',
  );

  // An answer for another operation changes nothing; the answer for this one settles it.
  agent.send('lineup.v1.ui.action_result', { operation_id: 'op_forged', status: 'accepted' });
  agent.send('lineup.v1.ui.action_result', {
    operation_id: action.payload.operation_id,
    status: 'accepted',
    message: 'Drafting now.',
  });
  await expect(shown.locator('.lu-action-status').filter({ hasText: 'Sent to the agent' })).toHaveText(
    'Last time: Sent to the agent: Drafting now.',
  );
  agent.send('lineup.v1.chat.agent_message', { text: 'Here is the **draft**.' });
  await expect(page.getByText('Here is the draft.')).toBeVisible();
  await page.waitForTimeout(500);
  expect(ofType('lineup.v1.ui.action')).toHaveLength(1);
});

test('hostile interfaces run nothing: an undeclared capability, a misspelt one, and a pasted copy of a real interface', async ({
  page,
}) => {
  await openWithAgent(page, agent);
  const hostile = (id: string, capabilityId: string) => ({
    ...fileReader,
    id,
    title: `Hostile ${id}`,
    actions: { read_info: { ...fileReader.actions.read_info, capabilityId } },
  });
  for (const [id, capabilityId] of [
    ['undeclared', 'delete_everything'],
    ['misspelt', 'read_flie'],
  ] as const) {
    const entry = await showDocument(page, hostile(id, capabilityId));
    await entry.getByRole('button', { name: '读取' }).click();
    await expect(status(entry)).toHaveText(
      `The action could not be submitted: The host offers no capability ${capabilityId}.`,
    );
  }
  // The same document pasted into the page is the page's, not the agent's: its actions are not available.
  await page
    .getByLabel('Document or lineup.v1 message (JSON)')
    .fill(JSON.stringify({ ...fileReader, title: 'Pasted reader' }));
  await page.getByRole('button', { name: 'Deliver' }).click();
  const pasted = page
    .locator('.host__entry')
    .filter({ has: page.getByRole('region', { name: 'Pasted reader' }) });
  await expect(pasted.getByRole('button', { name: '读取' })).toBeDisabled();
  await expect(status(pasted)).toHaveText('Actions are not available here.');
  await page.waitForTimeout(300);
  expect(await dialogsShown(page)).toBe(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the file reader asks and reports in Chinese (screenshots)', async ({ page }) => {
    await openWithAgent(page, agent);
    const view = reader(await showDocument(page, fileReader));
    await view.read.click();
    const dialog = page.getByRole('dialog', { name: '你按下的按钮请求使用一项能力' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('你在智能体发送的界面“文件信息”中按下了“read_info”操作。');
    await expect(view.status).toHaveText('等待你确认');
    await page.screenshot({ path: 'test-results/action-consent-zh.png' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: '允许' }).click();
    await (await chooser).setFiles({
      name: '笔记.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('一\n二'),
    });
    await expect(view.lines).toHaveText('2');
    await expect(view.status).toHaveText('已完成');
    await page.screenshot({ path: 'test-results/action-file-reader-zh.png' });
  });
});

test('with the built-in demo agent, the 1.1 examples run: the callback is accepted and answered in chat', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: /^Agent: connected/ })).toBeVisible();
  await page.getByRole('button', { name: 'Agent callback (1.1 invoke)' }).click();
  const entry = page
    .locator('.host__entry')
    .filter({ has: page.getByRole('region', { name: agentCallback.title }) });
  await entry.getByRole('button', { name: '起草说明' }).click();
  await expect(entry.locator('.lu-action-status').filter({ hasText: 'Sent to the agent' })).toHaveText(
    'Sent to the agent',
  );
  await expect(page.locator('.host__chat-turn--user').last()).toContainText(
    'pressed “draft_notes” in an interface',
  );
  await expect(page.locator('.host__chat-turn--agent').last()).toBeVisible();

  await page.getByRole('button', { name: 'File reader (1.1 invoke)' }).click();
  const view = reader(
    page.locator('.host__entry').filter({ has: page.getByRole('region', { name: '文件信息' }) }),
  );
  await view.read.click();
  const dialog = page.getByRole('dialog', { name: BUTTON_DIALOG });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await (await chooser).setFiles({
    name: 'a.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('x\ny\nz\nw'),
  });
  await expect(view.lines).toHaveText('4');
  await page.screenshot({ path: 'test-results/action-demo-agent-en.png', fullPage: true });
});
