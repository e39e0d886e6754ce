/** The README's example: shown verbatim, and run here against fake-indexeddb and a stubbed fetch. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import installSource from '../examples/install.ts?raw';
import readme from '../README.md?raw';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const manifest = {
  manifest_version: 1,
  id: 'com.example.notes',
  name: 'Notes',
  version: '1.0.0',
  app_scope: 'notes',
  entry: 'index.html',
  surfaces: [],
  permissions: [],
  tools: [
    {
      app_scope: 'notes',
      method: 'add',
      contract_version: '1.0',
      description: 'Adds a note.',
      input_schema: { type: 'object' },
      output_schema: { type: 'object' },
      call_model: 'command',
      idempotency: 'call_id',
      timeout_ms: 10_000,
      activation: 'app_ready',
      risk: 'display_only',
      permissions: [],
      executor: { kind: 'miniapp_sdk' },
    },
  ],
};

describe('README example', () => {
  it('is shown verbatim', () => {
    expect(readme).toContain(installSource.trimEnd());
  });

  it('installs once, then leaves the same manifest unchanged', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: URL) => {
      fetched.push(String(url));
      return new Response(JSON.stringify(manifest));
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { installFrom } = await import('../examples/install.js');
    await installFrom('https://host.example/apps/notes/');
    await installFrom('https://host.example/apps/notes/');
    expect(fetched).toEqual([
      'https://host.example/apps/notes/lineup.manifest.json',
      'https://host.example/apps/notes/lineup.manifest.json',
    ]);
    expect(log.mock.calls).toEqual([
      ['installed', 'inventory-1', ['notes.add']],
      ['unchanged', 'inventory-1', ['notes.add']],
    ]);
  });
});
