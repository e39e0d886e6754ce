/**
 * What a deployer sets at build time reaches the build when it goes through turbo (`npm start`, `pnpm build`): turbo
 * runs tasks in strict environment mode, where a variable the task does not declare is removed before the build
 * starts, and its cache would serve a build made with another value. So every variable Vite hands the host
 * (`envPrefix` of vite.config.ts: the deployer's agent, the deployer's consent policy) is declared for turbo's
 * `build`, and changing one makes another build.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const APP = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(APP, '..', '..');

/** The prefixes in `envPrefix` of the host's vite.config.ts. */
function envPrefixes(): string[] {
  const source = readFileSync(join(APP, 'vite.config.ts'), 'utf8');
  const list = /envPrefix:\s*\[([^\]]*)\]/.exec(source)?.[1];
  if (list === undefined) throw new Error('vite.config.ts has no envPrefix list.');
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] as string);
}

interface DryTask {
  readonly taskId: string;
  readonly hash: string;
  readonly envMode: string;
  readonly environmentVariables: { readonly specified: { readonly env: readonly string[] } };
}

/** turbo's plan for the host's build with `env` set (a dry run: nothing is built). */
function plannedBuild(env: Record<string, string>): DryTask {
  const result = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'turbo'),
    ['run', 'build', '--filter=@lineup/web-host', '--dry=json'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`turbo --dry=json failed: ${result.stderr}`);
  const plan = JSON.parse(result.stdout) as { tasks: DryTask[] };
  const task = plan.tasks.find((entry) => entry.taskId === '@lineup/web-host#build');
  if (task === undefined) throw new Error('turbo plans no @lineup/web-host#build.');
  return task;
}

describe("the deployer's build-time settings under turbo", () => {
  it('every prefix Vite hands the host is declared for turbo’s build', () => {
    const turbo = JSON.parse(readFileSync(join(ROOT, 'turbo.json'), 'utf8')) as {
      tasks: { build: { env?: string[] } };
    };
    const declared = turbo.tasks.build.env ?? [];
    const prefixes = envPrefixes();
    expect(prefixes).toEqual(expect.arrayContaining(['LINEUP_AGENT_URL', 'LINEUP_TOOL_POLICY']));
    for (const prefix of prefixes)
      expect(
        declared.some((name) => name === prefix || name === `${prefix}*`),
        prefix,
      ).toBe(true);
  });

  it('turbo keeps LINEUP_TOOL_POLICY and LINEUP_AGENT_URL for the build, and another value is another build', () => {
    const denyFiles = plannedBuild({ LINEUP_TOOL_POLICY: '[{"tools":"files.*","decision":"deny"}]' });
    expect(denyFiles.envMode).toBe('strict');
    expect(denyFiles.environmentVariables.specified.env).toEqual(
      expect.arrayContaining(['LINEUP_AGENT_URL', 'LINEUP_TOOL_POLICY']),
    );
    const denyAll = plannedBuild({ LINEUP_TOOL_POLICY: '[{"tools":"*","decision":"deny"}]' });
    expect(denyAll.hash).not.toBe(denyFiles.hash);
    const agent = plannedBuild({
      LINEUP_TOOL_POLICY: '[{"tools":"files.*","decision":"deny"}]',
      LINEUP_AGENT_URL: 'ws://127.0.0.1:4999/agent',
    });
    expect(agent.hash).not.toBe(denyFiles.hash);
  }, 60_000);
});
