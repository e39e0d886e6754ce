/** The README's examples: shown verbatim, and run here to prove they do what their comments say. */
import { describe, expect, it } from 'vitest';
import toolsSource from '../examples/tools.ts?raw';
import viteSource from '../examples/vite.config.ts?raw';
import readme from '../README.md?raw';
import { generateManifest } from './manifest.js';

describe('README examples', () => {
  it.each([
    ['tools', toolsSource],
    ['vite.config', viteSource],
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
});
