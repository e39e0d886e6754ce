/**
 * The manifest a MiniApp bundle ships (seed 003 §4.1), generated from its source, never written by hand: the
 * app's identity and declarations plus the descriptors `defineAgentTools` produced. The result is checked with
 * `parseMiniAppManifest` — the runtime's own parser — so a build cannot emit a manifest the runtime refuses.
 */
import {
  type BundleFile,
  bundleIntegrity,
  MINIAPP_MANIFEST_FILE_NAME,
  MINIAPP_MANIFEST_VERSION,
  type MiniAppManifest,
  type MiniAppSurface,
  parseMiniAppManifest,
  sortBundleFiles,
} from '@lineup/shared/protocol';
import type { AgentTools } from './agent-tool.js';

/** What the app says about itself; the tools come from `defineAgentTools`. */
export interface MiniAppInfo {
  /** Reverse-DNS app id (`com.lineup.pomodoro`). */
  readonly id: string;
  /** The name people see. */
  readonly name: string;
  /** SemVer of this build. */
  readonly version: string;
  /** The bundle's HTML entry, relative to the bundle root (default `index.html`). */
  readonly entry?: string;
  /** Surfaces agents may open by app id (seed 000 §5.1). */
  readonly surfaces?: readonly MiniAppSurface[];
  /** Host capabilities the app may request; declaring one never grants it. */
  readonly permissions?: readonly string[];
  /**
   * Origins the app's page connects to (`https://api.example.com`, `wss://*.example.com`; `http:`/`ws:` only on
   * the loopback host): the manifest's `connect_domains`. The page reaches none of them until the user grants
   * them, all or nothing, and never any other.
   */
  readonly connectDomains?: readonly string[];
}

/** The file name of the manifest next to the bundle's entry. */
export const MINIAPP_MANIFEST_FILE = MINIAPP_MANIFEST_FILE_NAME;

/**
 * Builds and validates the manifest; throws `LineUpProtocolError` with paths into the manifest. With `files` (the
 * bundle's files, as the Vite plugin lists them) the manifest carries them sorted by path and their
 * `bundleIntegrity`.
 */
export function generateManifest(
  app: MiniAppInfo,
  tools: AgentTools,
  files?: readonly BundleFile[],
): MiniAppManifest {
  const listed = files === undefined ? undefined : sortBundleFiles(files);
  return parseMiniAppManifest({
    manifest_version: MINIAPP_MANIFEST_VERSION,
    id: app.id,
    name: app.name,
    version: app.version,
    ...(listed === undefined ? {} : { integrity: bundleIntegrity(listed), files: listed }),
    app_scope: tools.appScope,
    entry: app.entry ?? 'index.html',
    surfaces: [...(app.surfaces ?? [])],
    permissions: [...(app.permissions ?? [])],
    tools: [...tools.descriptors],
    ...(app.connectDomains === undefined ? {} : { connect_domains: [...app.connectDomains] }),
  });
}

/** The manifest as the file's text: two-space JSON with a final newline, stable for a reviewer's diff. */
export function manifestText(manifest: MiniAppManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
