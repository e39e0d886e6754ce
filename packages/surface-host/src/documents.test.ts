/** The two documents of a Surface: structure, policy, hashes, and bundle text that cannot change parsing. */
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { installSurfaceBridge } from './bridge.js';
import { buildSurfaceDocuments, scriptHash, surfacePrelude } from './documents.js';
import { SURFACE_CSP } from './sandbox.js';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const BUNDLE = { html: '<main id="m">hi</main>', css: 'main{color:red}', js: 'LineUpSurface.event("x")' };

/** The Surface documents for `bundle`, with the content document parsed out of the wrapper. */
function documentsOf(bundle = BUNDLE) {
  const documents = buildSurfaceDocuments('a.b', bundle, 'Weather <dashboard> "1"');
  const wrapper = parse(documents.wrapper);
  const frame = wrapper.querySelector('iframe') as HTMLIFrameElement;
  const content = parse(frame.getAttribute('srcdoc') as string);
  return { documents, wrapper, frame, content };
}

describe('buildSurfaceDocuments', () => {
  it('gives the wrapper no script and one sandboxed content frame, both under the same policy first', () => {
    const { documents, wrapper, frame, content } = documentsOf();
    expect(wrapper.querySelectorAll('script')).toHaveLength(0);
    expect(wrapper.querySelectorAll('iframe')).toHaveLength(1);
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('title')).toBe('Weather <dashboard> "1"');
    expect(frame.getAttribute('srcdoc')).toBe(documents.content);
    for (const document of [wrapper, content]) {
      const policy = document.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
      expect(policy?.getAttribute('content')).toBe(documents.policy);
      const first = [...document.head.children].findIndex((element) => element.tagName !== 'META');
      expect(first === -1 || first > [...document.head.children].indexOf(policy as Element)).toBe(true);
    }
  });

  it('runs exactly two scripts by hash: the prelude it parses, and the bundle it inserts', () => {
    const { documents, content } = documentsOf();
    const scripts = [...content.querySelectorAll('script')];
    expect(scripts).toHaveLength(1);
    const prelude = scripts[0]!.textContent as string;
    expect(prelude).toBe(surfacePrelude('a.b', BUNDLE));
    const scriptSrc = documents.policy.split('; ').find((directive) => directive.startsWith('script-src '));
    expect(scriptSrc).toBe(`script-src 'unsafe-inline' '${scriptHash(prelude)}' '${scriptHash(BUNDLE.js)}'`);
  });

  it('hashes like the browser: SHA-256 of the UTF-8 text, in base64', () => {
    const text = 'LineUpSurface.event("北京")';
    const expected = btoa(String.fromCharCode(...sha256(new TextEncoder().encode(text))));
    expect(scriptHash(text)).toBe(`sha256-${expected}`);
  });

  it('carries HTML, CSS and JS that close elements or open comments as JSON data, unchanged', () => {
    const bundle = {
      html: '<p id="p">text</p><!--',
      css: 'body::after { content: "</style><b>x</b>"; }',
      js: 'const s = "</script><!-- <script>"; document.title = s;',
    };
    const { content } = documentsOf(bundle);
    const script = content.querySelector('script') as HTMLScriptElement;
    const prelude = script.textContent as string;
    expect(prelude).not.toMatch(/<\/script|<!--|<script/i);
    expect(prelude).not.toContain('\r');
    expect(content.body.children).toHaveLength(1);
    expect(content.querySelectorAll('b, p')).toHaveLength(0);
    const start = prelude.indexOf('})(window, ') + '})(window, '.length;
    const config = JSON.parse(prelude.slice(start, prelude.indexOf(`, ${installSurfaceBridge.toString()}`)));
    expect(config).toMatchObject({ html: bundle.html, css: bundle.css, js: bundle.js, instanceId: 'a.b' });
  });

  it("keeps every directive of the seed's CSP", () => {
    const { documents } = documentsOf();
    for (const directive of SURFACE_CSP.split('; ')) expect(documents.policy).toContain(directive);
    expect(documents.policy).toContain("frame-src 'none'");
    expect(documents.policy).toContain("require-trusted-types-for 'script'");
  });
});
