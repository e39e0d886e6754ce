import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Serves the built Web Reference Host (`dist/`, what `vite preview` serves) with a strict Content Security
 * Policy header on every response, for `strict-csp.spec.ts`. `LINEUP_STRICT_CSP_DIST` points it at another
 * build of the host (a local experiment); by default it serves this app's `dist`.
 */

/** The built host this server serves. */
export const BUILT_HOST =
  process.env.LINEUP_STRICT_CSP_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface StrictCspServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1, every response carrying `policy`. */
export async function serveWithPolicy(policy: string, root: string = BUILT_HOST): Promise<StrictCspServer> {
  const base = root.endsWith(sep) ? root : root + sep;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
      let path = normalize(join(base, pathname));
      // Only files inside the build; anything else is the single page (the host routes itself).
      if (!path.startsWith(base) || !(await stat(path).catch(() => null))?.isFile())
        path = join(base, 'index.html');
      const body = await readFile(path);
      response.setHeader('Content-Security-Policy', policy);
      response.setHeader('Content-Type', CONTENT_TYPES[extname(path)] ?? 'application/octet-stream');
      // Bundled MiniApp files are fetched from opaque origins (as vite preview serves them, bundled-miniapps.ts).
      if (pathname.startsWith('/apps/')) response.setHeader('Access-Control-Allow-Origin', '*');
      response.end(body);
    })().catch(() => {
      response.statusCode = 500;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
