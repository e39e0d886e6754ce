/** The frame document: policy first, bridge before agent content, bundle code never parsed as HTML. */
import { describe, expect, it } from 'vitest';
import { SURFACE_CSP } from './sandbox.js';
import { buildSurfaceSrcdoc } from './srcdoc.js';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('buildSurfaceSrcdoc', () => {
  it('puts the CSP first, then the bridge, in the head', () => {
    const doc = parse(buildSurfaceSrcdoc('a.b', { html: '<main>hi</main>', css: 'main{}', js: '1' }));
    const head = [...doc.head.children];
    expect(head[0]?.getAttribute('charset')).toBe('utf-8');
    const csp = head.find((element) => element.getAttribute('http-equiv') === 'Content-Security-Policy');
    expect(csp?.getAttribute('content')).toBe(SURFACE_CSP);
    const firstScript = head.findIndex((element) => element.tagName === 'SCRIPT');
    expect(head.indexOf(csp!)).toBeLessThan(firstScript);
    expect(head[firstScript]?.textContent).toContain('LineUpSurface');
    expect(head[firstScript]?.textContent).toContain('"instanceId":"a.b"');
    expect(doc.body.querySelector('main')?.textContent).toBe('hi');
  });

  it('carries CSS and JS that contain closing tags and comment openers unchanged, as JSON data', () => {
    const js = 'const s = "</script><!-- <script>"; document.title = s;';
    const css = 'body::after { content: "</style><b>x</b>"; }';
    const doc = parse(buildSurfaceSrcdoc('a.b', { html: '<p id="p">text</p>', css, js }));
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts).toHaveLength(3);
    expect(doc.querySelectorAll('b')).toHaveLength(0);
    expect(doc.getElementById('p')?.textContent).toBe('text');
    // The loaders hold the exact texts as JSON string literals.
    const literal = (source: string) => JSON.parse(source.slice(source.lastIndexOf('})(') + 3, -2)) as string;
    expect(literal(scripts[1]!.textContent!)).toBe(css);
    expect(literal(scripts[2]!.textContent!)).toBe(js);
    for (const script of scripts) expect(script.textContent).not.toMatch(/<\/script|<!--/i);
  });

  it('keeps agent HTML in the body, after the bridge', () => {
    const srcdoc = buildSurfaceSrcdoc('a.b', { html: '<script>window.early = 1</script>', css: '', js: '' });
    expect(srcdoc.indexOf('LineUpSurface')).toBeLessThan(srcdoc.indexOf('window.early'));
  });
});
