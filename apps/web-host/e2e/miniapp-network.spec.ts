import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createMiniApp } from '@lineup/create-miniapp';
import type { Page } from '@playwright/test';
import { callFromConsole, serveDevApp } from './dev-app.ts';
import { expect, test } from './fixtures.ts';

/**
 * A MiniApp whose page needs a server, in the built host: the app `npm create @lineup/miniapp` writes, declaring
 * origin A in `app.connectDomains`, its page fetching A and B (two servers on 127.0.0.1, told apart by their ports,
 * as two domains are). The page runs contained like a Surface: until the user allows A in the app center it reaches
 * neither; allowed, the page open is built again and reaches A and still not B; "Stop allowing" takes A away again.
 * Every change is audited. The grant screen is checked in English and Chinese, light and dark, with axe.
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

const panel = (page: Page) => page.getByRole('complementary', { name: /^(MiniApps|小程序)$/ });

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
    const app = createMiniApp({ directory: testInfo.outputPath('net-notes'), appScope: 'net_notes' });
    const config = join(app.directory, 'vite.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace(
        "version: '0.1.0' }",
        `version: '0.1.0', connectDomains: [${JSON.stringify(a.origin)}] }`,
      ),
    );
    const main = join(app.directory, 'src', 'main.ts');
    await writeFile(main, `${await readFile(main, 'utf8')}\n${PAGE_PROBE(a.origin, b.origin)}`);
    const server = await serveDevApp(app.directory);
    try {
      await page.goto(`/?dev=${encodeURIComponent(server.bundle)}`);
      const installed = panel(page).getByRole('listitem', { name: 'Net Notes', exact: true });
      await expect(installed).toContainText(/Verified bundle/, { timeout: 60_000 });
      // Declared, shown, not granted.
      await expect(installed).toContainText(
        `Its page asks to connect to ${a.origin}. Not allowed: it runs with no network.`,
      );
      const region = page.getByRole('region', { name: 'Agent console' });
      await region.getByRole('button', { name: 'Show' }).click();
      await region.getByLabel('Agent Tool', { exact: true }).selectOption('net_notes.add');
      await callFromConsole(page, 'net_notes.add', { text: 'one' });
      const frame = page.frameLocator('iframe[title="Net Notes"]').frameLocator('iframe');
      await expect(frame.locator('#network')).toHaveText(
        'fetch A: refused: TypeError; fetch B: refused: TypeError',
      );

      // Allowed: the page open is built again with A in its policy, and reaches A only.
      await installed
        .getByRole('button', { name: `Allow these connections: Net Notes to ${a.origin}` })
        .click();
      await expect(installed).toContainText(`Allowed to connect to ${a.origin}, and to nothing else.`);
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
