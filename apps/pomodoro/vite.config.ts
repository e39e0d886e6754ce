import { lineupMiniApp } from '@lineup/miniapp-sdk/vite';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITIONS } from '../../vitest.shared.ts';
import { POMODORO_APP } from './src/app.ts';

export default defineConfig({
  // A MiniApp bundle is loaded into a sandboxed iframe by the host, from wherever the host serves it.
  base: './',
  resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
  build: { target: 'es2022' },
  plugins: [
    // Writes lineup.manifest.json from src/tools.ts: the tools are declared once, in source.
    lineupMiniApp({ app: POMODORO_APP, tools: './src/tools.ts' }),
  ],
});
