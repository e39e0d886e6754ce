import { bundleIntegrity, fileIntegrity } from '@lineup/shared/protocol';
import type { Page } from '@playwright/test';
import { expect, shownConversation, test } from './fixtures.ts';

/**
 * Surfaces by reference (seed 000 §5.1) in the built host: an agent opens an installed app's declared Surface by
 * app id and surface id, with no code of its own. The host reads the Surface from the app's kept, verified files
 * and runs it under the same sandbox, policy and bridge as an inline Surface; only the events the app declares
 * reach the agent; a reference the host cannot honour is answered `unsupported`, never opened.
 */

const PASTE = 'Document or lineup.v1 message (JSON)';
const POMODORO = 'com.lineup.pomodoro';

async function deliver(
  page: Page,
  type: string,
  payload: object,
  id = `msg_${Math.random().toString(36).slice(2)}`,
) {
  const conversation_id = await shownConversation(page);
  const message = { v: 1, id, type, conversation_id, sender: { kind: 'agent', id: 'agent_e2e' }, payload };
  await page.getByLabel(PASTE).fill(JSON.stringify(message));
  await page.getByRole('button', { name: 'Deliver' }).click();
}

const openFocus = (
  page: Page,
  instance_id: string,
  state: object = { minutes: 15 },
  surface_id = 'focus',
  id?: string,
) =>
  deliver(page, 'lineup.v1.ui.open', { instance_id, surface: { app_id: POMODORO, surface_id }, state }, id);

const notes = (page: Page) =>
  page.locator('.host__note').filter({ hasNotText: 'lineup.v1.client.inventory' });
/** The Surface's own frame, inside the host's wrapper frame titled by the app's name. */
const surface = (page: Page) => page.frameLocator('iframe[title="Pomodoro"]').frameLocator('iframe');

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await expect(
    page.getByText(/^(Agent: connected \(demo agent\)|智能体：已连接 \(演示智能体\))$/),
  ).toBeVisible();
});

test('an agent opens Pomodoro’s focus card by reference: verified files, contained frame, declared events', async ({
  page,
}) => {
  await openFocus(page, 'focus.1', { minutes: 15, label: 'Write the report' });
  const iframe = page.locator('iframe[title="Pomodoro"]');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(iframe).toHaveAttribute('srcdoc', /Content-Security-Policy/);
  expect(await iframe.getAttribute('src')).toBeNull();
  const card = surface(page);
  await expect(card.getByRole('heading', { name: 'Focus session' })).toBeVisible();
  await expect(card.getByText('Write the report')).toBeVisible();
  await expect(card.locator('[data-field="minutes"]')).toHaveText('15');
  await card.getByRole('button', { name: 'Start' }).click();
  await expect(notes(page).last()).toHaveText('→ agent lineup.v1.ui.event focus.1 start {"minutes":15}');
  await deliver(page, 'lineup.v1.ui.patch', {
    instance_id: 'focus.1',
    state: { minutes: 40, lang: 'zh-CN' },
  });
  await expect(card.getByRole('heading', { name: '专注时段' })).toBeVisible();
  await expect(card.locator('[data-field="minutes"]')).toHaveText('40');
  await card.getByRole('button', { name: '停止' }).click();
  await expect(notes(page).last()).toHaveText('→ agent lineup.v1.ui.event focus.1 stop {}');
  // After the clicks: a full-page screenshot resizes the viewport for a moment, and a click into the Surface's
  // frame (its own process) right after it can land on the parent's <iframe> element instead (seen in 8 of 40
  // runs, with the event's target recorded in every frame).
  await page.screenshot({ path: 'test-results/surface-reference-en.png', fullPage: true });
  await page.getByRole('button', { name: 'Close Pomodoro' }).click();
  await expect(iframe).toHaveCount(0);
  await expect(notes(page).last()).toHaveText('→ agent lineup.v1.ui.event focus.1 close {}');
});

