/**
 * MiniApp pages: the entry HTML and the kept files become what a frame runs, or are refused with the reason before
 * anything mounts; the mounted page speaks `page` messages and fills its place. What a running page can reach (no
 * network but what was granted, a navigation removes it, the SDK's client works unchanged) is proven in Chromium
 * (e2e/containment.spec.ts, e2e/miniapp-page.spec.ts).
 */
import { LineUpProtocolError } from '@lineup/shared';
import { MINIAPP_PAGE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { miniAppPageFromFiles, mountMiniAppPage } from './miniapp-page.js';

const encoder = new TextEncoder();
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)] as const));

/** What Vite builds for a MiniApp (the SDK's plugin refuses chunks, so there is one module). */
const VITE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Pomodoro</title>
    <link rel="icon" href="data:," />
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-def.css">
    <link rel="modulepreload" href="./assets/index-abc.js">
  </head>
  <body>
    <main id="app"><img src="./assets/logo.svg" alt="logo"></main>
    <script>window.classic = 1;</script>
    <script type="application/json" id="config">{"a":1}</script>
    <style>main { color: red }</style>
  </body>
</html>`;

const BUNDLE = files({
  'index.html': VITE_PAGE,
  'assets/index-abc.js': 'document.getElementById("app").dataset.ready = "yes";',
  'assets/index-def.css': 'body { margin: 0 }',
  'assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LineUpProtocolError);
    const issue = (error as LineUpProtocolError).issues[0];
    expect(issue?.path).toBe('index.html');
    return issue?.message ?? '';
  }
  throw new Error('expected a refusal');
}

describe('miniAppPageFromFiles', () => {
  it('reads the scripts, stylesheets and images a built page names from the verified files', () => {
    const page = miniAppPageFromFiles('index.html', BUNDLE);
    expect(page.modules).toEqual(['document.getElementById("app").dataset.ready = "yes";']);
    expect(page.js).toBe('window.classic = 1;');
    expect(page.css).toBe('body { margin: 0 }\nmain { color: red }');
    expect(page.html).toContain('<main id="app"><img src="data:image/svg+xml;base64,');
    // A data block stays in the markup (inert); no script or link does.
    expect(page.html).toContain('<script type="application/json" id="config">');
    expect(page.html).not.toMatch(/<link|index-abc|<style/);
  });

  it('reads a page in a folder against its own path', () => {
    const page = miniAppPageFromFiles(
      'app/index.html',
      files({ 'app/index.html': '<script src="../main.js"></script><p>x</p>', 'main.js': 'window.x = 1' }),
    );
    expect(page).toEqual({ html: '<p>x</p>', css: '', js: 'window.x = 1', modules: [] });
  });

  it('refuses what it cannot hold, with the reason, before anything mounts', () => {
    expect(refusal(() => miniAppPageFromFiles('index.html', files({})))).toBe(
      'The bundle has no entry page index.html.',
    );
    const page = (html: string, more: Record<string, string> = {}) =>
      miniAppPageFromFiles('index.html', files({ 'index.html': html, ...more }));
    expect(refusal(() => page('<script type="module" src="./missing.js"></script>'))).toBe(
      'index.html names ./missing.js, which the bundle does not have.',
    );
    expect(refusal(() => page('<script src="https://cdn.example.com/lib.js"></script>'))).toMatch(
      /^https:\/\/cdn\.example\.com\/lib\.js is not a file of the bundle/,
    );
    expect(refusal(() => page('<link rel="stylesheet" href="//fonts.example.com/a.css">'))).toMatch(
      /is not a file of the bundle/,
    );
    expect(refusal(() => page('<link rel="alternate" href="/feed">'))).toBe(
      'A MiniApp page loads nothing by <link rel="alternate">; only stylesheets are read.',
    );
    expect(refusal(() => page('<link rel="stylesheet">'))).toMatch(/without an href/);
    expect(refusal(() => page('<main><iframe src="about:blank"></iframe></main>'))).toMatch(
      /cannot contain frames/,
    );
    expect(refusal(() => page('<object data="x"></object>'))).toMatch(/cannot contain frames/);
  });

  it('keeps an image that is no file of the bundle as it is: the policy (img-src data: blob:) decides on it', () => {
    expect(
      miniAppPageFromFiles('index.html', files({ 'index.html': '<img src="https://example.com/a.png">' }))
        .html,
    ).toBe('<img src="https://example.com/a.png">');
    const page = miniAppPageFromFiles(
      'index.html',
      files({ 'index.html': '<img src="data:image/png;base64,AA==">' }),
    );
    expect(page.html).toBe('<img src="data:image/png;base64,AA==">');
  });
});

describe('mountMiniAppPage', () => {
  const PAGE = { html: '<main id="app"></main>', css: '', js: '', modules: ['export {}'] };
  afterEach(() => document.body.replaceChildren());

  it('mounts a contained frame that fills its place, built for the page with its fragment', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const handle = mountMiniAppPage(container, {
      instanceId: 'pomodoro.1',
      name: 'Pomodoro',
      page: PAGE,
      fragment: 'lang=en-US&lineup-instance=pomodoro.1',
      onMessage: () => {},
    });
    const frame = container.querySelector('iframe');
    expect(frame).toBe(handle.frame);
    expect(frame?.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame?.title).toBe('Pomodoro');
    expect(frame?.style.height).toBe('100%');
    // The prelude's configuration carries the page (no start crosses), with its protocol and fragment.
    const wrapper = frame?.getAttribute('srcdoc') ?? '';
    expect(wrapper).toContain('&quot;protocol&quot;:&quot;miniapp&quot;');
    expect(wrapper).toContain('lineup-instance=pomodoro.1');
    expect(wrapper).toContain("connect-src 'none'");
    expect(handle.ready).toBe(false);
    handle.close();
    handle.close();
    expect(handle.closed).toBe(true);
    expect(container.childElementCount).toBe(0);
    expect(() => handle.send({ type: 'x' })).toThrow(TypeError);
  });

  it('admits exactly the granted origins, and refuses a domain it cannot take', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const handle = mountMiniAppPage(container, {
      instanceId: 'pomodoro.2',
      name: 'Pomodoro',
      page: PAGE,
      fragment: 'lineup-instance=pomodoro.2',
      onMessage: () => {},
      connectDomains: ['https://api.example.com', 'https://api.example.com'],
    });
    expect(handle.frame.getAttribute('srcdoc')).toContain('connect-src https://api.example.com;');
    handle.close();
    for (const domain of ["'self'", 'https://api.example.com/path', 'http://example.com', '*'])
      expect(() =>
        mountMiniAppPage(container, {
          instanceId: 'pomodoro.3',
          name: 'Pomodoro',
          page: PAGE,
          fragment: 'lineup-instance=pomodoro.3',
          onMessage: () => {},
          connectDomains: [domain],
        }),
      ).toThrow(TypeError);
    expect(container.childElementCount).toBe(0);
  });

  it('sends only a message within the bound, and holds it until the page is ready', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const handle = mountMiniAppPage(container, {
      instanceId: 'pomodoro.4',
      name: 'Pomodoro',
      page: PAGE,
      fragment: 'lineup-instance=pomodoro.4',
      onMessage: () => {},
    });
    expect(() => handle.send({ text: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes) })).toThrow(
      LineUpProtocolError,
    );
    expect(() => handle.send({ namespace: 'lineup.miniapp.v1', type: 'lifecycle' })).not.toThrow();
    handle.close();
  });

  it('refuses a page over its bound or a fragment over its length, and mounts nothing', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const base = { instanceId: 'pomodoro.5', name: 'P', onMessage: () => {} };
    expect(() =>
      mountMiniAppPage(container, {
        ...base,
        page: { ...PAGE, js: 'x'.repeat(2_000) },
        fragment: 'lineup-instance=pomodoro.5',
        maxBytes: 1_000,
      }),
    ).toThrow(/The page is \d+ bytes of HTML, CSS and scripts; this host runs pages of at most 1000/);
    expect(() =>
      mountMiniAppPage(container, {
        ...base,
        page: PAGE,
        fragment: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength + 1),
      }),
    ).toThrow(TypeError);
    expect(container.childElementCount).toBe(0);
  });
});
