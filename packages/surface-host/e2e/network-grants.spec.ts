import { call, expect, test } from './fixtures.ts';
import { Recorder } from './recorder.ts';

/**
 * An MCP App view granted origins to connect to (`mountMcpView`'s `connectDomains`), and a MiniApp page granted
 * them the same way (`mountMiniAppPage`'s), in the hostile-Surface style:
 * two recording servers on 127.0.0.1, A (granted) and B (not), told apart by their ports, as two domains are. A view
 * granted A reaches A — its fetch, its beacon — and nothing reaches B: not a fetch, a redirect from A to B, a
 * beacon, a WebSocket, an EventSource, an image, WebRTC, a worker or a nested frame of A. The controls prove the
 * suite can fail: the same view granted nothing reaches neither, and granted both reaches B.
 */

/** Stray connections of an attempt arrive within milliseconds; this is the margin after the view finished. */
const SETTLE_MS = 400;

/** The view: each attempt in turn, each outcome reported as a log notification (`{ step, outcome }`), then `done`. */
function grantView(a: string, b: string, bWs: string, turn: number): string {
  const script = `
const report = (step, outcome) => window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'grant', data: { step, outcome: String(outcome) } } }, '*');
const attempt = async (step, run) => { try { report(step, await run()); } catch (error) { report(step, 'refused: ' + (error && error.name)); } };
await attempt('fetch A', () => fetch(${JSON.stringify(`${a}/hello`)}).then((answer) => answer.text()));
await attempt('fetch B', () => fetch(${JSON.stringify(`${b}/fetch`)}).then((answer) => answer.status));
await attempt('redirect A to B', () => fetch(${JSON.stringify(`${a}/redirect?to=${encodeURIComponent(`${b}/redirected`)}`)}).then((answer) => answer.status));
await attempt('beacon A', () => navigator.sendBeacon(${JSON.stringify(`${a}/beacon`)}, 'a'));
await attempt('beacon B', () => navigator.sendBeacon(${JSON.stringify(`${b}/beacon`)}, 'b'));
await attempt('WebSocket B', () => new Promise((resolve, reject) => { const socket = new WebSocket(${JSON.stringify(bWs)}); socket.onopen = () => resolve('open'); socket.onerror = () => reject(new Error('error')); }));
await attempt('EventSource B', () => new Promise((resolve) => { const source = new EventSource(${JSON.stringify(`${b}/events`)}); source.onerror = () => { source.close(); resolve('error'); }; }));
await attempt('image B', () => new Promise((resolve) => { const image = new Image(); image.onload = () => resolve('load'); image.onerror = () => resolve('error'); image.src = ${JSON.stringify(`${b}/image`)}; }));
await attempt('WebRTC', () => typeof RTCPeerConnection === 'function' ? new RTCPeerConnection({ iceServers: [{ urls: ${JSON.stringify(`turn:127.0.0.1:${turn}?transport=tcp`)}, username: 'u', credential: 'c' }] }) && 'made' : 'no RTCPeerConnection');
await attempt('worker', () => typeof Worker === 'function' ? new Worker(URL.createObjectURL(new Blob(['fetch(${JSON.stringify(`${b}/worker`)})']))) && 'made' : 'no Worker');
await attempt('nested frame of A', () => { const frame = document.createElement('iframe'); frame.src = ${JSON.stringify(`${a}/frame`)}; document.body.append(frame); return 'appended'; });
report('done', true);
`;
  return `<!doctype html><html><body><main>grants</main><script type="module">${script}</script></body></html>`;
}

/** A view's logs as its AppBridge heard them, or a MiniApp page's messages of the same shape. */
async function logsOf(page: import('@playwright/test').Page, id: string, kind: 'view' | 'page') {
  const state = kind === 'view' ? await call(page, 'viewState', id) : await call(page, 'pageState', id);
  return (state?.logs ?? []) as { step: string; outcome: string }[];
}

async function outcomes(page: import('@playwright/test').Page, id: string, kind: 'view' | 'page' = 'view') {
  await expect
    .poll(async () => (await logsOf(page, id, kind)).some((entry) => entry.step === 'done'), {
      timeout: 20_000,
    })
    .toBe(true);
  await page.waitForTimeout(SETTLE_MS);
  const logs = await logsOf(page, id, kind);
  return Object.fromEntries(logs.map(({ step, outcome }) => [step, outcome]));
}

let granted: Recorder;
test.beforeEach(async () => {
  granted = await Recorder.start();
});
test.afterEach(async () => {
  await granted.close();
});

const origin = (recorder: Recorder) => `http://127.0.0.1:${recorder.httpPort}`;
const leaked = (recorder: Recorder) => {
  const traffic = recorder.traffic();
  return traffic.connections + traffic.httpRequests + traffic.webSockets + traffic.udpPackets;
};

