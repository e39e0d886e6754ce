#!/usr/bin/env node
/**
 * The published packages as an outside user gets them: packs the eight packages (`pnpm pack`, so the tarballs hold
 * exactly what `publish` would upload), installs them with npm into a fresh app outside the workspace, then
 * typechecks and builds a page that uses every package and a MiniApp whose manifest the SDK's Vite plugin writes,
 * and runs the protocol core and the SDK in Node. It does so twice: with React, zod and Vite at the oldest
 * versions the packages' ranges admit (read from their package.json, so the floor tested is the floor published)
 * and at the registry's latest. At the floor it also runs the unit tests of @lineup/shared (against that zod: the
 * protocol core reads zod's internals) and of @lineup/renderer-react (against that React). Run after the packages
 * are built:
 *
 *   node scripts/pack-smoke.mjs                  (both rows; --row floor or --row latest for one)
 *   node scripts/pack-smoke.mjs --keep           (keeps the temporary folder)
 *
 * Then it follows the SDK README's quick start word for word (`runGuide`): its commands run with npm in an empty
 * folder, `npm create @lineup/miniapp` served from the packed create package, the app depending on the tarballs,
 * every file the README shows compared with the one written, the built manifest checked; then the same app made,
 * installed, tested, type-checked and built with pnpm.
 *
 * It also runs the SDK README's path for packages not on the registry yet (`runTarballCommands`): its lines exactly as
 * written, with no terminal, beside a link to this checkout; they pack three packages, create the app from the
 * tarballs with `npm exec --yes`, and install and test it.
 *
 *   node scripts/pack-smoke.mjs --guide-only     (packs, then runs only the guide and the tarball path)
 *   node scripts/pack-smoke.mjs --rows-only      (packs, then runs only the rows: the test command runs the two
 *                                                 at once, beside the unit tests)
 *
 * Exits non-zero, naming the step, when any of it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = [
  'shared',
  'renderer-react',
  'surface-host',
  'miniapp-sdk',
  'runtime',
  'create-miniapp',
  'scripted-agent',
  'agent',
];
/** The libraries an outside page imports (the create package is a command; the agent side runs in Node). */
const LIBRARIES = ['shared', 'renderer-react', 'surface-host', 'miniapp-sdk', 'runtime'];
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };

function log(message) {
  console.log(`[pack-smoke] ${message}`);
}

