/**
 * The MiniApps the Web Reference Host ships with: their built bundles (each with its `lineup.manifest.json`)
 * are served under `/apps/<name>/`, copied into the host's build and served from the app's `dist` in dev. The
 * runtime installs them from there on start-up, through the same manifest validation as any other app.
 */
import { cp, readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** Bundled apps: the URL folder they are served from, and their build output. */
export const BUNDLED_MINIAPPS = [
  { name: 'pomodoro', dist: fileURLToPath(new URL('../pomodoro/dist/', import.meta.url)) },
] as const;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * A MiniApp page runs in a sandboxed frame at an opaque origin, so its module scripts and styles are fetched
 * with `Origin: null` in CORS mode: its files are served with `Access-Control-Allow-Origin: *` (they are
 * public bundle files, fetched without credentials).
 */
function allowOpaqueOrigins(
  request: { url?: string | undefined },
  response: { setHeader(name: string, value: string): unknown },
  next: () => void,
): void {
  if ((request.url ?? '').startsWith('/apps/')) response.setHeader('Access-Control-Allow-Origin', '*');
  next();
}

export function bundledMiniApps(): Plugin {
  return {
    name: 'lineup-bundled-miniapps',
    configurePreviewServer(server) {
      server.middlewares.use(allowOpaqueOrigins);
    },
    async writeBundle(options) {
      if (options.dir === undefined) return;
      for (const app of BUNDLED_MINIAPPS)
        await cp(app.dist, join(options.dir, 'apps', app.name), { recursive: true });
    },
    configureServer(server) {
      server.middlewares.use(allowOpaqueOrigins);
      for (const app of BUNDLED_MINIAPPS) {
        server.middlewares.use(`/apps/${app.name}`, (request, response, next) => {
          const path = normalize(
            join(app.dist, decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/')),
          );
          // Only files inside the app's build output.
          if (!path.startsWith(app.dist.endsWith(sep) ? app.dist : app.dist + sep)) return next();
          readFile(path).then(
            (body) => {
              response.setHeader('content-type', CONTENT_TYPES[extname(path)] ?? 'application/octet-stream');
              response.end(body);
            },
            () => next(),
          );
        });
      }
    },
  };
}
