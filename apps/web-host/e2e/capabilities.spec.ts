import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from '@playwright/test';
import { connectedTo, dialogsShown, openWithAgent } from './agent-page.ts';
import { expect, test } from './fixtures.ts';
import { startAgent, type TestAgent } from './test-agent.ts';

/**
 * `lineup.v1.app.call` (seed 000 §5.3) from a remote agent over a real WebSocket (`?agent=ws://…`): the host's
 * declared capabilities reach the agent in the inventory; each call is shown to the user in the consent dialog
 * (the capability, the host's description, the agent's reason as text) and runs only after "Allow"; the agent
 * gets one `lineup.v1.app.result` per call. Refusals (undeclared, expired, off-schema, conflicting) are answered
 * without asking anyone; a repeat is answered from the record and never runs twice; a reload settles an open
 * question as `cancelled` (`interrupted`). Pages count the modal dialogs they open (agent-page.ts).
 */

let agent: TestAgent;
test.beforeEach(async () => {
  agent = await startAgent();
});
test.afterEach(async () => {
  await agent.close();
});

const FAR_FUTURE = '2099-08-02T12:10:00Z';
const DIALOG = 'The agent asks to use a capability';

/** The agent asks for a capability (`app.call`). */
function call(
  callId: string,
  capability: string,
  args: Record<string, unknown>,
  reason = 'The user asked for it',
  expiresAt = FAR_FUTURE,
) {
  agent.send('lineup.v1.app.call', {
    call_id: callId,
    capability,
    reason,
    expires_at: expiresAt,
    arguments: args,
  });
}

/** The `app.result` payloads the agent got for `callId`, in order. */
function results(callId: string): Record<string, unknown>[] {
  return agent.received
    .filter((envelope) => envelope.type === 'lineup.v1.app.result' && envelope.payload.call_id === callId)
    .map((envelope) => envelope.payload);
}

/** A refusal as the agent gets it: a status and a stable code (the message is for people, not checked). */
const refusal = (callId: string, status: string, code: string) => ({
  call_id: callId,
  status,
  error: { code, message: expect.any(String) },
});

const open = (page: Page) => openWithAgent(page, agent);
const connected = (page: Page) => connectedTo(page, agent);

/** Pages other than the test's page (tabs opened by `app.open_url`); the stub answers every request to it. */
async function stubDocs(context: BrowserContext): Promise<Page[]> {
  await context.route('https://docs.example.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Docs stub</title><p>stub</p>' }),
  );
  const popups: Page[] = [];
  context.on('page', (opened) => popups.push(opened));
  return popups;
}

test('the inventory lists the four declared capabilities with their risks', async ({ page }) => {
  await open(page);
  const inventory = agent.received.find((envelope) => envelope.type === 'lineup.v1.client.inventory');
  expect(inventory?.payload.revision).toBe('inventory-2');
  expect(inventory?.payload.capabilities).toEqual([
    { name: 'app.open_url', version: '1.0', risk: 'user_confirmation' },
    { name: 'artifact.save', version: '1.0', risk: 'user_confirmation' },
    { name: 'clipboard.write', version: '1.0', risk: 'user_confirmation' },
    { name: 'device.pick_file', version: '1.0', risk: 'system_permission' },
  ]);
});

