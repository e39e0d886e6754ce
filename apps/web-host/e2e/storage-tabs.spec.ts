import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The runtime database shared by the host's tabs (one origin, one IndexedDB database): a tab never holds another
 * back for ever, and the user is told what is going on — wait for an older tab, or reload after a newer one took
 * the database over.
 */

const DATABASE = 'lineup-runtime';
const notice = (page: Page) => page.getByRole('alert').filter({ hasText: /LineUp tab|another tab|storage/ });
const pomodoro = (page: Page) =>
  page
    .getByRole('complementary', { name: 'MiniApps' })
    .getByRole('listitem', { name: 'Pomodoro', exact: true });

/** A same-origin page that runs no host: a tab of an older LineUp, as far as the database can tell. */
async function otherTab(page: Page): Promise<Page> {
  const other = await page.context().newPage();
  await other.goto('/favicon.svg');
  return other;
}

/** The other tab becomes an older LineUp: the database at version 1 (that version's stores), held open and deaf to
 * `versionchange`, as the runtime of that version was. */
function holdVersionOne(other: Page): Promise<void> {
  return other.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const deleting = indexedDB.deleteDatabase(name);
        deleting.onerror = () => reject(deleting.error);
        deleting.onsuccess = () => {
          const request = indexedDB.open(name, 1);
          request.onupgradeneeded = () => {
            const database = request.result;
            database.createObjectStore('apps', { keyPath: 'id' });
            database.createObjectStore('inventory', { keyPath: 'key' });
            database
              .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
              .createIndex('by_app', 'appId');
            database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
          };
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            (window as unknown as { held: IDBDatabase }).held = request.result;
            resolve();
          };
        };
      }),
    DATABASE,
  );
}

/** Deleting the database is a version change for every open connection, as a newer version's open is. */
function deleteDatabase(other: Page): Promise<void> {
  return other.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const deleting = indexedDB.deleteDatabase(name);
        deleting.onblocked = () => reject(new Error('blocked'));
        deleting.onsuccess = () => resolve();
      }),
    DATABASE,
  );
}

test('a newer tab taking the database over: this tab closes its connection and asks for a reload', async ({
  page,
}) => {
  await page.goto('/');
  await expect(pomodoro(page)).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
  const other = await otherTab(page);
  const version = await other.evaluate(
    async (name) => (await indexedDB.databases()).find((database) => database.name === name)?.version ?? 0,
    DATABASE,
  );
  expect(version).toBeGreaterThan(0);
  const outcome = await other.evaluate(
    ({ name, version }) =>
      new Promise<string>((resolve) => {
        const request = indexedDB.open(name, version + 1);
        request.onblocked = () => resolve('blocked');
        request.onerror = () => resolve(`error ${request.error?.name}`);
        request.onsuccess = () => {
          resolve(`opened at ${request.result.version}`);
          request.result.close();
        };
      }),
    { name: DATABASE, version },
  );
  expect(outcome).toBe(`opened at ${version + 1}`);
  await expect(notice(page)).toHaveText(
    'LineUp was updated in another tab. Reload this page to go on; nothing here can be saved until then.Reload',
  );
  await expect(notice(page).getByRole('button', { name: 'Reload' })).toBeVisible();
  // The page's runtime stopped with its connection: the agent link is down for good, not retrying.
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText('Agent: disconnected');
  await page.screenshot({ path: 'test-results/storage-replaced.png' });
  await other.close();
});

/** Another tab deleting the database, in each host language: the notice says the data is gone, not updated. */
const DELETED = [
  {
    locale: 'en-US',
    screenshot: 'storage-deleted.png',
    status: ['Agent:', 'Agent: connected (demo agent)', 'Agent: disconnected'],
    notice:
      'LineUp’s data was deleted in another tab. Reload this page to start again; nothing here can be saved until then.Reload',
  },
  {
    locale: 'zh-CN',
    screenshot: 'storage-deleted-zh.png',
    status: ['智能体：', '智能体：已连接 (演示智能体)', '智能体：已断开'],
    notice:
      'LineUp 的数据已在另一个标签页中删除。请重新加载此页面以重新开始；在此之前这里的内容无法保存。重新加载',
  },
] as const;

for (const { locale, screenshot, status, notice: text } of DELETED)
  test.describe(locale, () => {
    test.use({ locale });
    test('another tab deleting the database: the notice says so, and the agent link is down for good', async ({
      page,
    }) => {
      const [prefix, connected, disconnected] = status;
      await page.goto('/');
      await expect(page.getByRole('status').filter({ hasText: prefix })).toHaveText(connected);
      const other = await otherTab(page);
      await deleteDatabase(other);
      await expect(page.getByRole('alert')).toHaveText(text);
      await expect(page.getByRole('status').filter({ hasText: prefix })).toHaveText(disconnected);
      await page.screenshot({ path: `test-results/${screenshot}` });
      await other.close();
    });
  });

test('an older tab holding the database open: this tab says so, waits, and goes on once it closes', async ({
  page,
}) => {
  const other = await otherTab(page);
  await holdVersionOne(other);
  await page.goto('/');
  await expect(notice(page)).toContainText('Waiting for another LineUp tab');
  await expect(notice(page).getByRole('button')).toHaveCount(0);
  await expect(pomodoro(page)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/storage-blocked.png' });
  // The user closes the other tab: the upgrade runs, the notice goes, the host starts.
  await other.evaluate(() => (window as unknown as { held: IDBDatabase }).held.close());
  await expect(pomodoro(page)).toBeVisible({ timeout: 15_000 });
  await expect(notice(page)).toHaveCount(0);
  await other.close();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('the older-tab notice is in the host language', async ({ page }) => {
    const other = await otherTab(page);
    await holdVersionOne(other);
    await page.goto('/');
    await expect(page.getByRole('alert').filter({ hasText: '另一个 LineUp 标签页' })).toBeVisible();
    await page.screenshot({ path: 'test-results/storage-blocked-zh.png' });
    await other.evaluate(() => (window as unknown as { held: IDBDatabase }).held.close());
    await other.close();
  });
});
