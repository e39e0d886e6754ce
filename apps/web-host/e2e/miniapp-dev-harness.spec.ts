import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';

/**
 * The MiniApp SDK's dev loop, as an author uses it: `vite` (dev) in the Pomodoro app, then the mock runtime the
 * plugin serves at `/__lineup/`. No host: the harness frames the app page, answers `app_ready`, calls tools from
 * its forms and shows the session data the page renders from.
 */

const POMODORO = fileURLToPath(new URL('../../pomodoro/', import.meta.url));
let server: ViteDevServer;
let base: string;

// One worker for the file: two dev servers over Pomodoro's root would share (and race on) its dependency cache.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await createServer({
    root: POMODORO,
    configFile: `${POMODORO}vite.config.ts`,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || typeof address !== 'object' || address === undefined)
    throw new Error('no dev server address');
  base = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await server?.close();
});

test('the mock runtime at /__lineup/ runs Pomodoro without a host: start, see it running, interrupt', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/__lineup/`);
  await expect(page.getByTestId('status')).toHaveText('app_ready', { timeout: 30_000 });
  await expect(page.getByTestId('revision')).toHaveText('0');
  const app = page.frameLocator('#app');
  await expect(app.getByText('Ready to focus')).toBeVisible();

  // Each tool of the manifest has a form; start a 2-minute session with a label.
  await expect(page.getByTestId('tool-start')).toContainText('pomodoro.start');
  await expect(page.getByTestId('tool-interrupt')).toContainText('pomodoro.interrupt');
  await page.getByTestId('arguments-start').fill('{"minutes": 2, "label": "Harness"}');
  await page.getByTestId('call-start').click();
  await expect(page.getByTestId('result-start')).toHaveText('progress: started');
  await expect(page.getByTestId('revision')).toHaveText('1');
  const running = JSON.parse((await page.getByTestId('session-data').textContent()) ?? '{}');
  expect(running.operation).toMatchObject({ status: 'running', minutes: 2, label: 'Harness' });
  // The page renders the session data it was sent: the timer is running.
  await expect(app.getByText('Focusing')).toBeVisible();
  await expect(app.getByText('Harness', { exact: true })).toBeVisible();
  await expect(app.getByText(/^0[12]:\d\d$/)).toBeVisible();

  await page.getByTestId('call-interrupt').click();
  await expect(page.getByTestId('result-interrupt')).toContainText('"status": "interrupted"');
  await expect(page.getByTestId('result-start')).toContainText('"by": "agent"');
  await expect(page.getByTestId('revision')).toHaveText('2');
  await expect(app.getByText('Interrupted', { exact: true })).toBeVisible();
  const ended = JSON.parse((await page.getByTestId('session-data').textContent()) ?? '{}');
  expect(ended.operation).toMatchObject({ status: 'interrupted', by: 'agent' });

  // Bad arguments get a clear answer and change nothing.
  await page.getByTestId('arguments-start').fill('{"minutes": 0}');
  await page.getByTestId('call-start').click();
  await expect(page.getByTestId('result-start')).toContainText('invalid_arguments');
  await page.getByTestId('arguments-start').fill('not json');
  await page.getByTestId('call-start').click();
  await expect(page.getByTestId('result-start')).toContainText('Arguments are not JSON');
  await expect(page.getByTestId('revision')).toHaveText('2');
  await page.screenshot({ path: 'test-results/miniapp-dev-harness.png' });
  expect(errors).toEqual([]);
});

test('the mock runtime judges the page’s messages with the runtime’s parser and answers a refused one', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/__lineup/`);
  await expect(page.getByTestId('status')).toHaveText('app_ready', { timeout: 30_000 });
  const frame = page.frame({ url: /#lineup-instance=/ });
  if (frame === null) throw new Error('no app frame');
  // What a page with a bad write sends, and what it hears back (the SDK's client reads the same answer).
  const answer = await frame.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const instance = new URLSearchParams(location.hash.slice(1)).get('lineup-instance');
        addEventListener('message', (event) => {
          if (event.data?.type === 'request_result' && event.data.request_id === 'bad-1') resolve(event.data);
        });
        parent.postMessage(
          {
            namespace: 'lineup.miniapp.v1',
            type: 'session_data_write',
            instance_id: instance,
            request_id: 'bad-1',
            key: '1st',
            value: 1,
          },
          '*',
        );
      }),
  );
  expect(answer).toMatchObject({
    status: 'error',
    error: { code: 'protocol_invalid', issues: [{ path: 'key', code: 'invalid_value' }] },
  });
  await expect(page.getByTestId('log')).toContainText('refused session_data_write: key: ');
  // Nothing was committed.
  await expect(page.getByTestId('revision')).toHaveText('0');
  await page.screenshot({ path: 'test-results/miniapp-dev-harness-refused.png' });
  expect(errors).toEqual([]);
});

test('a page that never starts its client is reported in the harness and its console, with the likely cause', async ({
  page,
}, testInfo) => {
  // Pomodoro with the newcomer's mistake: its entry module loads but never creates the client.
  const silent = await createServer({
    root: POMODORO,
    configFile: `${POMODORO}vite.config.ts`,
    logLevel: 'silent',
    // Its own dependency cache: another test's dev server over the same root may be running beside it.
    cacheDir: testInfo.outputPath('vite-cache'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    plugins: [
      {
        name: 'never-starts',
        transform: (_code, id) =>
          id.endsWith('/src/main.ts') ? 'export function startPage() {}\n' : undefined,
      },
    ],
  });
  await silent.listen();
  try {
    const address = silent.httpServer?.address();
    if (address === null || typeof address !== 'object' || address === undefined)
      throw new Error('no dev server address');
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`http://127.0.0.1:${address.port}/__lineup/`);
    await expect(page.getByTestId('status')).toHaveText('silent: no app_ready', { timeout: 15_000 });
    const cause =
      /has not sent app_ready\. Does the page's entry script .* call createMiniAppClient\(\{ tools \}\)/;
    await expect(page.getByRole('alert')).toHaveText(cause);
    expect(warnings.some((warning) => cause.test(warning))).toBe(true);
  } finally {
    await silent.close();
  }
});
