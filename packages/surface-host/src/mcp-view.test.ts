/**
 * MCP App views: the single HTML file of a view becomes what a frame runs, or is refused with the reason before
 * anything mounts; the mounted view's transport has the MCP SDK's shape. The containment of a running view (no
 * network, `window.parent` never reached, messages only as JSON-RPC) is proven in Chromium (e2e/mcp-view.spec.ts).
 */
import { LineUpProtocolError } from '@lineup/shared';
import { MCP_VIEW_CHANNEL_LIMITS, SURFACE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpViewBundle, mountMcpView, prepareMcpView } from './mcp-view.js';

const VITE_SINGLE_FILE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="color-scheme" content="light dark" />
    <title>Get Time</title>
    <link rel="icon" href="data:," />
    <script type="module" crossorigin>const app = document.getElementById("root"); app.textContent = "</scr" + "ipt>";</script>
    <style rel="stylesheet" crossorigin>:root { color-scheme: light dark } main { padding: 8px }</style>
  </head>
  <body>
    <main id="root"></main>
    <script>window.__classic = 1;</script>
    <script type="application/json" id="data">{"a":1}</script>
    <style>p { margin: 0 }</style>
  </body>
</html>`;

const refusal = (html: string) => {
  try {
    mcpViewBundle(html);
  } catch (error) {
    expect(error).toBeInstanceOf(LineUpProtocolError);
    return (error as LineUpProtocolError).issues[0]?.message ?? '';
  }
  throw new Error('accepted');
};

describe('mcpViewBundle', () => {
  it('splits a single-file view into its body, styles, classic script and module scripts', () => {
    const bundle = mcpViewBundle(VITE_SINGLE_FILE);
    expect(bundle.modules).toEqual([
      'const app = document.getElementById("root"); app.textContent = "</scr" + "ipt>";',
    ]);
    expect(bundle.js).toBe('window.__classic = 1;');
    expect(bundle.css).toBe(':root { color-scheme: light dark } main { padding: 8px }\np { margin: 0 }');
    // The data block stays, inert; nothing of the head (meta, title, icon) comes along.
    expect(bundle.html).toContain('<main id="root"></main>');
    expect(bundle.html).toContain('<script type="application/json" id="data">{"a":1}</script>');
    expect(bundle.html).not.toContain('window.__classic');
    expect(bundle.html).not.toMatch(/<(style|link|meta|title)\b/);
  });

  it('keeps several scripts in document order', () => {
    const bundle = mcpViewBundle(
      '<script type="module">one()</script><script>a()</script><script type="module">two()</script><script type="text/javascript">b()</script>',
    );
    expect(bundle.modules).toEqual(['one()', 'two()']);
    expect(bundle.js).toBe('a()\n;\nb()');
  });

  it.each([
    [
      'a script from a URL',
      '<script src="https://cdn.example.com/app.js"></script>',
      'loads a script from https://cdn.example.com/app.js',
    ],
    ['a module from a URL', '<script type="module" src="./app.js"></script>', 'loads a script from ./app.js'],
    [
      'a stylesheet from a URL',
      '<link rel="stylesheet" href="https://cdn.example.com/a.css">',
      'loads a stylesheet from https://cdn.example.com/a.css',
    ],
    ['a link of an unknown kind', '<link rel="import" href="x.html">', '<link rel="import">'],
    [
      'a frame in the body',
      '<main><iframe src="https://example.com"></iframe></main>',
      'cannot contain frames',
    ],
    ['an object in the body', '<object data="x.swf"></object>', 'cannot contain frames'],
  ])('refuses %s, saying what', (_name, html, words) => {
    expect(refusal(html)).toContain(words);
  });

  it('keeps a stylesheet from a granted resource origin as an @import at the head of the CSS, and no other', () => {
    const html =
      '<head><style>main { color: red }</style><link rel="stylesheet" href="https://cdn.example.com/ui.css"><link rel="stylesheet" href="https://fonts.tiles.example.com:443/f.css"></head><main></main>';
    const bundle = mcpViewBundle(html, {
      resourceDomains: ['https://CDN.example.com', 'https://*.tiles.example.com'],
    });
    expect(bundle.css).toBe(
      '@import url("https://cdn.example.com/ui.css");\n@import url("https://fonts.tiles.example.com/f.css");\nmain { color: red }',
    );
    expect(bundle.html).toBe('<main></main>');
    // Another origin, another port, another scheme, the bare parent of a wildcard, a relative URL: refused.
    for (const href of [
      'https://evil.example.com/ui.css',
      'https://cdn.example.com:8443/ui.css',
      'http://cdn.example.com/ui.css',
      'https://tiles.example.com/f.css',
      './ui.css',
    ])
      expect(() =>
        mcpViewBundle(`<link rel="stylesheet" href="${href}">`, {
          resourceDomains: ['https://cdn.example.com', 'https://*.tiles.example.com'],
        }),
      ).toThrow(LineUpProtocolError);
    // Scripts never come from the network, granted or not.
    expect(() =>
      mcpViewBundle('<script src="https://cdn.example.com/app.js"></script>', {
        resourceDomains: ['https://cdn.example.com'],
      }),
    ).toThrow('loads a script from https://cdn.example.com/app.js');
    expect(() => mcpViewBundle('<main></main>', { resourceDomains: ['wss://live.example.com'] })).toThrow(
      TypeError,
    );
  });

  it('shortens a long URL in its refusal', () => {
    const message = refusal(`<script src="https://cdn.example.com/${'a'.repeat(500)}.js"></script>`);
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message).toContain('...');
  });
});

describe('mountMcpView', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it("refuses a view above the host's bound before anything mounts", () => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = {
      html: '<main></main>',
      css: '',
      js: '',
      modules: ['x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes)],
    };
    expect(() => mountMcpView(container, { instanceId: 'v1', name: 'View', view, maxBytes: 1_000 })).toThrow(
      /this host runs views of at most 1000/,
    );
    expect(container.childElementCount).toBe(0);
  });

  it('mounts a view larger than an inline Surface may be, up to its bound', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = {
      html: '<main></main>',
      css: '',
      js: '',
      modules: ['x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes * 2)],
    };
    const handle = mountMcpView(container, { instanceId: 'v2', name: 'Clock', view });
    expect(handle.frame.getAttribute('title')).toBe('Clock');
    expect(handle.frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(MCP_VIEW_CHANNEL_LIMITS.maxViewBytes).toBeGreaterThan(SURFACE_CHANNEL_LIMITS.maxBundleBytes * 2);
    handle.close();
  });

  it('gives a view granted origins a frame loaded for it, whose policies list exactly those', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = { html: '<main></main>', css: '', js: '', modules: [] };
    const handle = mountMcpView(container, {
      instanceId: 'v3',
      name: 'Map',
      view,
      connectDomains: ['https://Tiles.Example.com/', 'https://tiles.example.com', 'http://127.0.0.1:4000'],
    });
    const sources = 'connect-src https://tiles.example.com http://127.0.0.1:4000';
    expect(handle.frame.getAttribute('csp')).toContain(`${sources};`);
    // The wrapper and the content it holds carry the policy with the granted sources, and nothing more.
    expect(handle.frame.srcdoc).toContain(`${sources};`);
    expect(handle.frame.srcdoc).not.toContain("connect-src 'none'");
    handle.close();
    const plain = mountMcpView(container, { instanceId: 'v4', name: 'Plain', view });
    expect(plain.frame.getAttribute('csp')).toContain("connect-src 'none'");
    plain.close();
  });

  it('lists granted resource origins for images, styles, fonts and media, never scripts', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = { html: '<main></main>', css: '', js: '', modules: [] };
    const handle = mountMcpView(container, {
      instanceId: 'v6',
      name: 'Map',
      view,
      resourceDomains: ['https://Tiles.example.com/', 'https://tiles.example.com'],
    });
    const attribute = handle.frame.getAttribute('csp') ?? '';
    for (const directive of [
      'img-src data: blob: https://tiles.example.com',
      "style-src 'unsafe-inline' https://tiles.example.com",
      'font-src https://tiles.example.com',
      'media-src https://tiles.example.com',
    ])
      expect(attribute).toContain(directive);
    expect(attribute).toContain("connect-src 'none'");
    expect(handle.frame.srcdoc).toContain('font-src https://tiles.example.com;');
    expect(handle.frame.srcdoc).not.toMatch(/script-src[^;]*tiles/);
    handle.close();
    expect(() =>
      mountMcpView(container, {
        instanceId: 'v7',
        name: 'M',
        view,
        resourceDomains: ['wss://live.example.com'],
      }),
    ).toThrow(TypeError);
    expect(container.childElementCount).toBe(0);
  });

  it('delegates the device features it was granted from both frames, and no other', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = { html: '<main></main>', css: '', js: '', modules: [] };
    const handle = mountMcpView(container, { instanceId: 'v8', name: 'Map', view, devices: ['geolocation'] });
    const allow = handle.frame.getAttribute('allow') ?? '';
    expect(allow).toContain('geolocation *');
    expect(allow).toContain("camera 'none'");
    expect(allow).toContain("clipboard-write 'none'");
    // The wrapper's frame, where the view runs, delegates the same.
    expect(handle.frame.srcdoc).toContain('geolocation *');
    handle.close();
    const plain = mountMcpView(container, { instanceId: 'v9', name: 'Plain', view });
    expect(plain.frame.getAttribute('allow')).toContain("geolocation 'none'");
    plain.close();
    for (const device of ['camera', 'microphone', 'usb'])
      expect(() =>
        mountMcpView(container, { instanceId: 'v10', name: 'M', view, devices: [device as never] }),
      ).toThrow(TypeError);
    expect(container.childElementCount).toBe(0);
  });

  it.each([
    ["'self'"],
    ['*'],
    ['https://a.com; script-src *'],
    ['http://example.com'],
    ['https://a.com/path'],
  ])('refuses to grant %s, and mounts nothing', (domain) => {
    const container = document.createElement('div');
    document.body.append(container);
    const view = { html: '<main></main>', css: '', js: '', modules: [] };
    expect(() =>
      mountMcpView(container, { instanceId: 'v5', name: 'View', view, connectDomains: [domain] }),
    ).toThrow(TypeError);
    expect(container.childElementCount).toBe(0);
  });

  it('its transport refuses what is not a JSON-RPC message, and closes with the view', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const handle = mountMcpView(container, {
      instanceId: 'v3',
      name: 'Clock',
      view: { html: '<main></main>', css: '', js: '', modules: [] },
    });
    const closed: string[] = [];
    handle.transport.onclose = () => void closed.push('closed');
    await expect(handle.transport.send({ jsonrpc: '1.0', id: 1 })).rejects.toBeInstanceOf(
      LineUpProtocolError,
    );
    // Before the view is ready a valid message waits for it.
    await expect(
      handle.transport.send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: {} }),
    ).resolves.toBeUndefined();
    handle.close();
    handle.close();
    expect(closed).toEqual(['closed']);
    expect(handle.closed).toBe(true);
    expect(container.childElementCount).toBe(0);
    await expect(handle.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('closed');
  });
});

describe('prepareMcpView', () => {
  const VIEW = { html: '<main>ahead</main>', css: '', js: '', modules: [] };
  const prototype = Element.prototype as { moveBefore?: (node: Node, child: Node | null) => void };

  afterEach(() => {
    delete prototype.moveBefore;
    document.body.replaceChildren();
  });

  /** jsdom has no `moveBefore`: an insertion stands in for it (Chromium's keeps the frame loaded: e2e). */
  const canMove = () => {
    prototype.moveBefore = function (this: Element, node: Node, child: Node | null) {
      this.insertBefore(node, child);
    };
  };

  it('gives null where frames cannot be moved, and mounts nothing', () => {
    expect(prepareMcpView(document, { instanceId: 'p0', name: 'View', view: VIEW })).toBeNull();
    expect(document.body.childElementCount).toBe(0);
  });

  it('mounts the view in an inert, hidden holder at the width given, and moves it where it is shown', () => {
    canMove();
    const handle = prepareMcpView(document, { instanceId: 'p1', name: 'Clock', view: VIEW, width: 480 });
    expect(handle).not.toBeNull();
    const holder = handle?.frame.parentElement as HTMLElement;
    expect(holder.parentElement).toBe(document.body);
    expect(holder.getAttribute('aria-hidden')).toBe('true');
    expect(holder.inert).toBe(true);
    expect(holder.style.opacity).toBe('0');
    expect(holder.style.pointerEvents).toBe('none');
    expect(holder.style.width).toBe('480px');
    const container = document.body.appendChild(document.createElement('div'));
    handle?.moveTo(container);
    expect(handle?.frame.parentElement).toBe(container);
    expect(holder.isConnected).toBe(false);
    expect(handle?.frame.getAttribute('title')).toBe('Clock');
    handle?.close();
    expect(container.childElementCount).toBe(0);
    expect(() => handle?.moveTo(container)).toThrow(TypeError);
  });

  it('closing a view that was never shown removes its holder', () => {
    canMove();
    const handle = prepareMcpView(document, { instanceId: 'p2', name: 'Clock', view: VIEW });
    const holder = handle?.frame.parentElement as HTMLElement;
    handle?.close();
    expect(holder.isConnected).toBe(false);
  });

  it('refuses a view over its bound as mountMcpView does, and leaves no holder', () => {
    canMove();
    const view = { ...VIEW, modules: ['x'.repeat(4_000)] };
    expect(() => prepareMcpView(document, { instanceId: 'p3', name: 'View', view, maxBytes: 1_000 })).toThrow(
      LineUpProtocolError,
    );
    expect(document.querySelector('[data-lineup-prepared-view]')).toBeNull();
  });

  it('moveTo throws where the browser cannot move a frame', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const handle = mountMcpView(container, { instanceId: 'p4', name: 'View', view: VIEW });
    expect(() => handle.moveTo(document.body)).toThrow(/cannot move a frame/);
    handle.close();
  });
});
