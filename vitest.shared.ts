/**
 * The one place that says how a workspace project is tested. Each package's `vitest.config.ts` calls
 * `lineupProject`, and the root `vitest.config.ts` runs them all as `test.projects`.
 */
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject, type TestProjectInlineConfiguration } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources, so tests never need a prior build. */
export const SOURCE_CONDITIONS = ['@lineup/source'];

export interface LineupProjectOptions {
  /** Project name shown in reports; the package's folder name. */
  name: string;
  /** `node` (default) or `jsdom` for DOM-level unit tests. Real browser behaviour is proven by Playwright. */
  environment?: 'node' | 'jsdom';
  /**
   * Whether each test file gets fresh modules (default false: the files of a worker share the modules they
   * import, which saves most of the run's import and environment time). A project whose tests replace modules
   * (`vi.mock`) or count what module-level caches do sets it.
   */
  isolate?: boolean;
  test?: TestProjectInlineConfiguration['test'];
}

export function lineupProject({ name, environment = 'node', isolate = false, test }: LineupProjectOptions) {
  return defineProject({
    resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
    ssr: { resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultServerConditions] } },
    test: {
      name,
      environment,
      include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      // Property tests run hundreds of cases; on a busy 2-core machine the 5 s default is too tight for them.
      testTimeout: 30_000,
      isolate,
      ...test,
    },
  });
}
