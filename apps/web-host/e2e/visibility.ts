import type { Page } from '@playwright/test';

/**
 * Headless Chromium is always visible: the page's visibility is driven by the test instead. Call before the page
 * loads (an init script, so it holds across reloads, visible at each load); returns the switch.
 */
export async function driveVisibility(page: Page): Promise<(hidden: boolean) => Promise<void>> {
  await page.addInitScript(() => {
    let hidden = false;
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { get: () => hidden });
    Object.assign(window, {
      setHidden(value: boolean) {
        hidden = value;
        document.dispatchEvent(new Event('visibilitychange'));
      },
    });
  });
  return (hidden) =>
    page.evaluate((value) => (window as unknown as { setHidden(v: boolean): void }).setHidden(value), hidden);
}
