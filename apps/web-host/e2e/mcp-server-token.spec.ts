import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { answerGrantQuestionIfAsked } from './grant-question.ts';
import { callToolFromConsole, viewFrame } from './mcp-servers.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';

/**
 * An MCP server that asks who you are (a bearer token its owner gave): refused without a token it takes, added with
 * one, which this browser keeps for that server only — sent with each request to it, never to its view, the agent or
 * anything else — used again after a reload, and forgotten when the user signs out.
 */

// The SDK's client asks the test server for a stream it does not offer (405), and a refused server answers 401:
// both are logged by the browser.
test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)|401 \(Unauthorized\)/ });

const TOKEN = 'e2e-secret-token-7f3a9c';

/** A view that shows everything its document can see of itself. */
const SNOOP_VIEW = `<!doctype html><html><body><pre id="seen">looking</pre><script type="module">
let storage = '';
try { storage = JSON.stringify(Object.entries(localStorage)); } catch (error) { storage = String(error); }
document.getElementById('seen').textContent = JSON.stringify({ html: document.documentElement.outerHTML.length, href: location.href, name: window.name, referrer: document.referrer, storage });
</script></body></html>`;

let server: TestMcpServer;
test.beforeEach(async () => {
  server = await startTestMcpServer({
    name: 'Private',
    token: TOKEN,
    tools: [
      {
        name: 'whoami',
        view: 'ui://private/view.html',
        run: () => ({ content: [{ type: 'text', text: 'you are signed in' }] }),
      },
    ],
    views: { 'ui://private/view.html': SNOOP_VIEW },
  });
});
test.afterEach(async () => {
  await server.close();
});

/** Every record of the runtime's database, as one string: what the page keeps besides the credentials. */
async function runtimeRecords(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const open = indexedDB.open('lineup-runtime');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const parts: string[] = [];
    for (const name of [...db.objectStoreNames]) {
      const all = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      parts.push(JSON.stringify(all, (_key, value) => (value instanceof Uint8Array ? '' : value)));
    }
    db.close();
    return parts.join('\n');
  });
}

async function add(page: Page, token: string | null): Promise<void> {
  const center = page.locator('aside.host__apps');
  await center.getByLabel('MCP server URL (Streamable HTTP)').fill(server.url);
  if (token !== null) await center.getByLabel('Access token (optional)').fill(token);
  await center.getByRole('button', { name: 'Add server' }).click();
}

