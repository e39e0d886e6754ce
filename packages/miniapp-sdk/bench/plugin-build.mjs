// The Vite plugin's build-time cost, measured against a baseline in the same run: each app is built N times
// with the plugin and N times without it (the same config otherwise), alternating, and the medians compared.
// Run after `pnpm --filter @lineup/miniapp-sdk build` (it loads the built plugin, as an installed app would):
//   node packages/miniapp-sdk/bench/plugin-build.mjs [runs=5] [path/to/another/built/vite.js]
// With a second plugin build (an older version, say), it is measured too, in the same run, as `other`.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defaultClientConditions, loadConfigFromFile } from 'vite';

const runs = Number(process.argv[2] ?? 5);
const sdk = fileURLToPath(new URL('..', import.meta.url));
const { lineupMiniApp } = await import(join(sdk, 'dist/vite.js'));
const other =
  process.argv[3] === undefined
    ? undefined
    : (await import(join(process.cwd(), process.argv[3]))).lineupMiniApp;
const pomodoro = join(sdk, '../../apps/pomodoro');

/** Each app as a config factory: `withPlugin` false drops the LineUp plugin and nothing else. */
const apps = {
  pomodoro: async (variant) => {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      join(pomodoro, 'vite.config.ts'),
      pomodoro,
      'silent',
    );
    const config = loaded.config;
    const plugins = (config.plugins ?? []).flat().filter((plugin) => !plugin?.name?.startsWith('lineup-'));
    const { POMODORO_APP } = await import(join(pomodoro, 'src/app.ts')).catch(() => ({}));
    const app = POMODORO_APP ?? { id: 'com.lineup.pomodoro', name: 'Pomodoro', version: '1.0.0' };
    const make = variant === 'other' ? other : lineupMiniApp;
    if (variant !== 'without') plugins.push(make({ app, tools: './src/tools.ts' }));
    return { ...config, root: pomodoro, configFile: false, plugins };
  },
  fixture: async (variant) => ({
    root: join(sdk, 'test/fixtures/valid'),
    configFile: false,
    resolve: { conditions: ['@lineup/source', ...defaultClientConditions] },
    plugins:
      variant === 'without'
        ? []
        : [
            (variant === 'other' ? other : lineupMiniApp)({
              app: { id: 'com.example.notes', name: 'Notes', version: '0.1.0' },
              tools: './src/tools.ts',
            }),
          ],
  }),
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const variants = other === undefined ? ['with', 'without'] : ['with', 'without', 'other'];
for (const [name, configOf] of Object.entries(apps)) {
  const times = Object.fromEntries(variants.map((variant) => [variant, []]));
  for (let run = 0; run < runs; run++) {
    // Rotated, so no variant always runs first.
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(run + i) % variants.length];
      const config = await configOf(variant);
      const outDir = join(tmpdir(), `lineup-plugin-bench-${name}-${variant}`);
      const started = performance.now();
      await build({ ...config, logLevel: 'silent', build: { ...config.build, outDir, emptyOutDir: true } });
      times[variant].push(performance.now() - started);
      await rm(outDir, { recursive: true, force: true });
    }
  }
  const base = median(times.without);
  const line = variants
    .filter((variant) => variant !== 'without')
    .map(
      (variant) =>
        `${variant === 'with' ? 'this plugin' : 'other plugin'} ${median(times[variant]).toFixed(0)} ms (adds ${(median(times[variant]) - base).toFixed(0)} ms, ${(median(times[variant]) / base).toFixed(2)}×)`,
    );
  console.log(`${name}: without the plugin ${base.toFixed(0)} ms; ${line.join('; ')} — medians of ${runs}`);
}