function step(name, command, args, cwd, stepEnv = env) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    env: stepEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    console.error(result.stdout);
    console.error(result.stderr);
    throw new Error(`${name} failed (${command} ${args.join(' ')}, exit ${result.status})`);
  }
  log(`${name}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.stdout;
}

/** `^18.2.0 || ^19.0.0` → `18.2.0`: the oldest version a range admits (its lowest x.y.z). */
function floorOf(range) {
  const versions = [...range.matchAll(/(\d+)\.(\d+)\.(\d+)/g)].map((match) => match.slice(1, 4).map(Number));
  if (versions.length === 0) throw new Error(`no version in the range ${range}`);
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return versions[0].join('.');
}

const manifestOf = (name) => JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
const sharedManifest = manifestOf('shared');
const sdkManifest = manifestOf('miniapp-sdk');
const rendererManifest = manifestOf('renderer-react');
const floorReact = floorOf(rendererManifest.peerDependencies.react);
const floorZod = floorOf(sharedManifest.dependencies.zod);
if (floorZod !== floorOf(sdkManifest.peerDependencies.zod))
  throw new Error(
    "@lineup/shared's zod range and @lineup/miniapp-sdk's zod peer range start at different versions",
  );
/** The versions of the app's own dependencies in each row. Types follow the React line of the row. */
const ROWS = [
  {
    name: 'floor',
    versions: {
      react: floorReact,
      'react-dom': floorReact,
      '@types/react': `~${floorReact.split('.').slice(0, 2).join('.')}.0`,
      '@types/react-dom': `~${floorReact.split('.').slice(0, 2).join('.')}.0`,
      zod: floorZod,
      vite: floorOf(sdkManifest.peerDependencies.vite),
      '@noble/hashes': floorOf(sharedManifest.dependencies['@noble/hashes']),
    },
  },
  {
    name: 'latest',
    versions: {
      react: 'latest',
      'react-dom': 'latest',
      '@types/react': 'latest',
      '@types/react-dom': 'latest',
      zod: 'latest',
      vite: 'latest',
      '@noble/hashes': 'latest',
    },
  },
];
const rowFlag = process.argv.indexOf('--row');
const onlyRow = rowFlag === -1 ? undefined : process.argv[rowFlag + 1];

/** A fresh app at `app` with the tarballs and the row's versions: installed, typechecked, built, run in Node. */
function installAndBuild(app, lineup, row) {
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'lineup-outside-app',
        private: true,
        type: 'module',
        dependencies: {
          ...lineup,
          react: row.versions.react,
          'react-dom': row.versions['react-dom'],
          zod: row.versions.zod,
        },
        devDependencies: {
          '@types/react': row.versions['@types/react'],
          '@types/node': '^20.19.0',
          '@types/react-dom': row.versions['@types/react-dom'],
          typescript: '5.9.3',
          vite: row.versions.vite,
        },
        // The packages depend on each other by version; here they come from the tarballs, like a registry. The
        // packages' own dependencies on zod and @noble/hashes resolve to the row's versions too.
        overrides: { ...lineup, zod: row.versions.zod, '@noble/hashes': row.versions['@noble/hashes'] },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          jsx: 'react-jsx',
          types: [],
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  // Like Vite's own templates: the build config runs in Node and gets Node's types, the page does not.
  writeFileSync(
    join(app, 'tsconfig.node.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          // As in Vite's templates: older Vite releases' own types need the DOM library to check.
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['vite.config.ts'],
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outside app</title></head>' +
      '<body><div id="root"></div><script type="module" src="./src/main.ts"></script></body></html>\n',
  );
  // The MiniApp is the SDK README's own example: its tools module and its Vite config.
  const sdkExamples = join(root, 'packages', 'miniapp-sdk', 'examples');
  copyFileSync(join(sdkExamples, 'vite.config.ts'), join(app, 'vite.config.ts'));
  copyFileSync(join(sdkExamples, 'tools.ts'), join(app, 'src', 'tools.ts'));
  writeFileSync(
    join(app, 'src', 'main.ts'),
    `import { isLineUpError, parseDocument } from '@lineup/shared';
import { parseEnvelopeText } from '@lineup/shared/protocol';
import { createMiniAppClient } from '@lineup/miniapp-sdk';
import type { LineUpMiniAppPluginOptions } from '@lineup/miniapp-sdk/vite';
import { IntelligentUIView } from '@lineup/renderer-react';
import { AppRegistry, openRuntimeDatabase } from '@lineup/runtime';
import { mountSurface } from '@lineup/surface-host';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import tools from './tools.js';

const document = parseDocument({
  version: '1.0',
  id: 'hello',
  mode: 'structured_ui',
  title: 'Hello',
  state: {},
  derived: {},
  root: { id: 'text', type: 'Text', props: { text: 'Installed from the tarballs.' } },
});
const container = window.document.getElementById('root');
if (container === null) throw new Error('no #root');
createRoot(container).render(createElement(IntelligentUIView, { document }));

try {
  parseEnvelopeText('{}');
} catch (error) {
  console.log(isLineUpError(error) ? error.code : 'unexpected');
}

export const used = [createMiniAppClient, tools, AppRegistry, openRuntimeDatabase, mountSurface];
// The plugin's declarations are checked here, with skipLibCheck off, against the row's Vite types.
export type PluginOptions = LineUpMiniAppPluginOptions;
`,
  );

  step(
    `${row.name}: npm install (tarballs + registry)`,
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error'],
    app,
  );
  step(
    `${row.name}: tsc --noEmit (the page)`,
    join(app, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.json'],
    app,
  );
  step(
    `${row.name}: tsc --noEmit (vite.config.ts)`,
    join(app, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.node.json'],
    app,
  );
  const vite = join(app, 'node_modules', '.bin', 'vite');
  const built = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: app, env, encoding: 'utf8' });
  if (built.status !== 0) {
    console.error(built.stdout, built.stderr);
    throw new Error(`${row.name}: vite build failed (exit ${built.status})`);
  }
  // A warning about LineUp's plugin (such as Vite's plugin-timing warning) is a failure: an author would see it on
  // every build. (The page of this app is one large chunk on purpose; Vite's chunk-size note is not about us.)
  const warnings = `${built.stdout}${built.stderr}`
    .split('\n')
    .filter((line) => /lineup|PLUGIN_TIMINGS/i.test(line));
  if (warnings.length > 0) throw new Error(`${row.name}: vite build warned:\n${warnings.join('\n')}`);
  const manifest = JSON.parse(readFileSync(join(app, 'dist', 'lineup.manifest.json'), 'utf8'));
  if (manifest.tools?.[0]?.method !== 'add' || manifest.app_scope !== 'notes')
    throw new Error('the built lineup.manifest.json does not describe notes.add');
  log(
    `${row.name}: vite build with no warning about LineUp; the built app has its page and its manifest (notes.add)`,
  );
  // What the plugin costs a build: the same app built again with and without it (reported, not asserted).
  writeFileSync(
    join(app, 'vite.bare.config.ts'),
    "import { defineConfig } from 'vite';\nexport default defineConfig({ base: './', build: { outDir: 'dist-bare' } });\n",
  );
  const timed = (args) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(vite, args, { cwd: app, env, stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`${row.name}: vite ${args.join(' ')} failed`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const withPlugin = timed(['build', '--logLevel', 'silent']);
  const bare = timed(['build', '--logLevel', 'silent', '-c', 'vite.bare.config.ts']);
  log(
    `${row.name}: build time with the plugin ${withPlugin.toFixed(0)} ms, without ${bare.toFixed(0)} ms (×${(withPlugin / bare).toFixed(2)})`,
  );
  // The protocol core and the SDK run in Node as installed: parse a document and a message, turn zod schemas into
  // a manifest, and show the versions that actually resolved.
  writeFileSync(join(app, 'smoke.mjs'), NODE_SMOKE);
  const smoke = step(`${row.name}: node smoke.mjs`, process.execPath, ['smoke.mjs'], app);
  log(`${row.name}: ${smoke.trim().split('\n').join('; ')}`);
  const resolved = Object.fromEntries(
    ['react', 'zod', 'vite', '@noble/hashes'].map((name) => [
      name,
      JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).version,
    ]),
  );
  for (const [name, version] of Object.entries(resolved))
    if (row.name === 'floor' && version !== row.versions[name])
      throw new Error(`floor: ${name} resolved to ${version}, not the floor ${row.versions[name]}`);
  log(
    `${row.name}: resolved ${Object.entries(resolved)
      .map(([name, version]) => `${name}@${version}`)
      .join(' ')}`,
  );
}

const NODE_SMOKE = `import { parseDocument, isLineUpError } from '@lineup/shared';
import { parseEnvelopeText } from '@lineup/shared/protocol';
import { generateManifest } from '@lineup/miniapp-sdk';
import { agentTool, defineAgentTools } from '@lineup/miniapp-sdk';
import { z } from 'zod';

const doc = parseDocument({
  version: '1.0', id: 'smoke', mode: 'structured_ui', title: 'Smoke', state: { n: { type: 'number', initial: 2 } },
  derived: { twice: { op: 'mul', args: [{ state: 'n' }, 2] } },
  root: { id: 'text', type: 'Text', props: { text: 'ok' } },
});
console.log('document ' + doc.id);
let refused = 'no';
try {
  parseEnvelopeText('{"protocol":"lineup.v1","__proto__":{"polluted":true}}');
} catch (error) {
  refused = isLineUpError(error) ? error.code : 'unexpected ' + String(error);
}
if (({}).polluted !== undefined) throw new Error('prototype polluted');
console.log('bad envelope refused: ' + refused);
const tools = defineAgentTools({
  appScope: 'notes',
  tools: {
    add: agentTool({
      contractVersion: '1.0', description: 'Adds a note.', callModel: 'command', timeoutMs: 1000,
      activation: 'app_ready', risk: 'display_only',
      input: z.strictObject({ text: z.string().min(1).max(20), tags: z.array(z.enum(['a', 'b'])).optional() }),
      output: z.strictObject({ count: z.int().min(0) }),
      handler: () => ({ count: 1 }),
    }),
  },
});
const manifest = generateManifest({ id: 'com.example.notes', name: 'Notes', version: '1.0.0' }, tools);
const input = manifest.tools[0].input_schema;
if (input.properties.text.maxLength !== 20 || input.additionalProperties !== false)
  throw new Error('unexpected input schema ' + JSON.stringify(input));
console.log('manifest ' + manifest.app_scope + '.' + manifest.tools[0].method);
`;

/**
 * A package's own unit tests (its sources and tests, laid out as in the repository, other LineUp packages as
 * sibling folders) against the row's versions: @lineup/shared reads zod's internals and the renderer runs on
 * React, so their floors are proven by their tests, not only by a build. `dependencies` replaces the package's
 * dependencies; its dev dependencies stay, minus workspace ones, with `devOverrides` on top.
 */
function packageSuiteAt(
  dir,
  name,
  { dependencies, devOverrides = {}, environment = 'node', setupFiles = [] },
) {
  const folder = join(dir, 'packages', name);
  const skip = new Set(['node_modules', 'dist', '.bench-baseline']);
  cpSync(join(root, 'packages', name), folder, {
    recursive: true,
    filter: (source) => !skip.has(basename(source)),
  });
  copyFileSync(join(root, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  // What a package's README test checks with (it imports nothing at run time).
  copyFileSync(join(root, 'vitest.readme.ts'), join(dir, 'vitest.readme.ts'));
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  manifest.dependencies = dependencies;
  delete manifest.peerDependencies;
  manifest.devDependencies = {
    ...Object.fromEntries(
      Object.entries(manifest.devDependencies).filter(([, range]) => !range.startsWith('workspace:')),
    ),
    vitest: rootManifest.devDependencies.vitest,
    vite: rootManifest.devDependencies.vite,
    typescript: rootManifest.devDependencies.typescript,
    ...devOverrides,
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The workspace's project config, without the workspace: the source condition resolves LineUp packages to their
  // sources (the package itself, and siblings linked with file:).
  writeFileSync(
    join(folder, 'vitest.config.ts'),
    `import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
export default defineConfig({
  resolve: { conditions: ['@lineup/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@lineup/source', ...defaultServerConditions] } },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    environment: ${JSON.stringify(environment)},
    setupFiles: ${JSON.stringify(setupFiles)},
    testTimeout: 30_000,
  },
});
`,
  );
  step(
    `floor: npm install (@lineup/${name} suite)`,
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error'],
    folder,
  );
  const output = step(
    `floor: @lineup/${name} unit tests`,
    join(folder, 'node_modules', '.bin', 'vitest'),
    ['run', '--reporter=dot'],
    folder,
  );
  const plain = output.replaceAll(String.fromCharCode(27), '').replace(/\[[0-9;]*m/g, '');
  const summary = plain.split('\n').find((line) => /^\s*Tests\s/.test(line));
  log(`floor: @lineup/${name} unit tests: ${summary?.trim()}`);
}

function floorSuites(dir, versions) {
  packageSuiteAt(dir, 'shared', {
    dependencies: { zod: versions.zod, '@noble/hashes': versions['@noble/hashes'] },
  });
  log(`floor: (@lineup/shared at zod@${versions.zod}, @noble/hashes@${versions['@noble/hashes']})`);
  const renderer = JSON.parse(readFileSync(join(root, 'packages', 'renderer-react', 'package.json'), 'utf8'));
  packageSuiteAt(dir, 'renderer-react', {
    // Its own dependencies as its package.json lists them (so a new one is never missed), the shared package
    // from the sibling folder.
    dependencies: {
      ...Object.fromEntries(
        Object.entries(renderer.dependencies).filter(([, range]) => !range.startsWith('workspace:')),
      ),
      '@lineup/shared': 'file:../shared',
    },
    devOverrides: {
      react: versions.react,
      'react-dom': versions['react-dom'],
      '@types/react': versions['@types/react'],
      '@types/react-dom': versions['@types/react-dom'],
    },
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
  });
  log(`floor: (@lineup/renderer-react at react@${versions.react})`);
}

/**
 * The SDK README's quick start, as a newcomer follows it: each command of the block marked `<!-- guide-commands -->`
 * run in order in an empty folder (`cd` moves on), with npm, `npm create @lineup/miniapp@latest` served from the
 * packed tarballs (`npm exec` of the create package, told to depend on the tarballs: the registry does not have this
 * version yet). The built app must have its page and a manifest that describes `my_notes.add`, and every file the
 * README shows (`<!-- guide-file: path -->`) must be exactly the one written. Then the same app made as pnpm runs
 * it (its user agent), installed, tested, type-checked and built with pnpm.
 */
function runGuide(work, tarballs, tarballOf, readme) {
  let folder = join(work, 'guide');
  mkdirSync(folder, { recursive: true });
  const commands = /<!-- guide-commands -->\s*\n\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (commands === undefined) throw new Error('guide: the README has no guide-commands block');
  const file = (name) => tarballOf(name).slice('file:'.length);
  const packages = ['create-miniapp', 'miniapp-sdk', 'shared']
    .map((name) => `--package=${file(name)}`)
    .join(' ');
  const lines = commands
    .split('\n')
    .map((text) => text.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (!lines[0]?.startsWith('npm create @lineup/miniapp@latest '))
    throw new Error('guide: the commands do not start with npm create @lineup/miniapp@latest');
  for (const line of lines) {
    if (line.startsWith('cd ')) {
      folder = join(folder, line.slice(3).trim());
      continue;
    }
    const command = line.startsWith('npm create @lineup/miniapp@latest ')
      ? `npm exec --yes ${packages} -- create-miniapp ${line.slice('npm create @lineup/miniapp@latest '.length)} --lineup-packages ${tarballs}`
      : line;
    // Quieter installs (no audit, no funding notes); the commands are otherwise the README's.
    const flags = /^npm (install|i)\b/.test(command) ? ' --no-audit --no-fund --loglevel=error' : '';
    step(`guide: ${line}`, 'sh', ['-c', `${command}${flags}`], folder);
  }
  const built = (app) => {
    const manifest = JSON.parse(readFileSync(join(app, 'dist', 'lineup.manifest.json'), 'utf8'));
    if (manifest.app_scope !== 'my_notes' || manifest.tools?.[0]?.method !== 'add')
      throw new Error(`guide: the built lineup.manifest.json of ${app} does not describe my_notes.add`);
    if (!existsSync(join(app, 'dist', 'index.html'))) throw new Error(`guide: no dist/index.html in ${app}`);
  };
  built(folder);
  const shown = [...readme.matchAll(/<!-- guide-file: (\S+) -->\s*\n\s*```[a-z]*\n([\s\S]*?)```/g)];
  if (shown.length < 5) throw new Error(`guide: the README shows ${shown.length} files, expected at least 5`);
  for (const [, path, content] of shown)
    if (readFileSync(join(folder, path), 'utf8') !== content)
      throw new Error(`guide: the README's ${path} is not the file npm create wrote`);
  log(
    `guide: ${lines.length} commands as written with npm; ${shown.length} files shown as written; built my_notes.add`,
  );

  // The same with pnpm: the create package's command run as pnpm runs it (its user agent), then pnpm's commands.
  const cli = join(work, 'create-cli');
  mkdirSync(cli);
  writeFileSync(join(cli, 'package.json'), '{ "private": true }\n');
  step(
    'guide (pnpm): the create package installed',
    'npm',
    [
      'install',
      file('create-miniapp'),
      file('miniapp-sdk'),
      file('shared'),
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    cli,
  );
  const app = join(work, 'pnpm-guide', 'my-notes');
  mkdirSync(dirname(app), { recursive: true });
  const made = spawnSync(
    'node',
    [
      join(cli, 'node_modules', '@lineup', 'create-miniapp', 'dist', 'cli.js'),
      'my-notes',
      '--lineup-packages',
      tarballs,
    ],
    {
      cwd: dirname(app),
      env: { ...env, npm_config_user_agent: 'pnpm/10.20.0 npm/? node/v20 linux x64' },
      encoding: 'utf8',
    },
  );
  if (
    made.status !== 0 ||
    !['pnpm install', 'pnpm typecheck', 'keep `pnpm dev` running', '?dev=http'].every((text) =>
      made.stdout.includes(text),
    )
  )
    throw new Error(
      `guide (pnpm): the create command failed, or its Next: lines leave out pnpm install, pnpm typecheck or the real runtime (?dev=): ${made.stdout}${made.stderr}`,
    );
  if (!readFileSync(join(app, 'README.md'), 'utf8').includes('`pnpm dev`'))
    throw new Error("guide (pnpm): the app's README does not show pnpm's commands");
  for (const command of ['install', 'test', 'typecheck', 'build'])
    step(`guide (pnpm): pnpm ${command}`, 'pnpm', [command], app);
  built(app);
  log('guide (pnpm): created as pnpm runs it, installed, tested, type-checked and built with pnpm');
}

