import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  appScopeFromName,
  CreateMiniAppError,
  createMiniApp,
  displayNameFromName,
  packageManagerOf,
  runCommand,
} from './create.js';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'lineup-create-miniapp-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(work, path), 'utf8');
const sdkVersion = (
  JSON.parse(readFileSync(new URL('../../miniapp-sdk/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('createMiniApp', () => {
  test('writes the app with its names filled in and nothing left to fill', () => {
    const app = createMiniApp({ directory: 'my-notes', cwd: work });
    expect(app).toMatchObject({
      directory: join(work, 'my-notes'),
      packageName: 'my-notes',
      appScope: 'my_notes',
      appId: 'com.example.my_notes',
      displayName: 'My Notes',
    });
    expect(app.files).toEqual([
      '.gitignore',
      'README.md',
      'index.html',
      'package.json',
      'src/main.ts',
      'src/notes.ts',
      'src/tools.test.ts',
      'src/tools.ts',
      'src/zod-config.ts',
      'tsconfig.json',
      'vite.config.ts',
    ]);
    for (const file of app.files) expect(read(`my-notes/${file}`)).not.toMatch(/\{\{\w+\}\}/);
    expect(read('my-notes/src/tools.ts')).toContain("appScope: 'my_notes'");
    expect(read('my-notes/vite.config.ts')).toContain(
      "app: { id: 'com.example.my_notes', name: 'My Notes', version: '0.1.0' }",
    );
    expect(read('my-notes/index.html')).toContain('<title>My Notes</title>');
    expect(read('my-notes/README.md')).toContain('`npm run dev`');
  });

  test('package.json: the four scripts, the SDK at the range it was released with, no workspace ranges', () => {
    createMiniApp({ directory: 'app', cwd: work });
    const manifest = JSON.parse(read('app/package.json'));
    expect(manifest).toMatchObject({
      name: 'app',
      private: true,
      type: 'module',
      scripts: { dev: 'vite', build: 'vite build', typecheck: 'tsc --noEmit', test: 'vitest run' },
      dependencies: { '@lineup/miniapp-sdk': `^${sdkVersion}`, zod: expect.stringMatching(/^\^4\./) },
      devDependencies: {
        typescript: expect.any(String),
        vite: expect.any(String),
        vitest: expect.any(String),
      },
    });
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest.pnpm).toBeUndefined();
  });

  test('with --lineup-packages: both tarballs as files, and pnpm told to use the file for the SDK’s shared', () => {
    mkdirSync(join(work, 'tarballs'));
    writeFileSync(join(work, 'tarballs', 'lineup-shared-0.3.1.tgz'), '');
    writeFileSync(join(work, 'tarballs', 'lineup-miniapp-sdk-0.2.0.tgz'), '');
    createMiniApp({ directory: 'app', cwd: work, lineupPackages: 'tarballs' });
    const manifest = JSON.parse(read('app/package.json'));
    expect(manifest.dependencies).toMatchObject({
      '@lineup/miniapp-sdk': 'file:../tarballs/lineup-miniapp-sdk-0.2.0.tgz',
      '@lineup/shared': 'file:../tarballs/lineup-shared-0.3.1.tgz',
    });
    expect(manifest.pnpm).toEqual({
      overrides: { '@lineup/shared': 'file:../tarballs/lineup-shared-0.3.1.tgz' },
    });
  });

  test('the options name the app; the README shows the package manager that ran it', () => {
    const app = createMiniApp({
      directory: 'x',
      cwd: work,
      appScope: 'notes',
      appId: 'org.acme.notes',
      displayName: 'Acme Notes',
      packageManager: 'pnpm',
    });
    expect(app).toMatchObject({ appScope: 'notes', appId: 'org.acme.notes', displayName: 'Acme Notes' });
    expect(read('x/src/tools.ts')).toContain("appScope: 'notes'");
    expect(read('x/README.md')).toContain('`pnpm dev`');
    expect(read('x/README.md')).toContain('`notes.add`');
  });

  test('a display name is written as text: escaped in the page, quoted in the config', () => {
    createMiniApp({ directory: 'x', cwd: work, displayName: `Bob's <Notes> & "more"` });
    expect(read('x/index.html')).toContain("<title>Bob's &lt;Notes&gt; &amp; &quot;more&quot;</title>");
    expect(read('x/vite.config.ts')).toContain(`name: 'Bob\\'s <Notes> & "more"'`);
  });

  test('a long folder name gives an app scope the runtime takes (at most 32 characters)', () => {
    const app = createMiniApp({ directory: 'a-very-long-folder-name-for-my-notes-app', cwd: work });
    expect(app.appScope).toBe('a_very_long_folder_name_for_my_n');
    expect(app.appScope.length).toBeLessThanOrEqual(32);
  });

  test('an existing empty folder is fine', () => {
    mkdirSync(join(work, 'empty'));
    expect(createMiniApp({ directory: 'empty', cwd: work }).files).toHaveLength(11);
  });

  const refusals: [string, () => void, Omit<Parameters<typeof createMiniApp>[0], 'cwd'>, string, RegExp][] = [
    ['an empty name', () => {}, { directory: ' ' }, 'invalid_directory', /Name the folder/],
    [
      'a folder that is not empty',
      () => {
        mkdirSync(join(work, 'full'));
        writeFileSync(join(work, 'full', 'keep.txt'), 'mine');
      },
      { directory: 'full' },
      'directory_not_empty',
      /is not empty; choose a new folder name \(nothing was written\)/,
    ],
    [
      'a file',
      () => writeFileSync(join(work, 'file'), ''),
      { directory: 'file' },
      'invalid_directory',
      /is a file/,
    ],
    [
      'a name npm refuses',
      () => {},
      { directory: 'my notes' },
      'invalid_package_name',
      /cannot be an npm package name/,
    ],
    [
      'a name that gives no app scope',
      () => {},
      { directory: '123' },
      'invalid_app_scope',
      /pass one with --scope/,
    ],
    [
      'a bad --scope',
      () => {},
      { directory: 'a', appScope: 'My-Notes' },
      'invalid_app_scope',
      /"My-Notes" is not valid/,
    ],
    ['a bad --id', () => {}, { directory: 'a', appId: 'notes' }, 'invalid_app_id', /not a reverse-DNS id/],
    [
      'a --name that reads as a placeholder',
      () => {},
      { directory: 'a', displayName: 'My {{appScope}}' },
      'invalid_display_name',
      /1 to 128 characters of text, without control characters or \{\{ \}\}/,
    ],
    [
      'a --name with a control character',
      () => {},
      { directory: 'a', displayName: 'Notes\u0007' },
      'invalid_display_name',
      /without control characters/,
    ],
    [
      'a --lineup-packages folder without the tarballs',
      () => mkdirSync(join(work, 'none')),
      { directory: 'a', lineupPackages: 'none' },
      'invalid_packages_folder',
      /exactly one lineup-miniapp-sdk-<version>\.tgz \(found 0\); make it with `pnpm pack`/,
    ],
    [
      'a --lineup-packages folder that is not there',
      () => {},
      { directory: 'a', lineupPackages: 'missing' },
      'invalid_packages_folder',
      /is not a folder/,
    ],
  ];
  test.each(refusals)(
    'refuses %s with a sentence, and writes nothing',
    (_name, setup, options, code, message) => {
      setup();
      const before = readdirSync(work, { recursive: true }).sort();
      let thrown: unknown;
      try {
        createMiniApp({ ...options, cwd: work });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CreateMiniAppError);
      expect(thrown).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(readdirSync(work, { recursive: true }).sort()).toEqual(before);
    },
  );
});

test('names from a folder name', () => {
  expect(appScopeFromName('my-notes')).toBe('my_notes');
  expect(appScopeFromName('@acme/Todo List!')).toBe('todo_list');
  expect(appScopeFromName('2fa-codes')).toBe('fa_codes');
  expect(appScopeFromName('---')).toBeUndefined();
  expect(displayNameFromName('my-notes')).toBe('My Notes');
  expect(displayNameFromName('@acme/todo.list')).toBe('Todo List');
  expect(displayNameFromName('--')).toBe('My MiniApp');
});

test('the package manager that ran it, and its commands', () => {
  expect(packageManagerOf('pnpm/10.20.0 npm/? node/v20.20.0 linux x64')).toBe('pnpm');
  expect(packageManagerOf('npm/11.6.0 node/v20.20.0 linux x64 workspaces/false')).toBe('npm');
  expect(packageManagerOf('yarn/4.5.0 npm/? node/v20.20.0')).toBe('yarn');
  expect(packageManagerOf(undefined)).toBe('npm');
  expect(runCommand('npm', 'dev')).toBe('npm run dev');
  expect(runCommand('pnpm', 'dev')).toBe('pnpm dev');
});

test('the SDK README’s quick start shows the generated files exactly', () => {
  const readme = readFileSync(new URL('../../miniapp-sdk/README.md', import.meta.url), 'utf8');
  const shown = [...readme.matchAll(/<!-- guide-file: (\S+) -->\s*\n\s*```[a-z]*\n([\s\S]*?)```/g)];
  expect(shown.length).toBeGreaterThanOrEqual(5);
  const command = /npm create @lineup\/miniapp@latest (\S+)/.exec(readme);
  expect(command?.[1]).toBeDefined();
  createMiniApp({ directory: command![1]!, cwd: work });
  for (const [, path, content] of shown)
    expect([path, content]).toEqual([path, read(`${command![1]}/${path}`)]);
});

test('the README shows the SDK README’s tarball commands (run as written by the pack check) exactly', () => {
  const block = (path: string) =>
    /<!-- tarball-commands -->\s*\n\s*```sh\n([\s\S]*?)```/.exec(
      readFileSync(new URL(path, import.meta.url), 'utf8'),
    )?.[1];
  const sdk = block('../../miniapp-sdk/README.md');
  expect(sdk).toContain('create-miniapp my-notes --lineup-packages .');
  expect(block('../README.md')).toBe(sdk);
});
