import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { bundleIntegrity, fileIntegrity } from '@lineup/shared/protocol';
import type { Locator, Page, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readStore } from './runtime-db.ts';

/**
 * The app center in the built host (issue 12), as a user drives it: installing from a URL on this site and from a
 * picked folder (each file verified before anything is kept), disabling and enabling (a new inventory revision
 * each), checking for an update and upgrading (both versions kept until the new one's first start), a refused
 * update (the installed version untouched, the file and both digests named), uninstalling with a confirmation and
 * installing again from the catalogue — and a reload after an uninstall does not bring Pomodoro back.
 */

const panel = (page: Page) => page.getByRole('complementary', { name: 'MiniApps' });
const app = (page: Page, name: string) => panel(page).getByRole('listitem', { name, exact: true });
const inventory = (page: Page, revision: number, tools: number) =>
  panel(page).getByText(`Inventory published to agents: inventory-${revision}, ${tools} Agent Tools`);

const encoder = new TextEncoder();
const NOTES_PATH = '/e2e-bundles/notes/';

/** A Notes bundle built here, as the SDK's build would: its files and a manifest listing each with its digest. */
function notesBundle(version: string): Map<string, Uint8Array> {
  const bytes = new Map<string, Uint8Array>([
    ['index.html', encoder.encode(`<!doctype html><title>Notes ${version}</title><p>Notes</p>`)],
    ['card.html', encoder.encode('<!doctype html><title>Note card</title>')],
  ]);
  const files = [...bytes].map(([path, data]) => ({
    path,
    size: data.length,
    integrity: fileIntegrity(data),
  }));
  const manifest = {
    manifest_version: 1,
    id: 'com.example.notes',
    name: 'Notes',
    version,
    integrity: bundleIntegrity(files),
    files,
    app_scope: 'notes',
    entry: 'index.html',
    surfaces: [{ id: 'card', entry: 'card.html', events: ['note.saved', 'note.deleted'] }],
    permissions: [],
    tools: [
      {
        app_scope: 'notes',
        method: 'add',
        contract_version: '1.0',
        description: 'Adds a note with the given text to the list.',
        input_schema: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 200 } },
          required: ['text'],
          additionalProperties: false,
        },
        output_schema: { type: 'object' },
        call_model: 'command',
        idempotency: 'call_id',
        timeout_ms: 10_000,
        activation: 'app_ready',
        risk: 'user_confirmation',
        permissions: [],
        executor: { kind: 'miniapp_sdk' },
      },
    ],
  };
  bytes.set('lineup.manifest.json', encoder.encode(JSON.stringify(manifest, null, 2)));
  return bytes;
}

/** Serves `bytes` under NOTES_PATH on the host's own origin. */
async function serveNotes(page: Page, bytes: ReadonlyMap<string, Uint8Array>) {
  await page.route(`**${NOTES_PATH}**`, (route: Route) => {
    const path = new URL(route.request().url()).pathname.slice(NOTES_PATH.length);
    const body = bytes.get(path);
    return body === undefined
      ? route.fulfill({ status: 404, body: 'not found' })
      : route.fulfill({ status: 200, body: Buffer.from(body) });
  });
}

/** Writes a bundle into a folder, as a build leaves it, for the folder chooser. */
async function writeFolder(folder: string, bytes: ReadonlyMap<string, Uint8Array>) {
  for (const [path, data] of bytes) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), data);
  }
}

/** The kept bundle files in the runtime's IndexedDB, as `version path`. */
async function keptFiles(page: Page): Promise<string[]> {
  const files = await readStore<{ version: string; path: string }>(page, 'bundle_files');
  return files.map((file) => `${file.version} ${file.path}`).sort();
}

/** How many files Pomodoro's served bundle lists (its build decides; the tests do not pin it). */
async function pomodoroFileCount(page: Page): Promise<number> {
  const manifest = await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json();
  return (manifest.files as unknown[]).length;
}

/**
 * Opens the app's audit log and makes sure it is open: a click that landed while the list was moving (an entry
 * added, a notice removed) is tried again, and a log already open is not closed by a second click.
 */
