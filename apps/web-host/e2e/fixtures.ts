import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every e2e test fails on an unexpected `console.error` or uncaught page error: a page that renders but logs
 * an error is broken. A test that expects some (logged or thrown) passes a pattern for them as `allowedConsoleErrors` (one RegExp:
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
      page.on('pageerror', (error) => {
        if (!allowedConsoleErrors?.test(error.message))
          // The stack (it starts with the message) says where: a flake in CI is diagnosed from this line alone.
          errors.push(`uncaught: ${error.stack ?? error.message}`);
      });
      await use(undefined);
      expect(errors, 'unexpected console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * The id of the conversation the host shows (each profile starts its own `conv_<uuid>`), once it has been read
 * back from the runtime database: what a pasted agent message must name to appear in it.
 */
export async function shownConversation(page: Page): Promise<string> {
  const section = page.locator('section.host__conversation[aria-busy="false"]');
  await expect(section).toHaveAttribute('data-conversation-id', /^conv_/);
  return (await section.getAttribute('data-conversation-id')) ?? '';
}
