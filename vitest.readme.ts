/**
 * The README is a package's reference: every value an entry point exports is named in it, as a whole word. Each
 * published package's `src/readme-exports.test.ts` calls `describeReadmeExports` with its README, its package.json
 * `exports` map and a namespace import of each JavaScript entry point (types vanish at runtime, so `Object.keys` of a
 * namespace lists exactly its values: the functions, classes, constants and schemas).
 */
import type { describe as Describe, expect as Expect, it as It } from 'vitest';

/** The test API, passed in by the test: this file imports nothing at run time (the packed-package check copies it). */
export interface TestApi {
  readonly describe: typeof Describe;
  readonly expect: typeof Expect;
  readonly it: typeof It;
}

/** The exported names `readme` does not name as a whole word, sorted. */
export function unnamedIn(readme: string, names: readonly string[]): string[] {
  return names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme)).sort();
}

export function describeReadmeExports(
  { describe, expect, it }: TestApi,
  readme: string,
  exportsMap: Readonly<Record<string, unknown>>,
  entryPoints: Readonly<Record<string, object>>,
): void {
  describe('README.md names every exported value', () => {
    it('covers every JavaScript entry point of package.json', () => {
      const scripts = Object.entries(exportsMap).filter(([, target]) => typeof target === 'object');
      expect(scripts.map(([entry]) => entry)).toEqual(Object.keys(entryPoints));
    });

    it.each(Object.entries(entryPoints))('names every value "%s" exports', (_entry, module) => {
      expect(unnamedIn(readme, Object.keys(module)), 'exported, but not named in README.md').toEqual([]);
    });
  });
}
