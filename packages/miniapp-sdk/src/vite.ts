/**
 * `@lineup/miniapp-sdk/vite`: the build step that writes a MiniApp's manifest (generated from source, never by
 * hand). It loads the module that default-exports the app's `defineAgentTools(...)` in Node, with the app's own
 * Vite config — its aliases, plugins, `define` and resolve conditions — and emits `lineup.manifest.json` next to
 * the bundle. An invalid tool or manifest fails the build with the located issues.
 *
 * Loading: `vite build` starts the load when the build starts, in a module-runner environment created from the
 * app's config (its config file, or the inline config a programmatic build passed), and the bundle's hooks await
 * it; `vite` (dev) loads it through the dev server's own SSR environment. The descriptors it validated are given
 * to the page (`lineup:miniapp-descriptors`, see page.ts), so the page never converts or validates them again.
 *
 * Integrity: after every other plugin has emitted its files, the manifest lists each file of the bundle —
 * chunks, assets, the HTML, and the files Vite copies from `publicDir` — with its size and SHA-256, and
 * `integrity` names the whole list. The same sources give the same bytes, so the same list.
 */
import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLineUpError, LineUpError } from '@lineup/shared';
import { type BundleFile, fileIntegrity } from '@lineup/shared/protocol';
import {
  createRunnableDevEnvironment,
  defaultClientConditions,
  defaultServerConditions,
  type InlineConfig,
  mergeConfig,
  type Plugin,
  type ResolvedConfig,
  resolveConfig,
  type ViteDevServer,
} from 'vite';
import type { AgentTools } from './agent-tool.js';
import { DEV_BUNDLE_PATH, devBundleMiddleware } from './dev-bundle.js';
import { HARNESS_CHANNEL_MODULE, HARNESS_PATH, harnessPage } from './harness.js';
import { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';

export { DEV_BUNDLE_PATH, HARNESS_PATH };

export interface LineUpMiniAppPluginOptions {
  /** The app's identity and declarations (`id`, `name`, `version`, `entry?`, `surfaces?`, `permissions?`). */
  readonly app: MiniAppInfo;
  /** Path (from the Vite root) of the module whose default export is `defineAgentTools(...)`. */
  readonly tools: string;
  /**
   * Serve the mock-runtime harness at `/__lineup/` in `vite` (dev), default `true`. Never part of a build.
   */
  readonly devHarness?: boolean;
  /**
   * Serve a build of the app at `/__lineup/bundle/` in `vite` (dev), rebuilt on every save, default `true`: what a
   * real LineUp host installs while you work (the Web Reference Host's `?dev=<that URL>`). Needs a config file.
   */
  readonly devBundle?: boolean;
}

/** Why the plugin failed a build (its `code`); the message names the tools module. */
export type MiniAppBuildErrorCode =
  | 'tools_module_uses_dom'
  | 'tools_module_failed'
  | 'tools_module_invalid_export'
  | 'invalid_manifest'
  | 'split_chunks';

/** A build the plugin refused: the tools module could not be loaded or described, or the bundle cannot run. */
export class MiniAppBuildError extends LineUpError<MiniAppBuildErrorCode> {
  override readonly name = 'MiniAppBuildError';
}

/** The environment the tools module runs in during `vite build`. */
const TOOLS_ENVIRONMENT = 'lineup_tools';
/** The virtual module of the precomputed descriptors a page built by the plugin imports. */
const DESCRIPTORS_MODULE = 'lineup:miniapp-descriptors';
const RESOLVED_DESCRIPTORS_MODULE = `\0${DESCRIPTORS_MODULE}`;
const RESOLVED_HARNESS_CHANNEL_MODULE = `\0${HARNESS_CHANNEL_MODULE}`;

function isAgentTools(value: unknown): value is AgentTools {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AgentTools).appScope === 'string' &&
    Array.isArray((value as AgentTools).descriptors) &&
    typeof (value as AgentTools).handle === 'function'
  );
}

/**
 * The issues of a LineUp error as lines, or `null` for any other error (or one without issues). The tools
 * module may run with its own copy of `@lineup/shared`: `isLineUpError` reads the brand both copies share.
 */
