import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { answerGrantQuestion, grantQuestion } from './grant-question.ts';
import { addMcpServer, callToolFromConsole, viewFrame } from './mcp-servers.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';

/**
 * Network the user grants an MCP App view, in the built host: a test server whose view declares it needs to connect
 * to A (a recording server on 127.0.0.1) and to load resources from A and a CDN — and also `'self'`, which no view
 * gets. Adding it asks the user what to grant, and nothing is granted until they allow it: after "Not now" (or Escape)
 * the view's request and its image never reach A. "Allow" in that question, or "Allow these connections" in the app
 * center later, lets the next view reach A (its fetch, and its image: never a script), and only A; "Stop allowing"
 * takes it back. Each change is in the app's audit log.
 */

// The SDK's client asks the test server for a stream it does not offer (405, logged by the browser).
test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)|Content Security Policy|Failed to fetch/ });

let server: TestMcpServer;
let recorder: Server;
let requests: string[];
let origin: string;
/** What the center says of the view's `'self'`, which no view gets. */
const NEVER_SELF = "It declares it needs network access to 'self', which LineUp never gives a view.";
/** What the view's resource declares (`_meta.ui.csp`), read by the server at each request: a test may add to it. */
let csp: { connectDomains: string[]; resourceDomains: string[] };

/** The view: shows an image from A, asks A once it loads, and writes what came back (or that it was refused). */
const view = (a: string) =>
  `<!doctype html><html><body><main>Network view</main><script type="module">
const image = new Image();
image.src = ${JSON.stringify(`${a}/image`)};
document.body.append(image);
fetch(${JSON.stringify(`${a}/hello`)}).then((answer) => answer.text()).then(
  (text) => { document.body.dataset.outcome = 'reached: ' + text; },
  () => { document.body.dataset.outcome = 'refused'; },
);
</script></body></html>`;

test.beforeEach(async () => {
  requests = [];
  recorder = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    response.end('hello from A');
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  const uri = 'ui://network/view.html';
  csp = { connectDomains: [origin, "'self'"], resourceDomains: [origin, 'https://cdn.example.com'] };
  server = await startTestMcpServer({
    name: 'Network',
    tools: [{ name: 'show', view: uri, run: () => ({ content: [{ type: 'text', text: 'shown' }] }) }],
    views: { [uri]: view(origin) },
    viewMeta: { [uri]: { ui: { csp } } },
  });
});
test.afterEach(async () => {
  await server.close();
  recorder.closeAllConnections();
  await new Promise((resolve) => recorder.close(resolve));
});

/** Calls the tool from the console and waits for its view to say what its request got. */
async function viewOutcome(page: Page, consent: 'allow' | 'remember' | 'none'): Promise<string | null> {
  const call = await callToolFromConsole(page, 'network.show', {}, consent);
  await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  const body = viewFrame(page).locator('body');
  await expect(body).toHaveAttribute('data-outcome', /.+/, { timeout: 30_000 });
  const outcome = await body.getAttribute('data-outcome');
  await page
    .getByRole('button', { name: /^Close the view of Network/ })
    .last()
    .click();
  return outcome;
}

