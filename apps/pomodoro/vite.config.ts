import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITIONS } from '../../vitest.shared.ts';

export default defineConfig({
  // A MiniApp bundle is loaded into a sandboxed iframe by the host, from wherever the host serves it.
  base: './',
  resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
  build: { target: 'es2022' },
});
