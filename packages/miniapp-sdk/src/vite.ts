/**
 * `@lineup/miniapp-sdk/vite`: the build step that writes a MiniApp's manifest (seed 003 §4.1 "构建阶段自动
 * 生成"). A thin adapter over `generateManifest`: it loads the module that default-exports the app's
 * `defineAgentTools(...)` through Vite's module runner — the same TypeScript and resolution as the app —
 * and emits `lineup.manifest.json` next to the bundle. An invalid tool or manifest fails the build with the
 * located issues. The dev server serves the same file (without a file list: nothing is built there).
 *
 * Integrity (seed 000 §2.7, §6 M2): after every other plugin has emitted its files, the manifest lists each file of
 * the bundle — chunks, assets, the HTML, and the files Vite copies from `publicDir` — with its size and SHA-256,
 * and `integrity` names the whole list. The same sources give the same bytes, so the same list.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isLineUpError } from '@lineup/shared';
import { type BundleFile, fileIntegrity } from '@lineup/shared/protocol';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import type { AgentTools } from './define.js';
import { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';

export interface LineUpMiniAppPluginOptions {
  /** The app's identity and declarations (`id`, `name`, `version`, `entry?`, `surfaces?`, `permissions?`). */
  readonly app: MiniAppInfo;
  /** Path (from the Vite root) of the module whose default export is `defineAgentTools(...)`. */
  readonly tools: string;
}

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
 * module runs in Vite's module runner with its own copy of `@lineup/shared`: `isLineUpError` reads the brand
 * both copies share.
 */
function issueLines(error: unknown): string[] | null {
  if (!isLineUpError(error) || error.issues.length === 0) return null;
  return error.issues.map((issue) => `  ${issue.path}: ${issue.message} (${issue.code})`);
}

/** Loads the tools module and returns the manifest text, or throws an Error listing what is wrong. */
async function buildManifest(
  options: LineUpMiniAppPluginOptions,
  config: ResolvedConfig,
  files?: readonly BundleFile[],
): Promise<string> {
  try {
    // A short-lived server loads the module with the app's own resolution conditions; LineUp packages run
    // through Vite like the app's code, so a workspace that resolves them to TypeScript sources works as
    // well as installed, built packages. Everything else (zod, …) is loaded by Node as usual.
    const conditions = [...config.resolve.conditions];
    const server = await createServer({
      root: config.root,
      configFile: false,
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      resolve: { conditions },
      ssr: { noExternal: [/^@lineup\//], resolve: { conditions } },
    });
    let module: { default?: unknown };
    try {
      module = await server.ssrLoadModule(options.tools);
    } finally {
      await server.close();
    }
    if (!isAgentTools(module.default))
      throw new Error(`${options.tools} must default-export the result of defineAgentTools(...).`);
    return manifestText(generateManifest(options.app, module.default, files));
  } catch (error) {
    const lines = issueLines(error);
    if (lines === null) throw error;
    throw new Error(`The MiniApp manifest of ${options.tools} is not valid:\n${lines.join('\n')}`);
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
  let config: ResolvedConfig;
  return {
    name: 'lineup-miniapp-manifest',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle: {
      // After the other plugins: the HTML and every asset are in the bundle by then.
      order: 'post',
      async handler(_output, bundle) {
        let source: string;
        try {
          const files: BundleFile[] = [];
          for (const item of Object.values(bundle)) {
            if (item.fileName === MINIAPP_MANIFEST_FILE) continue;
            // The host builds each page from the kept files, every script a data: URL: a script that
            // imports another chunk has no URL to resolve it against there.
            if (item.type === 'chunk' && (item.imports.length > 0 || item.dynamicImports.length > 0))
              throw new Error(
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
          source = await buildManifest(options, config, files);
        } catch (error) {
          this.error(error instanceof Error ? error.message : String(error));
        }
        this.emitFile({ type: 'asset', fileName: MINIAPP_MANIFEST_FILE, source });
      },
    },
    configureServer(server) {
      server.middlewares.use(`/${MINIAPP_MANIFEST_FILE}`, (_request, response, next) => {
        buildManifest(options, config).then(
          (text) => {
            response.setHeader('content-type', 'application/json; charset=utf-8');
            response.end(text);
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}

export { generateManifest, MINIAPP_MANIFEST_FILE, type MiniAppInfo, manifestText } from './manifest.js';
