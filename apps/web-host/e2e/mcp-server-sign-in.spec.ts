import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { answerGrantQuestionIfAsked } from './grant-question.ts';
import { callToolFromConsole, viewFrame } from './mcp-servers.ts';
import { readStore } from './runtime-db.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';
import { startTestAuthorizationServer, type TestAuthorizationServer } from './test-oauth-server.ts';

/**
 * Signing in to an MCP server with OAuth 2.1, against a real authorization server on 127.0.0.1 (`oidc-provider`:
 * dynamic registration, PKCE, resource indicators, `iss` in the answer, refresh tokens) and a server of the test's
 * own that takes only access tokens that authorization server issued for it (a JWT checked against its keys, its
 * issuer and this server as audience). The user signs in in the popup the app center opens; the host redeems the
 * code through the MCP SDK's client auth, keeps the tokens in this browser, and sends them to that server only.
 */

// A server that asks who you are answers 401 (logged by the browser); the SDK's client asks for a stream it does
// not offer (405).
test.use({ allowedConsoleErrors: /401 \(Unauthorized\)|405 \(Method Not Allowed\)/ });

/** A view that shows everything its document can see of itself. */
const SNOOP_VIEW = `<!doctype html><html><body><pre id="seen">looking</pre><script type="module">
document.getElementById('seen').textContent = JSON.stringify({ href: location.href, name: window.name, referrer: document.referrer, html: document.documentElement.outerHTML.length });
</script></body></html>`;

let issuer: TestAuthorizationServer;
let server: TestMcpServer;
/** Every access token the MCP server was sent, in order. */
const bearers = () =>
  server.authorizations.flatMap((value) => (value?.startsWith('Bearer ') ? [value.slice(7)] : []));

test.beforeEach(async () => {
  issuer = await startTestAuthorizationServer();
  server = await startTestMcpServer({
    name: 'Signed',
    oauth: { issuer: issuer.issuer, verify: (token, audience) => issuer.verify(token, audience) },
    tools: [
      {
        name: 'whoami',
        view: 'ui://signed/view.html',
        run: () => ({ content: [{ type: 'text', text: 'you are signed in' }] }),
      },
    ],
    views: { 'ui://signed/view.html': SNOOP_VIEW },
  });
});
test.afterEach(async () => {
  await server.close();
  await issuer.close();
});

/** Every record of the runtime's database as one string. */
async function runtimeRecords(page: Page): Promise<string> {
  const names = await page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('lineup-runtime');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          resolve([...open.result.objectStoreNames]);
          open.result.close();
        };
      }),
  );
  const parts: string[] = [];
  for (const name of names)
    parts.push(
      JSON.stringify(await readStore(page, name), (_key, value) =>
        value instanceof Object && 'byteLength' in value ? '' : value,
      ),
    );
  return parts.join('\n');
}

/** Adds the server by URL; it answers 401, and the app center offers to sign in. */
async function addUnauthorized(page: Page, url: string) {
  const center = page.locator('aside.host__apps');
  await center.getByLabel('MCP server URL (Streamable HTTP)').fill(url);
  await center.getByRole('button', { name: 'Add server' }).click();
  await expect(center.getByText(/The server asks who you are/)).toBeVisible({ timeout: 30_000 });
  return center;
}

