import { lineupMiniApp } from '@lineup/miniapp-sdk/vite';
import { defineConfig } from 'vite';

// vite.config.ts of a MiniApp: `vite build` writes dist/lineup.manifest.json next to dist/index.html, and
// `vite` serves it at /lineup.manifest.json. An invalid tool fails the build with each issue's path.
export default defineConfig({
  base: './',
  plugins: [
    lineupMiniApp({
      app: { id: 'com.example.notes', name: 'Notes', version: '1.0.0' },
      tools: './src/tools.ts',
    }),
  ],
});
