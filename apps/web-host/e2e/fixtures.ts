import { test as base, expect } from '@playwright/test';

/**
 * Every e2e test fails on an unexpected `console.error` or uncaught page error: a page that renders but logs
 * an error is broken. A test that expects some passes a pattern for them as `allowedConsoleErrors` (one RegExp:
 * Playwright reads an array option as a value-and-options pair).
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp | null; failOnConsoleError: undefined }>({
  allowedConsoleErrors: [null, { option: true }],
  failOnConsoleError: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const { url } = message.location();
        const text = url ? `${message.text()} (${url})` : message.text();
        if (!allowedConsoleErrors?.test(text)) errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      await use(undefined);
      expect(errors, 'unexpected console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
