import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { call, expect, test } from './fixtures.ts';

/**
 * Real MCP App views, as the ext-apps project publishes them on the npm registry (its example servers' single-file
 * views), run in contained Surface frames with the MCP Apps SDK's own AppBridge as the host end: they initialize,
 * take the host's theme, get their tool's input and result, call a server tool through the host, ask to open a
 * link and to send a message — all of it over the frame's port, none of it over the network (the recorder sees
 * nothing).
 */

const require = createRequire(import.meta.url);
/** A published server package's view: its `dist/mcp-app.html`. */
function publishedView(name: string): string {
  // The package exports only its server module (dist/server.js); the view is beside it.
  return readFileSync(join(dirname(require.resolve(name)), 'mcp-app.html'), 'utf8');
}

const SERVERS = ['@modelcontextprotocol/server-basic-vanillajs', '@modelcontextprotocol/server-basic-react'];

for (const server of SERVERS)
  test(`the published view of ${server} runs contained and speaks through the host only`, async ({
    harnessPage: page,
    recorder,
  }) => {
    const html = publishedView(server);
    expect(html.length).toBeGreaterThan(160 * 1024 * (server.endsWith('react') ? 2 : 1));
    await call(page, 'mountView', 'view', html, { theme: 'dark' });
    await expect.poll(() => call(page, 'viewState', 'view').then((state) => state?.initialized)).toBe(true);
    const frame = page.frameLocator('.slot[data-id="view"] iframe').frameLocator('iframe');
    // The host's theme reached the view's document (the SDK applies it as color-scheme / data-theme).
    await expect
      .poll(() =>
        frame.locator('html').evaluate((root) => ({
          scheme: getComputedStyle(root).colorScheme,
          theme: root.getAttribute('data-theme') ?? root.style.colorScheme,
        })),
      )
      .toMatchObject({ scheme: expect.stringContaining('dark') });
    // Its tool's input and result, as a host sends them after the call.
    await call(
      page,
      'viewToolResult',
      'view',
      {},
      {
        content: [{ type: 'text', text: '2026-12-04T09:30:00.000Z' }],
        structuredContent: { time: '2026-12-04T09:30:00.000Z' },
      },
    );
    // The view's own button calls a server tool: the call reaches the host's bridge, and its answer the view.
    await frame.getByRole('button', { name: /get server time/i }).click();
    await expect
      .poll(() => call(page, 'viewState', 'view').then((state) => state?.toolCalls))
      .toEqual([{ name: 'get-time', arguments: {} }]);
    await expect(frame.getByText('2026-12-04T12:00:00.000Z')).toBeVisible();
    await frame.getByRole('button', { name: /open link/i }).click();
    await expect
      .poll(() => call(page, 'viewState', 'view').then((state) => state?.links))
      .toEqual(['https://modelcontextprotocol.io/']);
    await frame.getByRole('button', { name: /send message/i }).click();
    await expect.poll(() => call(page, 'viewState', 'view').then((state) => state?.messages.length)).toBe(1);
    // The view said its size; the host applied it.
    await expect
      .poll(() => call(page, 'viewState', 'view').then((state) => state?.sizes.length))
      .toBeGreaterThan(0);
    await call(page, 'closeView', 'view');
    expect(await call(page, 'isMounted', 'view')).toBe(false);
    expect(recorder.traffic()).toMatchObject({
      connections: 0,
      httpRequests: 0,
      webSockets: 0,
      udpPackets: 0,
    });
  });

