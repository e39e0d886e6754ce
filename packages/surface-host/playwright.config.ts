import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from '../../playwright.shared.ts';

const PORT = Number(process.env.SURFACE_E2E_PORT ?? 4175);

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // One worker: the navigation attacks prove that nothing leaves while the host answers within the hold (250 ms
  // first). A second worker's floods on a 2-core machine can keep a host page's main thread past that, which is
  // the README's "navigation hold" residual risk, not what these tests measure.
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', headless: true } }],
  webServer: {
    command: 'vite build --config e2e/vite.config.ts && vite preview --config e2e/vite.config.ts',
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { SURFACE_E2E_PORT: String(PORT) },
  },
});