async function openAudit(item: Locator) {
  const details = item.locator('.host__app-audit');
  await expect(async () => {
    if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
    await expect(details).toHaveAttribute('open', '', { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

test('installs a bundle from a URL on this site; another site is refused before anything is fetched', async ({
  page,
}) => {
  let otherSite = 0;
  await page.route('https://example.com/**', (route) => {
    otherSite += 1;
    return route.abort();
  });
  await serveNotes(page, notesBundle('1.0.0'));
  await page.goto('/');
  await expect(app(page, 'Pomodoro')).toBeVisible();
  const url = panel(page).getByLabel('Bundle URL on this site');
  const install = panel(page).getByRole('button', { name: 'Install from URL' });

  await url.fill('https://example.com/e2e-bundles/notes/');
  await install.click();
  const origin = new URL(page.url()).origin;
  await expect(panel(page).getByRole('alert')).toHaveText(
    `Not installed. Only bundles on this site (${origin}) can be installed by URL: this host has no bundle policy to trust another site. Nothing was fetched.`,
  );
  expect(otherSite).toBe(0);

  await url.fill(NOTES_PATH);
  await install.click();
  await expect(panel(page).getByRole('status').filter({ hasText: 'Installed Notes 1.0.0.' })).toBeVisible();
  await expect(panel(page).getByRole('alert')).toHaveCount(0);
  const notes = app(page, 'Notes');
  await expect(notes).toContainText('com.example.notes');
  await expect(notes).toContainText(/Bundle: \d+ B/);
  await expect(notes).toContainText('Verified bundle: 2 files sha256-');
  await expect(notes.getByRole('list', { name: 'Notes Agent Tools' }).getByRole('listitem')).toHaveText([
    /^notes\.add command · app ready · risk: user confirmation/,
  ]);
  await notes.getByText('Description').click();
  await expect(notes.getByText('Adds a note with the given text to the list.')).toBeVisible();
  await expect(notes.getByRole('list', { name: 'Notes Surfaces' })).toHaveText(
    'card events: note.saved, note.deleted',
  );
  await expect(inventory(page, 3, 3)).toBeVisible();
  await openAudit(notes);
  await expect(notes.getByRole('list', { name: 'Notes audit log' }).getByRole('listitem')).toHaveText([
    /installed app_installed 1\.0\.0$/,
  ]);
  await panel(page).screenshot({ path: 'test-results/app-center-url-en.png' });
});

test('installs from a picked folder; a tampered picked file is refused with its path and both digests', async ({
  page,
}, testInfo) => {
  const bytes = notesBundle('1.0.0');
  const folder = testInfo.outputPath('notes-dist');
  const card = bytes.get('card.html') as Uint8Array;
  const tampered = new Uint8Array(card);
  tampered[10] = (tampered[10] as number) ^ 1;
  await writeFolder(folder, new Map([...bytes, ['card.html', tampered]]));
  await page.goto('/');
  await expect(app(page, 'Pomodoro')).toBeVisible();
  const chooser = panel(page).getByLabel('Bundle folder');

  await chooser.setInputFiles(folder);
  const alert = panel(page).getByRole('alert');
  await expect(alert).toContainText(
    `Not installed. card.html does not match the manifest: expected ${fileIntegrity(card)}, found ${fileIntegrity(tampered)}.`,
  );
  await expect(app(page, 'Notes')).toHaveCount(0);
  await expect(inventory(page, 2, 2)).toBeVisible();
  await panel(page).screenshot({ path: 'test-results/app-center-folder-refused-en.png' });

  await writeFolder(folder, bytes);
  await chooser.setInputFiles(folder);
  await expect(panel(page).getByRole('status').filter({ hasText: 'Installed Notes 1.0.0.' })).toBeVisible();
  const notes = app(page, 'Notes');
  await expect(notes).toContainText('Verified bundle: 2 files');
  await expect(notes).toContainText('Installed from a picked folder');
  await expect(notes.getByRole('button', { name: 'Check for update Notes' })).toHaveCount(0);
  await expect(inventory(page, 3, 3)).toBeVisible();
  expect(await keptFiles(page)).toContain('1.0.0 card.html');
});

// The browser's own file button speaks the browser's language, not the page's: the app center shows its own.
for (const { locale, center, label, choose, status, urlInstall } of [
  {
    locale: 'en-US',
    center: 'MiniApps',
    label: 'Bundle folder',
    choose: 'Choose a folder…',
    status: 'Installed Notes 1.0.0.',
    urlInstall: 'Install from URL',
  },
  {
    locale: 'zh-CN',
    center: '小程序',
    label: '包文件夹',
    choose: '选择文件夹…',
    status: '已安装 Notes 1.0.0。',
    urlInstall: '从 URL 安装',
  },
])
  test.describe(`the folder picker (${locale})`, () => {
    test.use({ locale });

    test("reads in the page's language, keeps its name, and opens the chooser from a click and from the keyboard", async ({
      page,
    }, testInfo) => {
      const folder = testInfo.outputPath('notes-dist');
      await writeFolder(folder, notesBundle('1.0.0'));
      await page.goto('/');
      // The host is ready (its conversation read back, Pomodoro installed): nothing moves the focus after this.
      await expect(page.locator('section.host__conversation[aria-busy="false"]')).toHaveCount(1);
      const panel = page.getByRole('complementary', { name: center });
      await expect(panel.getByRole('listitem', { name: 'Pomodoro', exact: true })).toBeVisible();
      const input = panel.getByLabel(label, { exact: true });
      await expect(input).toHaveAccessibleName(label);
      const button = panel.locator('.host__app-pick-button');
      await expect(button).toBeVisible();
      await expect(button).toHaveText(choose);
      await panel
        .locator('.host__app-folder')
        .screenshot({ path: `test-results/app-center-folder-${locale}.png` });

      // From the keyboard: Tab reaches the unseen input, the button shows the focus, and Space opens the chooser.
      await panel.getByRole('button', { name: urlInstall, exact: true }).focus();
      await page.keyboard.press('Tab');
      await expect(input).toBeFocused();
      expect(await button.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
      let chooser = page.waitForEvent('filechooser');
      await expect(input).toBeFocused();
      await page.keyboard.press('Space');
      expect((await chooser).isMultiple()).toBe(true);

      // A click on the button opens it too, and the folder picked there installs.
      chooser = page.waitForEvent('filechooser');
      await button.click();
      await (await chooser).setFiles(folder);
      await expect(panel.getByRole('status').filter({ hasText: status })).toBeVisible();
      await expect(panel.getByRole('listitem', { name: 'Notes', exact: true })).toBeVisible();
    });
  });

test('disable and enable: each publishes a new inventory revision, the tools go and come back', async ({
  page,
}) => {
  await page.goto('/');
  const pomodoro = app(page, 'Pomodoro');
  await expect(pomodoro).toContainText('enabled');
  await expect(inventory(page, 2, 2)).toBeVisible();

  await pomodoro.getByRole('button', { name: 'Disable Pomodoro' }).click();
  await expect(pomodoro.getByRole('status')).toHaveText(
    'Pomodoro is disabled: its Agent Tools are withdrawn and its running calls ended.',
  );
  await expect(pomodoro.locator('.host__app-state')).toHaveText('disabled');
  await expect(inventory(page, 3, 0)).toBeVisible();

  await pomodoro.getByRole('button', { name: 'Enable Pomodoro' }).click();
  await expect(pomodoro.locator('.host__app-state')).toHaveText('enabled');
  await expect(inventory(page, 4, 2)).toBeVisible();
  await openAudit(pomodoro);
  await expect(pomodoro.getByRole('list', { name: 'Pomodoro audit log' }).getByRole('listitem')).toHaveText([
    /enabled app_enabled 0\.0\.0$/,
    /disabled app_disabled 0\.0\.0$/,
    /installed app_installed 0\.0\.0$/,
  ]);
});

test('disabling Pomodoro while a focus runs ends its call revoked and closes its page (no fallback)', async ({
  page,
}) => {
  await page.goto('/');
  const pomodoro = app(page, 'Pomodoro');
  await expect(inventory(page, 2, 2)).toBeVisible();
  await page.getByLabel('Message to the agent').fill('start a 5 minute focus');
  await page.getByRole('button', { name: 'Send' }).click();
  const workspace = page.getByRole('region', { name: 'Pomodoro' });
  await expect(
    page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]'),
  ).toHaveAttribute('data-phase', 'running');
  /** The final tool result notes sent to the agent. */
  const results = () =>
    page
      .locator('.host__note--to-agent code')
      .filter({ hasText: /^lineup\.v1\.tool\.result / })
      .allTextContents();
  expect(await results()).toEqual([]);
  await pomodoro.getByRole('button', { name: 'Disable Pomodoro' }).click();
  await expect
    .poll(results)
    .toEqual([expect.stringMatching(/"outcome":"error","error":\{"code":"revoked"\}/)]);
  await expect(workspace).toHaveCount(0);
  await expect(page.locator('.host__workspace-frame iframe')).toHaveCount(0);
  await expect(inventory(page, 3, 0)).toBeVisible();
  // Asked again, now that the tool is gone: the agent reads the new inventory and does not call; nothing opens.
  await page.getByLabel('Message to the agent').fill('start a 5 minute focus');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(
    page.locator('.host__chat-turn--agent').filter({ hasText: 'Pomodoro is not available' }),
  ).toHaveCount(1);
  await expect(workspace).toHaveCount(0);
});

test('an upgrade keeps both versions until the new one has started once; its first start lets the old one go', async ({
  page,
}) => {
  await page.goto('/');
  const pomodoro = app(page, 'Pomodoro');
  const check = pomodoro.getByRole('button', { name: 'Check for update Pomodoro' });
  await check.click();
  await expect(pomodoro.getByRole('status')).toHaveText('Pomodoro 0.0.0 is up to date.');
  await expect(inventory(page, 2, 2)).toBeVisible();

  // The server now serves 0.0.1 (the same files under a new version).
  await page.route('**/apps/pomodoro/lineup.manifest.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), version: '0.0.1' } });
  });
  await check.click();
  await expect(pomodoro.getByRole('status')).toHaveText(
    'Updated Pomodoro from 0.0.0 to 0.0.1; 0.0.0 is kept until 0.0.1 has started once.',
  );
  await expect(pomodoro.locator('.host__app-version')).toHaveText('0.0.1');
  await expect(pomodoro).toContainText(
    'Upgrade pending first start: 0.0.0 is kept until 0.0.1 has started once.',
  );
  await expect(inventory(page, 3, 2)).toBeVisible();
  const kept = await keptFiles(page);
  const files = await pomodoroFileCount(page);
  expect(kept.filter((file) => file.startsWith('0.0.0 '))).toHaveLength(files);
  expect(kept.filter((file) => file.startsWith('0.0.1 '))).toHaveLength(files);
  await panel(page).screenshot({ path: 'test-results/app-center-upgrade-pending-en.png' });

  // Its first start: the page says ready, the old version and its files go.
  await page.getByLabel('Message to the agent').fill('start a 1 minute focus');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('.host__workspace-frame iframe')).toHaveCount(1);
  await expect(pomodoro.locator('.host__app-pending')).toHaveCount(0);
  expect((await keptFiles(page)).every((file) => file.startsWith('0.0.1 '))).toBe(true);
  await openAudit(pomodoro);
  // Newest first; the start's own entries (the tool call, the operation) come after the confirmation.
  const entries = pomodoro.getByRole('list', { name: 'Pomodoro audit log' }).getByRole('listitem');
  await expect(entries.filter({ hasText: 'app_upgrade_confirmed' })).toHaveText(
    /upgrade confirmed app_upgrade_confirmed 0\.0\.1 from 0\.0\.0$/,
  );
  await expect(entries.filter({ hasText: /app_(updated|installed)/ })).toHaveText([
    /updated app_updated 0\.0\.1$/,
    /installed app_installed 0\.0\.0$/,
  ]);
});

test('a refused update: a tampered file leaves the installed version running, and the error names the file and both digests', async ({
  page,
}) => {
  await page.goto('/');
  const pomodoro = app(page, 'Pomodoro');
  await expect(inventory(page, 2, 2)).toBeVisible();
  await page.route('**/apps/pomodoro/lineup.manifest.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), version: '0.0.2' } });
  });
  await page.route('**/apps/pomodoro/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    body[100] = body[100] === 0x20 ? 0x21 : 0x20;
    await route.fulfill({ response, body });
  });
  await pomodoro.getByRole('button', { name: 'Check for update Pomodoro' }).click();
  const alert = pomodoro.getByRole('alert');
  await expect(alert).toContainText(
    /^The update was refused; the installed version is unchanged\. assets\/index-\S+\.js does not match the manifest: expected sha256-\S{44}, found sha256-\S{44}\./,
  );
  await expect(pomodoro.locator('.host__app-version')).toHaveText('0.0.0');
  await expect(pomodoro.locator('.host__app-pending')).toHaveCount(0);
  await expect(pomodoro.locator('.host__app-refused')).toContainText(
    /Last bundle check refused \(.+\): digest_mismatch assets\/index-\S+\.js/,
  );
  await expect(inventory(page, 2, 2)).toBeVisible();
  expect((await keptFiles(page)).every((file) => file.startsWith('0.0.0 '))).toBe(true);
  await panel(page).screenshot({ path: 'test-results/app-center-update-refused-en.png' });
});

test('uninstall asks first; Pomodoro comes back only from the catalogue, not from a reload', async ({
  page,
}) => {
  await page.goto('/');
  const pomodoro = app(page, 'Pomodoro');
  await expect(inventory(page, 2, 2)).toBeVisible();
  const uninstall = pomodoro.getByRole('button', { name: 'Uninstall Pomodoro' });

  await uninstall.click();
  const question = pomodoro.getByRole('group', { name: /^Uninstall Pomodoro\?/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Keep Pomodoro' })).toBeFocused();
  await panel(page).screenshot({ path: 'test-results/app-center-uninstall-confirm-en.png' });
  await question.getByRole('button', { name: 'Keep Pomodoro' }).click();
  await expect(question).toHaveCount(0);
  await expect(uninstall).toBeFocused();
  await expect(inventory(page, 2, 2)).toBeVisible();

  await uninstall.click();
  await pomodoro.getByRole('button', { name: 'Yes, uninstall Pomodoro' }).click();
  await expect(pomodoro).toHaveCount(0);
  await expect(panel(page).getByRole('heading', { name: 'MiniApps' })).toBeFocused();
  await expect(panel(page).getByText('No MiniApp is installed.')).toBeVisible();
  await expect(inventory(page, 3, 0)).toBeVisible();
  const catalogue = panel(page).getByRole('region', { name: 'Bundled with this host' });
  await expect(catalogue.getByRole('status')).toHaveText('Pomodoro was uninstalled.');
  await expect(catalogue.getByRole('button', { name: 'Install Pomodoro' })).toBeVisible();
  expect(await keptFiles(page)).toEqual([]);

  await page.reload();
  await expect(panel(page).getByText('No MiniApp is installed.')).toBeVisible();
  await expect(inventory(page, 3, 0)).toBeVisible();
  await expect(pomodoro).toHaveCount(0);
  await panel(page).screenshot({ path: 'test-results/app-center-uninstalled-en.png' });

  await catalogue.getByRole('button', { name: 'Install Pomodoro' }).click();
  await expect(pomodoro.getByRole('status')).toHaveText('Installed Pomodoro 0.0.0.');
  await expect(pomodoro).toContainText(`Verified bundle: ${await pomodoroFileCount(page)} files`);
  await expect(inventory(page, 4, 2)).toBeVisible();
  await expect(catalogue).toHaveCount(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the app center in Chinese (screenshots)', async ({ page }) => {
    await serveNotes(page, notesBundle('1.0.0'));
    await page.goto('/');
    const center = page.getByRole('complementary', { name: '小程序' });
    const pomodoro = center.getByRole('listitem', { name: 'Pomodoro', exact: true });
    await expect(pomodoro).toContainText(`已验证的包：${await pomodoroFileCount(page)} 个文件`);
    await center.getByLabel('本站的包 URL').fill(NOTES_PATH);
    await center.getByRole('button', { name: '从 URL 安装' }).click();
    const notes = center.getByRole('listitem', { name: 'Notes', exact: true });
    await expect(center.getByRole('status').filter({ hasText: '已安装 Notes 1.0.0。' })).toBeVisible();
    await expect(notes.getByRole('list', { name: 'Notes 的智能体工具' })).toContainText(
      'notes.add 命令 · 需应用就绪 · 风险：需用户确认',
    );
    await notes.getByRole('button', { name: '停用 Notes' }).click();
    await expect(notes.locator('.host__app-state')).toHaveText('已停用');
    await center.getByLabel('本站的包 URL').fill('https://example.com/notes/');
    await center.getByRole('button', { name: '从 URL 安装' }).click();
    await expect(center.getByRole('alert')).toContainText('只能通过 URL 安装本站');
    await openAudit(notes);
    await center.screenshot({ path: 'test-results/app-center-zh.png' });

    // A refused update, worded in Chinese with the file and both digests.
    await page.route('**/apps/pomodoro/lineup.manifest.json', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), version: '0.0.2' } });
    });
    await page.route('**/apps/pomodoro/assets/*.js', async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      body[100] = body[100] === 0x20 ? 0x21 : 0x20;
      await route.fulfill({ response, body });
    });
    await pomodoro.getByRole('button', { name: '检查更新 Pomodoro' }).click();
    await expect(pomodoro.getByRole('alert')).toHaveText(
      /^更新被拒绝；已安装的版本没有变化。assets\/index-\S+\.js 与清单不符：应为 sha256-\S{44}，实为 sha256-\S{44}。$/,
    );
    await pomodoro.screenshot({ path: 'test-results/app-center-zh-refused.png' });
  });
});

