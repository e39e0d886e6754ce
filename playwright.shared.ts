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
