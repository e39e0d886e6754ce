import AxeBuilder from '@axe-core/playwright';
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import type { Page } from '@playwright/test';
import { EVERY_COMPONENT } from './every-component.ts';
import { expect, test } from './fixtures.ts';

/**
 * The theme a document follows and keeps against a host's styles (axe on it), keyboard and focus — each dialog's
 * open, Tab cycle and close, and where the focus goes after — announcements, names, narrow screens, screenshots.
 * axe on every screen and state of the host: accessibility-states.spec.ts.
 */

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Shows a document through the paste box, as an agent's text would come in. */
async function deliver(page: Page, document: unknown): Promise<void> {
  await page.locator('#paste-document').fill(JSON.stringify(document));
  await page.locator('.host__paste button[type="submit"]').click();
}

/** Opens the host with its conversation read back. */
async function openHost(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('section.host__conversation[aria-busy="false"]')).toHaveCount(1);
}

/** An example of the gallery: the button that shows it, and the interface region it renders (by its title). */
const DOCUMENT_EXAMPLES: readonly (readonly [button: string, title: string])[] = [
  ['Compound interest calculator', '本地复利计算器'],
  ['Product comparison', '三款轻薄笔记本对比'],
  ['Form controls', '工作坊报名'],
  ['File reader (1.1 invoke)', '文件信息'],
  ['Agent callback (1.1 invoke)', '版本说明助手'],
];

// Every screen and state in both themes and both languages: accessibility-states.spec.ts.

