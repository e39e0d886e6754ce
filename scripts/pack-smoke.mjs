#!/usr/bin/env node
/**
 * The published packages as an outside user gets them: packs the five packages (`pnpm pack`, so the tarballs hold
 * exactly what `publish` would upload), installs them with npm into a fresh app outside the workspace (React,
 * zod and Vite from the registry), then typechecks and builds a page that uses every package and a MiniApp
 * whose manifest the SDK's Vite plugin writes. Run after the packages are built:
 *
 *   node scripts/pack-smoke.mjs            (the temporary folder is removed afterwards; --keep keeps it)
 *
 * Exits non-zero, naming the step, when any of it fails.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['shared', 'renderer-react', 'surface-host', 'miniapp-sdk', 'runtime'];
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };

function log(message) {
  console.log(`[pack-smoke] ${message}`);
}

function step(name, command, args, cwd) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    console.error(result.stdout);
    console.error(result.stderr);
    throw new Error(`${name} failed (${command} ${args.join(' ')}, exit ${result.status})`);
  }
  log(`${name}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.stdout;
}

const work = mkdtempSync(join(tmpdir(), 'lineup-pack-smoke-'));
const tarballs = join(work, 'tarballs');
const app = join(work, 'app');
mkdirSync(tarballs);
mkdirSync(join(app, 'src'), { recursive: true });

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
    const problems = [
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
  log('each tarball: MIT LICENSE, engines from Node 20.19, the exports without @lineup/source');

  const lineup = Object.fromEntries(PACKAGES.map((name) => [`@lineup/${name}`, tarball(name)]));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'lineup-outside-app',
        private: true,
        type: 'module',
        dependencies: {
          ...lineup,
          react: '^19.2.0',
          'react-dom': '^19.2.0',
          zod: '^4.6.7',
        },
        devDependencies: {
          '@types/react': '^19.2.0',
          '@types/node': '^20.19.0',
          '@types/react-dom': '^19.2.0',
          typescript: '5.9.3',
          vite: '8.3.8',
        },
        // The packages depend on each other by version; here they come from the tarballs, like a registry.
        overrides: lineup,
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
`,
  );

  step(
    'npm install (tarballs + registry)',
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error'],
    app,
  );
  step('tsc --noEmit (the page)', join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], app);
  step(
    'tsc --noEmit (vite.config.ts)',
    join(app, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.node.json'],
    app,
  );
  step('vite build', join(app, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], app);
  const manifest = JSON.parse(readFileSync(join(app, 'dist', 'lineup.manifest.json'), 'utf8'));
  if (manifest.tools?.[0]?.method !== 'add' || manifest.app_scope !== 'notes')
    throw new Error('the built lineup.manifest.json does not describe notes.add');
  log('the built app has its page and its manifest (notes.add)');
  log('passed');
} catch (error) {
  console.error(`[pack-smoke] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (process.argv.includes('--keep')) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
