/**
 * Surfaces by reference (seed 000 §5.1): a declared Surface's entry HTML and its files become the three texts of
 * an inline Surface, or are refused with the reason before anything mounts; only declared events pass.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SurfaceInstances } from './instances.js';
import { surfaceBundleFromFiles } from './reference.js';

const encoder = new TextEncoder();
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)]));

const FOCUS = `<!doctype html><html><head><meta charset="utf-8"><title>Focus</title>
<link rel="stylesheet" href="./focus.css"><style>p{margin:0}</style><link rel="icon" href="data:,">
<script src="./focus.js"></script><script src="../shared/util.js"></script></head>
<body><main id="card"><p>Focus</p><img src="./dot.svg" alt=""></main></body></html>`;
const BUNDLE = files({
  'surfaces/focus.html': FOCUS,
  'surfaces/focus.css': 'main{padding:8px}',
  'surfaces/focus.js': 'LineUpSurface.event("start",{})',
  'shared/util.js': 'var util = 1',
  'surfaces/dot.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
});

afterEach(() => {
  document.body.innerHTML = '';
});

function refusal(entry: string, bundle: Map<string, Uint8Array>): string {
  try {
    surfaceBundleFromFiles(entry, bundle);
  } catch (error) {
    if (error instanceof LineUpProtocolError) {
      expect(error.issues[0]?.path).toBe(entry);
      return error.issues[0]?.message ?? '';
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('surfaceBundleFromFiles', () => {
  it('takes the body as HTML, the stylesheets as CSS and the classic scripts as JS, in document order', () => {
    const bundle = surfaceBundleFromFiles('surfaces/focus.html', BUNDLE);
    expect(bundle.css).toBe('main{padding:8px}\np{margin:0}');
    expect(bundle.js).toBe('LineUpSurface.event("start",{})\n;\nvar util = 1');
    expect(bundle.html).toMatch(
      /^<main id="card"><p>Focus<\/p><img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt=""><\/main>$/,
    );
    expect(bundle.html).not.toMatch(/script|link/);
  });

  it.each([
    ['a module script', '<script type="module" src="./focus.js"></script>', /classic script/],
    ['an inline script', '<script>alert(1)</script>', /inline <script> never runs/],
    ['a file the bundle does not have', '<script src="./gone.js"></script>', /does not have/],
    [
      'a script from elsewhere',
      '<script src="https://cdn.example/x.js"></script>',
      /not a file of the bundle/,
    ],
    ['a path above the bundle', '<link rel="stylesheet" href="../../x.css">', /not a file of the bundle/],
    ['a preconnect link', '<link rel="preconnect" href="https://example.com">', /loads nothing by <link/],
    ['a frame in the body', '<iframe src="x"></iframe>', /frames, embedded objects/],
    ['a JSON script', '<script type="application/json" src="./focus.js"></script>', /not supported/],
  ])('refuses %s, naming the entry', (_name, markup, message) => {
    const bundle = new Map(BUNDLE);
    bundle.set('surfaces/x.html', encoder.encode(`<!doctype html><head></head><body>${markup}</body>`));
    expect(refusal('surfaces/x.html', bundle)).toMatch(message);
  });

  it('refuses a missing entry and a Surface over 160 KiB of HTML, CSS and JS', () => {
    expect(refusal('surfaces/none.html', BUNDLE)).toMatch(/no Surface entry/);
    const big = new Map(BUNDLE);
    big.set('surfaces/focus.js', encoder.encode('x'.repeat(163_841)));
    expect(refusal('surfaces/focus.html', big)).toMatch(/at most 163840/);
  });
});

describe('SurfaceInstances with a referenced Surface', () => {
  it('mounts the resolved texts and names the frame; a reference without them is refused', () => {
    const instances = new SurfaceInstances({ onEvent: vi.fn() });
    const payload = {
      instance_id: 'f.1',
      surface: { app_id: 'com.lineup.pomodoro', surface_id: 'focus' },
      state: {},
    };
    expect(() => instances.open(document.body, payload)).toThrow(/needs the installed app/);
    expect(document.querySelector('iframe')).toBeNull();
    const handle = instances.open(document.body, payload, {
      name: 'Pomodoro',
      bundle: surfaceBundleFromFiles('surfaces/focus.html', BUNDLE),
      events: ['start'],
    });
    expect(handle.frame.getAttribute('title')).toBe('Pomodoro');
    expect(instances.get('f.1')).toBe(handle);
  });
});
