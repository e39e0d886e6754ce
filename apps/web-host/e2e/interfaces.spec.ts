import { expect, test } from './fixtures.ts';
import { readMessages, readStore } from './runtime-db.ts';

/**
 * DSL interfaces in the real built host, in Chromium: the renderer's components, local state, the Markdown
 * boundary, invalid input and a replayed component stream.
 */
test.describe('agent interfaces', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });

  test('the compound interest example recomputes locally as the user types', async ({ page }) => {
    await page.getByRole('button', { name: 'Compound interest calculator' }).click();
    const ui = page.getByRole('region', { name: '本地复利计算器' });
    await expect(ui).toBeVisible();
    const total = ui.locator('.lu-result-value');
    const before = await total.textContent();
    const principal = ui.getByLabel('本金（元）');
    await principal.fill('20000');
    await expect(total).not.toHaveText(before ?? '');
    await expect(total).toContainText('32,577.89');
    // Out of the field's domain: rejected next to the control, the total keeps its value.
    await principal.fill('999999999');
    await expect(ui.getByRole('alert')).toBeVisible();
    await expect(total).toContainText('32,577.89');
    // The slider writes the same shared state.
    const rate = ui.getByLabel('年收益率（%）');
    await rate.focus();
    await page.keyboard.press('ArrowRight');
    await expect(ui.locator('.lu-slider-value').first()).toHaveText('5.5');
    await ui.getByRole('button', { name: '重置参数' }).click();
    await expect(principal).toHaveValue('10000');
    await page.screenshot({ path: 'test-results/compound-interest.png', fullPage: true });
  });

  test('agent text and Markdown never become markup', async ({ page }) => {
    const hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=1</script>';
    const document = {
      version: '1.0',
      id: 'hostile',
      mode: 'structured_ui',
      title: 'Hostile content',
      state: {},
      derived: {},
      root: {
        id: 'root',
        type: 'Column',
        props: {},
        children: [
          { id: 't', type: 'Text', props: { text: hostile } },
          {
            id: 'm',
            type: 'Markdown',
            props: {
              text: `${hostile}\n\n**Bold** [link](javascript:window.pwned=1) ![img](http://127.0.0.1:9/x.png)\n\n\`\`\`js\nwindow.pwned = 1\n\`\`\``,
            },
          },
        ],
      },
    };
    await page.getByLabel('Document or lineup.v1 message (JSON)').fill(JSON.stringify(document));
    await page.getByRole('button', { name: 'Deliver' }).click();
    const ui = page.getByRole('region', { name: 'Hostile content' });
    await expect(ui.getByText(hostile)).toBeVisible();
    await expect(ui.locator('strong')).toHaveText('Bold');
    await expect(ui.locator('pre code')).toContainText('window.pwned = 1');
    await expect(ui.locator('img, script, a, iframe')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { pwned?: unknown }).pwned)).toBeUndefined();
  });

  test('bad input is refused with a clear message', async ({ page }) => {
    const textarea = page.getByLabel('Document or lineup.v1 message (JSON)');
    await textarea.fill('{ not json');
    await page.getByRole('button', { name: 'Deliver' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This is not JSON text. Paste a document or a lineup.v1 message as a JSON object.',
    );
    await textarea.fill(JSON.stringify({ version: '3.0', id: 'x' }));
    await page.getByRole('button', { name: 'Deliver' }).click();
    const refused = page.getByRole('alert', { name: 'Interface not shown' });
    await expect(refused).toContainText('version');
  });

  test('a streamed interface builds up frame by frame and completes', async ({ page }) => {
    // The intermediate frames last a few hundred milliseconds: record every text the conversation shows, so a
    // busy machine cannot make the test miss one.
    await page.evaluate(() => {
      const seen = new Set<string>();
      Object.assign(window, { seenTexts: seen });
      new MutationObserver(() => {
        const text = document.querySelector('.host__entries')?.textContent ?? '';
        for (const phrase of ['Computing the projection', 'Generating…'])
          if (text.includes(phrase)) seen.add(phrase);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Streamed interface' }).click();
    await expect(page.getByRole('group', { name: 'Projected balance' })).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() => [...(window as unknown as { seenTexts: Set<string> }).seenTexts].sort()),
      )
      .toEqual(['Computing the projection', 'Generating…']);
    await expect(page.getByText('Computing the projection')).toHaveCount(0);
    await expect(page.getByText('Generating…')).toHaveCount(0);
    await expect(page.locator('.lu-result-value')).toContainText('16,288.95');
  });

  test('every example renders; the 1.1 examples come from the demo agent, so their actions are available', async ({
    page,
  }) => {
    for (const name of [
      'Product comparison',
      'Form controls',
      'File reader (1.1 invoke)',
      'Agent callback (1.1 invoke)',
    ])
      await page.getByRole('button', { name }).click();
    await expect(page.locator('.lu-ui')).toHaveCount(4);
    await expect(page.locator('.lu-node-error, .lu-value-error, .lu-invalid')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '读取' })).toBeEnabled();
    await expect(page.getByRole('button', { name: '起草说明' })).toBeEnabled();
    // The demo agent sent them: they are part of the conversation.
    await expect(page.locator('.host__entry--document')).toHaveCount(4);
    await page.screenshot({ path: 'test-results/examples.png', fullPage: true });
  });
});

test('examples clicked before the runtime is ready go to the conversation then shown, never to a placeholder', async ({
  page,
}) => {
  // The runtime is ready only once the bundled Pomodoro is installed: its manifest is held back meanwhile.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/apps/pomodoro/lineup.manifest.json', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const conversation = page.locator('section.host__conversation');
  for (const name of ['File reader (1.1 invoke)', 'Agent callback (1.1 invoke)', 'Inline Surface']) {
    await page.getByRole('button', { name }).click();
    // Still loading: no conversation is shown yet.
    await expect(conversation).not.toHaveAttribute('data-conversation-id');
  }
  release();
  await expect(page.locator('.lu-ui')).toHaveCount(2);
  await expect(page.locator('iframe.lineup-surface[data-instance-id]')).toHaveCount(1);
  const shown = await conversation.getAttribute('data-conversation-id');
  expect(shown).toMatch(/^conv_/);
  const conversations = await readStore<{ id: string }>(page, 'conversations');
  expect(conversations.map((record) => record.id)).toEqual([shown]);
  const messages = await readMessages<{ conversationId: string; message: { type: string } }>(page);
  expect(messages.filter((record) => record.message.type !== 'lineup.v1.client.inventory')).toHaveLength(3);
  for (const record of messages) expect(record.conversationId).toBe(shown);
});
