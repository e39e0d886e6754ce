import type { Frame, Page } from '@playwright/test';
import { expect, shownConversation, test } from './fixtures.ts';

/**
 * Inline Surfaces in Chromium (seed 000 §2, §4): the sandbox, the CSP, the bridge in both directions, and a
 * hostile bundle that finds every door closed.
 */

const PASTE = 'Document or lineup.v1 message (JSON)';

function envelope(type: string, payload: object, id = `msg_${Math.random().toString(36).slice(2)}`) {
  return {
    v: 1,
    id,
    type,
    conversation_id: 'conv_shown', // replaced by the conversation shown when delivered
    sender: { kind: 'agent', id: 'agent_e2e' },
    payload,
  };
}

async function deliver(page: Page, message: object) {
  const conversation_id = await shownConversation(page);
  await page.getByLabel(PASTE).fill(JSON.stringify({ ...message, conversation_id }));
  await page.getByRole('button', { name: 'Deliver' }).click();
}

function openSurface(instance_id: string, js: string, html = '<main id="out">waiting</main>') {
  return envelope('lineup.v1.ui.open', {
    instance_id,
    app: { id: 'com.example.probe', name: `Probe ${instance_id}`, version: '1.0.0', html, css: '', js },
    state: { step: 1 },
  });
}

/** The frame the Surface runs in: inside the host's wrapper frame, which has the same title. */
async function surfaceFrame(page: Page, name: string): Promise<Frame> {
  const element = await page.getByTitle(name).elementHandle();
  const frame = (await element?.contentFrame())?.childFrames()[0];
  if (!frame) throw new Error(`No frame titled ${name}`);
  return frame;
}

/** A locator inside the Surface titled `name`. */
const surface = (page: Page, name: string) =>
  page.frameLocator(`iframe[title="${name}"]`).frameLocator('iframe');

/** The notes about Surfaces: the inventory the runtime sends when the conversation opens is not one. */
const notes = (page: Page) =>
  page.locator('.host__note').filter({ hasNotText: 'lineup.v1.client.inventory' });

