import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { createServer } from 'vite';

/**
 * A MiniApp's `vite` dev server as its author runs it (the SDK's plugin serves a build at /__lineup/bundle/, rebuilt
 * on save), on 127.0.0.1 and a free port: the dev bundle's URL for `?dev=`, and how to stop it.
 */
export async function serveDevApp(
  directory: string,
): Promise<{ readonly bundle: string; close(): Promise<void> }> {
  const server = await createServer({
    root: directory,
    configFile: join(directory, 'vite.config.ts'),
    logLevel: 'silent',
    cacheDir: join(directory, '.vite'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || typeof address !== 'object' || address === undefined) {
    await server.close();
    throw new Error('no dev server address');
  }
  return { bundle: `http://127.0.0.1:${address.port}/__lineup/bundle/`, close: () => server.close() };
}

/**
 * Sends one call of `tool` from the Agent console (already shown, the tool picked) — the form's `text`, or the
 * arguments' JSON when `json` is set — and waits for the call's final `phase`: the newest call's list item.
 */
export async function callFromConsole(
  page: Page,
  tool: string,
  fill: { readonly text: string } | { readonly json: string },
  phase: 'completed' | 'error' = 'completed',
): Promise<Locator> {
  const region = page.getByRole('region', { name: 'Agent console' });
  const calls = region.getByRole('listitem', {
    name: new RegExp(`^${tool.replace('.', '\\.')} call_console_`),
  });
  const before = await calls.count();
  if ('text' in fill) await region.getByRole('textbox', { name: 'text (required)' }).fill(fill.text);
  else await region.getByRole('textbox', { name: 'Arguments (JSON object)' }).fill(fill.json);
  await region.getByRole('button', { name: 'Call tool' }).click();
  // The newest call is listed first.
  await expect(calls).toHaveCount(before + 1);
  const item = calls.first();
  await expect(item.locator('.host__console-phase')).toHaveText(phase, { timeout: 30_000 });
  return item;
}

/** The JSON result a completed console call shows. */
export async function consoleResult(item: Locator): Promise<unknown> {
  return JSON.parse((await item.locator('.host__console-result pre').textContent()) ?? '') as unknown;
}
