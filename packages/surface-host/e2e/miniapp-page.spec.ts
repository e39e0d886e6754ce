import { call, expect, test } from './fixtures.ts';

/**
 * An installed MiniApp's page in a Surface frame (`mountMiniAppPage`), in Chromium: it reads its instance and
 * language from its URL's fragment before its scripts run, speaks over a `window.parent` stand-in both ways (what
 * `@lineup/miniapp-sdk`'s client expects), and cannot reach the host's window, the wrapper, or another document.
 * What it can reach on the network is the containment suite's (`page` frames) and the grant suite's.
 */

/** A page that reports what it sees, then echoes every message it hears from its parent. */
const PROBE = `<!doctype html><html><head>
<script type="module" src="./assets/probe.js"></script>
<link rel="stylesheet" href="./assets/probe.css">
</head><body><main id="app">page</main></body></html>`;

const PROBE_JS = `
const parent = window.parent;
const report = (type, data) => parent.postMessage({ namespace: 'lineup.miniapp.v1', type, data }, '*');
let topReachable;
try { topReachable = window.top === window || String(window.top.location.href); } catch (error) { topReachable = 'refused: ' + error.name; }
let parentIsWindow = false;
try { parentIsWindow = parent === window.parent.window; } catch { parentIsWindow = false; }
report('seen', {
  hash: location.hash,
  href: location.href,
  parentIsWindow,
  parentKeys: Object.getOwnPropertyNames(parent),
  topReachable: String(topReachable),
  opener: String(window.opener),
  style: getComputedStyle(document.getElementById('app')).color,
  lang: new URLSearchParams(location.hash.slice(1)).get('lang'),
});
window.addEventListener('message', (event) => {
  report('heard', { fromParent: event.source === parent, data: event.data });
});
`;

test('the page reads its fragment before its scripts run, and speaks both ways through its parent stand-in', async ({
  harnessPage: page,
}) => {
  await call(
    page,
    'mountPage',
    'p1',
    PROBE,
    { fragment: 'lang=zh-CN&lineup-instance=p1' },
    {
      'assets/probe.js': PROBE_JS,
      'assets/probe.css': '#app { color: rgb(1, 2, 3) }',
    },
  );
  await expect
    .poll(async () => (await call(page, 'pageState', 'p1'))?.messages.length ?? 0)
    .toBeGreaterThan(0);
  const [seen] = (await call(page, 'pageState', 'p1'))?.messages ?? [];
  expect(seen).toMatchObject({
    type: 'seen',
    data: {
      hash: '#lang=zh-CN&lineup-instance=p1',
      href: 'about:srcdoc#lang=zh-CN&lineup-instance=p1',
      // The stand-in is no window: only postMessage.
      parentIsWindow: false,
      parentKeys: ['postMessage'],
      opener: 'null',
      style: 'rgb(1, 2, 3)',
      lang: 'zh-CN',
    },
  });
  expect((seen as { data: { topReachable: string } }).data.topReachable).toMatch(/^refused: SecurityError/);
  await call(page, 'sendPage', 'p1', {
    namespace: 'lineup.miniapp.v1',
    type: 'lifecycle',
    instance_id: 'p1',
    phase: 'foreground',
  });
  await expect
    .poll(async () => (await call(page, 'pageState', 'p1'))?.messages[1] ?? null)
    .toEqual({
      namespace: 'lineup.miniapp.v1',
      type: 'heard',
      data: {
        fromParent: true,
        data: { namespace: 'lineup.miniapp.v1', type: 'lifecycle', instance_id: 'p1', phase: 'foreground' },
      },
    });
  expect(await call(page, 'isMounted', 'p1')).toBe(true);
});

test('a page that leaves its document is removed before it leaves, and hears nothing more', async ({
  harnessPage: page,
}) => {
  await call(
    page,
    'mountPage',
    'p2',
    PROBE,
    {},
    {
      'assets/probe.js': `${PROBE_JS}\nsetTimeout(() => { location.href = 'about:blank#gone'; }, 50);`,
      'assets/probe.css': '',
    },
  );
  await expect.poll(() => call(page, 'isMounted', 'p2')).toBe(false);
  expect(await call(page, 'rejections', 'p2')).toContainEqual({ reason: 'navigated' });
  await expect(page.locator('iframe[data-instance-id="p2"]')).toHaveCount(0);
});

test('a page whose markup holds a frame, or that names a file it lacks, is refused before anything mounts', async ({
  harnessPage: page,
}) => {
  await expect(
    call(page, 'mountPage', 'p3', '<!doctype html><body><iframe src="https://example.com"></iframe></body>'),
  ).rejects.toThrow(/cannot contain frames/);
  await expect(
    call(page, 'mountPage', 'p4', '<!doctype html><script type="module" src="./missing.js"></script>'),
  ).rejects.toThrow(/names \.\/missing\.js, which the bundle does not have/);
  await expect(page.locator('iframe[data-instance-id="p3"], iframe[data-instance-id="p4"]')).toHaveCount(0);
});
