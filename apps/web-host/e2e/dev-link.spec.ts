import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createMiniApp } from '@lineup/create-miniapp';
import type { Page } from '@playwright/test';
import { callFromConsole, consoleResult, serveDevApp } from './dev-app.ts';
import { expect, test } from './fixtures.ts';

/**
 * A MiniApp in development in the real host, as its author runs it: the app `npm create @lineup/miniapp` writes,
 * its `vite` dev server (the SDK's plugin serves a build at /__lineup/bundle/, rebuilt on save), and the host
 * opened with `?dev=<that URL>`. The host installs it verified, the agent console calls its tool through the
 * runtime, and a saved change is installed again and runs at the next call.
 */

const panel = (page: Page) => page.getByRole('complementary', { name: 'MiniApps' });

/** axe (WCAG 2.1 A/AA, best practices) on the dev section: what it finds, none expected. */
async function axeDevSection(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .include('.host__app-dev')
    .analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.html ?? ''}`);
}

test('?dev= installs the app from its dev server, the console calls its tool, a save is installed again', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const app = createMiniApp({ directory: testInfo.outputPath('dev-notes'), appScope: 'dev_notes' });
  const server = await serveDevApp(app.directory);
  const { bundle } = server;
  try {
    await page.goto(`/?dev=${encodeURIComponent(bundle)}`);

    const dev = panel(page).getByRole('region', { name: 'Developing a MiniApp' });
    await expect(dev).toContainText(`Following the dev bundle at ${bundle}`);
    await expect(dev.getByRole('status')).toHaveText('Installed Dev Notes 0.1.0.', { timeout: 60_000 });
    const installed = panel(page).getByRole('listitem', { name: 'Dev Notes', exact: true });
    await expect(installed).toContainText(/Verified bundle: \d+ files sha256-/);
    expect(await axeDevSection(page)).toEqual([]);

    // The agent console calls it as an agent would: the runtime starts its page and routes the call to its handler.
    const region = page.getByRole('region', { name: 'Agent console' });
    await region.getByRole('button', { name: 'Show' }).click();
    await region.getByLabel('Agent Tool', { exact: true }).selectOption('dev_notes.add');
    const call = async (text: string) =>
      consoleResult(await callFromConsole(page, 'dev_notes.add', { text }));
    expect(await call('Buy milk')).toEqual({ count: 1 });
    const frame = page.frameLocator('iframe[title="Dev Notes"]').frameLocator('iframe');
    await expect(frame.getByRole('listitem')).toHaveText(['Buy milk']);

    // The author saves a change to the handler: the host installs the new build and its page starts over.
    const tools = join(app.directory, 'src', 'tools.ts');
    await writeFile(
      tools,
      (await readFile(tools, 'utf8')).replace(
        'handler: ({ text }) => ({ count: addNote(text) }),',
        'handler: ({ text }) => ({ count: addNote(text.toUpperCase()) * 10 }),',
      ),
    );
    await expect(dev.getByRole('status')).toHaveText('Installed the new build of Dev Notes 0.1.0.', {
      timeout: 60_000,
    });
    expect(await call('Call mom')).toEqual({ count: 10 });
    await expect(frame.getByRole('listitem')).toHaveText(['CALL MOM']);
    await panel(page).screenshot({ path: 'test-results/dev-link-en.png' });
  } finally {
    await server.close();
  }
});

// While the build is broken the dev server answers 503, which Chromium logs for each poll of the manifest.
test.describe('a broken save', () => {
  test.use({
    allowedConsoleErrors:
      /status of 503 \(Service Unavailable\) \(http:\/\/127\.0\.0\.1:\d+\/__lineup\/bundle\/lineup\.manifest\.json\)$/,
  });

  test('a save that breaks the tool shows the build message in the host at once; the last good build keeps answering; the fix is installed', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const app = createMiniApp({ directory: testInfo.outputPath('broken-notes'), appScope: 'broken_notes' });
    const server = await serveDevApp(app.directory);
    const { bundle } = server;
    try {
      await page.goto(`/?dev=${encodeURIComponent(bundle)}`);
      const dev = panel(page).getByRole('region', { name: 'Developing a MiniApp' });
      await expect(dev.getByRole('status')).toHaveText('Installed Broken Notes 0.1.0.', { timeout: 60_000 });

      const region = page.getByRole('region', { name: 'Agent console' });
      await region.getByRole('button', { name: 'Show' }).click();
      await region.getByLabel('Agent Tool', { exact: true }).selectOption('broken_notes.add');
      const call = async (text: string) =>
        consoleResult(await callFromConsole(page, 'broken_notes.add', { text }));
      expect(await call('Buy milk')).toEqual({ count: 1 });

      // The author removes the tool's risk and saves: within 3 s the host says the build failed, with the tool,
      // the field and what to write, and that the last good build still runs.
      const tools = join(app.directory, 'src', 'tools.ts');
      const good = await readFile(tools, 'utf8');
      expect(good).toContain("      risk: 'display_only',\n");
      await writeFile(tools, good.replace("      risk: 'display_only',\n", ''));
      const saved = Date.now();
      const alert = dev.getByRole('alert');
      await expect(alert).toContainText(
        'Not installed. The new build failed; Broken Notes 0.1.0 from the last good build still runs and answers calls.',
        { timeout: 3_000 },
      );
      const shownAfter = Date.now() - saved;
      const message = alert.locator('pre');
      await expect(message).toContainText(
        "tools.add.risk: Required: one of 'display_only', 'user_confirmation'",
      );
      await expect(message).toContainText('The build failed:');
      // Neither a stack frame nor a terminal's colour code.
      expect(await message.textContent()).not.toMatch(/\n\s+at |\[\d+m/);
      testInfo.annotations.push({ type: 'build failure shown after', description: `${shownAfter} ms` });
      expect(await axeDevSection(page)).toEqual([]);
      await panel(page).screenshot({ path: 'test-results/dev-link-build-failed-en.png' });

      // The last good build answers calls meanwhile, and stays shown as failed while the source is broken.
      expect(await call('Call mom')).toEqual({ count: 2 });
      await expect(alert).toContainText('The new build failed');
      await page.getByRole('button', { name: '中文', exact: true }).click();
      const zh = page
        .getByRole('complementary', { name: '小程序' })
        .getByRole('region', { name: '开发中的小程序' });
      await expect(zh.getByRole('alert')).toContainText(
        '新构建失败；上一次成功构建的 Broken Notes 0.1.0 仍在运行并响应调用。',
      );
      await zh.screenshot({ path: 'test-results/dev-link-build-failed-zh.png' });
      await page.getByRole('button', { name: 'EN', exact: true }).click();

      // The fix: the next good build is installed, and runs at the next call.
      await writeFile(tools, good.replace('addNote(text)', 'addNote(text) * 100'));
      await expect(dev.getByRole('status')).toHaveText('Installed the new build of Broken Notes 0.1.0.', {
        timeout: 30_000,
      });
      await expect(dev.getByRole('alert')).toHaveCount(0);
      expect(await call('Fixed')).toEqual({ count: 100 });
    } finally {
      await server.close();
    }
  });
});

test('?dev= on another machine is refused before anything is fetched (dark, in Chinese too)', async ({
  page,
}) => {
  let fetched = 0;
  await page.route('http://example.com/**', (route) => {
    fetched += 1;
    return route.abort();
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/?dev=${encodeURIComponent('http://example.com/__lineup/bundle/')}`);
  const dev = panel(page).getByRole('region', { name: 'Developing a MiniApp' });
  await expect(dev.getByRole('alert')).toHaveText(
    'Not installed. A dev bundle must be on this machine (localhost, 127.0.0.1 or [::1]). Nothing was fetched.',
  );
  await page.getByRole('button', { name: '中文', exact: true }).click();
  const zh = page
    .getByRole('complementary', { name: '小程序' })
    .getByRole('region', { name: '开发中的小程序' });
  await expect(zh).toContainText('正在跟随开发包： http://example.com/__lineup/bundle/');
  await expect(zh.getByRole('alert')).toContainText(
    '开发包必须在本机上（localhost、127.0.0.1 或 [::1]）。没有获取任何内容。',
  );
  expect(await axeDevSection(page)).toEqual([]);
  await zh.screenshot({ path: 'test-results/dev-link-zh-dark.png' });
  expect(fetched).toBe(0);
});
