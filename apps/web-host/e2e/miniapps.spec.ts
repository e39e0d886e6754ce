import { expect, test } from './fixtures.ts';

/**
 * The runtime in Chromium: the host installs its bundled Pomodoro from the manifest the build generated,
 * persists the registry in IndexedDB, and a reload finds it installed without publishing a new inventory.
 */

/** What the runtime's IndexedDB holds, read directly in the page. */
async function stored(page: import('@playwright/test').Page) {
  return page.evaluate(
    () =>
      new Promise<{ apps: string[]; outbox: number; audit: string[]; revision: string }>(
        (resolve, reject) => {
          const request = indexedDB.open('lineup-runtime');
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const db = request.result;
            const transaction = db.transaction(['apps', 'outbox', 'audit', 'inventory'], 'readonly');
            const result = { apps: [] as string[], outbox: 0, audit: [] as string[], revision: '' };
            transaction.objectStore('apps').getAllKeys().onsuccess = (event) => {
              result.apps = (event.target as IDBRequest<string[]>).result;
            };
            transaction.objectStore('outbox').count().onsuccess = (event) => {
              result.outbox = (event.target as IDBRequest<number>).result;
            };
            transaction.objectStore('audit').getAll().onsuccess = (event) => {
              result.audit = (event.target as IDBRequest<{ type: string }[]>).result.map(
                (entry) => entry.type,
              );
            };
            transaction.objectStore('inventory').get('current').onsuccess = (event) => {
              result.revision = (
                event.target as IDBRequest<{ inventory: { revision: string } }>
              ).result.inventory.revision;
            };
            transaction.oncomplete = () => {
              db.close();
              resolve(result);
            };
          };
        },
      ),
  );
}

test('Pomodoro is installed from its generated manifest and stays installed across a reload', async ({
  page,
}) => {
  await page.goto('/');
  const panel = page.getByRole('complementary', { name: 'MiniApps' });
  const pomodoro = panel.getByRole('listitem', { name: 'Pomodoro' });
  await expect(pomodoro).toBeVisible();
  await expect(pomodoro.getByText('com.lineup.pomodoro')).toBeVisible();
  const tools = pomodoro.getByRole('list', { name: 'Pomodoro Agent Tools' });
  await expect(tools.getByRole('listitem')).toHaveText([
    'pomodoro.start operation · foreground required',
    'pomodoro.interrupt command · activation not required',
  ]);
  await expect(panel.getByText('Inventory published to agents: inventory-1, 2 Agent Tools')).toBeVisible();
  await page.screenshot({ path: 'test-results/miniapps.png', fullPage: true });
  expect(await stored(page)).toEqual({
    apps: ['com.lineup.pomodoro'],
    outbox: 1,
    audit: ['app_installed'],
    revision: 'inventory-1',
  });

  await page.reload();
  await expect(panel.getByRole('listitem', { name: 'Pomodoro' })).toBeVisible();
  await expect(panel.getByText('Inventory published to agents: inventory-1, 2 Agent Tools')).toBeVisible();
  expect(await stored(page)).toEqual({
    apps: ['com.lineup.pomodoro'],
    outbox: 1,
    audit: ['app_installed'],
    revision: 'inventory-1',
  });
});

test('the bundled app is served next to its manifest', async ({ request }) => {
  const manifest = await request.get('/apps/pomodoro/lineup.manifest.json');
  expect(manifest.ok()).toBe(true);
  expect((await manifest.json()).app_scope).toBe('pomodoro');
  const entry = await request.get('/apps/pomodoro/index.html');
  expect(await entry.text()).toContain('<title>Pomodoro</title>');
});
