import { lineupMiniApp } from '@lineup/miniapp-sdk/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  // A runtime serves the bundle from its own folder: relative URLs.
  base: './',
  plugins: [
    lineupMiniApp({
      app: { id: '{{appId}}', name: '{{displayNameQuoted}}', version: '0.1.0' },
      tools: './src/tools.ts',
    }),
  ],
});
