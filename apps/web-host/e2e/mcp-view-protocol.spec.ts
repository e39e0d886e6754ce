import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { addMcpServer, callToolFromConsole, viewFrame } from './mcp-servers.ts';
import { readStore, sentUserTurns } from './runtime-db.ts';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server.ts';
import { VIEW_RPC } from './view-rpc.ts';

/**
 * The parts of the MCP Apps view protocol beyond a tool's call and result, through the built host against a view of
 * the test's own that speaks the protocol by hand (JSON-RPC over `postMessage`, as the ext-apps SDK does): the host
 * context a view is given (`ui/initialize`), what a view logs (`notifications/message`: shown in the agent console,
 * bounded, never sent to the agent), and a view asking to be closed (`ui/notifications/request-teardown`).
 */

// The SDK's client asks the test server for a stream it does not offer (405, logged by the browser).
test.use({ allowedConsoleErrors: /405 \(Method Not Allowed\)/ });

/** A marker every log line carries: found in the console, never in a message to or from the agent. */
const MARK = 'view-log-marker-7c1e';

const PROTOCOL_VIEW = `<!doctype html><html><body><pre id="out">running</pre>
<button id="close" type="button">Close me</button>
<button id="save" type="button">Save report</button><button id="save-image" type="button">Save image</button>
<pre id="saved">none</pre><script type="module">
${VIEW_RPC}
const init = await rpc('ui/initialize', { appInfo: { name: 'protocol', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
const context = init.result.hostContext;
send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'protocol-view', data: '${MARK} drawn' } });
send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { mark: '${MARK}', filler: 'x'.repeat(2100) } } });
document.getElementById('out').textContent = JSON.stringify({
  userAgent: context.userAgent,
  platform: context.platform,
  deviceCapabilities: context.deviceCapabilities,
  safeAreaInsets: context.safeAreaInsets,
  timeZone: context.timeZone,
  locale: context.locale,
  displayMode: context.displayMode,
  containerDimensions: context.containerDimensions,
  tool: context.toolInfo && context.toolInfo.tool.name,
});
const save = async (resource) => {
  const answer = await rpc('ui/download-file', { contents: [{ type: 'resource', resource }] });
  document.getElementById('saved').textContent = JSON.stringify(answer.error ? { error: answer.error.message } : answer.result);
};
document.getElementById('save').addEventListener('click', () =>
  save({ uri: 'file:///exports/report.csv', mimeType: 'text/csv', text: 'day,minutes\\nmon,50\\n' }));
document.getElementById('save-image').addEventListener('click', () =>
  save({ uri: 'file:///exports/chart.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' }));
document.getElementById('close').addEventListener('click', () => {
  send({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} });
});
</script></body></html>`;

let server: TestMcpServer;

test.beforeEach(async () => {
  server = await startTestMcpServer({
    name: 'Protocol',
    tools: [
      {
        name: 'show',
        view: 'ui://protocol/view.html',
        run: () => ({ content: [{ type: 'text', text: 'shown' }] }),
      },
    ],
    views: { 'ui://protocol/view.html': PROTOCOL_VIEW },
  });
});
test.afterEach(async () => {
  await server.close();
});

/** Every message to and from the agent the console's log holds, as text. */
async function agentMessages(page: Page): Promise<string> {
  return (await page.locator('.host__console-log:not(.host__console-view-log)').textContent()) ?? '';
}

