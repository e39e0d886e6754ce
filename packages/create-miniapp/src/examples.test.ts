/** The README's example: shown verbatim, and run here. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { makeNotesApp } from '../examples/make-app.js';

test('the README shows examples/make-app.ts verbatim', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const source = readFileSync(new URL('../examples/make-app.ts', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${source}\`\`\``);
});

test('makeNotesApp writes the app once, then is refused and writes nothing', () => {
  const parent = mkdtempSync(join(tmpdir(), 'lineup-create-example-'));
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const files = makeNotesApp(parent);
    expect(files).toContain('src/tools.ts');
    expect(readFileSync(join(parent, 'my-notes', 'src', 'tools.ts'), 'utf8')).toContain("appScope: 'notes'");
    const before = readFileSync(join(parent, 'my-notes', 'package.json'), 'utf8');
    expect(makeNotesApp(parent)).toBeNull();
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^directory_not_empty: .* is not empty/));
    expect(readFileSync(join(parent, 'my-notes', 'package.json'), 'utf8')).toBe(before);
  } finally {
    errors.mockRestore();
    rmSync(parent, { recursive: true, force: true });
  }
});
