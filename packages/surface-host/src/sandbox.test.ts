/** The policy builder and the markup a Surface can never hold. */
import { describe, expect, it } from 'vitest';
import {
  SURFACE_CSP,
  SURFACE_FORBIDDEN_ELEMENTS,
  SURFACE_FORBIDDEN_MARKUP,
  surfaceContentSecurityPolicy,
  surfaceEmbeddedPolicy,
} from './sandbox.js';

const NONCE = 'AbCdEfGhIjKlMnOpQrStUv==';

describe('surfaceContentSecurityPolicy', () => {
  it('runs only scripts with the nonce', () => {
    expect(surfaceContentSecurityPolicy(NONCE)).toContain(`script-src 'unsafe-inline' 'nonce-${NONCE}';`);
  });

  it.each([["'unsafe-eval'"], ['short'], [`${NONCE}'; connect-src *`], ['https://example.com']])(
    'refuses %s as a nonce',
    (nonce) => {
      expect(() => surfaceContentSecurityPolicy(nonce)).toThrow(/base64 of 16 bytes/);
    },
  );
});

describe('the policies of a view granted origins', () => {
  const granted = ['https://api.example.com', 'http://127.0.0.1:3000'];
  const directives = (policy: string) => policy.split('; ');

  it('lists exactly the granted sources in connect-src, and changes no other directive', () => {
    const plain = directives(surfaceContentSecurityPolicy(NONCE));
    const open = directives(surfaceContentSecurityPolicy(NONCE, granted));
    expect(plain).toContain("connect-src 'none'");
    expect(open).toContain('connect-src https://api.example.com http://127.0.0.1:3000');
    expect(open.filter((directive) => !directive.startsWith('connect-src'))).toEqual(
      plain.filter((directive) => !directive.startsWith('connect-src')),
    );
    expect(open).toContain("frame-src 'none'");
    expect(open).toContain("worker-src 'none'");
  });

  it("asks the frame's document for the same (the frame's csp attribute), or the seed's policy when none is granted", () => {
    expect(surfaceEmbeddedPolicy()).toBe(SURFACE_CSP);
    expect(surfaceEmbeddedPolicy([])).toBe(SURFACE_CSP);
    expect(surfaceEmbeddedPolicy(granted)).toBe(
      SURFACE_CSP.replace("connect-src 'none'", 'connect-src https://api.example.com http://127.0.0.1:3000'),
    );
  });
});

describe('SURFACE_FORBIDDEN_MARKUP', () => {
  it.each([
    ...SURFACE_FORBIDDEN_ELEMENTS.map((name) => [`<${name} `]),
    ['<IFRAME\nsrc=x>'],
    ['<iFrAmE\tsrc=x>'],
    ['<iframe/src=x>'],
    ['<iframe>'],
    ['<link\frel=preconnect>'],
    ['<h:iframe xmlns:h="http://www.w3.org/1999/xhtml"/>'],
    ['<svg><foreignObject><iframe src=x></iframe></foreignObject></svg>'],
    ['text <p>then</p><frameset><frame src=x>'],
  ])('matches %j', (markup) => {
    expect(SURFACE_FORBIDDEN_MARKUP.test(markup)).toBe(true);
  });

  it.each([
    ['<p>an iframe, in words</p>'],
    ['<a href="x">link</a>'],
    ['<iframed>'],
    ['<linked-list></linked-list>'],
    ['<objection>'],
    ['<div data-iframe="x">'],
    ['&lt;iframe src=x&gt;'],
    ['<embedded-chart>'],
  ])('lets %j through', (markup) => {
    expect(SURFACE_FORBIDDEN_MARKUP.test(markup)).toBe(false);
  });

  it('parses to no forbidden element whenever it does not match', () => {
    const samples = [
      '<p>x</p><a href="#y">y</a>',
      '<svg><a href="#"><text>t</text></a></svg>',
      '<iframed></iframed>',
    ];
    for (const html of samples) {
      expect(SURFACE_FORBIDDEN_MARKUP.test(html)).toBe(false);
      const parsed = new DOMParser().parseFromString(html, 'text/html');
      expect(parsed.querySelectorAll(SURFACE_FORBIDDEN_ELEMENTS.join(','))).toHaveLength(0);
    }
  });
});
