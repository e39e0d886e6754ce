import { call, expect, test } from './fixtures.ts';
import type { Recorder } from './recorder.ts';

/**
 * What a Surface may do, in Chromium through the built package: events up, state down, patch, resize, close;
 * and what it may not: take keyboard focus, flood the host, or get the state through its window.
 */

const WEATHER = {
  html: '<main><h1 id="city">…</h1><button id="refresh">Refresh</button><a href="#more">More</a><p id="more" style="margin-top:2000px">more</p></main>',
  css: 'main { padding: 8px; font-family: sans-serif }',
  js: `LineUpSurface.onState(function (state) { document.getElementById('city').textContent = state.city; LineUpSurface.event('state', state); });
document.getElementById('refresh').onclick = function () { LineUpSurface.event('refresh', { unit: 'c' }); };
LineUpSurface.resize(180);`,
};

const leakedNothing = (recorder: Recorder) => {
  const traffic = recorder.traffic();
  return traffic.connections + traffic.httpRequests + traffic.webSockets + traffic.udpPackets === 0;
};

const surface = (page: Parameters<typeof call>[0], id: string) =>
  page.frameLocator(`iframe[title="Surface ${id}"]`).frameLocator('iframe');

test.describe('a contained Surface works', () => {
  test('state in, events out, patch, resize, fragment link, close', async ({
    harnessPage: page,
    recorder,
  }) => {
    await call(page, 'mount', 'w', WEATHER, { city: '北京' });
    const frame = surface(page, 'w');
    await expect(frame.locator('#city')).toHaveText('北京');
    await expect.poll(() => call(page, 'frameHeight', 'w')).toBe(180);
    await frame.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => call(page, 'events', 'w'))
      .toContainEqual({ instance_id: 'w', event: 'refresh', data: { unit: 'c' } });
    await call(page, 'patch', 'w', { city: '上海' });
    await expect(frame.locator('#city')).toHaveText('上海');
    // A fragment link scrolls within the Surface and leaves it in place.
    await frame.getByRole('link', { name: 'More' }).click();
    await expect(frame.locator('#more')).toBeInViewport();
    expect(await call(page, 'isMounted', 'w')).toBe(true);
    await page.screenshot({ path: 'test-results/surface-contained.png' });
    await call(page, 'close', 'w');
    expect(await call(page, 'isMounted', 'w')).toBe(false);
    expect(await call(page, 'rejections', 'w')).toEqual([]);
    expect(recorder.traffic().connections).toBe(0);
  });

  test('a Trusted Types policy of its own writes allowed HTML (as Svelte and Vue make one); its scripts are refused', async ({
    harnessPage: page,
    recorder,
  }) => {
    await call(
      page,
      'mount',
      'own',
      {
        html: '<main id="out"></main>',
        css: '',
        js: `var seen = {};
var own = trustedTypes.createPolicy('svelte-trusted-html', { createHTML: function (html) { return html; } });
seen.name = own.name;
document.getElementById('out').innerHTML = own.createHTML('<p id="made"><b>made</b> by its own policy</p>');
try { own.createScript('1'); seen.script = 'made'; } catch (error) { seen.script = error.name; }
try { document.getElementById('out').innerHTML += own.createHTML('<iframe></iframe>'); seen.frame = 'made'; } catch (error) { seen.frame = error.name; }
var second = trustedTypes.createPolicy('svelte-trusted-html', { createHTML: function (html) { return html.toUpperCase(); } });
seen.second = second.createHTML('x').toString();
try { own.createScriptURL('data:text/javascript,1'); seen.url = 'made'; } catch (error) { seen.url = error.name; }
var bare = trustedTypes.createPolicy('no-rules');
try { bare.createHTML('<p>x</p>'); seen.bare = 'made'; } catch (error) { seen.bare = error.name; }
var asDefault = trustedTypes.createPolicy('default', { createHTML: function (html) { return html; } });
seen.defaultName = trustedTypes.defaultPolicy.name + '/' + asDefault.name;
try { document.getElementById('out').innerHTML += '<embed src="x">'; seen.sink = 'made'; } catch (error) { seen.sink = error.name; }
LineUpSurface.event('seen', seen);`,
      },
      {},
    );
    await expect(surface(page, 'own').locator('#made')).toHaveText('made by its own policy');
    await expect
      .poll(() => call(page, 'events', 'own'))
      .toContainEqual({
        instance_id: 'own',
        event: 'seen',
        data: {
          name: 'lineup-surface-own',
          script: 'TypeError',
          frame: 'TypeError',
          second: 'X',
          url: 'TypeError',
          bare: 'TypeError',
          // Asking for the name "default" makes another policy of its own: the page's default policy stays the
          // containment's, and a string written to a sink still goes through its check.
          defaultName: 'default/lineup-surface-own',
          sink: 'TypeError',
        },
      });
    expect(await call(page, 'isMounted', 'own')).toBe(true);
    expect(leakedNothing(recorder)).toBe(true);
  });

  test('mounting says nothing to the console about the permissions policy (every feature is one the browser knows)', async ({
    harnessPage: page,
  }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (/feature|permissions policy/i.test(message.text())) warnings.push(message.text());
    });
    await call(page, 'mount', 'p', WEATHER, { city: '北京' });
    await expect(surface(page, 'p').locator('#city')).toHaveText('北京');
    await call(page, 'mount', 'q', WEATHER, { city: '上海' });
    await expect(surface(page, 'q').locator('#city')).toHaveText('上海');
    await call(page, 'close', 'p');
    await call(page, 'close', 'q');
    expect(warnings).toEqual([]);
  });

  // Chromium opens a connection to a link's host when the user presses the pointer on it; links to other pages
  // lose their target as soon as they appear, however they are made.
  for (const [name, js] of [
    ['in the markup', ''],
    [
      'added later by a script, forced visible',
      `setTimeout(function () { var a = document.createElement('a'); a.textContent = 'Docs'; a.style.setProperty('pointer-events', 'auto', 'important'); document.body.appendChild(a); a.href = 'http://127.0.0.1:{{HTTP}}/late'; }, 50);`,
    ],
    [
      'inside a shadow root',
      `var host = document.createElement('div'); document.body.appendChild(host); host.attachShadow({ mode: 'open' }).innerHTML = '<a href="http://127.0.0.1:{{HTTP}}/shadow">Docs</a>';`,
    ],
  ] as const) {
    test(`a user pressing a link ${name} reaches nothing and keeps the Surface`, async ({
      harnessPage: page,
      recorder,
    }) => {
      await call(page, 'mount', 'links', {
        html:
          name === 'in the markup'
            ? recorder.fill('<a href="http://127.0.0.1:{{HTTP}}/clicked">Docs</a>')
            : '',
        css: '',
        js: recorder.fill(js),
      });
      const link = surface(page, 'links').getByText('Docs');
      await expect(link).toHaveAttribute('data-lineup-href', /127\.0\.0\.1/);
      const box = await link.boundingBox();
      if (box === null) throw new Error('the link is not visible');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.up();
      await page.mouse.down({ button: 'middle' });
      await page.mouse.up({ button: 'middle' });
      await page.waitForTimeout(400);
      expect(await call(page, 'isMounted', 'links')).toBe(true);
      expect(leakedNothing(recorder)).toBe(true);
    });
  }

  test('never gets the state through its window, only through the port', async ({ harnessPage: page }) => {
    await call(
      page,
      'mount',
      'port',
      {
        html: '',
        css: '',
        js: `var windowMessages = 0;
addEventListener('message', function () { windowMessages++; }, true);
LineUpSurface.onState(function (state) { LineUpSurface.event('seen', { n: state.n, windowMessages: windowMessages }); });`,
      },
      { n: 1 },
    );
    await expect.poll(() => call(page, 'events', 'port')).toHaveLength(1);
    await call(page, 'patch', 'port', { n: 2 });
    await expect
      .poll(() => call(page, 'events', 'port'))
      .toEqual([
        { instance_id: 'port', event: 'seen', data: { n: 1, windowMessages: 0 } },
        { instance_id: 'port', event: 'seen', data: { n: 2, windowMessages: 0 } },
      ]);
  });
});

