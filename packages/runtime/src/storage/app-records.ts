/**
 * What the runtime database keeps of installed apps: the app registry (`apps`), the verified files of their
 * bundles and of MCP servers' views (`bundle_files`), the one inventory record and the fences of the inventory
 * counters it replaced (`inventory_fences`).
 */
import type { ClientInventoryPayload, McpServerManifest, MiniAppManifest } from '@lineup/shared/protocol';
import type { AppConsentSettings } from './consent-records.js';

/**
 * An installed app: a MiniApp (`kind` absent, as every record before MCP servers) or an MCP server
 * (`kind: 'mcp_server'`). Both publish their tools in the one inventory; only a MiniApp has a page and Surfaces.
 */
export type AppRecord = MiniAppRecord | McpServerRecord;

/**
 * An installed MCP server (`@lineup/shared` docs/mcp.md): what was read from it at install or refresh — its tools
 * and the views they open, kept in `bundle_files` like a verified bundle's files — and whether it is enabled.
 */
export interface McpServerRecord {
  readonly kind: 'mcp_server';
  readonly id: string;
  readonly manifest: McpServerManifest;
  readonly enabled: boolean;
  /** Unix milliseconds. */
  readonly installedAt: number;
  readonly updatedAt: number;
  /** An MCP server has no page to confirm a first start: a refresh replaces the version at once. */
  readonly previous?: undefined;
  readonly consent?: AppConsentSettings;
}

/** An installed MiniApp: its validated manifest and where its bundle is served from. */
export interface MiniAppRecord {
  readonly kind?: undefined;
  readonly id: string;
  readonly manifest: MiniAppManifest;
  /** Base URL of the bundle's files (the manifest's `entry` is relative to it). */
  readonly bundleUrl: string;
  readonly enabled: boolean;
  /** Unix milliseconds. */
  readonly installedAt: number;
  readonly updatedAt: number;
  /**
   * While a new version has not yet started once: the version it replaced, whose files are kept beside it, to
   * roll back to (`AppRegistry.rollback`) until `AppRegistry.confirmStarted` lets it go.
   */
  readonly previous?: { readonly manifest: MiniAppManifest; readonly bundleUrl: string };
  readonly consent?: AppConsentSettings;
}

/** One verified file of an installed bundle, kept so it can be checked again before every mount. */
export interface BundleFileRecord {
  /** `appId + "\n" + version + "\n" + path`. */
  readonly key: string;
  readonly appId: string;
  readonly version: string;
  readonly path: string;
  /** `sha256-<base64>`, as the manifest lists it (verified when stored). */
  readonly integrity: string;
  readonly bytes: Uint8Array;
}

/** The one inventory record: a counter that only grows, and the inventory it last published. */
export interface InventoryRecord {
  readonly key: 'current';
  readonly counter: number;
  readonly inventory: ClientInventoryPayload;
}

/**
 * A row of `inventory_fences`: the fence of a counter that a newer inventory replaced (`retired\n<counter>`), the
 * guard row a step that reads nothing writes (`guard`), which holds the counter it assumes, or the registry's stamp
 * (`registry`), which every change of the apps or the inventory replaces. The `by_retired` index is unique: the
 * guard cannot hold a replaced counter.
 */
export interface InventoryFenceRecord {
  readonly key: string;
  readonly retired?: number;
  /** The registry stamp row's stamp: new with every change of the `apps` store or of the inventory. */
  readonly stamp?: string;
}
