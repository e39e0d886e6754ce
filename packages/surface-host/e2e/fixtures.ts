import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, test as base, chromium, expect, type Page } from '@playwright/test';
import type { Harness } from './harness/main.ts';
import { Recorder } from './recorder.ts';

/** Calls a harness method in the page. */
export function call<K extends keyof Harness>(
  page: Page,
  method: K,
  ...args: Parameters<Harness[K]>
): Promise<Awaited<ReturnType<Harness[K]>>> {
  return page.evaluate(
    ({ method, args }) =>
      // biome-ignore lint/suspicious/noExplicitAny: the harness is a plain object on window.
      (window as any).harness[method](...args),
    { method, args },
  ) as Promise<Awaited<ReturnType<Harness[K]>>>;
}

/** How many spare frames the harness keeps in `pool` mode. */
export const POOL_FRAMES = 4;

/**
 * Each test gets its own recording server and a harness page in a browser with a real, persistent profile: an
 * incognito-like context (Playwright's default) skips some of the preconnects a user's browser makes, so it
 * would hide leaks. Console errors from the Surfaces' frames are expected (every blocked attempt logs one);
 * the page itself must log none.
 */
export const test = base.extend<
  {
    recorder: Recorder;
    harnessPage: Page;
    /**
     * `warm`: Surfaces take the spare frame the host keeps loaded; `pool`: a frame from a pool of
     * `POOL_FRAMES` loaded spares; `cold`: each loads a frame of its own; `reference`: the spare frame, with
     * each bundle mounted as an installed app's Surface by reference is (its files read back, declared events);
     * `view`: each bundle as an MCP App view; `view-ahead`: as a view prepared out of sight, then shown.
     */
    harnessMode: 'warm' | 'pool' | 'cold' | 'reference' | 'view' | 'view-ahead' | 'page';
  },
  { profile: BrowserContext }
>({
  harnessMode: ['warm', { option: true }],
  profile: [
    async ({ launchOptions }, use) => {
      const directory = mkdtempSync(join(tmpdir(), 'lineup-surface-profile-'));
      const context = await chromium.launchPersistentContext(directory, { ...launchOptions, headless: true });
      await use(context);
      await context.close();
      rmSync(directory, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  recorder: async ({}, use) => {
    const recorder = await Recorder.start();
    await use(recorder);
    await recorder.close();
  },
  harnessPage: async ({ profile, baseURL, harnessMode }, use) => {
    const page = await profile.newPage();
    const errors: string[] = [];
    // Errors of the harness page's own scripts; the frames' (blocked attempts) are expected.
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(`${baseURL}/assets/`))
        errors.push(message.text());
    });
    const query = {
      warm: '',
      pool: `?frames=${POOL_FRAMES}`,
      cold: '?cold',
      reference: '?reference',
      view: '?view',
      'view-ahead': '?view&ahead',
      page: '?page',
    }[harnessMode];
    await page.goto(`${baseURL}/${query}`);
    await page.waitForFunction(() => 'harness' in window);
    if (harnessMode !== 'cold') {
      // The spares have loaded (their Surface documents said `ready`): a Surface gets a frame loaded ahead.
      const spares = harnessMode === 'pool' ? POOL_FRAMES : 1;
      await page.waitForFunction(
        (count) => (window as unknown as { harness: Harness }).harness.sparesReady() >= count,
        spares,
      );
      await call(page, 'stopWatchingSpares');
    }
    await use(page);
    errors.push(...(await call(page, 'pageErrors')));
    await page.close();
    expect(errors, 'errors of the host page').toEqual([]);
  },
});

export { expect };