/** Reports the width the bundle sees when it first runs: its window's, and its body's. */
const MEASURE = {
  html: '<main>measure</main>',
  css: '',
  js: `LineUpSurface.event('done', { window: innerWidth, body: document.body.getBoundingClientRect().width });`,
};

for (const mode of ['warm', 'pool', 'cold', 'reference'] as const)
  test.describe(`a Surface measures its place when it starts (${mode} frame)`, () => {
    test.use({ harnessMode: mode });
    test('the bundle first runs at the width of the place it opened in, at each width', async ({
      harnessPage: page,
    }) => {
      const seen: { width: number; window: number; warm: boolean }[] = [];
      for (const [index, width] of [320, 731, 1100, 497.5, 1180].entries()) {
        await page.evaluate((width) => {
          (document.getElementById('slots') as HTMLElement).style.width = `${width}px`;
        }, width);
        const id = `measure-${index}`;
        await call(page, 'mount', id, MEASURE);
        await expect.poll(() => call(page, 'events', id)).toHaveLength(1);
        const [event] = await call(page, 'events', id);
        const place = await page.evaluate(
          (id) => (document.querySelector(`.slot[data-id="${id}"]`) as HTMLElement).clientWidth,
          id,
        );
        const data = event?.data as { window: number; body: number };
        seen.push({ width: place, window: data.window, warm: await call(page, 'wasWarm', id) });
        expect(Math.abs(data.window - place), `window width at start, place ${place}`).toBeLessThanOrEqual(1);
        expect(data.body).toBeGreaterThan(0);
        await call(page, 'discard', id);
        // The pool loads the next spare once the host is idle.
        await page.waitForTimeout(800);
      }
      // The first Surface took the spare the fixture waited for; a frame of its own in cold.
      expect(seen[0]?.warm).toBe(mode !== 'cold');
    });
  });

