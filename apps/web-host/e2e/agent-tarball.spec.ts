import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { confirmAgentLink } from './agent-page.ts';
import { agentTurns, pomodoroPhase, say } from './chat.ts';
import { expect, test } from './fixtures.ts';

/**
 * What an agent developer does first (issue 44, "Done when"): `@lineup/agent` packed as it is published and installed
 * from its tarball into an empty folder, `lineup-agent serve` with no database set up (it makes its embedded store
 * and prints a device URL), and the built Web Reference Host, dialled with that URL, playing the Pomodoro story.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['shared', 'scripted-agent', 'agent'] as const;

let folder = '';
let server: ChildProcess | undefined;
let output = '';

/** pnpm as the repository runs it: its own bin when installed, else through npx. */
function pnpm(args: string[], cwd: string): void {
  const local = join(ROOT, 'node_modules', '.bin', 'pnpm');
  if (existsSync(local)) execFileSync(local, args, { cwd, stdio: 'pipe' });
  else execFileSync('npx', ['-y', 'pnpm@10.20.0', ...args], { cwd, stdio: 'pipe' });
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  folder = mkdtempSync(join(tmpdir(), 'lineup-agent-tarball-'));
  const tarballs = join(folder, 'tarballs');
  const app = join(folder, 'app');
  mkdirSync(tarballs);
  mkdirSync(app);
  for (const name of PACKAGES) {
    if (!existsSync(join(ROOT, 'packages', name, 'dist')))
      throw new Error(`packages/${name} is not built: run the build first`);
    pnpm(['pack', '--pack-destination', tarballs], join(ROOT, 'packages', name));
  }
  const files = readdirSync(tarballs);
  const dependencies = Object.fromEntries(
    PACKAGES.map((name) => {
      const file = files.find((candidate) => candidate.startsWith(`lineup-${name}-`));
      if (file === undefined) throw new Error(`no tarball for @lineup/${name}`);
      return [`@lineup/${name}`, `file:${join(tarballs, file)}`];
    }),
  );
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'my-agent', private: true, type: 'module', dependencies, overrides: dependencies }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    stdio: 'pipe',
  });
  // The installed command, as the README's quick start runs it: no flags but a free port, no database set up.
  server = spawn(join(app, 'node_modules', '.bin', 'lineup-agent'), ['serve', '--port', '0'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  server.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  await expect.poll(() => /device URL: ws:\/\/\S+/.test(output), { timeout: 60_000 }).toBe(true);
  expect(existsSync(join(app, 'lineup-agent-data'))).toBe(true);
});

test.afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

test('installed from its tarball into an empty folder, `lineup-agent serve` runs the Pomodoro story with the host', async ({
  page,
}) => {
  test.slow();
  const url = /device URL: (ws:\/\/\S+)/.exec(output)?.[1] as string;
  expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/agent\?token=lat_[A-Za-z0-9_-]{43}$/);
  await page.goto(`/?agent=${encodeURIComponent(url)}`);
  await confirmAgentLink(page);
  await expect(page.getByRole('status').filter({ hasText: 'Agent:' })).toHaveText(
    `Agent: connected (${url.replace(/token=[^&]+/, 'token=…')})`,
  );
  await say(page, 'start a 20 minute focus');
  await expect(pomodoroPhase(page)).toHaveAttribute('data-phase', 'running');
  await expect(agentTurns(page).last()).toContainText('The timer is running: 20 minutes of focus');
  await say(page, 'stop');
  await expect(page.getByRole('region', { name: 'Pomodoro' })).toHaveCount(0);
  await expect(agentTurns(page).filter({ hasText: 'Stopped: the timer is no longer running.' })).toHaveCount(
    1,
  );
  await expect(agentTurns(page).filter({ hasText: /The focus session was stopped after/ })).toHaveCount(1);
  await page.screenshot({ path: 'test-results/agent-tarball-pomodoro.png', fullPage: true });
  // The server lived through it all, and said nothing about a problem.
  expect(server?.exitCode).toBeNull();
  expect(output).not.toMatch(/\[agent\]|Error/);
});
