import { expect, test } from './fixtures.ts';
import { addMcpServer, callToolFromConsole } from './mcp-servers.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';

/**
 * A stateful MCP server (session ids, as the SDK's stateful transport keeps them) that restarts between two calls
 * forgets the page's session and answers its next request 404: the call did not run there, so the page opens a new
 * session and sends it once more — the user sees it complete, and the server ran it once. A server that refuses the
 * call outright is reported as such: it did not run, and the agent is told why.
 */

// The browser logs the 404 of the forgotten session, and the 405 of the standing stream the server does not offer.
test.use({ allowedConsoleErrors: /404 \(Not Found\)|405 \(Method Not Allowed\)/ });

let server: TestMcpServer;
test.beforeEach(async () => {
  server = await startTestMcpServer({
    name: 'Counter',
    stateful: true,
    tools: [
      {
        name: 'count',
        annotations: { readOnlyHint: true },
        run: () => ({ content: [{ type: 'text', text: 'counted' }] }),
      },
    ],
  });
});
test.afterEach(async () => {
  await server.close();
});

test('a server that restarted between two calls: the second still completes, and runs once', async ({
  page,
}) => {
  await page.goto('/');
  await addMcpServer(page, server.url, /^Installed Counter/);

  const first = await callToolFromConsole(page, 'counter.count');
  await expect(first.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  expect(server.calls).toEqual(['count']);

  server.restart();
  const second = await callToolFromConsole(page, 'counter.count');
  await expect(second.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  await expect(second.locator('.host__console-result')).toContainText('counted');
  expect(server.calls).toEqual(['count', 'count']);
  // It did answer the old session 404: the page opened a new one and sent the call again.
  expect(server.statuses).toContain(404);
});