test.describe('a Surface by reference', () => {
  test.use({ harnessMode: 'reference' });

  test('runs from its files in the same frame, and only its declared events reach the host', async ({
    harnessPage: page,
  }) => {
    await call(
      page,
      'mount',
      'r',
      {
        html: '<main id="out">waiting</main>',
        css: 'main{color:rgb(1, 2, 3)}',
        js: "document.getElementById('out').textContent = 'ran'; LineUpSurface.event('steal', { x: 1 }); LineUpSurface.event('done', {});",
      },
      {},
    );
    await expect
      .poll(() => call(page, 'events', 'r'))
      .toEqual([{ instance_id: 'r', event: 'done', data: {} }]);
    expect(await call(page, 'rejections', 'r')).toContainEqual({
      reason: 'undeclared_event',
      event: 'steal',
      count: 1,
    });
    const frame = page.frameLocator('iframe[title="Surface r"]').frameLocator('iframe');
    await expect(frame.locator('#out')).toHaveText('ran');
    await expect(frame.locator('#out')).toHaveCSS('color', 'rgb(1, 2, 3)');
  });
});

test("a Surface cannot move the host's history", async ({ harnessPage: page, recorder }) => {
  await page.evaluate(() => {
    history.pushState({ n: 1 }, '', '#one');
    history.pushState({ n: 2 }, '', '#two');
  });
  await call(page, 'mount', 'history', {
    html: '',
    css: '',
    js: `setTimeout(function () { history.back(); }, 50);
setTimeout(function () { history.go(-2); }, 150);
setTimeout(function () { LineUpSurface.event('done', {}); }, 400);`,
  });
  await expect.poll(() => call(page, 'events', 'history')).toHaveLength(1);
  await page.waitForTimeout(300);
  expect(new URL(page.url()).hash).toBe('#two');
  expect(await call(page, 'isMounted', 'history')).toBe(true);
  expect(leakedNothing(recorder)).toBe(true);
});

