/**
 * `@lineup/miniapp-sdk/vite`: the build step that writes a MiniApp's manifest (seed 003 §4.1 "构建阶段自动
 * 生成"). A thin adapter over `generateManifest`: it loads the module that default-exports the app's
 * `defineAgentTools(...)` through Vite's module runner — the same TypeScript and resolution as the app —
 * and emits `lineup.manifest.json` next to the bundle. An invalid tool or manifest fails the build with the
 * located issues. The dev server serves the same file.
 */
import { LineUpProtocolError } from '@lineup/shared';
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
 * The issues of a LineUp validation error as lines, or `null` for any other error. The tools module runs in
 * Vite's module runner with its own copy of `@lineup/shared`, so its errors are recognised by shape.
 */
function issueLines(error: unknown): string[] | null {
  if (!(error instanceof Error) || error.name !== LineUpProtocolError.name) return null;
  const { issues } = error as LineUpProtocolError;
  if (!Array.isArray(issues)) return null;
  return issues.map((issue) => `  ${issue.path}: ${issue.message} (${issue.code})`);
}

/** Loads the tools module and returns the manifest text, or throws an Error listing what is wrong. */
async function buildManifest(options: LineUpMiniAppPluginOptions, config: ResolvedConfig): Promise<string> {
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
    return manifestText(generateManifest(options.app, module.default));
  } catch (error) {
    const lines = issueLines(error);
    if (lines === null) throw error;
    throw new Error(`The MiniApp manifest of ${options.tools} is not valid:\n${lines.join('\n')}`);
  }
}

/** The Vite plugin: `plugins: [lineupMiniApp({ app: { … }, tools: './src/tools.ts' })]`. */
export function lineupMiniApp(options: LineUpMiniAppPluginOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'lineup-miniapp-manifest',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle() {
      let source: string;
      try {
        source = await buildManifest(options, config);
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
      this.emitFile({ type: 'asset', fileName: MINIAPP_MANIFEST_FILE, source });
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
