import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Verified MiniApp bundles (seed 000 §2.7, §6 M2) in the built host: Pomodoro's manifest lists every file of its
 * bundle with its SHA-256; the host installs it only when each file it fetches matches, keeps the files in
 * IndexedDB, and checks the kept files again before it opens the app. A changed byte — on the wire or in storage —
 * is refused with the file and both digests, and nothing runs.
 */

const panel = (page: Page) => page.getByRole('complementary', { name: 'MiniApps' });

async function say(page: Page, text: string) {
  const field = page.getByLabel('Message to the agent');
  await field.fill(text);
  // Enter, as a user sends: a Surface above that resizes itself can move the Send button away from a click.
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await field.press('Enter');
}

test('Pomodoro is installed from its verified bundle, and its files are kept', async ({ page }) => {
  await page.goto('/');
  const listed = (await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json()) as {
    files: unknown[];
  };
  const pomodoro = panel(page).getByRole('listitem', { name: 'Pomodoro' });
  await expect(pomodoro).toContainText(`Verified bundle: ${listed.files.length} files`);
  const kept = await page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const request = indexedDB.open('lineup-runtime');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const all = request.result.transaction('bundle_files').objectStore('bundle_files').getAll();
          all.onsuccess = () => {
            resolve(
              (all.result as { path: string; bytes: Uint8Array }[]).map(
                (file) => `${file.path} ${file.bytes.length}`,
              ),
            );
            request.result.close();
          };
        };
      }),
  );
  const manifest = await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json();
  expect(kept).toEqual(
    (manifest.files as { path: string; size: number }[]).map((file) => `${file.path} ${file.size}`),
  );
  await panel(page).screenshot({ path: 'test-results/bundle-verified-en.png' });
});

test('a bundle file changed on the way is refused with the file and both digests: Pomodoro is not installed', async ({
  page,
}) => {
  await page.route('**/apps/pomodoro/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    body[100] = body[100] === 0x20 ? 0x21 : 0x20;
    await route.fulfill({ response, body });
  });
  await page.goto('/');
  const alert = panel(page).getByRole('alert');
  await expect(alert).toContainText('The bundle at ./apps/pomodoro/ was not installed: assets/');
  await expect(alert).toContainText(
    /does not match the manifest: expected sha256-\S{44}, found sha256-\S{44}\./,
  );
  await expect(panel(page).getByText('No MiniApp is installed.')).toBeVisible();
  await expect(
    panel(page).getByText('Inventory published to agents: inventory-1, 0 Agent Tools'),
  ).toBeVisible();
  await panel(page).screenshot({ path: 'test-results/bundle-refused-en.png' });
});

test('a kept file changed in storage: Pomodoro is not opened, no frame is mounted', async ({ page }) => {
  await page.goto('/');
  await expect(panel(page).getByRole('listitem', { name: 'Pomodoro' })).toBeVisible();
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('lineup-runtime');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const store = request.result.transaction('bundle_files', 'readwrite').objectStore('bundle_files');
          const all = store.getAll();
          all.onsuccess = () => {
            const file = (all.result as { path: string; bytes: Uint8Array }[]).find((entry) =>
              entry.path.endsWith('.js'),
            );
            if (file === undefined) return reject(new Error('no kept script'));
            const bytes = new Uint8Array(file.bytes);
            bytes[0] = (bytes[0] as number) ^ 1;
            store.put({ ...file, bytes }).onsuccess = () => {
              request.result.close();
              resolve();
            };
          };
        };
      }),
  );
  await say(page, 'start a 1 minute focus');
  await expect(
    page.getByText(/Pomodoro was not opened: The kept assets\/\S+ does not match the manifest/),
  ).toBeVisible();
  await expect(page.locator('.host__workspace-frame iframe')).toHaveCount(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the verified bundle in Chinese (screenshot)', async ({ page }) => {
    await page.goto('/');
    const listed = (await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json()) as {
      files: unknown[];
    };
    const pomodoro = page
      .getByRole('complementary', { name: '小程序' })
      .getByRole('listitem', { name: 'Pomodoro' });
    await expect(pomodoro).toContainText(`已验证的包：${listed.files.length} 个文件`);
    await page
      .getByRole('complementary', { name: '小程序' })
      .screenshot({ path: 'test-results/bundle-verified-zh.png' });
  });
});
