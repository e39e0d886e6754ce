/**
 * The app as a real runtime installs it, while the author works: `vite` (dev) serves a build of the app at
 * `DEV_BUNDLE_PATH` (`/__lineup/bundle/`) — the same `vite build` with the same plugin, so the same manifest with
 * every file's SHA-256 — rebuilt on every save (`build.watch`). A LineUp host pointed at it (the Web Reference
 * Host's `?dev=http://localhost:5173/__lineup/bundle/`) installs it through its usual verification and installs
 * it again when the manifest changes.
 *
 * The build starts with the first request, so a dev server nobody points a host at builds nothing. A request
 * waits for the build in progress; a failed build answers 503 with the build's message. Only pages on a loopback
 * origin (`localhost`, `127.0.0.1`, `[::1]`) may read it from another origin (CORS), as Vite allows for its own
 * files: another website the author visits cannot read the app's code.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { ViteDevServer } from 'vite';

/** Where `vite` (dev) serves the built app. */
export const DEV_BUNDLE_PATH = '/__lineup/bundle/';

const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface WatchEvent {
  readonly code: string;
  readonly error?: unknown;
  readonly result?: { close?: () => unknown };
}

interface Watcher {
  on(event: 'event', listener: (event: WatchEvent) => void): unknown;
  close(): Promise<void> | void;
}

/** The dev bundle's middleware for `server`; its build runs in `outDir` under Vite's cache folder. */
export function devBundleMiddleware(server: ViteDevServer) {
  const outDir = join(server.config.cacheDir, 'lineup-bundle');
  let started: Promise<void> | undefined;
  /** Settles when the build in progress (or the last one) ended. */
  let settled: Promise<void> = Promise.resolve();
  let finish: (() => void) | undefined;
  let failure: string | undefined;
  let builds = 0;

  const start = async (): Promise<void> => {
    const configFile = server.config.configFile;
    if (configFile === undefined) {
      failure =
        'The LineUp dev bundle needs a Vite config file (vite.config.ts): it builds the app with it, on every save.';
      return;
    }
    settled = new Promise((resolve) => {
      finish = resolve;
    });
    const { build } = await import('vite');
    const watcher = (await build({
      configFile,
      root: server.config.root,
      mode: server.config.mode,
      logLevel: 'warn',
      clearScreen: false,
      build: { outDir, emptyOutDir: true, watch: {} },
    })) as unknown as Watcher;
    watcher.on('event', (event) => {
      if (event.code === 'START' && finish === undefined)
        settled = new Promise((resolve) => {
          finish = resolve;
        });
      if (event.code === 'BUNDLE_END') void event.result?.close?.();
      if (event.code === 'END' || event.code === 'ERROR') {
        builds++;
        failure =
          event.code === 'ERROR'
            ? `The build failed: ${event.error instanceof Error ? event.error.message : String(event.error)}`
            : undefined;
        if (failure === undefined)
          server.config.logger.info(`[lineup] dev bundle built (${builds}): ${DEV_BUNDLE_PATH}`, {
            timestamp: true,
          });
        else server.config.logger.error(`[lineup] ${failure}`, { timestamp: true });
        finish?.();
        finish = undefined;
      }
    });
    server.httpServer?.once('close', () => void watcher.close());
  };

  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void => {
    const url = request.url ?? '';
    const path = url.split(/[?#]/)[0] ?? '';
    if (!path.startsWith(DEV_BUNDLE_PATH)) {
      next();
      return;
    }
    const origin = request.headers.origin;
    if (typeof origin === 'string' && LOOPBACK_ORIGIN.test(origin)) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('vary', 'origin');
    }
    response.setHeader('cache-control', 'no-store');
    let relative: string;
    try {
      relative = decodeURIComponent(path.slice(DEV_BUNDLE_PATH.length)) || 'index.html';
    } catch {
      relative = '';
    }
    const file = normalize(join(outDir, relative));
    if (relative === '' || relative.includes('\0') || !file.startsWith(outDir + sep)) {
      response.statusCode = 400;
      response.end('Not a file of the bundle.');
      return;
    }
    started ??= start().catch((error: unknown) => {
      failure = `The build could not start: ${error instanceof Error ? error.message : String(error)}`;
      finish?.();
    });
    started
      .then(() => settled)
      .then(async () => {
        if (failure !== undefined) {
          response.statusCode = 503;
          response.setHeader('content-type', 'text/plain; charset=utf-8');
          response.end(failure);
          return;
        }
        let bytes: Buffer;
        try {
          bytes = await readFile(file);
        } catch {
          response.statusCode = 404;
          response.end('Not a file of the bundle.');
          return;
        }
        response.setHeader('content-type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
        response.end(bytes);
      })
      .catch((error: unknown) => next(error));
  };
}