test('a reference the host cannot honour is answered unsupported and opens nothing', async ({ page }) => {
  await openFocus(page, 'focus.x', {}, 'canvas', 'open_unknown_surface');
  await expect(notes(page).last()).toContainText('lineup.v1.unsupported');
  await expect(notes(page).last()).toContainText('open_unknown_surface');
  await expect(notes(page).last()).toContainText('unknown_reference');
  await deliver(
    page,
    'lineup.v1.ui.open',
    { instance_id: 'x.1', surface: { app_id: 'com.example.none', surface_id: 'focus' }, state: {} },
    'open_unknown_app',
  );
  await expect(notes(page).last()).toContainText('open_unknown_app');
  await expect(notes(page).last()).toContainText('unknown_reference');
  await expect(page.locator('iframe[title="Pomodoro"]')).toHaveCount(0);
});

test('only declared events pass: an event Pomodoro does not declare is dropped and reported', async ({
  page,
}) => {
  // A Pomodoro build whose focus card also sends an undeclared event: its manifest lists the changed file
  // (so it verifies and installs) but still declares only start and stop.
  const manifest = (await (await page.request.get('/apps/pomodoro/lineup.manifest.json')).json()) as {
    files: { path: string; size: number; integrity: string }[];
    integrity: string;
  };
  const original = await (await page.request.get('/apps/pomodoro/surfaces/focus.js')).text();
  const changed = Buffer.from(
    `${original}\ndocument.querySelector('[data-action="start"]').addEventListener('click', function () { LineUpSurface.event('exfiltrate', { secret: 1 }); });\n`,
  );
  const files = manifest.files.map((file) =>
    file.path === 'surfaces/focus.js'
      ? { path: file.path, size: changed.length, integrity: fileIntegrity(new Uint8Array(changed)) }
      : file,
  );
  const served = { ...manifest, files, integrity: bundleIntegrity(files) };
  await page.route('**/apps/pomodoro/lineup.manifest.json', (route) => route.fulfill({ json: served }));
  await page.route('**/apps/pomodoro/surfaces/focus.js', (route) =>
    route.fulfill({ body: changed, contentType: 'text/javascript' }),
  );
  // A fresh profile, so the host installs this build.
  await page.evaluate(() => indexedDB.deleteDatabase('lineup-runtime'));
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByText('Agent: connected (demo agent)')).toBeVisible();
  await openFocus(page, 'focus.2');
  await surface(page).getByRole('button', { name: 'Start' }).click();
  await expect(page.locator('.host__note').filter({ hasText: 'exfiltrate' })).toHaveText(
    /Dropped 1 event "exfiltrate" from Surface focus\.2: its app does not declare that event\./,
  );
  await expect(
    page.locator('.host__note').filter({ hasText: '→ agent lineup.v1.ui.event focus.2 start' }),
  ).toHaveCount(1);
  await expect(
    page.locator('.host__note').filter({ hasText: '→ agent lineup.v1.ui.event focus.2 exfiltrate' }),
  ).toHaveCount(0);
});

async function say(page: Page, text: string) {
  const field = page.getByLabel(/^(Message to the agent|发给智能体的消息)$/);
  await field.fill(text);
  // Enter, as a user sends: a Surface above that resizes itself can move the Send button away from a click.
  await expect(page.getByRole('button', { name: /^(Send|发送)$/ })).toBeEnabled();
  await field.press('Enter');
}

test('the demo agent opens the focus card by reference; its Start starts Pomodoro', async ({ page }) => {
  await say(page, 'open the focus card');
  const card = surface(page);
  await expect(card.getByRole('heading', { name: 'Focus session' })).toBeVisible();
  await expect(card.locator('[data-field="minutes"]')).toHaveText('25');
  // The frame follows the card's height (LineUpSurface.resize), not the 240 px it opened with.
  await expect
    .poll(async () => (await page.locator('iframe[title="Pomodoro"]').boundingBox())?.height)
    .toBeLessThan(200);
  await card.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('region', { name: 'Pomodoro' })).toBeVisible();
  await expect(
    page.frameLocator('.host__workspace-frame iframe').frameLocator('iframe').locator('[data-phase]'),
  ).toHaveAttribute('data-phase', 'running');
  await page.screenshot({ path: 'test-results/surface-reference-demo-en.png', fullPage: true });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the focus card speaks Chinese', async ({ page }) => {
    await say(page, '打开专注卡片');
    const card = surface(page);
    await expect(card.getByRole('heading', { name: '专注时段' })).toBeVisible();
    await expect(card.getByRole('button', { name: '开始' })).toBeVisible();
    await page.screenshot({ path: 'test-results/surface-reference-zh.png', fullPage: true });
  });
});
