import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from '../../../../playwright.shared.ts';

/** The render benchmark (not part of test:e2e): one worker, so runs do not compete for the CPU. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.bench.ts',
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: { launchOptions: CHROMIUM_LAUNCH_OPTIONS },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', headless: true } }],
});