function issueLines(error: unknown): string[] | null {
  if (!isLineUpError(error) || error.issues.length === 0) return null;
  return error.issues.map((issue) => `  ${issue.path}: ${issue.message} (${issue.code})`);
}

/** Browser globals a tools module might touch while it loads; Node has none of them. */
const BROWSER_GLOBAL =
  /^(window|document|navigator|location|localStorage|sessionStorage|self|HTMLElement|customElements|requestAnimationFrame|matchMedia) is not defined$/;

/** The error a failed load of the tools module becomes: located issues, a DOM hint, or the error itself. */
function loadError(tools: string, error: unknown): Error {
  const lines = issueLines(error);
  if (lines !== null)
    return new MiniAppBuildError(
      'invalid_manifest',
      `The MiniApp manifest of ${tools} is not valid:\n${lines.join('\n')}`,
      { cause: error },
    );
  if (error instanceof MiniAppBuildError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ReferenceError && BROWSER_GLOBAL.test(message))
    return new MiniAppBuildError(
      'tools_module_uses_dom',
      `${tools} touched the DOM while it loaded (${message}). The tools module runs in Node at build time, where there is no window or document: keep DOM code in the page (main.ts), or behind a function the page calls, and keep the tools module to schemas and handlers.`,
      { cause: error },
    );
  return new MiniAppBuildError('tools_module_failed', `${tools} failed to load at build time: ${message}`, {
    cause: error,
  });
}

/** The `AgentTools` a loaded module default-exports, or a `MiniAppBuildError`. */
function toolsOf(tools: string, module: { default?: unknown }): AgentTools {
  if (!isAgentTools(module.default))
    throw new MiniAppBuildError(
      'tools_module_invalid_export',
      `${tools} must default-export the result of defineAgentTools(...).`,
    );
  return module.default;
}

/** Conditions for running in Node: the app's own custom conditions first, then Node's. */
function nodeConditions(config: ResolvedConfig): string[] {
  const standard = new Set<string>([...defaultClientConditions, ...defaultServerConditions]);
  const custom = config.resolve.conditions.filter((condition) => !standard.has(condition));
  return [...custom, ...defaultServerConditions];
}

/** Marks the config of the plugin's own loader environment, so the plugin stays inert in it. */
const LOADER_MARK = 'lineup-miniapp-tools-loader';
const isLoaderConfig = (config: ResolvedConfig): boolean =>
  config.plugins.some((plugin) => plugin.name === LOADER_MARK);

/**
 * Loads the tools module in Node with the app's config: the same config file (or inline config), mode, aliases,
 * plugins and `define`, in one module-runner environment — no HTTP server, watcher or dependency optimizer.
 * Packages whose resolution uses the app's custom conditions (a workspace resolving LineUp packages to their
 * TypeScript sources) run through Vite like the app's code; everything else (zod, …) is loaded by Node.
 */