for (const how of ['mounted', 'prepared ahead', 'a MiniApp page'] as const)
  test(`${how === 'a MiniApp page' ? 'a MiniApp page' : `a view (${how})`} granted A reaches A, and nothing reaches B`, async ({
    harnessPage: page,
    recorder,
  }) => {
    const a = origin(granted);
    const b = origin(recorder);
    const html = grantView(a, b, `ws://127.0.0.1:${recorder.httpPort}/ws`, recorder.tcpPorts[0] as number);
    if (how === 'mounted') await call(page, 'mountView', 'g', html, { connectDomains: [a] });
    else if (how === 'a MiniApp page') await call(page, 'mountPage', 'g', html, { connectDomains: [a] });
    else {
      await call(page, 'prepareView', 'g', html, { connectDomains: [a] });
      await call(page, 'showView', 'g');
    }
    const seen = await outcomes(page, 'g', how === 'a MiniApp page' ? 'page' : 'view');
    // A answered the view, and got its beacon (sendBeacon says true whether or not the policy lets it go: only
    // the recorders tell).
    expect(seen['fetch A']).toBe('<p>remote</p>');
    expect(granted.log).toContain('http GET /hello');
    expect(granted.log).toContain('http POST /beacon');
    // The redirect's first request reached A; its target, on B, was never asked for.
    expect(granted.log.some((line) => line.startsWith('http GET /redirect?to='))).toBe(true);
    for (const step of ['fetch B', 'redirect A to B', 'WebSocket B']) expect(seen[step]).toMatch(/^refused/);
    expect(seen['EventSource B']).toBe('error');
    expect(seen['image B']).toBe('error');
    expect(seen.WebRTC).toBe('no RTCPeerConnection');
    expect(seen.worker).toBe('no Worker');
    expect(seen['nested frame of A']).toMatch(/^refused/);
    expect(leaked(recorder), recorder.traffic().log.join('\n')).toBe(0);
    // Nothing else of the view reached A: no frame, no worker.
    const requests = granted.log.filter((line) => /^http /.test(line));
    expect(requests).toHaveLength(3);
    expect(requests).toEqual(
      expect.arrayContaining([
        'http GET /hello',
        'http POST /beacon',
        expect.stringMatching(/^http GET \/redirect/),
      ]),
    );
  });

for (const kind of ['view', 'page'] as const) {
  const mountKind = kind === 'view' ? 'mountView' : 'mountPage';
  test(`control: the same ${kind} granted nothing reaches neither A nor B`, async ({
    harnessPage: page,
    recorder,
  }) => {
    const a = origin(granted);
    const b = origin(recorder);
    await call(page, mountKind, 'n', grantView(a, b, `ws://127.0.0.1:${recorder.httpPort}/ws`, 1));
    const seen = await outcomes(page, 'n', kind);
    expect(seen['fetch A']).toMatch(/^refused/);
    expect(leaked(granted), granted.traffic().log.join('\n')).toBe(0);
    expect(leaked(recorder), recorder.traffic().log.join('\n')).toBe(0);
  });

  test(`control: granted A and B, the ${kind} reaches B — the recorder sees what a grant lets through`, async ({
    harnessPage: page,
    recorder,
  }) => {
    const a = origin(granted);
    const b = origin(recorder);
    await call(page, mountKind, 'ab', grantView(a, b, `ws://127.0.0.1:${recorder.httpPort}/ws`, 1), {
      connectDomains: [a, b],
    });
    const seen = await outcomes(page, 'ab', kind);
    expect(seen['fetch B']).toBe('200');
    expect(recorder.log).toContain('http GET /fetch');
    expect(recorder.log).toContain('http GET /redirected');
    expect(leaked(recorder)).toBeGreaterThan(0);
  });
}

test("a granted view's frame is loaded for it, and its policy lists the grant; a spare frame's lists none", async ({
  harnessPage: page,
}) => {
  await call(page, 'mountView', 'p', '<!doctype html><main>p</main>', {
    connectDomains: ['https://api.example.com'],
  });
  await call(page, 'mountView', 'q', '<!doctype html><main>q</main>');
  const policy = (id: string) => page.locator(`iframe[data-instance-id="${id}"]`).getAttribute('csp');
  expect(await policy('p')).toContain('connect-src https://api.example.com;');
  expect(await policy('q')).toContain("connect-src 'none';");
  expect(await call(page, 'wasWarm', 'p')).toBe(false);
});

/**
 * A view granted A as a resource origin (its `resourceDomains`): it may load images, stylesheets and fonts from A —
 * the recorder sees each — but may not connect to A (that is `connectDomains`), never runs a script from A, and
 * nothing reaches B.
 */
