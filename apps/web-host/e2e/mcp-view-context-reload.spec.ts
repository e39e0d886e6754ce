import { expect, test } from './fixtures.ts';
import { addMcpServer, callToolFromConsole, viewFrame } from './mcp-servers.ts';
import { sentUserTurns } from './runtime-db.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';
import { VIEW_RPC } from './view-rpc.ts';

/**
 * What a view told the agent about itself (`ui/update-model-context`) and the user has not sent yet is kept with the
 * conversation: a reload loses none of it, the next turn carries it once, and a reload after that turn does not
 * bring it back.
 */

// The SDK's client asks the test server for a stream it does not offer (405); the browser logs it.
test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)/ });

const VIEW = `<!doctype html><html><body><p id="answer">none</p>
<button id="say" type="button">Say</button><button id="say-more" type="button">Say more</button>
<script type="module">
${VIEW_RPC}
await rpc('ui/initialize', { appInfo: { name: 'context', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
const say = async (params) => {
  const answer = await rpc('ui/update-model-context', params);
  document.getElementById('answer').textContent = answer.error ? 'refused: ' + answer.error.message : 'kept';
};
document.getElementById('say').addEventListener('click', () => say({ content: [{ type: 'text', text: 'the user picked Café A' }], structuredContent: { selected: 'cafe-a' } }));
document.getElementById('say-more').addEventListener('click', () => say({ content: [{ type: 'text', text: 'and then Café B' }] }));
</script></body></html>`;

let server: TestMcpServer;
test.beforeEach(async () => {
  server = await startTestMcpServer({
    name: 'Picker',
    tools: [
      {
        name: 'pick',
        view: 'ui://picker/view.html',
        run: () => ({ content: [{ type: 'text', text: 'cafés' }] }),
      },
    ],
    views: { 'ui://picker/view.html': VIEW },
  });
});
test.afterEach(async () => {
  await server.close();
});

for (const language of ['en', 'zh'] as const)
  test(`what a view said survives a reload, goes with the next turn once, and not again after another (${language})`, async ({
    page,
  }) => {
    const zh = language === 'zh';
    await page.goto('/');
    await addMcpServer(page, server.url);
    const call = await callToolFromConsole(page, 'picker.pick');
    await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    const callId = ((await call.textContent()) ?? '').match(/call_console_[0-9a-f-]+/)?.[0];
    expect(callId).toBeDefined();
    const view = viewFrame(page);
    await view.locator('#say').click();
    await expect(view.locator('#answer')).toHaveText('kept');
    const note = page.locator('#chat-view-context');
    await expect(note).toHaveText('Sent with your next message: what the view of Picker says about itself.');

    // A reload: the note still says it, in the language the host shows.
    await page.reload();
    if (zh) await page.getByRole('button', { name: '中文' }).click();
    await expect(note).toHaveText(
      zh
        ? '随你的下一条消息发送：Picker 的视图对自身的说明。'
        : 'Sent with your next message: what the view of Picker says about itself.',
      { timeout: 30_000 },
    );
    await page.locator('.host__composer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/mcp-view-context-reload-${language}.png` });

    // The view reopened after the reload may still say more: its latest replaces what was kept.
    await expect(view.locator('#answer')).toHaveText('none', { timeout: 30_000 });
    await view.locator('#say-more').click();
    await expect(view.locator('#answer')).toHaveText('kept');

    const box = page.getByLabel(zh ? '发给智能体的消息' : 'Message to the agent');
    await box.fill('which one?');
    await box.press('Enter');
    await expect.poll(async () => (await sentUserTurns(page)).length).toBe(1);
    expect((await sentUserTurns(page))[0]).toEqual({
      text: 'which one?',
      view_context: [{ call_id: callId, tool: 'picker.pick', text: 'and then Café B' }],
    });
    await expect(note).toHaveCount(0);

    // Another reload: what was sent does not come back; the next turn carries nothing.
    await page.reload();
    await expect(page.locator('.host__composer')).toBeVisible({ timeout: 30_000 });
    await expect(viewFrame(page).locator('#answer')).toHaveText('none', { timeout: 30_000 });
    await expect(note).toHaveCount(0);
    const again = page.getByLabel(zh ? '发给智能体的消息' : 'Message to the agent');
    await again.fill('thanks');
    await again.press('Enter');
    await expect.poll(async () => (await sentUserTurns(page)).length).toBe(2);
    expect((await sentUserTurns(page))[1]).toEqual({ text: 'thanks' });
  });

test('a reload keeps what the view said as it was, when it says nothing more', async ({ page }) => {
  await page.goto('/');
  await addMcpServer(page, server.url);
  const call = await callToolFromConsole(page, 'picker.pick');
  await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
  await viewFrame(page).locator('#say').click();
  await expect(viewFrame(page).locator('#answer')).toHaveText('kept');
  await page.reload();
  await expect(page.locator('#chat-view-context')).toBeVisible({ timeout: 30_000 });
  const box = page.getByLabel('Message to the agent');
  await box.fill('go on');
  await box.press('Enter');
  await expect.poll(async () => (await sentUserTurns(page)).length).toBe(1);
  expect((await sentUserTurns(page))[0]).toMatchObject({
    view_context: [{ tool: 'picker.pick', text: 'the user picked Café A', data: { selected: 'cafe-a' } }],
  });
});
