/**
 * The Markdown parser (markdown-it, markdown.tsx) against the one it replaced (react-markdown with skipHtml, the
 * allowlist and unwrapDisallowed, kept in test/react-markdown-oracle.tsx as the oracle): the same HTML for a
 * corpus of every construct and its edge cases, hostile input, and generated Markdown.
 */

import { UI_MARKDOWN_ALLOWED_ELEMENTS } from '@lineup/shared';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderMarkdown as oracle } from '../test/react-markdown-oracle.js';
import { renderMarkdown } from './markdown.js';
import type { HeadingLevel } from './outline.js';

const html = (render: typeof renderMarkdown, text: string, base: HeadingLevel) =>
  renderToStaticMarkup(render(text, base));

const CORPUS: readonly string[] = [
  '',
  'plain text',
  '# one\n## two\n### three\n#### four\n##### five\n###### six\n####### seven',
  '## skipped\n\n#### level',
  'Setext\n===\n\nand\n---',
  '**bold** *em* _em_ __bold__ ***both*** ~~gone~~ ~one~ ~~~three~~~ ~~mixed~ ~a~~',
  'a ~~b ~c~ d~~ e',
  '~~a ~b~~ c~',
  '*a ~b* c~',
  '~~**x**~~ and **~~y~~**',
  'foo~~bar~~baz a~~ b~~ ~~c ~~',
  '`code` ``co`de`` ` a ` `\nline`',
  '    indented\n      more\n\n    after blank',
  '```js extra words\nconst a = 1;\n```\n\n```\n```\n\n```\n\n\n```\n\n~~~ py&#x20;x\ncode\n~~~',
  '```\\`` weird\nx\n```',
  '- a\n- b\n  - c\n- d',
  '- a\n\n- b',
  '- a\n\n  second paragraph\n- b',
  '1. one\n2. two\n\n3) three',
  '3. three\n4. four',
  '0. zero',
  '- \n- b\n-',
  '- ```\n  code\n  ```\n- > quote',
  '> quote\n> more\n\n> > nested\n\n>',
  '> - a\n> - b\n>\n> para',
  '***\n---\n___',
  'line one  \nline two\\\nline three\n   line four',
  'hard  \n   indented after break',
  'soft   \n   break',
  '<div>block html</div>\n\npara\n\n<script>alert(1)</script>\n\nafter',
  'inline <b>html</b> and <img src=x onerror=alert(1)> text <!-- comment -->',
  '<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=1</script>\n\n[a link](javascript:alert(1)) ![an image](https://example.invalid/x.png) ~~gone~~',
  '[link](http://a.example "title") [ref][r] <http://auto.example> <mail@example.com>\n\n[r]: http://r.example',
  '![alt *text*](x.png) before ![](y.png) after',
  '[![image in link](x.png)](http://a)',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '- [ ] call back\n- [x] done',
  'See[^1] and www.example.com.\n\n[^1]: a note',
  '&amp; &copy; &#35; &#x22; &nbsp; &bogus; \\* \\_ \\~',
  'tab\there\n\tindented tab',
  '\u00a0nbsp start and 中文 **加粗** ~~删除~~ *强调*',
  '# heading with `code` and **bold** #',
  '> # heading in quote\n\n- ## heading in list',
  '* a\n+ b\n- c',
  '1. a\n\n   ```\n   code\n   ```\n2. b',
  '- a\n  - b\n\n    c\n- d',
  'text\n***\ntext',
  '\\# not a heading\n\n\\- not a list',
  '**unclosed *emphasis',
  '[unclosed link(',
  '\n\n\nleading blank lines\n\n\n',
  '<details><summary>x</summary>\n\nbody\n\n</details>',
  '<a href="javascript:alert(1)">x</a>',
];

