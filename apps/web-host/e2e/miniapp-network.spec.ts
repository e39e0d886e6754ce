import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createMiniApp } from '@lineup/create-miniapp';
import type { Page } from '@playwright/test';
import { callFromConsole, serveDevApp } from './dev-app.ts';
import { expect, test } from './fixtures.ts';
import { answerGrantQuestion, grantQuestion } from './grant-question.ts';

/**
 * A MiniApp whose page needs a server, in the built host: the app `npm create @lineup/miniapp` writes, declaring
 * origin A in `app.connectDomains`, its page fetching A and B (two servers on 127.0.0.1, told apart by their ports,
 * as two domains are). Installing it asks the user whether its page may connect to A; after "Not now" the page runs
 * contained like a Surface and reaches neither; allowed in the app center, the page open is built again and reaches A
 * and still not B; "Stop allowing" takes A away again. Every change is audited. The question and the app center's
 * grant are checked in English and Chinese, light and dark, with axe; "Allow" in the question grants what it showed.
 */

/** An HTTP server that answers anything with CORS (the page's origin is opaque) and counts what it was asked. */
async function countingServer(): Promise<{ origin: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    response.end('hello from A');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, asked, server };
}

/** What the page writes after it tried A and B: `fetch A: …; fetch B: …`. */
const PAGE_PROBE = (a: string, b: string) => `
const probe = document.createElement('p');
probe.id = 'network';
document.body.append(probe);
const attempt = (url) => fetch(url).then((answer) => answer.text(), (error) => 'refused: ' + error.name);
Promise.all([attempt(${JSON.stringify(`${a}/hello`)}), attempt(${JSON.stringify(`${b}/hello`)})]).then(([fromA, fromB]) => {
  probe.textContent = 'fetch A: ' + fromA + '; fetch B: ' + fromB;
});
`;

/** Net Notes, written by `npm create @lineup/miniapp`, declaring `a` and probing `a` and `b`: its dev server. */
async function probingApp(directory: string, a: string, b: string) {
  const app = createMiniApp({ directory, appScope: 'net_notes' });
  const config = join(app.directory, 'vite.config.ts');
  await writeFile(
    config,
    (await readFile(config, 'utf8')).replace(
      "version: '0.1.0' }",
      `version: '0.1.0', connectDomains: [${JSON.stringify(a)}] }`,
    ),
  );
  const main = join(app.directory, 'src', 'main.ts');
  await writeFile(main, `${await readFile(main, 'utf8')}\n${PAGE_PROBE(a, b)}`);
  return serveDevApp(app.directory);
}

/** Opens Net Notes' page by calling its tool from the agent console; returns the page's own frame. */
async function openPage(page: Page) {
  const region = page.getByRole('region', { name: 'Agent console' });
  await region.getByRole('button', { name: 'Show' }).click();
  await region.getByLabel('Agent Tool', { exact: true }).selectOption('net_notes.add');
  await callFromConsole(page, 'net_notes.add', { text: 'one' });
  return page.frameLocator('iframe[title="Net Notes"]').frameLocator('iframe');
}

const panel = (page: Page) => page.getByRole('complementary', { name: /^(MiniApps|小程序)$/ });

async function axeQuestion(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .include('.host__grant-question')
    .analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.html ?? ''}`);
}

async function axeAppItem(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .include('.host__apps')
    .analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.html ?? ''}`);
}

