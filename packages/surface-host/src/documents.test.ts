/**
 * The two documents of a Surface frame: structure, policy, nonce; nothing of a bundle in a spare's, and in a
 * frame loaded for one Surface its bundle only as data of the prelude.
 */
import { describe, expect, it } from 'vitest';
import { installSurfaceBridge } from './bridge.js';
import { installSurfaceContainment } from './containment.js';
import { guardSurfaceFocus } from './containment-focus.js';
import { captureFrameIntrinsics } from './containment-intrinsics.js';
import { guardSurfaceNavigation } from './containment-navigation.js';
import { closeSurfaceRealm } from './containment-realm.js';
import { installViewStorage } from './containment-storage.js';
import { buildFrameDocuments, buildSurfaceDocuments, surfacePrelude } from './documents.js';
import { SURFACE_CSP } from './sandbox.js';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

/** The Surface documents, with the content document parsed out of the wrapper. */
function documentsOf(documents = buildSurfaceDocuments()) {
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

/** Texts that would end, or start, markup of the documents a bundle travels in if it were not escaped. */
const HOSTILE_TEXTS = [
  ['a script end tag', '</script><script>parent.parent.postMessage("out", "*")</script>'],
  ['a comment and a script start', '<!--<script>'],
  ['an attribute end and a frame', '"></iframe><iframe src="https://example.com/leak"></iframe>'],
  ['a style end and a frame', '</style></head><body><iframe src="https://example.com/leak"></iframe>'],
  ['character references', '&quot; &lt;script&gt; &amp;amp; &#34;'],
  ['line and paragraph separators', 'a\u2028b\u2029c\r\n'],
  ['CDATA', '<![CDATA[ ]]> </SCRIPT >'],
  ['Chinese text', '番茄钟：开始专注'],
] as const;

/** The configuration a prelude calls the containment with, read back from its text. */
function preludeConfig(prelude: string): Record<string, unknown> {
  const head = `(${installSurfaceContainment.toString()})(window, `;
  const parts = [
    `captureIntrinsics: ${captureFrameIntrinsics.toString()}`,
    `closeRealm: ${closeSurfaceRealm.toString()}`,
    `guardNavigation: ${guardSurfaceNavigation.toString()}`,
    `guardFocus: ${guardSurfaceFocus.toString()}`,
    `installBridge: ${installSurfaceBridge.toString()}`,
    `installStorage: ${installViewStorage.toString()}`,
  ];
  const tail = `, {${parts.join(', ')}});`;
  expect(prelude.startsWith(head) && prelude.endsWith(tail)).toBe(true);
  return JSON.parse(prelude.slice(head.length, -tail.length));
}

describe('buildFrameDocuments for a frame loaded for one Surface', () => {
  it.each(HOSTILE_TEXTS)(
    'keeps %s in each text as data of the prelude, markup of neither document',
    (_name, text) => {
      const start = { instanceId: 'pomodoro.focus.01', html: text, css: text, js: text };
      const { documents, wrapper, content } = documentsOf(buildFrameDocuments(start));
      expect(wrapper.querySelectorAll('script')).toHaveLength(0);
      expect(wrapper.querySelectorAll('iframe')).toHaveLength(1);
      expect(content.querySelectorAll('iframe, style, main')).toHaveLength(0);
      expect(content.body.children).toHaveLength(1);
      const prelude = content.querySelector('script')?.textContent as string;
      expect(prelude).toBe(surfacePrelude(documents.nonce, start));
      expect(prelude).not.toMatch(/<\/script|<!--|<script/i);
      // The configuration the prelude is called with reads back exactly.
      const config = preludeConfig(prelude);
      expect(config.start).toEqual({ instance_id: start.instanceId, html: text, css: text, js: text });
      expect(config.nonce).toBe(documents.nonce);
    },
  );

  it('gives a spare frame no start: it waits for the host', () => {
    const { content } = documentsOf(buildFrameDocuments());
    const prelude = content.querySelector('script')?.textContent as string;
    expect(preludeConfig(prelude)).not.toHaveProperty('start');
  });
});