function resourceView(a: string, b: string): string {
  const script = `
const report = (step, outcome) => window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'grant', data: { step, outcome: String(outcome) } } }, '*');
const attempt = async (step, run) => { try { report(step, await run()); } catch (error) { report(step, 'refused: ' + (error && error.name)); } };
const image = (url) => new Promise((resolve) => { const image = new Image(); image.onload = () => resolve('load'); image.onerror = () => resolve('error'); image.src = url; document.body.append(image); });
await attempt('image A', () => image(${JSON.stringify(`${a}/image-a`)}));
await attempt('image B', () => image(${JSON.stringify(`${b}/image-b`)}));
await attempt('fetch A', () => fetch(${JSON.stringify(`${a}/fetch-a`)}).then((answer) => answer.status));
await attempt('script A', () => { const script = document.createElement('script'); script.src = ${JSON.stringify(`${a}/script-a.js`)}; document.body.append(script); return 'appended'; });
await document.fonts.ready;
await new Promise((resolve) => setTimeout(resolve, 300));
report('done', true);
`;
  return `<!doctype html><html><head>
<link rel="stylesheet" href="${a}/style-a.css">
<style>@font-face { font-family: Granted; src: url(${a}/font-a.woff2); } @font-face { font-family: Other; src: url(${b}/font-b.woff2); } .g { font-family: Granted } .o { font-family: Other }</style>
</head><body><main><p class="g">granted font</p><p class="o">other font</p></main><script type="module">${script}</script></body></html>`;
}

test('a view granted A to load from reaches A for images, a stylesheet and a font; connects nowhere; B gets nothing', async ({
  harnessPage: page,
  recorder,
}) => {
  const a = origin(granted);
  const b = origin(recorder);
  await call(page, 'mountView', 'r', resourceView(a, b), { resourceDomains: [a] });
  const seen = await outcomes(page, 'r');
  const requests = granted.log.filter((line) => /^http /.test(line));
  expect(requests).toEqual(
    expect.arrayContaining(['http GET /image-a', 'http GET /style-a.css', 'http GET /font-a.woff2']),
  );
  // Not connect-granted: a fetch of A is refused; a script from A is never requested.
  expect(seen['fetch A']).toMatch(/^refused/);
  expect(seen['script A']).toMatch(/^refused/);
  expect(requests.some((line) => /fetch-a|script-a/.test(line))).toBe(false);
  expect(seen['image B']).toBe('error');
  expect(leaked(recorder), recorder.traffic().log.join('\n')).toBe(0);
  const policy = await page.locator('iframe[data-instance-id="r"]').getAttribute('csp');
  expect(policy).toContain(`font-src ${a}`);
  expect(policy).toContain("connect-src 'none'");
});

test('control: the same view granted nothing to load from loads nothing from A; its stylesheet is refused first', async ({
  harnessPage: page,
  recorder,
}) => {
  const a = origin(granted);
  const b = origin(recorder);
  // The stylesheet link is from an origin not granted: the view is refused before it mounts.
  await expect(call(page, 'mountView', 'rn', resourceView(a, b))).rejects.toThrow(/loads a stylesheet from/);
  // Without the link, the same view runs, and neither A nor B gets anything.
  await call(page, 'mountView', 'rn2', resourceView(a, b).replace(/<link[^>]*>/, ''));
  const seen = await outcomes(page, 'rn2');
  expect(seen['image A']).toBe('error');
  expect(leaked(granted), granted.traffic().log.join('\n')).toBe(0);
  expect(leaked(recorder), recorder.traffic().log.join('\n')).toBe(0);
});

/**
 * Device features a view was granted (`devices`): both of its frames delegate them, so the view's document may use
 * them (the browser still asks the user, for the host page); a feature not granted stays off by policy. Camera and
 * microphone are never offered: Chromium refuses media capture to an opaque origin whatever a frame delegates.
 */
const DEVICE_VIEW = `<!doctype html><html><body><button id="copy">Copy</button><script type="module">
const report = (step, outcome) => window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'devices', data: { step, outcome: String(outcome) } } }, '*');
for (const feature of ['geolocation', 'clipboard-write', 'camera', 'microphone'])
  report('policy ' + feature, document.featurePolicy.allowsFeature(feature));
document.getElementById('copy').addEventListener('click', () => {
  navigator.clipboard.writeText('from the view').then(() => report('copy', 'written'), (error) => report('copy', 'refused: ' + error.name)).finally(() => report('done', true));
});
report('ready', true);
</script></body></html>`;

for (const granted of [true, false])
  test(`a view ${granted ? 'granted geolocation and clipboard writing may use them' : 'granted no device (control) may use none'}; camera and microphone stay off`, async ({
    harnessPage: page,
  }) => {
    await call(
      page,
      'mountView',
      'd',
      DEVICE_VIEW,
      granted ? { devices: ['geolocation', 'clipboard-write'] } : {},
    );
    await expect
      .poll(async () => (await logsOf(page, 'd', 'view')).some((entry) => entry.step === 'ready'))
      .toBe(true);
    await page.frameLocator('iframe[data-instance-id="d"]').frameLocator('iframe').locator('#copy').click();
    const seen = await outcomes(page, 'd');
    expect(seen['policy geolocation']).toBe(String(granted));
    expect(seen['policy clipboard-write']).toBe(String(granted));
    expect(seen['policy camera']).toBe('false');
    expect(seen['policy microphone']).toBe('false');
    if (granted) expect(seen.copy).toBe('written');
    else expect(seen.copy).toBe('refused: NotAllowedError');
    const allow = await page.locator('iframe[data-instance-id="d"]').getAttribute('allow');
    expect(allow).toContain(granted ? 'clipboard-write *' : "clipboard-write 'none'");
  });