/** Signs in in the popup the app center opens: the authorization server's login and consent pages. */
async function signInInPopup(
  page: Page,
  button: ReturnType<Page['getByRole']>,
  prepare?: (popup: Page) => Promise<unknown>,
) {
  const opened = page.waitForEvent('popup');
  await button.click();
  const popup = await opened;
  await prepare?.(popup);
  await popup.waitForURL(/\/interaction\//, { timeout: 30_000 });
  await popup.locator('input[name="login"]').fill('alice');
  await popup.locator('input[name="password"]').fill('anything');
  await popup.locator('button[type="submit"]').click();
  // The consent page of the development interactions.
  await popup.locator('button[type="submit"]').click();
  // The callback page closes the popup itself (it may be gone before a close event could be awaited).
  await expect.poll(() => popup.isClosed(), { timeout: 30_000 }).toBe(true);
}

test('signs in in a popup, calls with its token (refreshed when it expires), never shows it, and signs out', async ({
  page,
}) => {
  // A sign-in, an expiry waited out, a reload: longer than the default 30 s when the machine is busy.
  test.setTimeout(90_000);
  issuer.setAccessTokenTtl(4);
  await page.goto('/');
  const center = await addUnauthorized(page, server.url);
  await signInInPopup(page, center.getByRole('button', { name: 'Sign in to this server' }));
  await expect(center.getByRole('status').filter({ hasText: /^Installed Signed/ })).toBeVisible({
    timeout: 30_000,
  });
  await answerGrantQuestionIfAsked(page, 'not now');
  await expect(center.getByText(/^Signed in \(OAuth\)/)).toBeVisible();

  const call = await callToolFromConsole(page, 'signed.whoami');
  await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  expect(server.calls).toEqual(['whoami']);
  // The token it sent: issued by that authorization server for this server (the resource indicator), nothing else.
  const first = bearers().at(-1) as string;
  expect(await issuer.verify(first, server.url)).toMatchObject({ iss: issuer.issuer, aud: server.url });
  expect(await issuer.verify(first, 'http://127.0.0.1:1/another')).toBeNull();

  // Never in the view, the runtime's records (what went to and came from the agent), or the page.
  const seen = viewFrame(page).locator('#seen');
  await expect(seen).not.toHaveText('looking', { timeout: 30_000 });
  for (const token of new Set(bearers())) {
    expect(await seen.textContent()).not.toContain(token);
    expect(await runtimeRecords(page)).not.toContain(token);
    expect(await page.locator('body').textContent()).not.toContain(token);
  }

  // The access token expires: the next call refreshes it (no popup) and goes on with a new one.
  await page.waitForTimeout(5_000);
  const again = await callToolFromConsole(page, 'signed.whoami');
  await expect(again.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  expect(server.calls).toEqual(['whoami', 'whoami']);
  expect(bearers().at(-1)).not.toBe(first);

  // After a reload it is still signed in.
  await page.reload();
  const reloaded = await callToolFromConsole(page, 'signed.whoami');
  await expect(reloaded.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  await page.locator('.host__app-server').filter({ hasText: 'Signed in (OAuth)' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/mcp-server-signed-in.png' });
  const axe = await new AxeBuilder({ page })
    .include('aside.host__apps')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(center.getByText(/^已登录（OAuth）/)).toBeVisible();
  await expect(center.getByRole('button', { name: /^退出登录 Signed$/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/mcp-server-signed-in-zh.png' });
  await page.getByRole('button', { name: 'EN' }).click();

  // Signed out: the tokens are forgotten; the next call goes without and the server refuses it.
  await center.getByRole('button', { name: /^Sign out Signed$/ }).click();
  await expect(center.getByText(/^Signed out of Signed/)).toBeVisible();
  const refused = await callToolFromConsole(page, 'signed.whoami');
  await expect(refused.locator('.host__console-phase')).toHaveText('error', { timeout: 30_000 });
  expect(server.calls).toEqual(['whoami', 'whoami', 'whoami']);
  expect(server.authorizations.at(-1)).toBeNull();
});

test('an answer whose iss is not the authorization server it asked is refused, and nothing is kept', async ({
  page,
}) => {
  // A mix-up: the answer the popup brings back names another issuer (RFC 9207) — with the real code. The callback
  // page's address is rewritten before its script reads it (an init script of the popup; a redirect's target cannot
  // be routed).
  await page.goto('/');
  const center = await addUnauthorized(page, server.url);
  await signInInPopup(page, center.getByRole('button', { name: 'Sign in to this server' }), (popup) =>
    popup.addInitScript(() => {
      if (!window.location.pathname.endsWith('/oauth-callback.html')) return;
      const address = new URL(window.location.href);
      address.searchParams.set('iss', 'http://127.0.0.1:1');
      window.history.replaceState(null, '', `${address.pathname}${address.search}`);
    }),
  );
  await expect(center.getByText(/The sign-in failed: .*iss/i)).toBeVisible({
    timeout: 30_000,
  });
  await expect(center.getByRole('listitem').filter({ hasText: 'Signed in (OAuth)' })).toHaveCount(0);
  expect(server.calls).toEqual([]);
  expect(bearers()).toEqual([]);
});

test('a server whose metadata names another resource is refused before any sign-in page', async ({
  page,
}) => {
  const liar = await startTestMcpServer({
    name: 'Liar',
    oauth: {
      issuer: issuer.issuer,
      verify: (token, audience) => issuer.verify(token, audience),
      resource: 'http://127.0.0.1:1/elsewhere',
    },
    tools: [{ name: 'x', run: () => ({ content: [] }) }],
  });
  try {
    await page.goto('/');
    const center = await addUnauthorized(page, liar.url);
    const opened = page.waitForEvent('popup');
    await center.getByRole('button', { name: 'Sign in to this server' }).click();
    const popup = await opened;
    await expect(center.getByText(/The sign-in failed: Protected resource/)).toBeVisible({ timeout: 30_000 });
    expect(popup.isClosed()).toBe(true);
    expect(liar.calls).toEqual([]);
  } finally {
    await liar.close();
  }
});