test.describe('the page', () => {
  // The page's refused fetches are what the test makes it try: Chromium logs each as a CSP violation.
  test.use({
    allowedConsoleErrors:
      /(violates the following Content Security Policy directive: "connect-src|Refused to connect because it violates the document's Content Security Policy)/,
  });

  test('a MiniApp page reaches the origin the user allowed, and nothing else; nothing before, nothing after', async ({
    page,
  }, testInfo) => {
    test.setTimeout(150_000);
    const a = await countingServer();
    const b = await countingServer();
    const server = await probingApp(testInfo.outputPath('net-notes'), a.origin, b.origin);
    try {
      await page.goto(`/?dev=${encodeURIComponent(server.bundle)}`);
      const installed = panel(page).getByRole('listitem', { name: 'Net Notes', exact: true });
      await expect(installed).toContainText(/Verified bundle/, { timeout: 60_000 });
      // The install asks; "Not now" grants nothing.
      await expect(grantQuestion(page).getByRole('listitem')).toHaveText([
        `Its page asks to connect to ${a.origin}.`,
      ]);
      await answerGrantQuestion(page, 'not now');
      // Declared, shown, not granted.
      await expect(installed).toContainText(
        `Its page asks to connect to ${a.origin}. Not allowed: it runs with no network.`,
      );
      const frame = await openPage(page);
      await expect(frame.locator('#network')).toHaveText(
        'fetch A: refused: TypeError; fetch B: refused: TypeError',
      );

      // Allowed: the page open is built again with A in its policy, and reaches A only.
      await installed
        .getByRole('button', { name: `Allow these connections: Net Notes to ${a.origin}` })
        .click();
      // The grant is written, then the host follows (the agent gets the inventory, the open page is rebuilt) before
      // the center reads it again: a fifth of a second here, longer on a loaded machine.
      await expect(installed).toContainText(`Allowed to connect to ${a.origin}, and to nothing else.`, {
        timeout: 15_000,
      });
      await expect(frame.locator('#network')).toHaveText(
        'fetch A: hello from A; fetch B: refused: TypeError',
      );
      expect(a.asked).toEqual(['GET /hello']);
      expect(b.asked).toEqual([]);
      await expect(page.locator('iframe[title="Net Notes"]')).toHaveAttribute(
        'csp',
        new RegExp(`connect-src ${a.origin.replace(/[.]/g, '\\.')};`),
      );
      await installed.screenshot({ path: 'test-results/miniapp-network-granted-en.png' });

      // Taken back: the page is built again with no network.
      await installed.getByRole('button', { name: 'Stop allowing' }).click();
      await expect(installed).toContainText(`Its page asks to connect to ${a.origin}.`);
      await expect(frame.locator('#network')).toHaveText(
        'fetch A: refused: TypeError; fetch B: refused: TypeError',
      );
      expect(a.asked).toEqual(['GET /hello']);
      expect(b.asked).toEqual([]);
      await installed.getByText(/^Audit log/).click();
      const audit = installed.getByRole('list', { name: 'Net Notes audit log' });
      await expect(audit).toContainText(`page may connect to ${a.origin}`);
      await expect(audit).toContainText('page may connect to nothing');
    } finally {
      await server.close();
      a.server.close();
      b.server.close();
    }
  });
});

test.describe('allowed when asked', () => {
  test.use({
    allowedConsoleErrors:
      /(violates the following Content Security Policy directive: "connect-src|Refused to connect because it violates the document's Content Security Policy)/,
  });

  test('"Allow" in the question asked at install: the page reaches A at once, and not B', async ({
    page,
  }, testInfo) => {
    test.setTimeout(150_000);
    const a = await countingServer();
    const b = await countingServer();
    const server = await probingApp(testInfo.outputPath('net-notes'), a.origin, b.origin);
    try {
      await page.goto(`/?dev=${encodeURIComponent(server.bundle)}`);
      const installed = panel(page).getByRole('listitem', { name: 'Net Notes', exact: true });
      await expect(installed).toContainText(/Verified bundle/, { timeout: 60_000 });
      await answerGrantQuestion(page, 'allow');
      await expect(installed).toContainText(`Allowed to connect to ${a.origin}, and to nothing else.`);
      const frame = await openPage(page);
      await expect(frame.locator('#network')).toHaveText(
        'fetch A: hello from A; fetch B: refused: TypeError',
      );
      expect(a.asked).toEqual(['GET /hello']);
      expect(b.asked).toEqual([]);
      await installed.getByText(/^Audit log/).click();
      await expect(installed.getByRole('list', { name: 'Net Notes audit log' })).toContainText(
        `page may connect to ${a.origin}`,
      );
    } finally {
      await server.close();
      a.server.close();
      b.server.close();
    }
  });
});

for (const [locale, scheme] of [
  ['en-US', 'light'],
  ['en-US', 'dark'],
  ['zh-CN', 'light'],
  ['zh-CN', 'dark'],
] as const)
  test.describe(`the grant in the app center, ${locale}, ${scheme}`, () => {
    test.use({ locale, colorScheme: scheme });
    test('is shown, accessible and operable', async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      const app = createMiniApp({ directory: testInfo.outputPath('net-notes'), appScope: 'net_notes' });
      const config = join(app.directory, 'vite.config.ts');
      await writeFile(
        config,
        (await readFile(config, 'utf8')).replace(
          "version: '0.1.0' }",
          "version: '0.1.0', connectDomains: ['https://api.example.com', 'wss://live.example.com'] }",
        ),
      );
      const server = await serveDevApp(app.directory);
      try {
        await page.goto(`/?dev=${encodeURIComponent(server.bundle)}`);
        const installed = panel(page).getByRole('listitem', { name: 'Net Notes', exact: true });
        await expect(installed).toContainText(/Verified bundle|已验证的包/, { timeout: 60_000 });
        const zh = locale === 'zh-CN';
        // The install asks: looked at, checked with axe, answered "Not now" (the focus starts there).
        const question = grantQuestion(page);
        await expect(question).toContainText(zh ? 'Net Notes 请求访问权限' : 'Net Notes asks for access');
        await expect(question.getByRole('listitem')).toHaveText([
          zh
            ? '它的页面请求连接 https://api.example.com、wss://live.example.com。'
            : 'Its page asks to connect to https://api.example.com, wss://live.example.com.',
        ]);
        await expect(question.getByRole('button', { name: zh ? '暂不' : 'Not now' })).toBeFocused();
        await page.screenshot({ path: `test-results/grant-question-page-${locale}-${scheme}.png` });
        expect(await axeQuestion(page)).toEqual([]);
        await answerGrantQuestion(page, 'not now');
        await expect(installed).toContainText(
          zh
            ? '它的页面请求连接 https://api.example.com、wss://live.example.com。'
            : 'Its page asks to connect to https://api.example.com, wss://live.example.com.',
        );
        expect(await axeAppItem(page)).toEqual([]);
        await installed.screenshot({ path: `test-results/miniapp-network-asked-${locale}-${scheme}.png` });
        await installed
          .getByRole('button', { name: zh ? /^允许这些连接/ : /^Allow these connections/ })
          .click();
        await expect(installed).toContainText(
          zh
            ? '已允许连接 https://api.example.com、wss://live.example.com，且仅限这些。'
            : 'Allowed to connect to https://api.example.com, wss://live.example.com, and to nothing else.',
        );
        expect(await axeAppItem(page)).toEqual([]);
        await installed.screenshot({ path: `test-results/miniapp-network-allowed-${locale}-${scheme}.png` });
      } finally {
        await server.close();
      }
    });
  });
