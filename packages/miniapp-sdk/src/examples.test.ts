/** The README's examples: shown verbatim, and run here to prove they do what their comments say. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import mainSource from '../examples/main.ts?raw';
import toolsSource from '../examples/tools.ts?raw';
import viteSource from '../examples/vite.config.ts?raw';
import readme from '../README.md?raw';
import { generateManifest } from './manifest.js';

describe('README examples', () => {
  it.each([
    ['tools', toolsSource],
    ['vite.config', viteSource],
    ['main', mainSource],
  ])('the README shows examples/%s.ts verbatim', (_name, source) => {
    expect(readme).toContain(source.trimEnd());
  });

  it('tools declares notes.add, and its handler runs with validated arguments', async () => {
    const { default: tools } = await import('../examples/tools.js');
    expect(tools.descriptors.map((tool) => tool.method)).toEqual(['add']);
    const signal = new AbortController().signal;
    await expect(tools.handle('add', { text: 'Buy milk' }, { signal })).resolves.toEqual({
      status: 'ok',
      result: { count: 1 },
    });
    await expect(tools.handle('add', { text: '' }, { signal })).resolves.toMatchObject({
      code: 'invalid_arguments',
    });
    expect(
      generateManifest({ id: 'com.example.notes', name: 'Notes', version: '1.0.0' }, tools).app_scope,
    ).toBe('notes');
  });

  it('vite.config registers the manifest plugin', async () => {
    const { default: config } = await import('../examples/vite.config.js');
    expect(config.plugins?.map((plugin) => (plugin as { name: string }).name)).toEqual([
      'lineup-miniapp-manifest',
    ]);
  });

  describe('main', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('starts when the page loads: announces app_ready, renders committed session data, closes on the close notice', async () => {
      const posted: unknown[] = [];
      const listeners: ((event: { source: unknown; data: unknown }) => void)[] = [];
      const parent = { postMessage: (message: unknown) => posted.push(message) };
      vi.stubGlobal('window', {
        parent,
        location: { hash: '#lineup-instance=notes.7' },
        addEventListener: (_: string, listener: (event: { source: unknown; data: unknown }) => void) =>
          listeners.push(listener),
        removeEventListener: (_: string, listener: (event: { source: unknown; data: unknown }) => void) =>
          listeners.splice(listeners.indexOf(listener), 1),
        setTimeout: globalThis.setTimeout,
        clearTimeout: globalThis.clearTimeout,
      });
      // The page: its list of notes, and the items it makes.
      const list = {
        items: [] as unknown[],
        replaceChildren(...items: unknown[]) {
          this.items = items;
        },
      };
      vi.stubGlobal('document', {
        getElementById: (id: string) => (id === 'notes' ? list : null),
        createElement: (tag: string) => ({ tag, textContent: '' }),
      });
      const deliver = (data: object) => {
        for (const listener of [...listeners])
          listener({
            source: parent,
            data: { namespace: 'lineup.miniapp.v1', instance_id: 'notes.7', ...data },
          });
      };
      await import('../examples/main.js');
      expect(posted).toEqual([{ namespace: 'lineup.miniapp.v1', instance_id: 'notes.7', type: 'app_ready' }]);
      deliver({ type: 'session_data', revision: 1, data: { notes: ['Buy milk', 'Call mom'] } });
      expect(list.items).toEqual([
        { tag: 'li', textContent: 'Buy milk' },
        { tag: 'li', textContent: 'Call mom' },
      ]);
      deliver({ type: 'lifecycle', phase: 'close' });
      expect(listeners).toHaveLength(0);
    });
  });
});