test('a view reaches the origin it declared only once the user allows it, and no longer after', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  const center = await addMcpServer(page, server.url, /^Installed /, 'leave');
  // Adding it asks: what the view would reach, and what it can never get ('self') said apart.
  const question = grantQuestion(page);
  await expect(question).toContainText('Network asks for access');
  await expect(question.getByRole('listitem')).toHaveText([
    `The view ui://network/view.html asks to connect to ${origin} and to load images, styles, fonts and media from ${origin}, https://cdn.example.com. ${NEVER_SELF}`,
  ]);
  await expect(question).toContainText('Nothing it loads from another origin ever runs as a script.');
  await answerGrantQuestion(page, 'not now');
  const views = center.getByRole('list', { name: 'Network Views' });
  // Nothing is granted by "Not now": the center says what it asks for, and what it never gets.
  await expect(views).toContainText(
    `It asks to connect to ${origin} and to load images, styles, fonts and media from ${origin}, https://cdn.example.com. Not allowed: it runs with no network.`,
  );
  await expect(views).toContainText("network access to 'self'");
  expect(await viewOutcome(page, 'remember')).toBe('refused');
  expect(requests).toEqual([]);

  await views
    .getByRole('button', {
      name: `Allow these connections: ui://network/view.html to ${origin}, https://cdn.example.com`,
    })
    .click();
  await expect(views).toContainText(
    `Allowed to connect to ${origin} and to load images, styles, fonts and media from ${origin}, https://cdn.example.com, and to nothing else (never scripts).`,
  );
  await views.screenshot({ path: 'test-results/mcp-view-network-granted-en.png' });
  expect(await axeViolations(page)).toEqual([]);
  expect(await viewOutcome(page, 'none')).toBe('reached: hello from A');
  await expect.poll(() => [...requests].sort()).toEqual(['GET /hello', 'GET /image']);

  await views.getByRole('button', { name: 'Stop allowing' }).click();
  await expect(views).toContainText(`It asks to connect to ${origin} and to load`);
  expect(await viewOutcome(page, 'none')).toBe('refused');
  expect([...requests].sort()).toEqual(['GET /hello', 'GET /image']);

  // Both changes are in the app's audit log.
  const app = center.getByRole('listitem', { name: 'Network' });
  await app.locator('.host__app-audit summary').click();
  const audit = app.getByRole('list', { name: 'Network audit log' });
  await expect(audit).toContainText(`view ui://network/view.html may connect to ${origin}`);
  await expect(audit).toContainText('view ui://network/view.html may connect to nothing');
});

test('"Allow" in the question asked at add: the first view reaches A, and only A; Escape grants nothing', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    'Agent: connected (demo agent)',
  );
  const center = await addMcpServer(page, server.url, /^Installed /, 'allow');
  const views = center.getByRole('list', { name: 'Network Views' });
  await expect(views).toContainText(`Allowed to connect to ${origin} and to load images`);
  expect(await viewOutcome(page, 'remember')).toBe('reached: hello from A');
  await expect.poll(() => [...requests].sort()).toEqual(['GET /hello', 'GET /image']);
  const app = center.getByRole('listitem', { name: 'Network' });
  await app.locator('.host__app-audit summary').click();
  await expect(app.getByRole('list', { name: 'Network audit log' })).toContainText(
    `view ui://network/view.html may connect to ${origin}`,
  );

  // Refreshed declaring one more origin: it gets nothing more; the refresh asks again, and the center offers the rest.
  csp.connectDomains.push('https://api.example.com');
  await app.getByRole('button', { name: 'Refresh Network' }).click();
  await expect(grantQuestion(page).getByRole('listitem')).toHaveText([
    `The view ui://network/view.html asks to connect to ${origin}, https://api.example.com and to load images, styles, fonts and media from ${origin}, https://cdn.example.com. ${NEVER_SELF}`,
  ]);
  await answerGrantQuestion(page, 'not now');
  await expect(views).toContainText(`Allowed to connect to ${origin} and to load images`);
  await expect(views).toContainText(
    'Since then it also asks to connect to https://api.example.com: not allowed.',
  );
  await views
    .getByRole('button', {
      name: 'Allow these connections: ui://network/view.html to https://api.example.com',
    })
    .click();
  await expect(views).toContainText(
    `Allowed to connect to ${origin}, https://api.example.com and to load images, styles, fonts and media from ${origin}, https://cdn.example.com, and to nothing else (never scripts).`,
  );
  await expect(views).not.toContainText('Since then');

  // Removed (its grants and allowances with it) and added again: Escape is "Not now", and the view reaches nothing.
  requests.length = 0;
  await app.getByRole('button', { name: 'Uninstall Network' }).click();
  await app.getByRole('button', { name: 'Yes, uninstall Network' }).click();
  await expect(center.getByRole('listitem', { name: 'Network' })).toHaveCount(0);
  await addMcpServer(page, server.url, /^Installed /, 'leave');
  await answerGrantQuestion(page, 'escape');
  await expect(views).toContainText(`It asks to connect to ${origin}, https://api.example.com and to load`);
  expect(await viewOutcome(page, 'allow')).toBe('refused');
  expect(requests).toEqual([]);
});