/**
 * The SDK README's path for packages not on the registry yet, as a reader with a LineUp checkout follows it: each
 * line of the block marked `<!-- tarball-commands -->` exactly as written, through `sh -c` (so `$PWD` and the
 * tarballs' `*` are the shell's), with no terminal (stdin is not one), in a folder that holds the checkout as
 * `lineup/` (a link to this one); `cd` moves on, and npm's installs get the guide's quieter flags. npm is configured
 * with `yes=false`, as where it refuses to install the packages of a command it has not been told `--yes` for (a
 * stock npm with no terminal only warns), so the block must pass `--yes`. The app the block creates must depend on
 * the tarballs the block packed, say the type check and the real runtime in its Next: lines, and be installed and
 * tested by the block.
 */
function runTarballCommands(work, readme) {
  const start = join(work, 'tarball-commands');
  mkdirSync(start);
  symlinkSync(root, join(start, 'lineup'), 'dir');
  const commands = /<!-- tarball-commands -->\s*\n\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (commands === undefined) throw new Error('tarball commands: the README has no tarball-commands block');
  const lines = commands
    .split('\n')
    .map((text) => text.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const strict = Object.fromEntries(
    Object.entries(env).filter(([name]) => name.toLowerCase() !== 'npm_config_yes'),
  );
  strict.npm_config_yes = 'false';
  let folder = start;
  let app;
  const ranInApp = new Set();
  for (const line of lines) {
    if (line.startsWith('cd ')) {
      folder = join(folder, line.slice(3).trim());
      if (!existsSync(folder)) throw new Error(`tarball commands: ${line}: no such folder`);
      continue;
    }
    const flags = /^npm (install|i)\b/.test(line) ? ' --no-audit --no-fund --loglevel=error' : '';
    const output = step(`tarball commands: ${line}`, 'sh', ['-c', `${line}${flags}`], folder, strict);
    if (folder === app) ranInApp.add(line);
    const created = / -- create-miniapp (\S+)/.exec(line);
    if (created === null) continue;
    app = join(folder, created[1]);
    if (!existsSync(join(app, 'package.json'))) throw new Error(`tarball commands: no app at ${app}`);
    const { dependencies = {} } = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    for (const name of ['miniapp-sdk', 'shared']) {
      const spec = dependencies[`@lineup/${name}`] ?? '';
      const file = resolve(app, spec.replace(/^file:/, ''));
      if (
        !spec.startsWith('file:') ||
        !file.startsWith(`${start}${sep}`) ||
        !basename(file).startsWith(`lineup-${name}-`) ||
        !existsSync(file)
      )
        throw new Error(
          `tarball commands: the app's @lineup/${name} is ${JSON.stringify(spec)}, not a tarball the commands packed`,
        );
    }
    if (!/typecheck/.test(output) || !output.includes('?dev=http'))
      throw new Error(
        `tarball commands: the create command's Next: lines leave out the type check or ?dev=:\n${output}`,
      );
  }
  if (app === undefined)
    throw new Error('tarball commands: no line creates an app (… -- create-miniapp <folder>)');
  if (!ranInApp.has('npm install') || !ranInApp.has('npm test'))
    throw new Error(
      'tarball commands: the block does not run npm install and npm test in the app it creates',
    );
  log(
    `tarball commands: ${lines.length} lines as written, with no terminal; the app from the tarballs installed and tested`,
  );
}

/**
 * The agent host as an agent developer gets it: `@lineup/agent` installed from its tarball in an empty folder, then
 * `npx lineup-agent serve` with no database set up (the embedded store folder is made), its printed device URL
 * dialled by a plain WebSocket client speaking the binding (inventory, then "help"), the scripted brain's answer
 * awaited; a wrong token refused with 4008; `lineup-agent devices` lists the device it issued.
 */
async function runAgentHost(work, tarballOf) {
  const app = join(work, 'agent-app');
  mkdirSync(app);
  const packages = Object.fromEntries(
    ['shared', 'scripted-agent', 'agent'].map((name) => [`@lineup/${name}`, tarballOf(name)]),
  );
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      { name: 'agent-app', private: true, type: 'module', dependencies: packages, overrides: packages },
      null,
      2,
    )}\n`,
  );
  step('npm install @lineup/agent from its tarball', 'npm', ['install', '--no-audit', '--no-fund'], app);
  // Pomodoro's tools as its build emits them (the committed manifest snapshot), listed as a client lists them.
  writeFileSync(
    join(app, 'pomodoro.manifest.json'),
    readFileSync(join(root, 'apps', 'pomodoro', 'src', '__snapshots__', 'lineup.manifest.json')),
  );
  // A device speaking the binding: `answer` says help and prints the first line of the reply; `story` plays the
  // Pomodoro story (start a 20 minute focus → the pomodoro.start call → progress and result → the agent's replies);
  // `refused` expects the 4008 close.
  writeFileSync(
    join(app, 'client.mjs'),
    `import { readFileSync } from 'node:fs';