async function loadTools(options: LineUpMiniAppPluginOptions, config: ResolvedConfig): Promise<AgentTools> {
  const conditions = nodeConditions(config);
  const custom = conditions.length > defaultServerConditions.length;
  const overrides: InlineConfig = {
    configFile: config.configFile ?? false,
    root: config.root,
    mode: config.mode,
    logLevel: 'silent',
    plugins: [{ name: LOADER_MARK }],
    server: { hmr: false, ws: false, watch: null, middlewareMode: true },
    optimizeDeps: { noDiscovery: true, include: [] },
    environments: {
      [TOOLS_ENVIRONMENT]: {
        consumer: 'server',
        dev: { moduleRunnerTransform: true },
        resolve: {
          conditions,
          externalConditions: conditions,
          ...(custom ? { noExternal: [/^@lineup\//] } : {}),
        },
      },
    },
  };
  const resolved = await resolveConfig(mergeConfig(config.inlineConfig, overrides), 'serve');
  const environment = createRunnableDevEnvironment(TOOLS_ENVIRONMENT, resolved, {
    hot: false,
    runnerOptions: { hmr: { logger: false } },
  });
  await environment.init();
  try {
    const file = isAbsolute(options.tools) ? options.tools : resolve(config.root, options.tools);
    return toolsOf(options.tools, await environment.runner.import(file));
  } finally {
    await environment.close();
  }
}

/** The tools module through the dev server's SSR environment (reloaded when it or its imports change). */
async function loadToolsInDev(
  options: LineUpMiniAppPluginOptions,
  server: ViteDevServer,
): Promise<AgentTools> {
  return toolsOf(options.tools, await server.ssrLoadModule(options.tools));
}

/** The manifest text of loaded tools, or a `MiniAppBuildError` listing what is wrong. */
function manifestOf(
  options: LineUpMiniAppPluginOptions,
  tools: AgentTools,
  files?: readonly BundleFile[],
): string {
  try {
    return manifestText(generateManifest(options.app, tools, files));
  } catch (error) {
    throw loadError(options.tools, error);
  }
}

const encoder = new TextEncoder();

function describe(path: string, bytes: Uint8Array): BundleFile {
  return { path, size: bytes.length, integrity: fileIntegrity(bytes) };
}

/** The files Vite copies from `publicDir` into the bundle (after this hook): listed like the rest. */
async function publicFiles(config: ResolvedConfig): Promise<BundleFile[]> {
  if (config.publicDir === '' || !config.build.copyPublicDir) return [];
  let entries: string[];
  try {
    entries = (await readdir(config.publicDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return []; // no public directory
  }
  const files: BundleFile[] = [];
  for (const path of entries.sort())
    files.push(describe(relative(config.publicDir, path).split(sep).join('/'), await readFile(path)));
  return files;
}

/** The Vite plugin: `plugins: [lineupMiniApp({ app: { … }, tools: './src/tools.ts' })]`. */
export function lineupMiniApp(options: LineUpMiniAppPluginOptions): Plugin {
  let config: ResolvedConfig | undefined;
  let loading: Promise<AgentTools> | undefined;
  /** The tools, loaded once per build (started at `buildStart`, awaited where needed). */
  const loaded = (): Promise<AgentTools> => {
    if (config === undefined) throw new Error('lineupMiniApp: the config is not resolved yet.');
    loading ??= loadTools(options, config).catch((error: unknown) => {
      throw loadError(options.tools, error);
    });
    return loading;
  };
  const active = (): boolean => config !== undefined && config.command === 'build';
  return {
    name: 'lineup-miniapp-manifest',
    configResolved(resolved) {
      // The loader's own environment (which may run this very plugin object again) leaves the plugin inert.
      if (isLoaderConfig(resolved)) return;
      config = resolved;
      loading = undefined;
    },
    buildStart() {
      if (!active() || this.environment.config.consumer !== 'client') return;
      // Started now, so the load overlaps with bundling the page; a failure is reported where it is awaited.
      loading = undefined;
      loaded().catch(() => {});
    },
    resolveId: {
      order: 'pre',
      // Only these two ids reach the hook (Rolldown skips the JS call for every other import).
      filter: { id: [/^lineup:miniapp-descriptors$/, /^lineup:harness-channel$/, /^@lineup\/miniapp-sdk$/] },
      async handler(source, importer) {
        if (source === DESCRIPTORS_MODULE) return RESOLVED_DESCRIPTORS_MODULE;
        if (source === HARNESS_CHANNEL_MODULE) return RESOLVED_HARNESS_CHANNEL_MODULE;
        // A page of this build gets the SDK entry that takes the descriptors computed here (page.ts).
        if (source !== '@lineup/miniapp-sdk' || !active() || this.environment.config.consumer !== 'client')
          return null;
        const found = await this.resolve(source, importer, { skipSelf: true });
        if (found === null || !/[\\/]index\.[cm]?[jt]s$/.test(found.id)) return found;
        return { ...found, id: found.id.replace(/index(\.[cm]?[jt]s)$/, 'page$1') };
      },
    },
    load: {
      filter: { id: [/^\0lineup:miniapp-descriptors$/, /^\0lineup:harness-channel$/] },
      async handler(id) {
        if (id === RESOLVED_HARNESS_CHANNEL_MODULE) {
          // The mock runtime judges the page's messages with the runtime's own parser, found from this package
          // (an app need not depend on @lineup/shared itself).
          const bridge = await this.resolve('@lineup/shared/bridge', fileURLToPath(import.meta.url), {
            skipSelf: true,
          });
          if (bridge === null)
            this.error('@lineup/miniapp-sdk: @lineup/shared/bridge could not be resolved.');
          return `export { answerRefusedMiniAppMessage, parseMiniAppMessageFromFrame } from ${JSON.stringify(bridge.id)};\n`;
        }
        if (id !== RESOLVED_DESCRIPTORS_MODULE) return null;
        let tools: AgentTools;
        try {
          tools = await loaded();
        } catch (error) {
          this.error(error instanceof Error ? error : String(error));
        }
        return `export default ${JSON.stringify({ appScope: tools.appScope, descriptors: tools.descriptors })};\n`;
      },
    },
    generateBundle: {
      // After the other plugins: the HTML and every asset are in the bundle by then.
      order: 'post',
      async handler(_output, bundle) {
        if (config === undefined || !active()) return;
        let source: string;
        try {
          const files: BundleFile[] = [];
          for (const item of Object.values(bundle)) {
            if (item.fileName === MINIAPP_MANIFEST_FILE) continue;
            // The host builds each page from the kept files, every script a data: URL: a script that
            // imports another chunk has no URL to resolve it against there.
            if (item.type === 'chunk' && (item.imports.length > 0 || item.dynamicImports.length > 0))
              throw new MiniAppBuildError(
                'split_chunks',
                `${item.fileName} imports ${[...item.imports, ...item.dynamicImports].join(', ')}: a MiniApp page runs from its verified files as one script per page, so split chunks and dynamic import() are not supported. Remove the dynamic import, or give each page its own entry without shared chunks.`,
              );
            const bytes =
              item.type === 'chunk'
                ? encoder.encode(item.code)
                : typeof item.source === 'string'
                  ? encoder.encode(item.source)
                  : item.source;
            files.push(describe(item.fileName, bytes));
          }
          for (const file of await publicFiles(config))
            if (!files.some((listed) => listed.path === file.path)) files.push(file);
          source = manifestOf(options, await loaded(), files);
        } catch (error) {
          this.error(error instanceof Error ? error : String(error));
        }
        this.emitFile({ type: 'asset', fileName: MINIAPP_MANIFEST_FILE, source });
      },
    },
    configureServer(server) {
      if (isLoaderConfig(server.config)) return;
      const manifest = async () =>
        manifestOf(
          options,
          await loadToolsInDev(options, server).catch((error: unknown) => {
            throw loadError(options.tools, error);
          }),
        );
      server.middlewares.use(`/${MINIAPP_MANIFEST_FILE}`, (_request, response, next) => {
        manifest().then(
          (text) => {
            response.setHeader('content-type', 'application/json; charset=utf-8');
            response.end(text);
          },
          (error: unknown) => next(error),
        );
      });
      if (options.devBundle !== false) {
        server.middlewares.use(devBundleMiddleware(server));
        // Beside Vite's own URLs: where the mock runtime is, and what to give a real host.
        const printUrls = server.printUrls.bind(server);
        server.printUrls = () => {
          printUrls();
          const local = server.resolvedUrls?.local[0];
          if (local === undefined) return;
          const at = (path: string) => new URL(path.slice(1), local).href;
          server.config.logger.info(
            `  ➜  LineUp:  mock runtime ${at(HARNESS_PATH)}\n  ➜  LineUp:  real runtime: the Web Reference Host with ?dev=${at(DEV_BUNDLE_PATH)}`,
          );
        };
      }
      if (options.devHarness === false) return;
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split(/[?#]/)[0];
        if (path !== HARNESS_PATH && path !== HARNESS_PATH.slice(0, -1)) return next();
        manifest().then(
          (text) => {
            response.setHeader('content-type', 'text/html; charset=utf-8');
            response.end(harnessPage(JSON.parse(text), server.config.base));
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}

export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