test('app.open_url: the dialog shows the capability, what it does and the reason as text; Allow opens the tab, Deny opens nothing', async ({
  page,
  context,
}) => {
  const popups = await stubDocs(context);
  await open(page);
  const markup = 'Open the docs <img src=x onerror="window.hacked=1"> <b>now</b>';
  call('call_open_1', 'app.open_url', { url: 'https://docs.example.test/guide?x=1' }, markup);
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('app.open_url');
  await expect(dialog).toContainText('Needs your confirmation');
  await expect(dialog).toContainText(
    'Opens a web page in a new browser tab. The page does not get access to this one.',
  );
  await expect(dialog.locator('#consent-reason')).toHaveText(markup);
  await expect(dialog).toContainText('https://docs.example.test/guide?x=1');
  // The reason is text: no element was made of it, nothing ran.
  await expect(page.locator('img, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  expect(results('call_open_1')).toEqual([]);

  const opened = context.waitForEvent('page');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  const tab = await opened;
  await tab.waitForLoadState();
  expect(tab.url()).toBe('https://docs.example.test/guide?x=1');
  await expect(tab).toHaveTitle('Docs stub');
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => results('call_open_1'))
    .toEqual([{ call_id: 'call_open_1', status: 'completed', result: { opened: true } }]);
  // noopener: the tab did not get this page.
  expect(await tab.evaluate(() => window.opener)).toBeNull();

  call('call_open_2', 'app.open_url', { url: 'https://docs.example.test/other' }, 'Open another page');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('#consent-reason')).toHaveText('Open another page');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => results('call_open_2'))
    .toEqual([refusal('call_open_2', 'rejected', 'user_denied')]);
  await page.waitForTimeout(300);
  expect(popups).toHaveLength(1);
  expect(await dialogsShown(page)).toBe(2);
});