test.describe('theme', () => {
  /** A host page that is dark and styles headings, paragraphs and labels by element. */
  const HOSTILE_HOST_CSS = `
    body, .host, .host__conversation { background: #101114 !important; color: #f0f0f0; }
    h1, h2, h3, h4, h5, h6 { color: #15171c; font-size: 3rem; }
    .host__main h3, .host__entry h4 { color: #222; }
    p, span, div, label, output, td, th, li { color: #1a1a1a; }
    button { background: #000; color: #111; }
  `;

  for (const colorScheme of ['light', 'dark'] as const)
    test(`a host's element styles do not reach into a document (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await openHost(page);
      await page.addStyleTag({ content: HOSTILE_HOST_CSS });
      await deliver(page, EVERY_COMPONENT);
      const ui = page.getByRole('region', { name: 'Every component' });
      await expect(ui.locator('.lu-markdown[aria-busy]')).toHaveCount(0);
      const results = await new AxeBuilder({ page }).include('.lu-ui').withTags(AXE_TAGS).analyze();
      expect(results.violations.map((violation) => violation.id)).toEqual([]);
      // The title keeps the renderer's colour and size, not the host's h3 rule.
      const title = ui.getByRole('heading', { name: 'Every component', level: 3 });
      const style = await title.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { color: computed.color, size: computed.fontSize };
      });
      expect(style.color).not.toBe('rgb(34, 34, 34)');
      expect(style.size).not.toBe('48px');
    });

  test('documents follow the dark colour scheme, and a host can pin one', async ({ page }) => {
    const background = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await openHost(page);
    await deliver(page, EVERY_COMPONENT);
    await expect(page.locator('.lu-ui')).toHaveCount(1);
    expect(await background('.lu-ui')).toBe('rgb(27, 30, 38)');
    expect(await background('.lu-card')).toBe('rgb(27, 30, 38)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background('.lu-ui')).toBe('rgb(255, 255, 255)');
    // data-lu-theme (the theme prop) wins over the user's preference.
    await page.locator('.lu-ui').evaluate((element) => element.setAttribute('data-lu-theme', 'dark'));
    expect(await background('.lu-ui')).toBe('rgb(27, 30, 38)');
  });
});

test.describe('keyboard, focus and announcements', () => {
  test('after Deliver, focus moves to the new interface and a live region names it', async ({ page }) => {
    await openHost(page);
    await page.getByLabel('Document or lineup.v1 message (JSON)').fill(JSON.stringify(EVERY_COMPONENT));
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Deliver' })).toBeFocused();
    await page.keyboard.press('Enter');
    const entry = page.getByRole('listitem', { name: 'Pasted document: Every component' });
    await expect(entry).toBeFocused();
    await expect(page.getByTestId('announcer')).toHaveText('New interface: Pasted document: Every component');
    await expect(page.getByTestId('announcer')).toHaveAttribute('aria-live', 'polite');
    // Tab goes on into the interface's first control.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
    // Two examples are two entries with different names.
    await page.getByRole('button', { name: 'Compound interest calculator' }).click();
    await expect(page.getByTestId('announcer')).toHaveText(
      'New interface: Compound interest calculator: 本地复利计算器',
    );
  });

  test('the consent dialog by keyboard: opened from its button, Tab stays inside, Escape and Deny return the focus to the button', async ({
    page,
  }) => {
    await openHost(page);
    await page.getByRole('button', { name: 'File reader (1.1 invoke)' }).click();
    const read = page.getByRole('button', { name: '读取' });
    await read.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'A button you pressed asks to use a capability' });
    await expect(dialog).toBeVisible();
    // Focus starts in the dialog and lands on "Deny" once it is armed; Tab cycles through the dialog only.
    await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
    const inside: boolean[] = [];
    for (let step = 0; step < 8; step++) {
      await page.keyboard.press('Tab');
      inside.push(await page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null));
    }
    expect(inside).toEqual(Array(8).fill(true));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(read).toBeFocused();
    // Again, answered "Deny" by keyboard: the focus is back on the button that asked.
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(read).toBeFocused();
  });

  test('the workspace by keyboard: Close returns the focus to what opened it, Back too', async ({ page }) => {
    await openHost(page);
    const region = page.getByRole('region', { name: 'Agent console' });
    await region.getByRole('button', { name: 'Show' }).click();
    await region.getByLabel('Agent Tool', { exact: true }).selectOption('pomodoro.start');
    await region.getByLabel('minutes').fill('1');
    const call = region.getByRole('button', { name: 'Call tool' });
    await call.focus();
    await page.keyboard.press('Enter');
    const workspace = page.getByRole('region', { name: 'Pomodoro' });
    await expect(workspace).toBeVisible();
    await workspace.getByRole('button', { name: 'Back to conversation' }).focus();
    await page.keyboard.press('Enter');
    await expect(workspace).toBeHidden();
    await expect(call).toBeFocused();
    // Brought back by the agent (a second call) and closed: the focus goes back again, never to the page.
    await call.focus();
    await page.keyboard.press('Enter');
    await expect(workspace).toBeVisible();
    await workspace.getByRole('button', { name: 'Close Pomodoro' }).focus();
    await page.keyboard.press('Enter');
    await expect(workspace).toBeHidden();
    await expect(call).toBeFocused();
  });

  test('an uninstall asked and kept by keyboard returns the focus to Uninstall', async ({ page }) => {
    await openHost(page);
    const pomodoro = page
      .getByRole('complementary', { name: 'MiniApps' })
      .getByRole('listitem', { name: 'Pomodoro' });
    const uninstall = pomodoro.getByRole('button', { name: 'Uninstall Pomodoro' });
    await uninstall.focus();
    await page.keyboard.press('Enter');
    await expect(pomodoro.getByRole('button', { name: 'Keep Pomodoro' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(uninstall).toBeFocused();
  });

  test('a refused delivery moves focus to the note that says why', async ({ page }) => {
    await openHost(page);
    await deliver(page, { version: '3.0', id: 'x' });
    await expect(page.getByRole('alert', { name: 'Interface not shown' })).toBeVisible();
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  });

  test('closing a Surface with the keyboard leaves focus in the conversation', async ({ page }) => {
    await openHost(page);
    await page.getByRole('button', { name: 'Inline Surface' }).click();
    await expect(page.getByTestId('announcer')).toHaveText(/New interface: Weather dashboard/);
    const close = page.getByRole('button', { name: /Weather dashboard/ });
    await close.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.host__surface')).toHaveCount(0);
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      inConversation: document.activeElement?.closest('.host__conversation') !== null,
    }));
    expect(focused.tag).not.toBe('BODY');
    expect(focused.inConversation).toBe(true);
  });

  test('names: a Result by its label, a disabled invoke button by its reason, a Chart once; lang', async ({
    page,
  }) => {
    await openHost(page);
    await page.getByRole('button', { name: 'Compound interest calculator' }).click();
    const ui = page.getByRole('region', { name: '本地复利计算器' });
    await expect(ui).toHaveAttribute('lang', 'zh');
    await expect(ui.getByRole('status', { name: '期末总额' })).toContainText('16,288.95');
    await expect(ui.getByRole('figure')).toHaveCount(1);
    await expect(ui.locator('svg[aria-hidden="true"]')).toHaveCount(1);
    // A 1.1 document shown by the page (not sent by the agent) has no action handler: the reason is tied.
    await deliver(page, fileReader);
    const button = page.getByRole('button', { name: '读取' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription('Actions are not available here.');
    // The renderer's own sentence is in the host's language inside a Chinese document, and says so.
    await expect(page.getByText('Actions are not available here.')).toHaveAttribute('lang', 'en');
  });

  test('at 320 px wide the page does not scroll sideways', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 900 });
    await openHost(page);
    for (const [button, title] of DOCUMENT_EXAMPLES.slice(0, 3)) {
      await page.getByRole('button', { name: button }).click();
      await expect(page.getByRole('region', { name: title })).toBeVisible();
    }
    await deliver(page, EVERY_COMPONENT);
    await expect(page.getByRole('region', { name: 'Every component' })).toBeVisible();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });
});

test.describe('screenshots', () => {
  for (const colorScheme of ['light', 'dark'] as const)
    for (const language of ['EN', '中文'] as const)
      test(`product comparison and every component, ${colorScheme}, ${language}`, async ({ page }) => {
        await page.setViewportSize({ width: 1280, height: 1800 });
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await openHost(page);
        await page.getByRole('button', { name: language, exact: true }).click();
        await page.locator('.host__examples button').nth(1).click();
        await expect(page.getByRole('region', { name: '三款轻薄笔记本对比' })).toBeVisible();
        await deliver(page, EVERY_COMPONENT);
        await expect(page.getByRole('region', { name: 'Every component' })).toBeVisible();
        await expect(page.locator('.lu-markdown[aria-busy]')).toHaveCount(0);
        await page.screenshot({
          path: `test-results/renderer-${colorScheme}-${language === 'EN' ? 'en' : 'zh'}.png`,
        });
      });
});
