/** A view's `ui/download-file` mapped onto `artifact.save`: what is saved as asked, and what is refused with why. */
import { describe, expect, it } from 'vitest';
import { VIEW_DOWNLOAD_MAX_CHARS, viewDownload } from './view-download.ts';

const text = (uri: string, body: string, mimeType?: string) => ({
  type: 'resource',
  resource: { uri, text: body, ...(mimeType === undefined ? {} : { mimeType }) },
});

describe('viewDownload', () => {
  it.each<[string, unknown, { filename: string; media_type: string }]>([
    [
      'a CSV with its type',
      text('file:///exports/report.csv', 'a,b', 'text/csv'),
      { filename: 'report.csv', media_type: 'text/csv' },
    ],
    [
      'a type with parameters',
      text('ui://x/notes.md', '# hi', 'text/markdown; charset=utf-8'),
      { filename: 'notes.md', media_type: 'text/markdown' },
    ],
    [
      'no type: from the extension',
      text('ui://x/data.json', '{}'),
      { filename: 'data.json', media_type: 'application/json' },
    ],
    [
      'a name with spaces and marks, escaped',
      text('file:///a/My%20R%C3%A9sum%C3%A9.txt', 'x', 'text/plain'),
      { filename: 'My R-sum-.txt', media_type: 'text/plain' },
    ],
    [
      'a name starting with a dot',
      text('ui://x/.hidden.txt', 'x', 'text/plain'),
      { filename: 'hidden.txt', media_type: 'text/plain' },
    ],
    [
      'a query after the name',
      text('https://e.example/r/out.csv?v=2', 'x', 'text/csv'),
      { filename: 'out.csv', media_type: 'text/csv' },
    ],
  ])('saves %s', (_name, item, expected) => {
    const download = viewDownload([item]);
    expect(download).toMatchObject({ ok: true, args: expected });
  });

  it.each<[string, readonly unknown[], RegExp]>([
    ['nothing', [], /one file per request; this one has 0/],
    ['two files', [text('ui://x/a.txt', 'a'), text('ui://x/b.txt', 'b')], /this one has 2/],
    [
      'a linked resource',
      [{ type: 'resource_link', uri: 'https://e.example/a.txt', name: 'a' }],
      /does not fetch a linked resource/,
    ],
    [
      'binary contents',
      [{ type: 'resource', resource: { uri: 'ui://x/a.png', blob: 'AAAA', mimeType: 'image/png' } }],
      /text files only/,
    ],
    ['another kind of block', [{ type: 'text', text: 'hello' }], /no embedded resource/],
    ['null', [null], /no embedded resource/],
    ['an HTML file', [text('ui://x/page.html', '<p>', 'text/html')], /this file is text\/html/],
    ['no type and no known extension', [text('ui://x/blob.bin', 'x')], /of no known type/],
    ['a URI with no name', [text('ui://x/', 'x', 'text/plain')], /No file name/],
    ['a name of marks only', [text('ui://x/%E2%9C%93', 'x', 'text/plain')], /No file name/],
    [
      'one character too many',
      [text('ui://x/a.txt', 'a'.repeat(VIEW_DOWNLOAD_MAX_CHARS + 1), 'text/plain')],
      /32769 characters; this host saves at most 32768/,
    ],
  ])('refuses %s, saying why', (_name, contents, reason) => {
    const download = viewDownload(contents);
    expect(download.ok).toBe(false);
    expect(download.ok === false && download.reason).toMatch(reason);
  });

  it('keeps a long name within 128 characters', () => {
    const download = viewDownload([text(`ui://x/${'n'.repeat(300)}.txt`, 'x', 'text/plain')]);
    expect(download.ok && download.args.filename).toHaveLength(128);
  });
});