test('clipboard.write allowed with "remember": the next write in the conversation runs without asking; another capability still asks', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page);
  call('call_clip_1', 'clipboard.write', { text: 'first text 一' }, 'Copy the summary');
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  const remember = dialog.getByRole('checkbox', {
    name: 'Allow this capability for the rest of this conversation',
  });
  await expect(remember).not.toBeChecked();
  await remember.check();
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => results('call_clip_1'))
    .toEqual([{ call_id: 'call_clip_1', status: 'completed', result: { written: true } }]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('first text 一');

  call('call_clip_2', 'clipboard.write', { text: 'second text' }, 'Copy the next one');
  await expect
    .poll(() => results('call_clip_2'))
    .toEqual([{ call_id: 'call_clip_2', status: 'completed', result: { written: true } }]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('second text');
  expect(await dialogsShown(page)).toBe(1);

  // The grant is for clipboard.write only: app.open_url still asks. Escape is a cancel, never a yes.
  call('call_clip_open', 'app.open_url', { url: 'https://docs.example.test/' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('app.open_url');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => results('call_clip_open'))
    .toEqual([refusal('call_clip_open', 'cancelled', 'dismissed')]);
  expect(await dialogsShown(page)).toBe(2);
});

test('a call past its expiry is expired without asking; one that expires while asked closes its dialog', async ({
  page,
}) => {
  await page.clock.install();
  await open(page);
  call('call_late', 'clipboard.write', { text: 'too late' }, 'Copy', '2020-01-01T00:00:00Z');
  await expect.poll(() => results('call_late')).toEqual([refusal('call_late', 'expired', 'expired')]);
  expect(await dialogsShown(page)).toBe(0);

  const now = await page.evaluate(() => Date.now());
  call(
    'call_soon',
    'app.open_url',
    { url: 'https://docs.example.test/' },
    'Open',
    new Date(now + 120_000).toISOString(),
  );
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This request expires at');
  await page.clock.fastForward(121_000);
  await expect(dialog).toBeHidden();
  await expect.poll(() => results('call_soon')).toEqual([refusal('call_soon', 'expired', 'expired')]);
  expect(await dialogsShown(page)).toBe(1);
});

test('hostile calls are answered without a dialog and never run; a repeat is answered from the record', async ({
  page,
  context,
}) => {
  const popups = await stubDocs(context);
  await open(page);
  call('call_undeclared', 'camera.capture', {});
  call('call_misspelled', 'app.open_urls', { url: 'https://docs.example.test/' });
  call('call_js_url', 'app.open_url', { url: 'javascript:window.hacked=1' });
  call('call_extra_arg', 'app.open_url', { url: 'https://docs.example.test/', target: '_self' });
  await expect
    .poll(() => ['call_undeclared', 'call_misspelled', 'call_js_url', 'call_extra_arg'].map(results))
    .toEqual([
      [refusal('call_undeclared', 'unsupported', 'unknown_capability')],
      [refusal('call_misspelled', 'unsupported', 'unknown_capability')],
      [refusal('call_js_url', 'failed', 'invalid_arguments')],
      [refusal('call_extra_arg', 'failed', 'invalid_arguments')],
    ]);
  expect(await dialogsShown(page)).toBe(0);

  // One call is allowed and runs once.
  call('call_once', 'app.open_url', { url: 'https://docs.example.test/once' }, 'Open once');
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Allow' }).click();
  const completed = { call_id: 'call_once', status: 'completed', result: { opened: true } };
  await expect.poll(() => results('call_once')).toEqual([completed]);
  await expect.poll(() => popups.length).toBe(1);

  // The same call_id with other content is refused; the same call again gets the same result, not a new run.
  call('call_once', 'app.open_url', { url: 'https://docs.example.test/elsewhere' }, 'Open once');
  await expect
    .poll(() => results('call_once'))
    .toEqual([completed, refusal('call_once', 'failed', 'call_id_conflict')]);
  call('call_once', 'app.open_url', { url: 'https://docs.example.test/once' }, 'Open once');
  await expect
    .poll(() => results('call_once'))
    .toEqual([completed, refusal('call_once', 'failed', 'call_id_conflict'), completed]);
  // A refused call sent again is refused again, the same way.
  call('call_js_url', 'app.open_url', { url: 'javascript:window.hacked=1' });
  await expect.poll(() => results('call_js_url')).toHaveLength(2);
  expect(results('call_js_url')[1]).toEqual(results('call_js_url')[0]);

  await page.waitForTimeout(500);
  expect(popups.map((popup) => popup.url())).toEqual(['https://docs.example.test/once']);
  expect(await dialogsShown(page)).toBe(1);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
});

test('device.pick_file: Allow opens the file chooser; a small file comes back with its text, a large one without', async ({
  page,
}) => {
  await open(page);
  call('call_pick_small', 'device.pick_file', { accept: '.txt,text/plain' }, 'Read your notes');
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('device.pick_file');
  await expect(dialog).toContainText('Uses a browser permission: asked every time');
  // system_permission is never remembered: no box to tick.
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  let chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await (await chooser).setFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Buy milk\n番茄 ✓\n'),
  });
  await expect
    .poll(() => results('call_pick_small'))
    .toEqual([
      {
        call_id: 'call_pick_small',
        status: 'completed',
        result: {
          name: 'notes.txt',
          type: 'text/plain',
          size: Buffer.byteLength('Buy milk\n番茄 ✓\n'),
          text: 'Buy milk\n番茄 ✓\n',
        },
      },
    ]);

  call('call_pick_large', 'device.pick_file', { max_bytes: 16 }, 'Read a large file');
  await expect(dialog).toBeVisible();
  chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await (await chooser).setFiles({
    name: 'large.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(64, 'a'),
  });
  await expect
    .poll(() => results('call_pick_large'))
    .toEqual([
      {
        call_id: 'call_pick_large',
        status: 'completed',
        result: { name: 'large.txt', type: 'text/plain', size: 64, text_omitted: 'too_large' },
      },
    ]);
  // The chooser's inputs do not stay in the page (the app center's own folder input is not one of them).
  await expect(page.locator('input[type=file]:not([webkitdirectory])')).toHaveCount(0);
});

test('artifact.save: Allow downloads the file with its name and content', async ({ page }) => {
  await open(page);
  const content = '# Focus log\n\n- 25 min ✓\n- 番茄钟\n';
  call(
    'call_save',
    'artifact.save',
    { filename: 'focus-log.md', content, media_type: 'text/markdown' },
    'Save the log',
  );
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Saves a file the agent wrote to your downloads.');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Allow' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('focus-log.md');
  expect(await readFile(await file.path(), 'utf8')).toBe(content);
  await expect
    .poll(() => results('call_save'))
    .toEqual([
      {
        call_id: 'call_save',
        status: 'completed',
        result: { saved: true, bytes: Buffer.byteLength(content) },
      },
    ]);
});