test.describe('keyboard focus', () => {
  /** A Surface that keeps trying to take focus, and reports every key it sees and what its input holds. */
  const THIEF = {
    html: '<input id="field" aria-label="Surface field">',
    css: '',
    js: `var seen = '';
var field = document.getElementById('field');
['keydown', 'keypress', 'input'].forEach(function (type) { document.addEventListener(type, function (event) { seen += event.key || event.data || ''; }, true); });
setInterval(function () { field.focus(); window.focus(); }, 15);
setInterval(function () { try { LineUpSurface.event('keys', { seen: seen, value: field.value }); } catch (e) {} }, 150);`,
  };
  const lastKeys = async (page: Parameters<typeof call>[0], id: string) =>
    (await call(page, 'events', id)).filter((event) => event.event === 'keys').at(-1)?.data;

  test('a Surface cannot take focus from the host, nor see what the user types there', async ({
    harnessPage: page,
  }) => {
    await call(page, 'mount', 'thief', THIEF);
    await page.locator('#secret').click();
    await page.keyboard.type('hunter2', { delay: 40 });
    await expect.poll(() => lastKeys(page, 'thief')).toBeDefined();
    await page.waitForTimeout(300);
    expect(await lastKeys(page, 'thief')).toEqual({ seen: '', value: '' });
    expect(await call(page, 'hostKeys')).toEqual([...'hunter2']);
    expect(await page.locator('#secret').inputValue()).toBe('hunter2');
  });

  test('control: an uncontained frame takes focus and reads the keys', async ({ harnessPage: page }) => {
    await call(page, 'mountControl', 'control', THIEF);
    await page.locator('#secret').click();
    await page.keyboard.type('hunter2', { delay: 40 });
    await expect.poll(async () => (await lastKeys(page, 'control'))?.seen).toMatch(/h|u|n|t|e|r|2/);
  });

  test('the user clicking into the Surface gives it the keys', async ({ harnessPage: page }) => {
    await call(page, 'mount', 'typed', {
      ...THIEF,
      js: THIEF.js.replace('setInterval(function () { field.focus(); window.focus(); }, 15);', ''),
    });
    await surface(page, 'typed').getByRole('textbox', { name: 'Surface field' }).click();
    await page.keyboard.type('hello', { delay: 20 });
    await expect.poll(() => lastKeys(page, 'typed')).toMatchObject({ value: 'hello' });
    expect(await call(page, 'rejections', 'typed')).toEqual([]);
  });

  test('the user tabbing into the Surface gives it the keys', async ({ harnessPage: page }) => {
    await call(page, 'mount', 'tabbed', {
      ...THIEF,
      js: THIEF.js.replace('setInterval(function () { field.focus(); window.focus(); }, 15);', ''),
    });
    // The Surface has started (it reports every 150 ms) before the user tabs into it.
    await expect.poll(() => lastKeys(page, 'tabbed')).toBeDefined();
    await page.locator('#host-button').focus();
    await page.keyboard.press('Tab');
    // The grant travels to the frame over its port: type once the Surface's field really has the focus.
    await expect(surface(page, 'tabbed').getByRole('textbox', { name: 'Surface field' })).toBeFocused();
    await page.keyboard.type('tab', { delay: 30 });
    await expect.poll(() => lastKeys(page, 'tabbed')).toMatchObject({ value: 'tab' });
  });
});

