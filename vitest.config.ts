import { defineConfig } from 'vitest/config';

// Vitest 4 has no workspace file: every package and app is a project, configured by its own
// vitest.config.ts through `lineupProject` (vitest.shared.ts). `pnpm test:unit` runs them all in one process.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'examples/*'],
  },
});
