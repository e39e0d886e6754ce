/**
 * The app as a real runtime installs it, while the author works: `vite` (dev) serves a build of the app at
 * `DEV_BUNDLE_PATH` (`/__lineup/bundle/`) — the same `vite build` with the same plugin, so the same manifest with
 * every file's SHA-256 — rebuilt on every save (`build.watch`). A LineUp host pointed at it (the Web Reference
 * Host's `?dev=http://localhost:5173/__lineup/bundle/`) installs it through its usual verification and installs
 * it again when the manifest changes.
 *
 * The build starts with the first request, so a dev server nobody points a host at builds nothing. A request
 * waits for the build in progress. A failed build — the first or any rebuild — answers every request with 503
 * and the build's message (`buildFailure`: the tool, the field, what to write), until a build succeeds; the
 * terminal says "dev bundle not built" with the same message, and "dev bundle built" only for a good build. Only pages on a loopback
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI escape starts with ESC.
const ANSI_ESCAPE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * A failed build's message as the author needs it: what the plugin or Vite said (the tool, the field, what to
 * write), without the stack or the plugin's frame, ending with what happens next.
 */
export function buildFailure(error: unknown): string {
  // Vite colours its messages for a terminal; the host shows them as text.
  const raw = (error instanceof Error ? error.message : String(error)).replace(ANSI_ESCAPE, '');
  const lines: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    // Vite's summary and the stack frames say nothing the author can act on.
    if (/^\s*at\s/.test(line) || /^Build failed with \d+ errors?:\s*$/.test(line)) continue;
    if (line.trim() === '' && (lines.length === 0 || lines.at(-1) === '')) continue;
    lines.push(line.trimEnd());
  }
  // A cause that only repeats what was said (the plugin's own error wraps the SDK's) is left out.
  const cause = lines.indexOf('Caused by:');
  if (cause >= 0) {
    const repeated = lines
      .slice(cause + 1)
      .map((line) => line.trim().replace(/^[A-Za-z]*Error:\s*/, ''))
      .filter((line) => line !== '')
      .every((line) => lines.slice(0, cause).some((said) => said.includes(line)));
    if (repeated) lines.splice(cause);
  }
  const message = lines.join('\n').trim();
  return `The build failed: ${message === '' ? 'no message' : message}\nThe host keeps the last good build; fix the file and save to build again.`;
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
    const logger = server.config.logger;
    const watcher = (await build({
      configFile,
      root: server.config.root,
      mode: server.config.mode,
      logLevel: 'warn',
      // Its warnings reach the terminal as Vite's own; a failure is said once, by the watcher below, cleaned.
      customLogger: {
        info: () => {},
        warn: (message, options) => logger.warn(message, options),
        warnOnce: (message, options) => logger.warnOnce(message, options),
        error: () => {},
        clearScreen: () => {},
        hasErrorLogged: () => false,
        get hasWarned() {
          return logger.hasWarned;
        },
      },
      clearScreen: false,
      build: { outDir, emptyOutDir: true, watch: {} },
    })) as unknown as Watcher;
    /** The failure of the build in progress, if it failed: the last one stays until a build succeeds. */
    let failed: string | undefined;
    watcher.on('event', (event) => {
      if (event.code === 'START') {
        failed = undefined;
        if (finish === undefined)
          settled = new Promise((resolve) => {
            finish = resolve;
          });
      }
      if (event.code === 'BUNDLE_END') void event.result?.close?.();
      if (event.code === 'ERROR') {
        failed = buildFailure(event.error);
        failure = failed;
        logger.error(`[lineup] dev bundle not built: ${failed}`, { timestamp: true });
      }
      if (event.code === 'END') {
        builds++;
        if (failed === undefined) {
          failure = undefined;
          logger.info(`[lineup] dev bundle built (${builds}): ${DEV_BUNDLE_PATH}`, {
            timestamp: true,
          });
        }
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
