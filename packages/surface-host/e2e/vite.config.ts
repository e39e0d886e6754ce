import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The harness page of the hostile-Surface suite, built against the package's own build (dist), as an outside
// host would use it.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./harness'),
  resolve: { alias: { '@lineup/surface-host': here('../dist/index.js') } },
  build: { outDir: here('./.harness'), emptyOutDir: true, target: 'es2022' },
  preview: { host: '127.0.0.1', port: Number(process.env.SURFACE_E2E_PORT ?? 4175), strictPort: true },
  logLevel: 'warn',
});
