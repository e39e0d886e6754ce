#!/usr/bin/env node
// Maintainers' release step (CONTRIBUTING.md): apply the pending changesets, rebuild and check every published
// package, then show exactly what `pnpm publish` would upload. Publishing for real is a separate, explicit
// `pnpm -r publish` by a maintainer after reviewing this output and committing the version bump.
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
};

function step(what, command, args) {
  console.log(`\n[release] ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error || result.status !== 0) {
    console.error(`[release] ${what} failed; nothing was published.`);
    process.exit(result.status || 1);
  }
}

step('Apply changesets (versions and changelogs)', 'changeset', ['version']);
step('Refresh the lockfile for the new versions', 'pnpm', ['install', '--lockfile-only']);
step('Build, typecheck and lint (publint, attw)', 'turbo', ['run', 'build', 'typecheck', 'lint']);
step('Publish dry run', 'pnpm', [
  '-r',
  '--filter',
  './packages/*',
  'publish',
  '--dry-run',
  '--no-git-checks',
]);
console.log(
  '\n[release] Review the version bumps and the dry run above, commit them, then run `pnpm -r publish`.',
);
