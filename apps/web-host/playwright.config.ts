import { defineConfig } from '@playwright/test';
import { PREVIEW_PORT } from './preview-port.ts';

// Browsers cannot be downloaded on our machines: tests drive Debian's Chromium. The flags keep it from
// reaching for the network in the background (the machine has none) and from needing a GPU or a sandbox.
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BASE_URL = `http://127.0.0.1:${PREVIEW_PORT}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  ...(process.env.CI ? { workers: 2 } : {}),
  reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', headless: true } }],
  webServer: {
    // The real built host, as users get it from the quick start (turbo builds it before this task).
    command: 'vite preview',
    url: BASE_URL,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