describe('Markdown: markdown-it against react-markdown', () => {
  it.each(CORPUS.map((text) => [JSON.stringify(text).slice(0, 60), text]))('the same HTML: %s', (_, text) => {
    for (const base of [1, 2, 4, 6] as const)
      expect(html(renderMarkdown, text, base)).toBe(html(oracle, text, base));
  });

  // Hostile texts at the length limit (16,384 characters): what react-markdown rendered, this renders the same;
  // nesting that overflowed its stack overflows this one's too (the node then shows its error).
  const LIMIT = 16_384;
  const HOSTILE: Record<string, string> = {
    brackets: '['.repeat(LIMIT),
    'nested link labels': `${'['.repeat(LIMIT / 2)}a${']'.repeat(LIMIT / 2 - 1)}`,
    'unclosed images': '![a'.repeat(LIMIT / 3),
    'link starts': '[a]('.repeat(LIMIT / 4),
    'emphasis runs': '*a '.repeat(LIMIT / 3),
    'mixed emphasis': '**a*'.repeat(LIMIT / 4),
    'single tildes': '~a'.repeat(LIMIT / 2),
    'backtick runs': Array.from({ length: 180 }, (_, i) => `${'`'.repeat(i + 1)}a`).join(''),
    'angle brackets': '<a'.repeat(LIMIT / 2),
    'entity starts': '&#'.repeat(LIMIT / 2),
    'indented list lines': Array.from({ length: LIMIT / 4 }, (_, i) => `${' '.repeat(i % 40)}- a`).join('\n'),
    'hard breaks': 'a  \n'.repeat(LIMIT / 4),
    fences: '```\n'.repeat(LIMIT / 4),
  };
  it.each(Object.entries(HOSTILE))(
    'the same HTML for hostile Markdown at the length limit: %s',
    (_, text) => {
      const limited = text.slice(0, LIMIT);
      expect(html(renderMarkdown, limited, 2)).toBe(html(oracle, limited, 2));
    },
  );

  it('overflows the stack on blocks nested thousands deep, as react-markdown did', () => {
    for (const text of ['>'.repeat(LIMIT), '> '.repeat(LIMIT / 2)]) {
      expect(() => html(oracle, text, 2)).toThrow(RangeError);
      expect(() => html(renderMarkdown, text, 2)).toThrow(RangeError);
    }
  });

  it('takes CR and CRLF as line endings (react-markdown kept them in the text, where CSS shows a CR as a space)', () => {
    for (const text of ['a\r\nb\rc', '```\r\none\rtwo\r\n```', '- a\r- b\r\n\r\n  c'])
      expect(html(renderMarkdown, text, 2)).toBe(html(oracle, text.replace(/\r\n?/g, '\n'), 2));
  });

  // Generated Markdown: pieces of inline syntax only, and with block syntax (list markers, quotes, fences, tabs).
  const INLINE = ['a', 'b', ' ', '  ', '\n', '\n\n', '*', '**', '_', '~', '~~', '`', '[', ']', '(', ')', '!'];
  const INLINE_MORE = ['<', '\\', '&amp;', '<b>', '</b>', 'x.y', '中'];
  const BLOCK = ['#', '## ', '> ', '- ', '1. ', '2) ', '>', '    ', '\t', '```', '---'];
  const generated = (pieces: readonly string[], count: number, seed: number) =>
    fc
      .sample(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), { numRuns: count, seed })
      .map((p) => p.join(''));
  const differing = (texts: readonly string[]) =>
    texts.filter((text) => html(renderMarkdown, text, 1) !== html(oracle, text, 1));

  it('makes only the allowlisted elements, and no attribute but a code language and a list start', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...INLINE, ...INLINE_MORE, ...BLOCK), { maxLength: 60 }),
        (pieces) => {
          const markup = html(renderMarkdown, pieces.join(''), 1);
          for (const [, tag, attributes] of markup.matchAll(/<([a-z0-9]+)([^>]*)>/g)) {
            expect(UI_MARKDOWN_ALLOWED_ELEMENTS).toContain(tag);
            expect(attributes).toMatch(/^(| class="language-[^"]*"| start="-?\d+")\/?$/);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  // The rest differs in corner cases where the two parsers read CommonMark differently; none of them makes an
  // element outside the allowlist (above). Seen: emphasis runs of three or more next to others (`****<b>***!`);
  // an empty list item at the very end (`a\n- - `: markdown-it nests it, micromark keeps `-` as text); blank lines
  // at the end of an unclosed fence; tabs inside nested containers; a tag at the start of a lazy line in a quote.
  it('the same HTML for nearly all generated inline Markdown (fixed sample)', () => {
    const texts = generated([...INLINE, ...INLINE_MORE], 5000, 26);
    // 1 of 5,000 when written.
    expect(differing(texts).length).toBeLessThanOrEqual(2);
  });

  it('the same HTML for nearly all generated Markdown with block syntax (fixed sample)', () => {
    const texts = generated([...INLINE, ...INLINE_MORE, ...BLOCK], 5000, 27);
    // 6 of 5,000 when written.
    expect(differing(texts).length).toBeLessThanOrEqual(10);
  });
});
