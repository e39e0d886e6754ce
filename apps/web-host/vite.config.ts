import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITIONS } from '../../vitest.shared.ts';
import { bundledMiniApps } from './bundled-miniapps.ts';
import { PREVIEW_PORT } from './preview-port.ts';

export default defineConfig({
  plugins: [react(), bundledMiniApps()],
  // LINEUP_AGENT_URL=ws://host:port/path at build time connects the host to that agent (see agent/connection.ts).
  envPrefix: ['VITE_', 'LINEUP_AGENT_URL'],
  // The host is built from the workspace packages' sources, so a change in a package shows up without
  // publishing it first.
  resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1', port: PREVIEW_PORT, strictPort: true },
  server: { host: '127.0.0.1' },
});
