/** The two documents of a Surface frame: structure, policy, nonce, and nothing of the bundle in them. */
import { describe, expect, it } from 'vitest';
import { buildSurfaceDocuments, surfacePrelude } from './documents.js';
import { SURFACE_CSP } from './sandbox.js';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

/** The Surface documents, with the content document parsed out of the wrapper. */
function documentsOf() {
  const documents = buildSurfaceDocuments();
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
    expect(frame.getAttribute('srcdoc')).toBe(documents.content);
    for (const document of [wrapper, content]) {
      const policy = document.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
      expect(policy?.getAttribute('content')).toBe(documents.policy);
      expect(document.head.children[1]).toBe(policy);
    }
  });

  it('parses one script, the prelude, with the nonce the policy names', () => {
    const { documents, content } = documentsOf();
    const scripts = [...content.querySelectorAll('script')];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.getAttribute('nonce')).toBe(documents.nonce);
    expect(scripts[0]!.textContent).toBe(surfacePrelude(documents.nonce));
    const scriptSrc = documents.policy.split('; ').find((directive) => directive.startsWith('script-src '));
    expect(scriptSrc).toBe(`script-src 'unsafe-inline' 'nonce-${documents.nonce}'`);
  });

  it('uses a fresh nonce for every frame', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => buildSurfaceDocuments().nonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it('holds nothing that could end the script early, and nothing of a bundle', () => {
    const { content } = documentsOf();
    const prelude = content.querySelector('script')?.textContent as string;
    expect(prelude).not.toMatch(/<\/script|<!--|<script/i);
    expect(prelude).not.toContain('\r');
    expect(content.body.children).toHaveLength(1);
  });

  it("keeps every directive of the seed's CSP", () => {
    const { documents } = documentsOf();
    for (const directive of SURFACE_CSP.split('; ')) expect(documents.policy).toContain(directive);
    expect(documents.policy).toContain("frame-src 'none'");
    expect(documents.policy).toContain("require-trusted-types-for 'script'");
  });
});