test('questions wait their turn: the dialog says how many wait, and one double click never answers two', async ({
  page,
  context,
}) => {
  const popups = await stubDocs(context);
  await open(page);
  call('call_first', 'app.open_url', { url: 'https://docs.example.test/first' }, 'First');
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toContainText('First');
  call(
    'call_second',
    'artifact.save',
    { filename: 'a.txt', content: 'x', media_type: 'text/plain' },
    'Second',
  );
  call('call_third', 'clipboard.write', { text: 'third' }, 'Third');
  await expect(dialog.locator('.host__consent-waiting')).toHaveText('2 more requests waiting');
  // Focus starts on Deny once the buttons accept presses.
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Allow' }).dblclick();
  await expect
    .poll(() => results('call_first'))
    .toEqual([{ call_id: 'call_first', status: 'completed', result: { opened: true } }]);
  // The second press landed on the next question while it was not yet armed: it answered nothing.
  await expect(dialog).toContainText('Second');
  await page.waitForTimeout(700);
  expect(results('call_second')).toEqual([]);
  await expect(dialog.locator('.host__consent-waiting')).toHaveText('1 more request waiting');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect
    .poll(() => results('call_second'))
    .toEqual([refusal('call_second', 'rejected', 'user_denied')]);
  await page.keyboard.press('Escape');
  await expect.poll(() => results('call_third')).toEqual([refusal('call_third', 'cancelled', 'dismissed')]);
  await expect(dialog).toBeHidden();
  expect(popups).toHaveLength(1);
});

test('a reload while the dialog is open: the call is cancelled (interrupted) once, and no dialog comes back', async ({
  page,
  context,
}) => {
  const popups = await stubDocs(context);
  await open(page);
  const ask = () =>
    call('call_reload', 'app.open_url', { url: 'https://docs.example.test/' }, 'Open the docs');
  ask();
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await page.reload();
  await connected(page);
  const interrupted = refusal('call_reload', 'cancelled', 'interrupted');
  await expect.poll(() => results('call_reload')).toEqual([interrupted]);
  await page.waitForTimeout(1_000);
  expect(results('call_reload')).toEqual([interrupted]);
  await expect(dialog).toBeHidden();
  expect(await dialogsShown(page)).toBe(0);
  // Asked again, the call is answered from its record: still cancelled, nobody is asked, nothing opens.
  ask();
  await expect.poll(() => results('call_reload')).toEqual([interrupted, interrupted]);
  expect(await dialogsShown(page)).toBe(0);
  expect(popups).toEqual([]);
});

test('the consent dialog in English (screenshot)', async ({ page }) => {
  await open(page);
  call(
    'call_shot_en',
    'app.open_url',
    { url: 'https://docs.example.test/deploy/checklist?section=rollback' },
    'Open the deployment checklist so you can check the rollback steps before we continue.',
  );
  const dialog = page.getByRole('dialog', { name: DIALOG });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Allow' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeVisible();
  await page.screenshot({ path: 'test-results/consent-dialog-en.png' });
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect
    .poll(() => results('call_shot_en'))
    .toEqual([refusal('call_shot_en', 'rejected', 'user_denied')]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the consent dialog in Chinese (screenshot)', async ({ page }) => {
    await open(page);
    call(
      'call_shot_zh',
      'app.open_url',
      { url: 'https://docs.example.test/deploy/checklist?section=rollback' },
      '打开部署清单，请你在继续之前核对回滚步骤。',
    );
    const dialog = page.getByRole('dialog', { name: '智能体请求使用一项能力' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('原因（智能体的原话）');
    await expect(dialog).toContainText('需要你确认');
    await expect(dialog).toContainText('此请求将于');
    await expect(dialog.getByRole('checkbox', { name: '在本次对话中允许此能力，不再询问' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '允许' })).toBeVisible();
    await page.screenshot({ path: 'test-results/consent-dialog-zh.png' });
    await dialog.getByRole('button', { name: '拒绝' }).click();
    await expect
      .poll(() => results('call_shot_zh'))
      .toEqual([refusal('call_shot_zh', 'rejected', 'user_denied')]);
  });
});
