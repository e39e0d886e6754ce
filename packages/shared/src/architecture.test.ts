/**
 * The shape of the package, checked: each folder of `src` imports only the folders below it (no cycle between
 * folders), and no source file grows past about 500 lines. CONTRIBUTING.md explains the layers.
 */
import { describe, expect, it } from 'vitest';

/** Bottom first: a folder may import itself and the folders before it, never one after it. */
const LAYERS = [
  'limits',
  'errors',
  'json',
  'names',
  'text',
  'dsl',
  'actions',
  'bridge',
  'protocol',
  'stream',
  'agent',
] as const;
/** The package's entry point, above every folder. */
const ROOT = '.';
const MAX_LINES = 500;

const sources = import.meta.glob<string>(['./**/*.ts', '!./**/*.test.ts', '!./**/*.bench.ts'], {
  eager: true,
  import: 'default',
  query: '?raw',
});

function folderOf(path: string): string {
  const parts = path.replace(/^\.\//, '').split('/');
  return parts.length === 1 ? ROOT : (parts[0] as string);
}

function resolve(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** `from → to` for every relative import between two different folders, with the file that makes it. */
function folderImports(): { from: string; to: string; file: string }[] {
  const edges: { from: string; to: string; file: string }[] = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const match of text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(file, match[1] as string);
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) edges.push({ from, to, file });
    }
  }
  return edges;
}

describe('the module graph of @lineup/shared', () => {
  it('reads every source file (the glob works)', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(Object.keys(sources)).toContain('./errors/errors.ts');
  });

  it('has only the known folders, each in one layer', () => {
    const folders = new Set(Object.keys(sources).map(folderOf));
    folders.delete(ROOT);
    expect([...folders].sort()).toEqual([...LAYERS].sort());
  });

  it('imports downwards only: no folder imports a folder above it', () => {
    const rank = (folder: string) => (folder === ROOT ? LAYERS.length : LAYERS.indexOf(folder as never));
    const upward = folderImports()
      .filter(({ from, to }) => rank(to) >= rank(from))
      .map(({ from, to, file }) => `${file}: ${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it(`keeps every source file at most ${MAX_LINES} lines`, () => {
    const long = Object.entries(sources)
      .map(([file, text]) => ({ file, lines: text.split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });
});