for (const language of ['en', 'zh'] as const)
  test(`a server that asks who you are is added with its access token, used only there, and signed out of (${language})`, async ({
    page,
  }) => {
    const zh = language === 'zh';
    await page.goto('/');
    const center = page.locator('aside.host__apps');
    const status = center
      .getByRole('status')
      .filter({ hasText: /Not installed|Installed/ })
      .first();

    // Without a token, and with a wrong one: refused, with why; nothing kept, no token kept.
    await add(page, null);
    await expect(center.getByText(/The server asks who you are/)).toBeVisible({ timeout: 30_000 });
    await add(page, 'a wrong one');
    await expect(center.getByText(/The access token was not kept: .*no spaces/)).toBeVisible();
    await add(page, 'wrong-token');
    await expect(center.getByText(/The server asks who you are/)).toBeVisible({ timeout: 30_000 });
    await expect(center.getByRole('listitem').filter({ hasText: 'Private' })).toHaveCount(0);

    // With its token: added. The field is a password field, emptied at once.
    await add(page, TOKEN);
    await expect(status).toHaveText(/^Installed Private/, { timeout: 30_000 });
    await answerGrantQuestionIfAsked(page, 'not now');
    await expect(center.getByLabel('Access token (optional)')).toHaveValue('');
    await expect(center.getByLabel('Access token (optional)')).toHaveAttribute('type', 'password');
    await expect(
      center.getByText('Uses an access token kept in this browser, sent to this server only.'),
    ).toBeVisible();

    const call = await callToolFromConsole(page, 'private.whoami');
    await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    expect(server.calls).toEqual(['whoami']);
    // Every request the server accepted carried the token; the refused ones were the two tries before.
    expect(server.authorizations.filter((value) => value === `Bearer ${TOKEN}`).length).toBeGreaterThan(2);
    // Its view sees none of it; nothing the runtime keeps (what went to and came from the agent, the audit, the
    // views' states) holds it; the page's own text neither.
    const seen = viewFrame(page).locator('#seen');
    await expect(seen).not.toHaveText('looking', { timeout: 30_000 });
    expect(await seen.textContent()).not.toContain(TOKEN);
    expect(await runtimeRecords(page)).not.toContain(TOKEN);
    expect(await page.locator('body').textContent()).not.toContain(TOKEN);

    // After a reload the token is still there: the next call works.
    await page.reload();
    const again = await callToolFromConsole(page, 'private.whoami');
    await expect(again.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    expect(server.calls).toEqual(['whoami', 'whoami']);

    if (zh) await page.getByRole('button', { name: '中文' }).click();
    const card = center
      .getByRole('listitem')
      .filter({ hasText: zh ? '使用保存在此浏览器中的访问令牌' : 'Uses an access token' });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/mcp-server-token-${language}.png` });
    await card.getByRole('button', { name: zh ? /忘记访问令牌/ : /Forget the access token/ }).click();
    await expect(
      center.getByText(zh ? /已忘记 Private 的访问令牌/ : /The access token of Private was forgotten/),
    ).toBeVisible();
    await expect(
      center.getByText(
        zh
          ? '使用保存在此浏览器中的访问令牌，只发送给这个服务器。'
          : 'Uses an access token kept in this browser, sent to this server only.',
      ),
    ).toHaveCount(0);
    if (zh) await page.getByRole('button', { name: 'EN' }).click();

    // Signed out: the next call reaches the server without a token, which refuses it; the call ends in an error.
    // (Its phase passes through sent, received and in progress first: only `error` says the server has answered.)
    const refused = await callToolFromConsole(page, 'private.whoami');
    await expect(refused.locator('.host__console-phase')).toHaveText('error', { timeout: 30_000 });
    // The server turned it away: the agent is told it did not run there, and why, not that it may have.
    await expect(refused.locator('.host__console-result')).toContainText(
      'execution_failed — The MCP server refused the call (HTTP 401): it asks who you are',
    );
    expect(server.calls).toEqual(['whoami', 'whoami']);
    expect(server.authorizations.at(-1)).toBeNull();
  });

for (const language of ['en', 'zh'] as const)
  test(`a server that stops taking the token says so on its card; its new token, given again, replaces it (${language})`, async ({
    page,
  }) => {
    const zh = language === 'zh';
    await page.goto('/');
    const center = page.locator('aside.host__apps');
    await add(page, TOKEN);
    await expect(center.getByRole('status').filter({ hasText: /^Installed Private/ })).toBeVisible({
      timeout: 30_000,
    });
    await answerGrantQuestionIfAsked(page, 'not now');
    const first = await callToolFromConsole(page, 'private.whoami');
    await expect(first.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });

    // Its owner rotates the token: the kept one is refused, and the card says so.
    server.setToken('rotated-token-2b');
    const refused = await callToolFromConsole(page, 'private.whoami');
    await expect(refused.locator('.host__console-phase')).toHaveText('error', { timeout: 30_000 });
    await expect(refused.locator('.host__console-result')).toContainText('HTTP 401');
    if (zh) await page.getByRole('button', { name: '中文' }).click();
    const card = center.getByRole('listitem').filter({ hasText: 'Private' }).first();
    const note = card.getByRole('status').filter({
      hasText: zh
        ? /服务器在 \d\d:\d\d 拒绝了这个访问令牌/
        : /The server refused this access token at \d\d:\d\d/,
    });
    await expect(note).toBeVisible();
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/mcp-server-token-refused-${language}.png` });
    if (zh) await page.getByRole('button', { name: 'EN' }).click();

    // The same URL added again with the new token: the note goes, and the next call runs.
    await add(page, 'rotated-token-2b');
    await expect(note).toHaveCount(0, { timeout: 30_000 });
    const again = await callToolFromConsole(page, 'private.whoami');
    await expect(again.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    expect(server.calls).toEqual(['whoami', 'whoami']);
    expect(server.authorizations.at(-1)).toBe('Bearer rotated-token-2b');
  });