test.describe('a failed first start', () => {
  // The broken build's own error, in its frame.
  test.use({ allowedConsoleErrors: /a broken build/ });

  test('a new version that fails its first start rolls back to the last one that started; its data is untouched', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    const pomodoro = app(page, 'Pomodoro');
    await expect(inventory(page, 2, 2)).toBeVisible();
    const say = async (text: string) => {
      await page.getByLabel('Message to the agent').fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
    };
    const workspaceFrame = page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe');
    // Data of 0.0.0: a focus started and stopped (its session data records the interruption).
    await say('start a 1 minute focus');
    await expect(workspaceFrame.locator('[data-phase]')).toHaveAttribute('data-phase', 'running');
    await say('stop');
    // Its page closes (waiting on the outer frame: a query inside a frame being removed can fail as "target closed").
    await expect(page.locator('.host__workspace-frame iframe')).toHaveCount(0);
    const sessionData = () => readStore<{ key: string }>(page, 'session_data');
    const before = await sessionData();
    expect(before).toHaveLength(1);

    // 0.0.1: a build whose script throws before it says ready. Its manifest lists it truthfully, so it verifies.
    const served = (await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json()) as {
      files: { path: string; size: number; integrity: string }[];
    };
    const broken = Buffer.from('throw new Error("a broken build");\n');
    const script = served.files.find((file) => /^assets\/index-.+\.js$/.test(file.path));
    if (script === undefined) throw new Error('Pomodoro has no script');
    const files = served.files.map((file) =>
      file === script
        ? { ...file, size: broken.length, integrity: fileIntegrity(new Uint8Array(broken)) }
        : file,
    );
    await page.route('**/apps/pomodoro/lineup.manifest.json', (route) =>
      route.fulfill({ json: { ...served, version: '0.0.1', files, integrity: bundleIntegrity(files) } }),
    );
    await page.route(`**/apps/pomodoro/${script.path}`, (route) =>
      route.fulfill({ body: broken, contentType: 'text/javascript' }),
    );
    await pomodoro.getByRole('button', { name: 'Check for update Pomodoro' }).click();
    await expect(pomodoro.locator('.host__app-version')).toHaveText('0.0.1');
    await expect(inventory(page, 3, 2)).toBeVisible();

    // Its first start: nothing says ready within 10 s, so 0.0.0 comes back and the start goes on with it.
    await say('start a 1 minute focus');
    await expect(pomodoro.locator('.host__app-version')).toHaveText('0.0.0', { timeout: 20_000 });
    await expect(pomodoro.locator('.host__app-pending')).toHaveCount(0);
    await expect(pomodoro.locator('.host__app-rolled-back')).toHaveText(
      /^Rolled back \(.+\): the new version did not start — from 0\.0\.1: it did not start within 10 s$/,
    );
    await expect(pomodoro.getByText(/Updated Pomodoro from/)).toHaveCount(0);
    await expect(inventory(page, 4, 2)).toBeVisible();
    await expect(
      page.getByText('Pomodoro 0.0.1 did not start; version 0.0.0 is back.', { exact: false }),
    ).toBeVisible();
    await expect(workspaceFrame.locator('[data-phase]')).toHaveAttribute('data-phase', 'running', {
      timeout: 15_000,
    });
    expect((await keptFiles(page)).every((file) => file.startsWith('0.0.0 '))).toBe(true);
    await openAudit(pomodoro);
    const entries = pomodoro.getByRole('list', { name: 'Pomodoro audit log' }).getByRole('listitem');
    await expect(entries.filter({ hasText: 'app_rolled_back' })).toHaveText(
      /app_rolled_back 0\.0\.0 from 0\.0\.1: it did not start within 10 s$/,
    );
    // The data 0.0.0 wrote is still there (the new start adds to the same app session's record).
    const after = await sessionData();
    expect(after.map((record) => record.key)).toContain(before[0]?.key);
    await panel(page).screenshot({ path: 'test-results/app-center-rolled-back-en.png' });
  });
});
