import AxeBuilder from '@axe-core/playwright';
import { startUIStream } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import type { Page } from '@playwright/test';
import { EVERY_COMPONENT } from './every-component.ts';
import { expect, shownConversation, test } from './fixtures.ts';

/**
 * axe-core (WCAG 2.1 A/AA, best practices, `color-contrast` on) on every screen and state of the built host, in
 * light and dark, in English and Chinese: the overview, every example of the gallery (documents, the inline
 * Surface, a stream in progress and completed), a pasted document of every component and a refused one, the app
 * center with each form and its problem states (a URL install refused, an MCP server that cannot be reached) and an
 * uninstall being confirmed, the agent console with a tool selected, a call made and a message opened, the
 * workspace with Pomodoro, the consent dialog opened by a DSL invoke button, and the conversation list. Each test
 * walks one theme and language (four: light and dark, English and Chinese) through all of them in one page (a page per state would take minutes); a state that
 * changes one part of the page is checked there, the whole page again at the end. Zero violations, and no
 * "needs review" of a name that hides its visible label (WCAG 2.5.3).
 */

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** What one state shows that axe refuses, short enough to read in a test report. */
async function check(page: Page, state: string, include?: string, frames = false): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (include !== undefined) builder.include(include);
  // A Surface's or a MiniApp's frame is a document of its own (its main, its h1), checked where it appears
  // (`frames`); other checks leave frames out, so one document's headings and landmarks are not read as another's.
  if (!frames) builder.exclude('iframe');
  const results = await builder.analyze();
  const summary = (
    id: string,
    nodes: readonly { target: unknown[]; html: string; failureSummary?: string }[],
  ) =>
    `${state} · ${id}: ${nodes
      .slice(0, 4)
      .map(
        (node) =>
          `${node.target.join(' ')} ${node.html.slice(0, 120)} ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
      )
      .join(' | ')}`;
  return [
    ...results.violations.map((violation) => summary(violation.id, violation.nodes)),
    ...results.incomplete
      .filter((review) => review.id === 'label-content-name-mismatch')
      .map((review) => summary(`${review.id} (needs review)`, review.nodes)),
  ];
}

/** Delivers a document or a lineup.v1 message through the paste box, as an agent's text would come in. */
async function paste(page: Page, value: unknown): Promise<void> {
  await page.locator('#paste-document').fill(JSON.stringify(value));
  await page.locator('.host__paste button[type="submit"]').click();
}

const LANGUAGES = [
  { button: 'EN', locale: 'en' },
  { button: '中文', locale: 'zh' },
] as const;

// The MCP server form is tried on a port where nothing listens: the browser logs the refused connection.
test.use({ allowedConsoleErrors: /Failed to load resource: net::ERR_CONNECTION_REFUSED/ });
// A click waits for its element as long as the test may run: bounded, a page that stops answering fails at the step
// that waited (one walk in CI once ran into the walk's 240 s with its last step still within its own bound).
test.use({ actionTimeout: 30_000 });

// Every theme in every language (22 s a walk in CI): a text's length and script change what wraps, overlaps and
// overflows, and the issue asks for each state in both themes and both languages.
const WALKS = (['light', 'dark'] as const).flatMap((colorScheme) =>
  LANGUAGES.map((language) => ({ colorScheme, language })),
);

for (const { colorScheme, language } of WALKS)
  test(`every screen and state: ${colorScheme}, ${language.locale}`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/');
    await expect(page.locator('section.host__conversation[aria-busy="false"]')).toHaveCount(1);
    await page.getByRole('button', { name: language.button, exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', language.locale === 'zh' ? /^zh/ : /^en/);
    const found: string[] = [];
    const scan = async (state: string, include?: string, frames = false) => {
      const start = Date.now();
      found.push(...(await check(page, state, include, frames)));
      timings.push(`${state} ${Date.now() - start} ms`);
    };
    const timings: string[] = [];
    await scan('overview');

    // The gallery: each example, checked where it is shown.
    const examples = page.locator('.host__examples button');
    const entries = page.locator('.host__entry');
    const count = await examples.count();
    expect(count).toBeGreaterThanOrEqual(7);
    for (let index = 0; index < count; index++) {
      const name = (await examples.nth(index).getAttribute('data-example')) ?? String(index);
      const before = await entries.count();
      if (name === 'stream') {
        await examples.nth(index).click();
        await expect(page.locator('.lu-stream[data-status="completed"]')).toHaveCount(1);
        continue;
      }
      await examples.nth(index).click();
      await expect(entries).toHaveCount(before + 1);
      if (name === 'surface')
        await expect(
          // The new entry's frame: the page's last `iframe.lineup-surface` may be the spare frame the host loads
          // ahead for the next Surface (it has no instance yet), which never shows the city.
          entries
            .last()
            .locator('iframe.lineup-surface[data-instance-id]')
            .contentFrame()
            .locator('iframe')
            .contentFrame()
            .locator('#city'),
          // The Surface's own frame loads after its host frame: on a busy machine that took more than 5 s once.
        ).toHaveText('Beijing', { timeout: 15_000 });
      // A document is checked with the whole page at the end (every entry is still shown); a Surface's frame here.
      if (name === 'surface') await scan('example surface', '.host__entry:last-child', true);
    }

    // A stream in progress: its first frame, as an agent's checkpoint message.
    const conversation = await shownConversation(page);
    await paste(page, {
      v: 1,
      id: 'msg_stream_in_progress',
      type: 'lineup.v1.ui.checkpoint',
      conversation_id: conversation,
      sender: { kind: 'agent', id: 'agent_e2e' },
      // Titled apart from the example's stream: two interfaces of one title are two regions of one name.
      payload: {
        checkpoint: startUIStream(
          { ...streamInitial, title: 'Savings projection, in progress' },
          'call_stream_a11y',
          1,
        ).checkpoint,
      },
    });
    await expect(page.locator('.lu-stream')).toHaveCount(2);
    await scan('stream in progress', '.host__entry:last-child');

    // A pasted document of every component, and one that is refused.
    await paste(page, EVERY_COMPONENT);
    await expect(page.locator('.lu-ui').last()).toContainText('Every component');
    await expect(page.locator('.lu-markdown[aria-busy]')).toHaveCount(0);
    await paste(page, { version: '3.0', id: 'x' });
    await expect(page.getByRole('alert').last()).toBeVisible();
    await scan('refused document', '.host__conversation');

    // The app center: a URL install refused, an MCP server that cannot be reached, an uninstall confirmed.
    const center = page.locator('aside.host__apps');
    const forms = center.locator('.host__app-install-form');
    await forms.nth(0).locator('input[type="text"]').fill('/apps/nothing-here/');
    await forms.nth(0).locator('button[type="submit"]').click();
    await expect(forms.nth(0).getByRole('alert')).toBeVisible();
    await forms.nth(1).locator('input[type="text"]').first().fill('http://127.0.0.1:3999/mcp');
    await forms.nth(1).locator('button[type="submit"]').click();
    await expect(forms.nth(1).getByRole('alert')).toBeVisible({ timeout: 20_000 });
    const pomodoro = center.locator('li.host__app').first();
    await pomodoro.locator('.host__app-actions button[aria-expanded]').click();
    await expect(pomodoro.locator('.host__app-confirm')).toBeVisible();
    await pomodoro
      .locator('details')
      .first()
      .evaluate((element) => {
        (element as HTMLDetailsElement).open = true;
      });
    await scan('app center: problems and a confirmation', 'aside.host__apps');
    await pomodoro.locator('.host__app-confirm button').last().click();

    // The agent console: a tool selected, called (Pomodoro comes forward), a message opened.
    const agentConsole = page.locator('section.host__console');
    await agentConsole.locator('.host__console-head button').click();
    await agentConsole.locator('select').first().selectOption('pomodoro.start');
    await agentConsole.getByLabel('minutes').fill('1');
    await agentConsole.locator('.host__console-actions button[type="submit"]').click();
    await expect(page.locator('section.host__workspace iframe')).toHaveCount(1);
    await expect(agentConsole.locator('.host__console-call')).toHaveCount(1);
    await agentConsole.locator('.host__console-entry summary').first().click();
    await expect(agentConsole.locator('.host__console-scroll')).toHaveCount(1);
    await scan('console', 'section.host__console');
    await scan('workspace with Pomodoro', 'section.host__workspace', true);

    // The consent dialog, opened by the file reader's invoke button (the 1.1 example the demo agent sent above).
    const read = page.locator('.host__entry').getByRole('button', { name: '读取' }).first();
    await read.click();
    await expect(page.locator('dialog.host__consent[open]')).toBeVisible();
    await scan('consent dialog');
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog.host__consent[open]')).toHaveCount(0);

    // The conversation list, opened as a new conversation starts.
    await scan('whole page, everything shown');
    console.log(`[axe states] ${colorScheme} ${language.locale}: ${timings.join(' · ')}`);
    expect(found).toEqual([]);
  });