for (const [language, scheme] of [
  ['en', 'light'],
  ['zh', 'dark'],
] as const)
  test.describe(`in ${language === 'zh' ? 'Chinese' : 'English'}, ${scheme}`, () => {
    test.use({
      locale: language === 'zh' ? 'zh-CN' : 'en-US',
      colorScheme: scheme,
      timezoneId: 'Asia/Shanghai',
    });

    test('a view gets the whole host context, logs to the console only, and closes when it asks', async ({
      page,
    }) => {
      const zh = language === 'zh';
      await page.goto('/');
      // The server is added and its tool called in English (the helpers read English labels); the console is then
      // read in the test's language.
      if (zh) await page.getByRole('button', { name: 'EN' }).click();
      await addMcpServer(page, server.url);
      const call = await callToolFromConsole(page, 'protocol.show');
      await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
      const view = viewFrame(page);
      await expect(view.locator('#out')).not.toHaveText('running', { timeout: 30_000 });
      const context = JSON.parse((await view.locator('#out').textContent()) ?? '{}');
      expect(context).toMatchObject({
        userAgent: 'LineUp Web Reference Host/0.0.0',
        platform: 'web',
        deviceCapabilities: { touch: false, hover: true },
        safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
        timeZone: 'Asia/Shanghai',
        locale: 'en-US',
        displayMode: 'inline',
        tool: 'show',
      });
      expect(context.containerDimensions.width).toBeGreaterThan(100);

      // What it logged: in the console's view log, bounded, and in no message to or from the agent.
      if (zh) await page.getByRole('button', { name: '中文' }).click();
      const viewLog = page.getByRole('log', { name: zh ? '视图日志' : 'What views logged' });
      // The view shown logged two lines; the one prepared for the tool's next call (a running document too) may
      // have logged its two since.
      await expect(viewLog.getByRole('listitem').nth(1)).toBeVisible();
      await expect(viewLog.getByRole('listitem').first()).toContainText(`warning`);
      await expect(viewLog.getByRole('listitem').first()).toContainText(
        `Protocol: show · protocol-view ${MARK} drawn`,
      );
      await expect(viewLog.getByRole('listitem').nth(1)).toContainText(
        zh ? /…（另有 \d+ 个字符）$/ : /… \(\d+ more characters\)$/,
      );
      expect(await agentMessages(page)).toContain('tool.result');
      expect(await agentMessages(page)).not.toContain(MARK);
      await page.locator('.host__console-view-log').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/mcp-view-log-${language}-${scheme}.png` });
      const axe = await new AxeBuilder({ page })
        .include('.host__console-view-log')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

      // It offers a file: saved through artifact.save once the user allows it; a binary one is refused with why.
      await view.locator('#save').click();
      const question = page.getByRole('dialog', { name: /asks to use a capability$|请求使用一项能力$/ });
      await expect(question).toContainText('artifact.save');
      await expect(question).toContainText('report.csv');
      const downloaded = page.waitForEvent('download');
      await question.getByRole('button', { name: zh ? '允许' : 'Allow' }).click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe('report.csv');
      expect(await readFile((await download.path()) as string, 'utf8')).toBe('day,minutes\nmon,50\n');
      await expect(view.locator('#saved')).toHaveText('{}');
      await view.locator('#save-image').click();
      await expect(view.locator('#saved')).toContainText('This host saves text files only');
      await expect(question).toHaveCount(0);

      // It asks to be closed: the host closes it as its close button would.
      await expect(page.locator('.host__mcp-view')).toHaveCount(1);
      await view.locator('#close').click();
      await expect(page.locator('.host__mcp-view')).toHaveCount(0);
    });
  });

/** A marker of what the view keeps: found in its storage after a reload, never in a message to or from the agent. */
const STATE_MARK = 'view-state-marker-52b9';

/** A view that keeps a note in `localStorage` (as ext-apps' examples keep their state), and shows what it found. */
const STATE_VIEW = `<!doctype html><html><body><p id="found">loading</p><p id="opened"></p>
<label>Note <input id="note"></label><button id="keep" type="button">Keep</button><script type="module">
document.getElementById('found').textContent = localStorage.getItem('note') ?? 'nothing kept';
// Written as it starts: a view prepared ahead writes before it is shown, and that is kept for its call once it is.
localStorage.setItem('opened', String(Number(localStorage.getItem('opened') ?? 0) + 1));
document.getElementById('opened').textContent = 'opened ' + localStorage.getItem('opened');
document.getElementById('keep').addEventListener('click', () => {
  localStorage.setItem('note', document.getElementById('note').value);
  localStorage.setItem('kept-at', 'a click');
  document.getElementById('found').textContent = 'kept';
});
</script></body></html>`;

test("a view's state (its localStorage) is kept per call: it survives a reload, a new call starts empty, and the agent never sees it", async ({
  page,
}) => {
  const stateServer = await startTestMcpServer({
    name: 'Notes',
    tools: [
      {
        name: 'note',
        view: 'ui://notes/view.html',
        run: () => ({ content: [{ type: 'text', text: 'a note' }] }),
      },
    ],
    views: { 'ui://notes/view.html': STATE_VIEW },
  });
  try {
    await page.goto('/');
    await addMcpServer(page, stateServer.url);
    const call = await callToolFromConsole(page, 'notes.note');
    await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    let view = viewFrame(page);
    await expect(view.locator('#found')).toHaveText('nothing kept', { timeout: 30_000 });
    // No prefersBorder: the host's card border.
    await expect(page.locator('.host__mcp-view')).not.toHaveClass(/host__mcp-view--borderless/);
    // A pointer down in the frame earns it focus (the containment's rule), then the user types.
    await view.locator('#note').click();
    await view.locator('#note').pressSequentially(`buy oat milk ${STATE_MARK}`);
    await view.locator('#keep').click();
    await expect(view.locator('#found')).toHaveText('kept');
    // Kept in the runtime's view states within the flush delay: wait until it is there, then reload.
    const viewStates = () =>
      readStore<{ viewKey: string; state: { storage: [string, string][] } }>(page, 'view_states');
    await expect.poll(async () => JSON.stringify(await viewStates())).toContain(STATE_MARK);

    await page.reload();
    view = viewFrame(page);
    await expect(view.locator('#found')).toHaveText(`buy oat milk ${STATE_MARK}`, { timeout: 30_000 });
    await expect(view.locator('#opened')).toHaveText('opened 2');

    // Another call of the same tool is another view state: it starts empty (a view prepared ahead, or a new one).
    const second = await callToolFromConsole(page, 'notes.note');
    await expect(second.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
    await expect(page.locator('.host__mcp-view')).toHaveCount(2);
    await expect(viewFrame(page).locator('#found')).toHaveText('nothing kept', { timeout: 30_000 });
    await expect(viewFrame(page).locator('#opened')).toHaveText('opened 1');
    // Each call's state on its own: the second view's (its write made before it was shown, if it was prepared).
    await expect
      .poll(async () =>
        (await viewStates()).map(({ state }) => Object.fromEntries(state.storage).opened).sort(),
      )
      .toEqual(['1', '2']);
    await expect(
      page
        .locator('.host__mcp-view iframe')
        .first()
        .contentFrame()
        .locator('iframe')
        .contentFrame()
        .locator('#found'),
    ).toHaveText(`buy oat milk ${STATE_MARK}`);
    expect(await agentMessages(page)).toContain('tool.result');
    expect(await agentMessages(page)).not.toContain(STATE_MARK);
  } finally {
    await stateServer.close();
  }
});

/** A view that tells the agent about itself (`ui/update-model-context`), by its buttons. */
const CONTEXT_VIEW = `<!doctype html><html><body><p id="answer">none</p>
<button id="first" type="button">Say first</button><button id="second" type="button">Say second</button>
<button id="image" type="button">Say an image</button><button id="nothing" type="button">Say nothing</button>
<script type="module">
${VIEW_RPC}
await rpc('ui/initialize', { appInfo: { name: 'context', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
const say = async (params) => {
  const answer = await rpc('ui/update-model-context', params);
  document.getElementById('answer').textContent = answer.error ? 'refused: ' + answer.error.message : 'kept';
};
document.getElementById('first').addEventListener('click', () => say({ content: [{ type: 'text', text: 'first: the user picked nothing' }] }));
document.getElementById('second').addEventListener('click', () => say({ content: [{ type: 'text', text: 'second: the user picked Café A' }], structuredContent: { selected: 'cafe-a' } }));
document.getElementById('image').addEventListener('click', () => say({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }));
document.getElementById('nothing').addEventListener('click', () => say({ content: [] }));
</script></body></html>`;

for (const [language, scheme] of [
  ['en', 'light'],
  ['zh', 'dark'],
] as const)
  test.describe(`a view's model context, in ${language === 'zh' ? 'Chinese' : 'English'}, ${scheme}`, () => {
    test.use({ locale: language === 'zh' ? 'zh-CN' : 'en-US', colorScheme: scheme });

    test("reaches the agent with the user's next turn, the latest only, once; an image is refused with why", async ({
      page,
    }) => {
      const zh = language === 'zh';
      const contextServer = await startTestMcpServer({
        name: 'Picker',
        tools: [
          {
            name: 'pick',
            view: 'ui://picker/view.html',
            run: () => ({ content: [{ type: 'text', text: 'three cafés' }] }),
          },
        ],
        views: { 'ui://picker/view.html': CONTEXT_VIEW },
        // It draws its own edges: the host shows it without the card border (its bar stays).
        viewMeta: { 'ui://picker/view.html': { ui: { prefersBorder: false } } },
      });
      try {
        await page.goto('/');
        if (zh) await page.getByRole('button', { name: 'EN' }).click();
        await addMcpServer(page, contextServer.url);
        const call = await callToolFromConsole(page, 'picker.pick');
        await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
        const callId = ((await call.textContent()) ?? '').match(/call_console_[0-9a-f-]+/)?.[0];
        const view = viewFrame(page);
        const card = page.locator('.host__mcp-view');
        await expect(card).toHaveClass(/host__mcp-view--borderless/);
        expect(await card.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe(
          'rgba(0, 0, 0, 0)',
        );
        await expect(card.locator(':scope > .host__surface-bar')).toBeVisible();
        await view.locator('#first').click();
        await expect(view.locator('#answer')).toHaveText('kept');
        await view.locator('#second').click();
        await expect(view.locator('#answer')).toHaveText('kept');
        await view.locator('#image').click();
        await expect(view.locator('#answer')).toContainText('refused: ');
        await expect(view.locator('#answer')).toContainText('not "image" content');
        if (zh) await page.getByRole('button', { name: '中文' }).click();
        const note = page.locator('#chat-view-context');
        await expect(note).toHaveText(
          zh
            ? '随你的下一条消息发送：Picker 的视图对自身的说明。'
            : 'Sent with your next message: what the view of Picker says about itself.',
        );
        const box = page.getByLabel(zh ? '发给智能体的消息' : 'Message to the agent');
        await expect(box).toHaveAttribute('aria-describedby', 'chat-view-context');
        await page.locator('.host__composer').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-results/mcp-view-context-${language}-${scheme}.png` });
        const axe = await new AxeBuilder({ page })
          .include('.host__composer')
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

        await box.fill('which one is closest?');
        await box.press('Enter');
        await expect.poll(async () => (await sentUserTurns(page)).length).toBe(1);
        // The latest context only (the second replaced the first), with the call and the agent's tool.
        expect((await sentUserTurns(page))[0]).toEqual({
          text: 'which one is closest?',
          view_context: [
            {
              call_id: callId ?? expect.any(String),
              tool: 'picker.pick',
              text: 'second: the user picked Café A',
              data: { selected: 'cafe-a' },
            },
          ],
        });
        await expect(note).toHaveCount(0);
        // Sent once: the next turn carries none; a view that withdraws its context sends none either.
        await view.locator('#first').click();
        await expect(page.locator('#chat-view-context')).toHaveCount(1);
        await view.locator('#nothing').click();
        await expect(page.locator('#chat-view-context')).toHaveCount(0);
        await box.fill('thanks');
        await box.press('Enter');
        await expect.poll(async () => (await sentUserTurns(page)).length).toBe(2);
        expect((await sentUserTurns(page))[1]).toEqual({ text: 'thanks' });
      } finally {
        await contextServer.close();
      }
    });
  });

/** A view that counts clicks (its state), asks for a display mode by its buttons, and shows the mode it hears. */
const FULLSCREEN_VIEW = `<!doctype html><html><body style="margin:0"><p id="mode">inline</p><p id="room"></p>
<button id="count" type="button">Count</button><span id="clicks">0</span>
<button id="full" type="button">Full screen</button><button id="pip" type="button">Picture in picture</button>
<button id="inline" type="button">Back inline</button><p id="answer"></p>
<script type="module">
${VIEW_RPC}
const show = (context) => {
  if (context.displayMode) document.getElementById('mode').textContent = context.displayMode;
  if (context.containerDimensions) document.getElementById('room').textContent = JSON.stringify(context.containerDimensions);
};
onNotification = (message) => {
  if (message.method === 'ui/notifications/host-context-changed') show(message.params);
};
const init = await rpc('ui/initialize', { appInfo: { name: 'full', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }, protocolVersion: '2026-01-26' });
show(init.result.hostContext);
document.getElementById('answer').textContent = 'offered ' + init.result.hostContext.availableDisplayModes.join(',');
send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
let clicks = 0;
document.getElementById('count').addEventListener('click', () => { document.getElementById('clicks').textContent = String(++clicks); });
const ask = async (mode) => {
  const answer = await rpc('ui/request-display-mode', { mode });
  document.getElementById('answer').textContent = 'asked ' + mode + ', got ' + (answer.result ? answer.result.mode : answer.error.message);
};
document.getElementById('full').addEventListener('click', () => ask('fullscreen'));
document.getElementById('pip').addEventListener('click', () => ask('pip'));
document.getElementById('inline').addEventListener('click', () => ask('inline'));
</script></body></html>`;

for (const [language, scheme] of [
  ['en', 'light'],
  ['zh', 'dark'],
] as const)
  test.describe(`a view full screen, in ${language === 'zh' ? 'Chinese' : 'English'}, ${scheme}`, () => {
    test.use({ locale: language === 'zh' ? 'zh-CN' : 'en-US', colorScheme: scheme });

    test('enters and leaves full screen by keyboard alone, keeps its state, and focus comes back', async ({
      page,
    }) => {
      const zh = language === 'zh';
      const fullServer = await startTestMcpServer({
        name: 'Board',
        tools: [
          {
            name: 'show',
            view: 'ui://board/view.html',
            run: () => ({ content: [{ type: 'text', text: 'a board' }] }),
          },
        ],
        views: { 'ui://board/view.html': FULLSCREEN_VIEW },
      });
      try {
        await page.goto('/');
        if (zh) await page.getByRole('button', { name: 'EN' }).click();
        await addMcpServer(page, fullServer.url);
        const call = await callToolFromConsole(page, 'board.show');
        await expect(call.locator('.host__console-phase')).toHaveText('completed', { timeout: 30_000 });
        if (zh) await page.getByRole('button', { name: '中文' }).click();
        const view = viewFrame(page);
        await expect(view.locator('#answer')).toHaveText('offered inline,fullscreen', { timeout: 30_000 });
        const card = page.locator('.host__mcp-view');
        const dialog = page.locator('dialog.host__mcp-fullscreen');
        const exit = page.getByRole('button', { name: zh ? '退出全屏' : 'Exit full screen' });

        // Keyboard only: from the card's close button, Tab into the view, press Count twice, then Full screen.
        await card.getByRole('button', { name: zh ? /关闭/ : /Close the view/ }).focus();
        await page.keyboard.press('Tab');
        await expect(view.locator('#count')).toBeFocused();
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
        await expect(view.locator('#clicks')).toHaveText('2');
        await page.keyboard.press('Tab');
        await expect(view.locator('#full')).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(dialog).toBeVisible();
        await expect(dialog.locator('iframe')).toHaveCount(1);
        await expect(card.locator(':scope > div > iframe')).toHaveCount(0);
        const inDialog = dialog.locator('iframe').contentFrame().locator('iframe').contentFrame();
        await expect(inDialog.locator('#mode')).toHaveText('fullscreen');
        await expect(inDialog.locator('#answer')).toHaveText('asked fullscreen, got fullscreen');
        // Moved, not reloaded: its state is there; it has the window's room.
        await expect(inDialog.locator('#clicks')).toHaveText('2');
        const room = JSON.parse((await inDialog.locator('#room').textContent()) ?? '{}');
        expect(room.height).toBeGreaterThan(500);
        expect((await dialog.locator('iframe').boundingBox())?.height).toBeGreaterThan(500);
        await page.screenshot({ path: `test-results/mcp-view-fullscreen-${language}-${scheme}.png` });
        const axe = await new AxeBuilder({ page })
          .include('dialog.host__mcp-fullscreen')
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

        // The dialog takes focus (its Exit button); Tab goes on into the view, where Escape brings it back and focus
        // returns to its card.
        await expect(exit).toBeFocused();
        await page.keyboard.press('Tab');
        await expect(inDialog.locator('#count')).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(inDialog.locator('#clicks')).toHaveText('3');
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(view.locator('#mode')).toHaveText('inline');
        await expect(view.locator('#clicks')).toHaveText('3');
        await expect(card).toBeFocused();

        // Again, and out by the bar's button (Enter), then by Escape on the host's side of the dialog.
        await view.locator('#full').click();
        await expect(dialog).toBeVisible();
        await exit.focus();
        await page.keyboard.press('Enter');
        await expect(dialog).toBeHidden();
        await expect(card).toBeFocused();
        await view.locator('#full').click();
        await expect(dialog).toBeVisible();
        await exit.focus();
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await expect(view.locator('#mode')).toHaveText('inline');

        // The view asks to go back itself; picture-in-picture is not offered: it keeps its mode.
        await view.locator('#full').click();
        await expect(dialog).toBeVisible();
        await inDialog.locator('#pip').click();
        await expect(inDialog.locator('#answer')).toHaveText('asked pip, got fullscreen');
        await inDialog.locator('#inline').click();
        await expect(dialog).toBeHidden();
        await expect(view.locator('#answer')).toHaveText('asked inline, got inline');
        await view.locator('#pip').click();
        await expect(view.locator('#answer')).toHaveText('asked pip, got inline');
      } finally {
        await fullServer.close();
      }
    });
  });