test.describe('floods cannot freeze the host', () => {
  test('5,000 events: the burst gets through, the rest is refused and reported with a count', async ({
    harnessPage: page,
  }) => {
    await call(page, 'mount', 'events', {
      html: '',
      css: '',
      js: `var refused = 0; var started = performance.now();
for (var i = 0; i < 5000; i++) { try { LineUpSurface.event('tick', { i: i }); } catch (e) { refused++; } }
var seconds = (performance.now() - started) / 1000;
setTimeout(function () { LineUpSurface.event('summary', { refused: refused, seconds: seconds }); }, 1200);`,
    });
    await expect
      .poll(() => call(page, 'events', 'events'))
      .toContainEqual(expect.objectContaining({ event: 'summary' }));
    const events = await call(page, 'events', 'events');
    const ticks = events.filter((event) => event.event === 'tick').length;
    const summary = events.at(-1)?.data as { refused: number; seconds: number };
    // The bridge let through the burst of 20 and what the rate of 10 per second refilled while the loop ran;
    // the host, which keeps its own count, drops what it finds over the rate and reports it.
    const accepted = 5_000 - summary.refused;
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(summary.seconds * 10));
    expect(ticks).toBeGreaterThanOrEqual(20);
    expect(ticks).toBeLessThanOrEqual(accepted);
    const dropped = (await call(page, 'rejections', 'events'))
      .filter((rejection) => rejection.reason === 'rate_limited')
      .reduce((sum, rejection) => sum + ('count' in rejection ? rejection.count : 0), 0);
    expect(dropped).toBe(accepted - ticks);
  });

  test('a resize loop (content that grows when its frame shrinks) settles: the host holds it and reports it', async ({
    harnessPage: page,
  }) => {
    // Every animation frame the Surface asks for 40 px more or less than its frame has: a loop without end.
    await call(page, 'mount', 'loop', {
      html: '<main id="box" style="height:100px"></main>',
      css: '',
      js: `var up = true; function step() { LineUpSurface.resize(up ? 320 : 280); up = !up; requestAnimationFrame(step); }
requestAnimationFrame(step);`,
    });
    await expect
      .poll(async () =>
        (await call(page, 'rejections', 'loop')).some((rejection) => rejection.reason === 'resize_throttled'),
      )
      .toBe(true);
    // Held: for most of a second the height stays put while the Surface keeps asking.
    const heights: (number | null)[] = [];
    for (let index = 0; index < 8; index++) {
      heights.push(await call(page, 'frameHeight', 'loop'));
      await page.waitForTimeout(50);
    }
    expect(new Set(heights).size).toBeLessThanOrEqual(2);
    expect(await call(page, 'isMounted', 'loop')).toBe(true);
  });

  test('a small shrink is ignored; a growth and a real shrink are applied', async ({ harnessPage: page }) => {
    // The host drives each step with a patch; the Surface asks for that height, then says so two frames later.
    await call(
      page,
      'mount',
      'shrink',
      {
        html: '',
        css: '',
        js: `LineUpSurface.onState(function (state) {
  LineUpSurface.resize(state.h);
  requestAnimationFrame(function () { requestAnimationFrame(function () { LineUpSurface.event('asked', { h: state.h }); }); });
});`,
      },
      { h: 300 },
    );
    const asked = async (h: number) =>
      expect
        .poll(async () => (await call(page, 'events', 'shrink')).map((event) => event.data))
        .toContainEqual({ h });
    await asked(300);
    await expect.poll(() => call(page, 'frameHeight', 'shrink')).toBe(300);
    await call(page, 'patch', 'shrink', { h: 296 });
    await asked(296);
    await page.waitForTimeout(100);
    expect(await call(page, 'frameHeight', 'shrink')).toBe(300);
    await call(page, 'patch', 'shrink', { h: 200 });
    await asked(200);
    await expect.poll(() => call(page, 'frameHeight', 'shrink')).toBe(200);
    await call(page, 'patch', 'shrink', { h: 201 });
    await expect.poll(() => call(page, 'frameHeight', 'shrink')).toBe(201);
    expect(await call(page, 'rejections', 'shrink')).toEqual([]);
  });

  test('window messages are never read; a flood of them removes the Surface', async ({
    harnessPage: page,
  }) => {
    await call(page, 'mount', 'flood', {
      html: '',
      css: '',
      js: `var ns = 'lineup.surface.v1';
LineUpSurface.event('before', {});
setTimeout(function () {
  for (var i = 0; i < 5000; i++) { top.postMessage({ namespace: ns, type: 'ready' }, '*'); parent.parent.postMessage({ namespace: ns, type: 'event', instance_id: 'flood', event: 'x', data: { big: 'x'.repeat(1000) } }, '*'); }
}, 100);`,
    });
    // The host stays responsive while the flood is delivered: a click on the host is handled.
    await page.locator('#host-button').click();
    await expect.poll(() => call(page, 'isMounted', 'flood')).toBe(false);
    const rejections = await call(page, 'rejections', 'flood');
    expect(rejections.at(-1)).toEqual({ reason: 'flooded' });
    expect(
      rejections.filter((rejection) => rejection.reason === 'foreign_message').length,
    ).toBeLessThanOrEqual(2);
    expect(await call(page, 'events', 'flood')).toEqual([
      { instance_id: 'flood', event: 'before', data: {} },
    ]);
  });
});
