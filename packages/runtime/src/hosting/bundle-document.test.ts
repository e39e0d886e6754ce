// @vitest-environment jsdom
/**
 * A MiniApp page built from its kept files: every script, stylesheet, image and icon it names becomes a `data:`
 * URL of the verified bytes, a policy lets only those run, and the instance id reaches the page's URL first.
 * Chromium runs the result in the web host's Playwright tests (the Pomodoro page is built this way).
 */
import { MINIAPP_INSTANCE_PARAMETER } from '@lineup/shared/bridge';
import { describe, expect, it } from 'vitest';
import { BundleIntegrityError } from '../apps/bundle.js';
import { MINIAPP_PAGE_CSP, miniAppPageDocument } from './bundle-document.js';

const encoder = new TextEncoder();
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)]));
const decode = (url: string | null) => {
  const match = /^data:([^;]+);base64,(.*)$/.exec(url ?? '');
  if (match === null) throw new Error(`not a data URL: ${url}`);
  return {
    type: match[1],
    text: new TextDecoder().decode(Uint8Array.from(atob(match[2] as string), (c) => c.charCodeAt(0))),
  };
};
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

const PAGE = `<!doctype html><html><head><title>Notes</title>
<link rel="icon" href="./icon.svg"><link rel="modulepreload" href="./assets/x.js">
<script type="module" crossorigin src="./assets/app.js"></script>
<link rel="stylesheet" crossorigin href="assets/app.css"></head>
<body><img src="./assets/logo.png" alt="logo"><a href="https://example.com/">out</a></body></html>`;

describe('miniAppPageDocument', () => {
  const bundle = files({
    'index.html': PAGE,
    'assets/app.js': 'console.log("</script> stays inside")',
    'assets/app.css': 'main{color:red}',
    'assets/logo.png': 'PNG',
    'assets/x.js': 'x',
    'icon.svg': '<svg/>',
  });

  it('turns every referenced file into a data: URL of its kept bytes, and drops preloads', () => {
    const document = parse(
      miniAppPageDocument('index.html', bundle, { [MINIAPP_INSTANCE_PARAMETER]: 'i-1' }),
    );
    const app = document.querySelector('script[type="module"]');
    expect(decode(app?.getAttribute('src') ?? null)).toEqual({
      type: 'text/javascript',
      text: 'console.log("</script> stays inside")',
    });
    expect(app?.hasAttribute('crossorigin')).toBe(false);
    expect(decode(document.querySelector('link[rel=stylesheet]')?.getAttribute('href') ?? null)).toEqual({
      type: 'text/css',
      text: 'main{color:red}',
    });
    expect(decode(document.querySelector('img')?.getAttribute('src') ?? null).type).toBe('image/png');
    expect(decode(document.querySelector('link[rel=icon]')?.getAttribute('href') ?? null).type).toBe(
      'image/svg+xml',
    );
    expect(document.querySelector('link[rel=modulepreload]')).toBeNull();
    // Not the page's own file: left as it is (the policy keeps the page from loading it).
    expect(document.querySelector('a')?.getAttribute('href')).toBe('https://example.com/');
  });

  it('puts the policy first, then the script that sets the fragment, before any of the app’s scripts', () => {
    const document = parse(
      miniAppPageDocument('index.html', bundle, { lang: 'zh-CN', [MINIAPP_INSTANCE_PARAMETER]: 'i "1"' }),
    );
    const [first, second] = [...document.head.children];
    expect(first?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
    expect(first?.getAttribute('content')).toBe(MINIAPP_PAGE_CSP);
    expect(MINIAPP_PAGE_CSP).toContain("default-src 'none'");
    expect(MINIAPP_PAGE_CSP).toContain('script-src data:;');
    const bootstrap = decode(second?.getAttribute('src') ?? null).text;
    expect(bootstrap).toBe(
      `history.replaceState(null,'',location.href.split('#')[0]+${JSON.stringify('#lang=zh-CN&lineup-instance=i+%221%22')});`,
    );
  });

  it('refuses a page that names a file the bundle does not have, or a missing entry', () => {
    const missing = files({ 'index.html': '<script src="./gone.js"></script>' });
    expect(() => miniAppPageDocument('index.html', missing, { [MINIAPP_INSTANCE_PARAMETER]: 'i' })).toThrow(
      BundleIntegrityError,
    );
    expect(() => miniAppPageDocument('app.html', bundle, { [MINIAPP_INSTANCE_PARAMETER]: 'i' })).toThrow(
      /no entry page app\.html/,
    );
    expect(() => miniAppPageDocument('index.html', bundle, {})).toThrow(/lineup-instance/);
  });
});