test.describe('inline Surfaces', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Agent: connected (demo agent)')).toBeVisible();
  });

  test('the weather example: sandboxed srcdoc, state in, events out, patch, user close', async ({ page }) => {
    await page.getByRole('button', { name: 'Inline Surface' }).click();
    const iframe = page.getByTitle('Weather dashboard');
    await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
    await expect(iframe).toHaveAttribute('srcdoc', /Content-Security-Policy/);
    expect(await iframe.getAttribute('src')).toBeNull();
    const frame = surface(page, 'Weather dashboard');
    await expect(frame.locator('#city')).toHaveText('Beijing');
    await expect(frame.locator('#temperature')).toHaveText('22');
    // The Surface asked for its content height (LineUpSurface.resize); the host sized the frame to it.
    await expect.poll(async () => (await iframe.boundingBox())?.height).toBeLessThan(200);

    await frame.getByRole('button', { name: 'Refresh' }).click();
    await expect(notes(page).last()).toHaveText(
      '→ agent lineup.v1.ui.event weather.dashboard.01 refresh {"unit":"c"}',
    );

    await deliver(
      page,
      envelope('lineup.v1.ui.patch', {
        instance_id: 'weather.dashboard.01',
        state: { city: 'Shanghai', temperature: 28 },
      }),
    );
    await expect(frame.locator('#city')).toHaveText('Shanghai');
    await expect(frame.locator('#temperature')).toHaveText('28');
    await page.screenshot({ path: 'test-results/surface.png', fullPage: true });

    // A patch that tries to carry code is not a patch: refused before it reaches the frame.
    await deliver(
      page,
      envelope('lineup.v1.ui.patch', { instance_id: 'weather.dashboard.01', state: {}, js: 'alert(1)' }),
    );
    await expect(page.locator('.host__note--refused').last()).toContainText('Invalid message at payload');
    await expect(notes(page).last()).toContainText(
      '"reason":"invalid_message","issues":[{"path":"payload","code":"unknown_property"',
    );
    await expect(frame.locator('#city')).toHaveText('Shanghai');

    await page.getByRole('button', { name: 'Close Weather dashboard' }).click();
    await expect(iframe).toHaveCount(0);
    await expect(notes(page).last()).toHaveText('→ agent lineup.v1.ui.event weather.dashboard.01 close {}');
  });

  test('opening the same instance id replaces it; the agent can close it', async ({ page }) => {
    await deliver(page, openSurface('probe.replace', "document.getElementById('out').textContent = 'v1'"));
    await expect(surface(page, 'Probe probe.replace').locator('#out')).toHaveText('v1');
    await deliver(page, openSurface('probe.replace', "document.getElementById('out').textContent = 'v2'"));
    await expect(page.locator('.host__surface iframe')).toHaveCount(1);
    // The replacement detaches the frame that showed v1: a wait that started in it ends with that frame, so the
    // text is read again until the new frame shows it.
    await expect
      .poll(() =>
        surface(page, 'Probe probe.replace')
          .locator('#out')
          .textContent({ timeout: 1_000 })
          .catch(() => null),
      )
      .toBe('v2');
    await deliver(
      page,
      envelope('lineup.v1.ui.close', { instance_id: 'probe.replace', reason: 'completed' }),
    );
    await expect(page.locator('.host__surface iframe')).toHaveCount(0);
    await expect(notes(page)).toHaveCount(0);
  });

  test.describe('a hostile Surface', () => {
    // The CSP and the sandbox report each blocked request to the frame's console: those errors are the point.
    test.use({
      allowedConsoleErrors:
        /Content Security Policy|Refused to|ERR_BLOCKED|Failed to load resource|Blocked opening/,
    });

    test('cannot reach the host, its storage, the network or a capability', async ({ page }) => {
      const probe = `
        (async function () {
          var results = {};
          function attempt(name, fn) { try { fn(); results[name] = 'allowed'; } catch (e) { results[name] = 'blocked'; } }
          attempt('parentDocument', function () { return parent.document.title; });
          attempt('topLocation', function () { return top.location.href; });
          attempt('cookie', function () { return document.cookie; });
          attempt('localStorage', function () { return localStorage.length; });
          attempt('indexedDB', function () { indexedDB.open('x'); });
          try { await fetch('http://127.0.0.1:4173/'); results.fetch = 'allowed'; } catch (e) { results.fetch = 'blocked'; }
          results.image = await new Promise(function (resolve) {
            var image = new Image();
            image.onload = function () { resolve('allowed'); };
            image.onerror = function () { resolve('blocked'); };
            image.src = 'http://127.0.0.1:4173/favicon.svg';
          });
          try { results.popup = window.open('about:blank') ? 'allowed' : 'blocked'; } catch (e) { results.popup = 'blocked'; }
          results.appCall = typeof LineUpSurface.call === 'undefined' ? 'absent' : 'present';
          LineUpSurface.event('probe', results);
        })();`;
      await deliver(page, openSurface('probe.hostile', probe));
      const note = notes(page).last();
      await expect(note).toContainText('probe');
      const data = JSON.parse((await note.locator('code').textContent())!.replace(/^.*? probe /, ''));
      expect(data).toEqual({
        parentDocument: 'blocked',
        topLocation: 'blocked',
        cookie: 'blocked',
        localStorage: 'blocked',
        indexedDB: 'blocked',
        fetch: 'blocked',
        image: 'blocked',
        popup: 'blocked',
        appCall: 'absent',
      });
    });

    test('cannot forge events for another instance, forge a user close, or reach the host by window', async ({
      page,
    }) => {
      const forge = `
        var ns = 'lineup.surface.v1';
        top.postMessage({ namespace: ns, type: 'event', instance_id: 'weather.dashboard.01', event: 'refresh', data: {} }, '*');
        top.postMessage({ namespace: ns, type: 'event', instance_id: 'probe.forge', event: 'close', data: {} }, '*');
        top.postMessage({ namespace: ns, type: 'ready', instance_id: 'probe.forge' }, '*');
        parent.postMessage({ namespace: 'lineup.miniapp.v1', type: 'ready', instance_id: 'probe.forge' }, '*');
        try { LineUpSurface.event('close', {}); } catch (e) { LineUpSurface.event('bridge', { refused: e.name }); }`;
      await deliver(page, openSurface('probe.forge', forge));
      // The window messages are never read: one report at once, the rest within the second.
      await expect(notes(page)).toHaveCount(3);
      const texts = await notes(page).allTextContents();
      expect(texts.filter((text) => text.startsWith('refused'))).toEqual([
        'refused Ignored 1 window message from Surface probe.forge.',
        'refused Ignored 2 window messages from Surface probe.forge.',
      ]);
      expect(texts.filter((text) => text.startsWith('→ agent'))).toEqual([
        '→ agent lineup.v1.ui.event probe.forge bridge {"refused":"TypeError"}',
      ]);
    });

    test('is removed when it navigates its frame away from the Surface document', async ({ page }) => {
      await deliver(
        page,
        openSurface(
          'probe.navigate',
          "setTimeout(function () { location.href = 'http://127.0.0.1:4173/'; }, 50);",
        ),
      );
      await expect(notes(page).last()).toHaveText(
        'refused Surface probe.navigate tried to leave its document and was removed.',
      );
      await expect(page.locator('.host__surface iframe')).toHaveCount(0);
    });
  });

  test('runs the bridge that the built host injected (no bundler helpers leak into the frame)', async ({
    page,
  }) => {
    await deliver(
      page,
      openSurface(
        'probe.bridge',
        "LineUpSurface.onState(function (s) { LineUpSurface.event('state', s); });",
      ),
    );
    await expect(notes(page).last()).toHaveText('→ agent lineup.v1.ui.event probe.bridge state {"step":1}');
    const frame = await surfaceFrame(page, 'Probe probe.bridge');
    expect(
      await frame.evaluate(() =>
        Object.keys((window as unknown as { LineUpSurface: object }).LineUpSurface).sort(),
      ),
    ).toEqual(['event', 'onState', 'resize']);
  });
});