test('a view prepared ahead runs out of sight, then is shown without reloading and works as one mounted there', async ({
  harnessPage: page,
  recorder,
}) => {
  const html = publishedView('@modelcontextprotocol/server-basic-vanillajs');
  await call(page, 'prepareView', 'ahead', html, { theme: 'dark' });
  // It loads, runs and initializes where no one sees or reaches it.
  await expect.poll(() => call(page, 'viewState', 'ahead').then((state) => state?.initialized)).toBe(true);
  expect(await call(page, 'viewPlace', 'ahead')).toEqual({
    slot: false,
    prepared: true,
    inert: true,
    ariaHidden: 'true',
    opacity: '0',
    holders: 1,
  });
  const hidden = page.frameLocator('[data-lineup-prepared-view] iframe').frameLocator('iframe');
  // A mark in the view's document: it is still there after the move (the document was not loaded again).
  await hidden.locator('html').evaluate(() => {
    (window as unknown as { mark: number }).mark = 42;
  });
  await call(page, 'showView', 'ahead');
  expect(await call(page, 'viewPlace', 'ahead')).toMatchObject({ slot: true, prepared: false, holders: 0 });
  const frame = page.frameLocator('.slot[data-id="ahead"] iframe').frameLocator('iframe');
  expect(await frame.locator('html').evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(42);
  await call(
    page,
    'viewToolResult',
    'ahead',
    {},
    {
      content: [{ type: 'text', text: '2026-12-05T09:30:00.000Z' }],
      structuredContent: { time: '2026-12-05T09:30:00.000Z' },
    },
  );
  await frame.getByRole('button', { name: /get server time/i }).click();
  await expect
    .poll(() => call(page, 'viewState', 'ahead').then((state) => state?.toolCalls))
    .toEqual([{ name: 'get-time', arguments: {} }]);
  await expect(frame.getByText('2026-12-04T12:00:00.000Z')).toBeVisible();
  await call(page, 'closeView', 'ahead');
  expect(await call(page, 'isMounted', 'ahead')).toBe(false);
  expect(recorder.traffic()).toMatchObject({ connections: 0, httpRequests: 0, webSockets: 0, udpPackets: 0 });
});

/** A hostile view: it tries to reach past its port, and reports what it saw over its own protocol. */
const HOSTILE_VIEW = `<!doctype html><html><body><main>hostile</main><script type="module">
const report = (data) => window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'probe', data } }, '*');
const seen = {};
seen.parentIsTheStandIn = Object.getPrototypeOf(window.parent) === null && window.parent !== window;
try { window.parent = window; seen.reassigned = window.parent === window; } catch (error) { seen.reassigned = error.name; }
try { seen.deleted = delete window.parent; } catch (error) { seen.deleted = error.name; }
seen.parentHasLocation = 'location' in window.parent;
seen.parentFrames = 'frames' in window.parent;
// Straight to the host page's window, around the port: never read as JSON-RPC.
top.postMessage({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'get-time', arguments: {} } }, '*');
// Through the port, but no JSON-RPC object.
try { window.parent.postMessage('a string', '*'); } catch (error) { seen.stringRefused = error.name; }
window.parent.postMessage({ jsonrpc: '1.0', method: 'tools/call', id: 7, params: { name: 'get-time' } }, '*');
// A transfer list is not taken: no port of the view's own reaches the host.
const channel = new MessageChannel();
window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'with a port' } }, '*', [channel.port2]);
report(seen);
</script></body></html>`;

test('a hostile view reaches nothing but its own port, and what is not JSON-RPC is refused there', async ({
  harnessPage: page,
  recorder,
}) => {
  await call(page, 'mountView', 'hostile', HOSTILE_VIEW);
  await expect
    .poll(() => call(page, 'viewState', 'hostile').then((state) => state?.logs.length ?? 0))
    .toBeGreaterThanOrEqual(1);
  const state = await call(page, 'viewState', 'hostile');
  expect(state?.logs).toContainEqual({
    parentIsTheStandIn: true,
    // Module code is strict: both throw.
    reassigned: 'TypeError',
    deleted: 'TypeError',
    parentHasLocation: false,
    parentFrames: false,
    stringRefused: 'TypeError',
  });
  // The tools/call posted around the port never reached the host's bridge; the one of JSON-RPC 1.0 was refused.
  expect(state?.toolCalls).toEqual([]);
  await expect
    .poll(async () => (await call(page, 'rejections', 'hostile')).map((rejection) => rejection.reason).sort())
    .toEqual(expect.arrayContaining(['foreign_message', 'invalid_message']));
  expect(await call(page, 'isMounted', 'hostile')).toBe(true);
  expect(recorder.traffic()).toMatchObject({ connections: 0, httpRequests: 0, webSockets: 0, udpPackets: 0 });
});

test('a view flooding its port is rate limited, and the host page keeps answering', async ({
  harnessPage: page,
}) => {
  await call(
    page,
    'mountView',
    'flood',
    `<!doctype html><html><body><script type="module">for (let i = 0; i < 5000; i++) window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } }, '*');</script></body></html>`,
  );
  await expect
    .poll(async () =>
      (await call(page, 'rejections', 'flood')).some((rejection) => rejection.reason === 'rate_limited'),
    )
    .toBe(true);
  const logs = (await call(page, 'viewState', 'flood'))?.logs.length ?? 0;
  expect(logs).toBeGreaterThan(0);
  expect(logs).toBeLessThan(5_000);
  // The host page still answers at once.
  const start = Date.now();
  await page.locator('#name').fill('still here');
  expect(Date.now() - start).toBeLessThan(2_000);
  await expect(page.locator('#name')).toHaveValue('still here');
});

/**
 * A view that uses `localStorage` as a page would: it shows what it found at start, then writes through every part of
 * the `Storage` interface; its last write goes past the bound and must be refused.
 */
const STORAGE_VIEW = `<!doctype html><html><body><pre id="found"></pre><pre id="done">running</pre><script type="module">
const found = { count: localStorage.length, keys: Object.keys(localStorage), visits: localStorage.getItem('visits'), named: localStorage.theme ?? null, tag: Object.prototype.toString.call(localStorage), first: localStorage.key(0) };
document.getElementById('found').textContent = JSON.stringify(found);
localStorage.setItem('visits', String(Number(localStorage.getItem('visits') ?? 0) + 1));
localStorage.theme = 'dark';
localStorage['__proto__'] = 'a key like any other';
localStorage.setItem('gone', 'x');
localStorage.removeItem('gone');
delete localStorage.temporary;
const outcome = {};
try { localStorage.setItem('huge', 'x'.repeat(70000)); outcome.huge = 'stored'; } catch (error) { outcome.huge = error.name; }
outcome.hasHuge = localStorage.getItem('huge') !== null;
outcome.in = 'theme' in localStorage;
outcome.method = typeof localStorage.getItem;
document.getElementById('done').textContent = JSON.stringify(outcome);
</script></body></html>`;

for (const granted of [false, true])
  test(`a view's localStorage is the host's to keep: it starts with what was kept and sends each change up${granted ? ' (a frame loaded for a view granted an origin)' : ''}`, async ({
    harnessPage: page,
  }) => {
    const context = granted ? { connectDomains: ['http://127.0.0.1:9'] } : {};
    await call(page, 'mountView', 'kept', STORAGE_VIEW, {
      ...context,
      storage: [
        ['visits', '2'],
        ['temporary', 'drop me'],
      ],
    });
    const frame = page.frameLocator('.slot[data-id="kept"] iframe').frameLocator('iframe');
    await expect(frame.locator('#found')).toHaveText(
      JSON.stringify({
        count: 2,
        keys: ['visits', 'temporary'],
        visits: '2',
        named: null,
        tag: '[object Storage]',
        first: 'visits',
      }),
    );
    await expect(frame.locator('#done')).toHaveText(
      JSON.stringify({ huge: 'QuotaExceededError', hasHuge: false, in: true, method: 'function' }),
    );
    // One snapshot for the whole burst of writes (they came within 100 ms), in insertion order.
    const expected: [string, string][] = [
      ['visits', '3'],
      ['theme', 'dark'],
      ['__proto__', 'a key like any other'],
    ];
    await expect
      .poll(() => call(page, 'viewState', 'kept').then((state) => state?.storage.at(-1)))
      .toEqual(expected);
    expect((await call(page, 'viewState', 'kept'))?.storage).toHaveLength(1);
    // Mounted again (a view of the test's own answers no teardown: the first one stays) with what the host kept: the view finds it, and counts one more visit.
    await call(page, 'mountView', 'again', STORAGE_VIEW, { ...context, storage: expected });
    const again = page.frameLocator('.slot[data-id="again"] iframe').frameLocator('iframe');
    await expect(again.locator('#found')).toContainText('"visits":"3","named":"dark"');
    await expect
      .poll(() => call(page, 'viewState', 'again').then((state) => state?.storage.at(-1)?.[0]))
      .toEqual(['visits', '4']);
  });

test("a view's kept storage is checked before it is mounted, and what a frame sends up is checked again", async ({
  harnessPage: page,
}) => {
  await expect(
    call(page, 'mountView', 'bad', STORAGE_VIEW, { storage: [['a', 1]] as never }),
  ).rejects.toThrow(/storage/);
  expect(await call(page, 'isMounted', 'bad')).toBe(false);
  // A view that posts a storage message of its own past the stand-in is refused there, its storage unchanged.
  await call(
    page,
    'mountView',
    'forger',
    `<!doctype html><html><body><script type="module">window.parent.postMessage({ namespace: 'lineup.surface.v1', type: 'storage', entries: [['a', 'b']] }, '*');</script></body></html>`,
  );
  await expect
    .poll(async () => (await call(page, 'rejections', 'forger')).map((rejection) => rejection.reason))
    .toContain('invalid_message');
  expect((await call(page, 'viewState', 'forger'))?.storage).toEqual([]);
});

test('Escape pressed in a view reaches its host, whatever the view does with it; other keys do not', async ({
  harnessPage: page,
}) => {
  await call(
    page,
    'mountView',
    'keys',
    `<!doctype html><html><body><button id="b" type="button">Focus me</button><pre id="keys"></pre><script type="module">
window.addEventListener('keydown', (event) => {
  document.getElementById('keys').textContent += event.key + ' ';
  event.preventDefault();
  event.stopImmediatePropagation();
}, true);
</script></body></html>`,
  );
  const frame = page.frameLocator('.slot[data-id="keys"] iframe').frameLocator('iframe');
  await frame.locator('#b').click();
  await page.keyboard.press('a');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // The view saw every key (its own handler stops them), and the host heard each Escape, and nothing else.
  await expect(frame.locator('#keys')).toHaveText('a Escape Enter Escape ');
  await expect.poll(() => call(page, 'viewState', 'keys').then((state) => state?.escapes)).toBe(2);
  // A script's own Escape (not the user's) is not told.
  await frame
    .locator('#b')
    .evaluate((button) =>
      button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })),
    );
  await page.waitForTimeout(200);
  expect((await call(page, 'viewState', 'keys'))?.escapes).toBe(2);
});
