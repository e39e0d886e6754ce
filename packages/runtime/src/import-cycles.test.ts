/**
 * No import cycles (issue 45): the types two modules share live below both, so no module imports one that
 * imports it back — not even for a type. `scripts/import-cycles.mjs` finds them (`node scripts/import-cycles.mjs`
 * prints them); this runs it on every package's and app's non-test sources, and first proves it finds the kinds
 * of circle it must.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findImportCycles, workspaceSourceDirs } from '../../../scripts/import-cycles.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const folders = workspaceSourceDirs(ROOT).map((dir) => ({ name: relative(ROOT, dir), dir }));

describe('the import cycle check', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'lineup-import-cycles-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

  /** Writes `files` (path → source) into a folder of their own and returns it. */
  const folderOf = (name: string, files: Readonly<Record<string, string>>) => {
    const dir = join(fixtures, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it.each([
    {
      rule: 'a type-only import back (`./x.js` names `./x.ts`)',
      files: {
        'apps/registry.ts':
          "import type { Status } from '../client/client.js';\nexport const registry = 1;\n",
        'client/client.ts': "import { registry } from '../apps/registry.js';\nexport type Status = 'ok';\n",
      },
      cycles: [
        {
          modules: ['apps/registry.ts', 'client/client.ts'],
          circle: ['apps/registry.ts', 'client/client.ts', 'apps/registry.ts'],
        },
      ],
    },
    {
      rule: 'one circle of export-from, import() and typeof import()',
      files: {
        'a.ts': "export { b } from './b.js';\n",
        'b.ts': "export const b = () => import('./c.js');\n",
        'c.ts': "export type A = typeof import('./a.js');\n",
      },
      cycles: [{ modules: ['a.ts', 'b.ts', 'c.ts'], circle: ['a.ts', 'b.ts', 'c.ts', 'a.ts'] }],
    },
    {
      rule: 'a module importing itself (no extension)',
      files: { 'self.ts': "import type { Self } from './self';\nexport type Self = { next?: Self };\n" },
      cycles: [{ modules: ['self.ts'], circle: ['self.ts', 'self.ts'] }],
    },
    {
      rule: 'none through a test file or another package',
      files: {
        'state.ts':
          "import type { Row } from './state.test.js';\nimport { z } from 'zod';\nexport const state = z.string();\n",
        'state.test.ts': "import { state } from './state.js';\nexport type Row = typeof state;\n",
      },
      cycles: [],
    },
  ])('finds $rule', ({ rule, files, cycles }) => {
    expect(findImportCycles(folderOf(rule.replace(/\W+/g, '-'), files))).toEqual(cycles);
  });
});

describe('the workspace sources', () => {
  it('are found: every package and app', () => {
    expect(folders.map(({ name }) => name)).toEqual(
      expect.arrayContaining([
        'packages/miniapp-sdk/src',
        'packages/renderer-react/src',
        'packages/runtime/src',
        'packages/shared/src',
        'apps/web-host/src',
      ]),
    );
  });

  it.each(folders)('$name has no import cycle', ({ dir }) => {
    expect(findImportCycles(dir)).toEqual([]);
  });
});
