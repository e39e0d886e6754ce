import { parseDocument, UI_COMPONENT_TYPES, type UINode } from '@lineup/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countNumberFormats } from '../test/number-formats.js';
import { formatResult } from './format.js';
import { prepareRenderer, sampleDocument } from './prepare.js';

let counter: ReturnType<typeof countNumberFormats> | undefined;
afterEach(() => counter?.restore());

describe('prepareRenderer', () => {
  it('creates the number format a Result of that locale uses, once', () => {
    counter = countNumberFormats();
    const { made } = counter;
    prepareRenderer({ locale: 'de-DE' });
    expect(made).toEqual(['de-DE']);
    // The document's Result finds it made; a second call makes nothing new.
    expect(formatResult(1234.5, { style: 'decimal' }, 'de-DE')).toBe('1.234,50');
    prepareRenderer({ locale: 'de-DE' });
    expect(made).toEqual(['de-DE']);
  });

  it('renders a sample in later tasks, into no element of the page, and takes two entries of the Markdown cache', async () => {
    // Fresh modules: another test's call has started the passes of this module's instance already.
    vi.resetModules();
    const { prepareRenderer } = await import('./prepare.js');
    const { markdownCacheSize } = await import('./markdown.js');
    const errors = vi.spyOn(console, 'error');
    const body = document.body.innerHTML;
    const before = markdownCacheSize();
    expect(before).toBe(0);
    const passes = prepareRenderer();
    // The checks ran: the parser's sample is cached. The renders have not run yet (they wait for a later task).
    expect(markdownCacheSize() - before).toBe(1);
    await passes;
    // The sample card's Markdown block rendered (through the cache, like any block).
    expect(markdownCacheSize() - before).toBe(2);
    expect(document.body.innerHTML).toBe(body);
    expect(document.querySelector('.lu-ui')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
    // Later calls: the same promise, nothing more cached.
    const after = markdownCacheSize();
    expect(prepareRenderer()).toBe(passes);
    await prepareRenderer();
    expect(markdownCacheSize()).toBe(after);
    errors.mockRestore();
  });
});

describe('the Markdown warm-up', () => {
  it('renders Markdown once in each of MARKDOWN_WARM_TASKS background tasks after the passes, before the promise resolves', async () => {
    vi.resetModules();
    const MarkdownIt = (await import('markdown-it')).default;
    const parse = vi.spyOn(MarkdownIt.prototype, 'parse');
    const posted: unknown[] = [];
    vi.stubGlobal('scheduler', {
      postTask(task: () => void, options: unknown) {
        posted.push(options);
        setTimeout(task, 0);
      },
    });
    try {
      const { prepareRenderer, MARKDOWN_WARM_TASKS } = await import('./prepare.js');
      const { markdownCacheSize } = await import('./markdown.js');
      let resolved = false;
      const prepared = prepareRenderer().then(() => {
        resolved = true;
      });
      // Only the parser's first run (the cached sample) happens in the call itself.
      expect(parse).toHaveBeenCalledTimes(1);
      expect(posted).toEqual([]);
      // Some background tasks in, the promise still waits for the rest.
      await vi.waitFor(() => expect(posted.length).toBeGreaterThan(10));
      expect(resolved).toBe(false);
      await prepared;
      expect(posted).toHaveLength(MARKDOWN_WARM_TASKS);
      expect(posted.every((options) => JSON.stringify(options) === '{"priority":"background"}')).toBe(true);
      // The sample, the card's block, then one render per task: none of them cached.
      expect(parse).toHaveBeenCalledTimes(2 + MARKDOWN_WARM_TASKS);
      expect(markdownCacheSize()).toBe(2);
    } finally {
      parse.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});

describe('sampleDocument', () => {
  it('is a valid document of every component type, its size in proportion to its cards', () => {
    const types = new Set<string>();
    const visit = (node: UINode) => {
      types.add(node.type);
      if ('children' in node) for (const child of node.children) visit(child);
    };
    const document = parseDocument(sampleDocument(9));
    visit(document.root);
    expect([...types].sort()).toEqual([...UI_COMPONENT_TYPES].sort());
    const bytes = JSON.stringify(sampleDocument(9)).length;
    expect(bytes).toBeGreaterThan(20_000);
    expect(bytes).toBeLessThan(60_000);
    expect(JSON.stringify(sampleDocument(1)).length).toBeLessThan(bytes / 6);
  });

  it('is a new object each time (a validated document is cached by identity)', () => {
    expect(sampleDocument(1)).not.toBe(sampleDocument(1));
    expect(sampleDocument(1)).toEqual(sampleDocument(1));
  });
});
