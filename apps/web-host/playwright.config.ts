import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS, TRACE } from '../../playwright.shared.ts';
import { MCP_CORPUS } from './e2e/mcp-servers.ts';
import { PREVIEW_PORT } from './preview-port.ts';

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
    trace: TRACE,
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', headless: true } }],
  webServer: [
    {
      // The real built host, as users get it from the quick start (turbo builds it before this task); a control
      // (e2e/controls/) serves a build of its own from LINEUP_E2E_OUT_DIR.
      command:
        process.env.LINEUP_E2E_OUT_DIR === undefined
          ? 'vite preview'
          : `vite preview --outDir ${JSON.stringify(process.env.LINEUP_E2E_OUT_DIR)}`,
      url: BASE_URL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    // The MCP App servers of the corpus, as their packages start them (HTTP when run without --stdio).
    ...MCP_CORPUS.map((server) => ({
      command: [server.bin, ...('args' in server ? server.args.map((arg) => JSON.stringify(arg)) : [])].join(
        ' ',
      ),
      port: server.port,
      env: { PORT: String(server.port) },
      reuseExistingServer: false,
      timeout: 60_000,
    })),
  ],
});