/** Axe on the app center's part of a view, as WCAG 2.1 AA asks. */
async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .include('.host__view-network')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

/** Axe on the grant question, as WCAG 2.1 AA asks. */
async function axeQuestion(page: Page) {
  const results = await new AxeBuilder({ page })
    .include('.host__grant-question')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

for (const [language, scheme] of [
  ['en', 'light'],
  ['en', 'dark'],
  ['zh', 'light'],
  ['zh', 'dark'],
] as const)
  test.describe(`in ${language === 'zh' ? 'Chinese' : 'English'}, ${scheme}`, () => {
    test.use({ locale: language === 'zh' ? 'zh-CN' : 'en-US', colorScheme: scheme });
    test('the app center asks, and says what it allowed', async ({ page }) => {
      const zh = language === 'zh';
      await page.goto('/');
      const center = page.locator('aside.host__apps');
      await center
        .getByLabel(zh ? 'MCP 服务器 URL（Streamable HTTP）' : 'MCP server URL (Streamable HTTP)')
        .fill(server.url);
      await center.getByRole('button', { name: zh ? '添加服务器' : 'Add server' }).click();
      // Adding it asks first: the question, looked at and checked with axe, then "Not now".
      const question = grantQuestion(page);
      await expect(question).toContainText(zh ? 'Network 请求访问权限' : 'Network asks for access', {
        timeout: 30_000,
      });
      await expect(question.getByRole('listitem')).toHaveText([
        zh
          ? `视图 ui://network/view.html 请求连接 ${origin}，并从 ${origin}、https://cdn.example.com 加载图片、样式、字体和媒体。 它声明需要访问网络（'self'）；LineUp 从不给视图这些。`
          : `The view ui://network/view.html asks to connect to ${origin} and to load images, styles, fonts and media from ${origin}, https://cdn.example.com. ${NEVER_SELF}`,
      ]);
      await expect(question.getByRole('button', { name: zh ? '暂不' : 'Not now' })).toBeFocused();
      await page.screenshot({ path: `test-results/grant-question-view-${language}-${scheme}.png` });
      expect(await axeQuestion(page)).toEqual([]);
      await answerGrantQuestion(page, 'not now');
      const views = center.getByRole('list', { name: zh ? 'Network 视图' : 'Network Views' });
      await expect(views).toContainText(zh ? `它请求连接 ${origin}` : `It asks to connect to ${origin}`, {
        timeout: 30_000,
      });
      await views.screenshot({ path: `test-results/mcp-view-network-asked-${language}-${scheme}.png` });
      expect(await axeViolations(page)).toEqual([]);
      await views
        .getByRole('button', {
          name: zh
            ? `允许这些连接：ui://network/view.html 连接 ${origin}、https://cdn.example.com`
            : `Allow these connections: ui://network/view.html to ${origin}, https://cdn.example.com`,
        })
        .click();
      await expect(views).toContainText(
        zh
          ? `已允许连接 ${origin}，并从 ${origin}、https://cdn.example.com 加载图片、样式、字体和媒体，且仅限这些（从不加载脚本）。`
          : `Allowed to connect to ${origin} and to load images, styles, fonts and media from ${origin}, https://cdn.example.com, and to nothing else (never scripts).`,
      );
      await views.screenshot({ path: `test-results/mcp-view-network-granted-${language}-${scheme}.png` });
      expect(await axeViolations(page)).toEqual([]);
    });
  });