import { parseAgentToolDescriptor, toAgentToolInventoryEntry } from '@lineup/shared/protocol';
import WebSocket from 'ws';
const [url, expect] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync('pomodoro.manifest.json', 'utf8'));
const tools = expect === 'story' ? manifest.tools.map((tool) => toAgentToolInventoryEntry(parseAgentToolDescriptor(tool))) : [];
const socket = new WebSocket(url, ['lineup.v1', 'lineup.v1.ack']);
const timer = setTimeout(() => { console.error('no answer in 20 s'); process.exit(1); }, 20_000);
let counter = 0;
const envelope = (type, payload) => JSON.stringify({ v: 1, id: 'o' + ++counter, type, conversation_id: 'conv_' + expect, sender: { kind: 'client', id: 'pack-smoke' }, payload });
const replies = [];
socket.on('open', () => {
  socket.send(envelope('lineup.v1.client.inventory', { revision: 'r1', standard_components: [], applications: [], capabilities: [], tools }));
  socket.send(envelope('lineup.v1.chat.user_message', { text: expect === 'story' ? 'start a 20 minute focus' : 'help' }));
});
socket.on('message', (data) => {
  const frame = JSON.parse(String(data));
  if (typeof frame.id === 'string') socket.send(JSON.stringify({ ack: frame.id }));
  if (frame.type === 'lineup.v1.chat.agent_message' && expect === 'answer') { console.log(frame.payload.text.split('\\n')[0]); clearTimeout(timer); socket.close(); }
  if (expect !== 'story') return;
  if (frame.type === 'lineup.v1.tool.call') {
    if (frame.payload.tool !== 'pomodoro.start' || frame.payload.arguments.minutes !== 20) { console.error('unexpected call ' + JSON.stringify(frame.payload)); process.exit(1); }
    const callId = frame.payload.call_id;
    socket.send(envelope('lineup.v1.tool.progress', { call_id: callId, app_scope: 'pomodoro', status: 'started' }));
    socket.send(envelope('lineup.v1.tool.result', { call_id: callId, outcome: 'completed', result: { status: 'completed', minutes: 20, started_at: '2026-01-01T10:00:00Z', ended_at: '2026-01-01T10:20:00Z' } }));
  }
  if (frame.type === 'lineup.v1.chat.agent_message') {
    replies.push(frame.payload.text);
    if (replies.length === 2) { console.log(replies.join(' | ')); clearTimeout(timer); socket.close(); }
  }
});
socket.on('close', (code) => { if (expect === 'refused') { clearTimeout(timer); console.log('closed ' + code); process.exit(code === 4008 ? 0 : 1); } });
`,
  );
  // The installed bin itself (not through npx), so that SIGTERM reaches the server and it closes its store.
  const server = spawn(join(app, 'node_modules', '.bin', 'lineup-agent'), ['serve', '--port', '0'], {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr.on('data', (chunk) => {
    output += chunk;
  });
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`lineup-agent serve printed no device URL:\n${output}`)),
        60_000,
      );
      const poll = setInterval(() => {
        const match = /device URL: (ws:\/\/\S+)/.exec(output);
        if (match !== null) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(match[1]);
        }
      }, 100);
      server.once('exit', (code) => reject(new Error(`lineup-agent serve exited (${code}):\n${output}`)));
    });
    if (!existsSync(join(app, 'lineup-agent-data')))
      throw new Error('lineup-agent serve made no store folder');
    const answer = step(
      'a device dials the printed URL and is answered',
      'node',
      ['client.mjs', url, 'answer'],
      app,
    );
    if (!/demo agent/i.test(answer)) throw new Error(`unexpected answer: ${answer}`);
    const story = step(
      'a device plays the Pomodoro story on the printed URL',
      'node',
      ['client.mjs', url, 'story'],
      app,
    );
    if (!/running/i.test(story) || !/20 minutes/.test(story.split(' | ')[1] ?? ''))
      throw new Error(`unexpected replies in the Pomodoro story: ${story}`);
    const wrong = url.replace(/token=[^&]+/, `token=lat_${'A'.repeat(43)}`);
    step('a wrong token is refused with 4008', 'node', ['client.mjs', wrong, 'refused'], app);
  } finally {
    const exited = new Promise((resolve) =>
      server.exitCode === null ? server.once('exit', resolve) : resolve(),
    );
    server.kill('SIGTERM');
    await exited;
  }
  if (server.exitCode !== 0)
    throw new Error(`lineup-agent serve did not stop cleanly on SIGTERM (${server.exitCode}):\n${output}`);
  const devices = step('lineup-agent devices', 'npx', ['--no-install', 'lineup-agent', 'devices'], app);
  if (!/^local\tactive/m.test(devices)) throw new Error(`lineup-agent devices: ${devices}`);
}

const work = mkdtempSync(join(tmpdir(), 'lineup-pack-smoke-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);

try {
  for (const name of PACKAGES) {
    const dir = join(root, 'packages', name);
    if (!existsSync(join(dir, 'dist'))) throw new Error(`packages/${name} is not built: run the build first`);
    step(`pack @lineup/${name}`, 'pnpm', ['pack', '--pack-destination', tarballs], dir);
  }
  const files = readdirSync(tarballs);
  const tarball = (name) => {
    const file = files.find((candidate) => candidate.startsWith(`lineup-${name}-`));
    if (file === undefined) throw new Error(`no tarball for @lineup/${name}`);
    return `file:${join(tarballs, file)}`;
  };
  // What the registry would get: the license, the supported Node versions, and the exports without the
  // workspace-only source condition (publishConfig.exports must stay `exports` minus that condition).
  const withoutSourceCondition = (value) =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([condition]) => condition !== '@lineup/source')
            .map(([condition, target]) => [condition, withoutSourceCondition(target)]),
        )
      : value;
  for (const name of PACKAGES) {
    const file = tarball(name).slice('file:'.length);
    const read = (entry) => spawnSync('tar', ['xzf', file, '-O', entry], { encoding: 'utf8' }).stdout;
    const packed = JSON.parse(read('package/package.json'));
    const source = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    // Every file the README links to or names (`examples/…`) is in the tarball, so no link is dead on npm.
    const listed = new Set(
      spawnSync('tar', ['tzf', file], { encoding: 'utf8' })
        .stdout.split('\n')
        .map((entry) => entry.replace(/^package\//, '')),
    );
    const readme = read('package/README.md');
    const mentioned = [
      ...[...readme.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((match) => match[1]),
      ...[...readme.matchAll(/`((?:examples|docs)\/[^`\s]+\.[a-z]+)`/g)].map((match) => match[1]),
    ].filter((target) => !/^[a-z]+:/.test(target));
    const dead = [...new Set(mentioned)].filter((target) => !listed.has(target.replace(/^\.\//, '')));
    const problems = [
      dead.length === 0 ? null : `the README names files not in the tarball: ${dead.join(', ')}`,
      packed.license === 'MIT' ? null : 'license is not MIT',
      read('package/LICENSE').startsWith('MIT License') ? null : 'no MIT LICENSE file in the tarball',
      /^(>=|\^)20\.19/.test(packed.engines?.node ?? '') ? null : 'engines.node does not start at 20.19',
      JSON.stringify(packed).includes('@lineup/source') ? 'the @lineup/source condition is published' : null,
      JSON.stringify(packed).includes('workspace:') ? 'a workspace: range is published' : null,
      isDeepStrictEqual(packed.exports, withoutSourceCondition(source.exports))
        ? null
        : 'the published exports differ from exports without @lineup/source (publishConfig.exports)',
    ].filter((problem) => problem !== null);
    if (problems.length > 0) throw new Error(`@lineup/${name}: ${problems.join('; ')}`);
  }
  log(
    'each tarball: MIT LICENSE, engines from Node 20.19, the exports without @lineup/source, every file its README names',
  );

  const lineup = Object.fromEntries(LIBRARIES.map((name) => [`@lineup/${name}`, tarball(name)]));
  if (!process.argv.includes('--rows-only')) {
    const readme = readFileSync(join(root, 'packages', 'miniapp-sdk', 'README.md'), 'utf8');
    runGuide(work, tarballs, tarball, readme);
    runTarballCommands(work, readme);
    await runAgentHost(work, tarball);
  }
  const guideOnly = process.argv.includes('--guide-only');
  const rows = ROWS.filter((row) => !guideOnly && (onlyRow === undefined || row.name === onlyRow));
  if (rows.length === 0 && !guideOnly)
    throw new Error(`no row named ${onlyRow} (rows: ${ROWS.map((row) => row.name).join(', ')})`);
  for (const row of rows) {
    log(
      `row ${row.name}: ${Object.entries(row.versions)
        .map(([name, version]) => `${name}@${version}`)
        .join(' ')}`,
    );
    installAndBuild(join(work, `app-${row.name}`), lineup, row);
    if (row.name === 'floor') floorSuites(join(work, 'suites'), row.versions);
  }
  log('passed');
} catch (error) {
  console.error(`[pack-smoke] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (process.argv.includes('--keep')) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
