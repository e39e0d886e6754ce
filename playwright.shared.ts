/**
 * How every Playwright suite of the workspace launches Chromium, in one place. Browsers cannot be downloaded on
 * our machines: the suites drive Debian's Chromium (`CHROMIUM_PATH`). The flags keep it from reaching for the
 * network in the background (the machine has none) and from needing a GPU or a sandbox.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_LAUNCH_OPTIONS = {
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
};

/**
 * Traces of failed tests, kept in `test-results/` where someone can open them: on by default, off under `CI` (its
 * machine keeps no files, and recording a trace of every test costs a quarter of the suite's time on 2 cores).
 * `LINEUP_E2E_TRACE=1` turns them on anywhere.
 */
export const TRACE = process.env.LINEUP_E2E_TRACE === '1' || !process.env.CI ? 'retain-on-failure' : 'off';
