import { expect, shownConversation, test } from './fixtures.ts';

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
    /^pomodoro\.start operation · foreground required · risk: display only/,
    /^pomodoro\.interrupt command · activation not required · risk: display only/,
  ]);
  await expect(panel.getByText('Inventory published to agents: inventory-2, 2 Agent Tools')).toBeVisible();
  await page.screenshot({ path: 'test-results/miniapps.png', fullPage: true });
  expect(await stored(page)).toEqual({
    apps: ['com.lineup.pomodoro'],
    outbox: 2,
    audit: ['app_installed', 'capability_declared'],
    revision: 'inventory-2',
  });

  await page.reload();
  await expect(panel.getByRole('listitem', { name: 'Pomodoro' })).toBeVisible();
  await expect(panel.getByText('Inventory published to agents: inventory-2, 2 Agent Tools')).toBeVisible();
  expect(await stored(page)).toEqual({
    apps: ['com.lineup.pomodoro'],
    outbox: 2,
    audit: ['app_installed', 'capability_declared'],
    revision: 'inventory-2',
  });
});

test('the bundled app is served next to its manifest', async ({ request }) => {
  const manifest = await request.get('/apps/pomodoro/lineup.manifest.json');
  expect(manifest.ok()).toBe(true);
  expect((await manifest.json()).app_scope).toBe('pomodoro');
  const entry = await request.get('/apps/pomodoro/index.html');
  expect(await entry.text()).toContain('<title>Pomodoro</title>');
});

test('an Agent Tool call is received by the runtime: accepted, replayed, refused', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('Inventory published to agents: inventory-2, 2 Agent Tools')).toBeVisible();
  const conversation = await shownConversation(page);
  const deliver = async (payload: object) => {
    await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
      JSON.stringify({
        v: 1,
        id: `msg_${Math.random().toString(36).slice(2)}`,
        type: 'lineup.v1.tool.call',
        conversation_id: conversation,
        sender: { kind: 'agent', id: 'agent_e2e' },
        payload,
      }),
    );
    await page.getByRole('button', { name: 'Deliver' }).click();
  };
  const call = {
    call_id: 'call_e2e_1',
    inventory_revision: 'inventory-2',
    tool: 'pomodoro.interrupt',
    arguments: {},
  };
  const notes = page.locator('.host__note');
  const accepted =
    '→ agent lineup.v1.tool.progress {"call_id":"call_e2e_1","app_scope":"pomodoro","status":"accepted"}';
  const result =
    '→ agent lineup.v1.tool.result {"call_id":"call_e2e_1","outcome":"completed","result":{"status":"nothing_to_interrupt"}}';

  // What was pending in the outbox since start-up, the inventory, went out as soon as the conversation opened.
  await expect(notes).toHaveCount(1);
  await expect(notes.first().locator('code')).toHaveText(
    'lineup.v1.client.inventory inventory-2, 2 Agent Tools',
  );
  await notes.first().getByText('Whole message').click();
  await expect(notes.first().locator('pre')).toContainText('"name": "pomodoro.start"');
  await deliver(call);
  await expect(notes).toHaveCount(3);
  await expect(notes.nth(1)).toHaveText(accepted);
  await expect(notes.nth(2)).toHaveText(result);
  // A replay gets the latest persisted answer again, and adds no outbox row.
  await deliver(call);
  await expect(notes).toHaveCount(4);
  await expect(notes.last()).toHaveText(result);
  await deliver({ ...call, call_id: 'call_e2e_2', tool: 'pomodoro.start', arguments: { minutes: 500 } });
  await expect(notes.last()).toContainText('"code":"invalid_arguments"');
  await deliver({ ...call, call_id: 'call_e2e_3', inventory_revision: 'inventory-0' });
  await expect(notes.last()).toContainText('"code":"stale_inventory"');
  await page.screenshot({ path: 'test-results/tool-calls.png', fullPage: true });

  const stored = await page.evaluate(
    () =>
      new Promise<{ calls: { callId: string; status: string }[]; outbox: string[] }>((resolve, reject) => {
        const request = indexedDB.open('lineup-runtime');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const transaction = db.transaction(['tool_calls', 'outbox']);
          const all = transaction.objectStore('tool_calls').getAll();
          const rows = transaction.objectStore('outbox').getAll();
          transaction.oncomplete = () => {
            db.close();
            resolve({
              calls: all.result.map((record: { callId: string; status: string }) => ({
                callId: record.callId,
                status: record.status,
              })),
              outbox: rows.result.map(
                (row: { type: string; pending?: number; deliveredAt?: number }) =>
                  `${row.type} ${row.pending === undefined && typeof row.deliveredAt === 'number'}`,
              ),
            });
          };
        };
      }),
  );
  expect(stored.calls).toEqual([
    { callId: 'call_e2e_1', status: 'accepted' },
    { callId: 'call_e2e_2', status: 'rejected' },
    { callId: 'call_e2e_3', status: 'rejected' },
  ]);
  // Every row written went out, in order, and is marked delivered.
  expect(stored.outbox).toEqual([
    'lineup.v1.client.inventory true',
    'lineup.v1.client.inventory true',
    'lineup.v1.tool.progress true',
    'lineup.v1.tool.result true',
    'lineup.v1.tool.result true',
    'lineup.v1.tool.result true',
  ]);
});

test('an app.call asks the user first: the capability and the reason as text; Deny answers rejected, Escape cancelled', async ({
  page,
}) => {
  await page.goto('/');
  const conversation = await shownConversation(page);
  const ask = async (callId: string, reason: string) => {
    await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
      JSON.stringify({
        v: 1,
        id: `msg_${callId}`,
        type: 'lineup.v1.app.call',
        conversation_id: conversation,
        sender: { kind: 'agent', id: 'agent_e2e' },
        payload: {
          call_id: callId,
          capability: 'app.open_url',
          reason,
          expires_at: '2099-08-02T12:10:00Z',
          arguments: { url: 'https://example.com/docs' },
        },
      }),
    );
    await page.getByRole('button', { name: 'Deliver' }).click();
  };
  const markup = 'Open the docs <img src=x onerror="window.hacked=1"> <b>now</b>';
  await ask('call_open_docs_01', markup);
  const dialog = page.getByRole('dialog', { name: 'The agent asks to use a capability' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('#consent-reason')).toHaveText(markup);
  await expect(dialog.locator('img, b')).toHaveCount(0);
  await expect(dialog).toContainText('app.open_url');
  await expect(dialog).toContainText('Opens a web page in a new browser tab.');
  await page.screenshot({ path: 'test-results/consent-dialog.png' });
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.host__note').last()).toContainText(
    'lineup.v1.app.result {"call_id":"call_open_docs_01","status":"rejected"',
  );
  await ask('call_open_docs_02', 'Open the docs');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.host__note').last()).toContainText(
    'lineup.v1.app.result {"call_id":"call_open_docs_02","status":"cancelled"',
  );
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
});
