/**
 * The app registry and the inventory it publishes (seed 000 §5.1, seed 003 §4.1). Installing validates the
 * manifest with the shared parser first — an invalid one changes nothing — then writes, in one transaction,
 * the app record, a new inventory revision, the audit entry and the `client.inventory` outbox row: either all
 * of them are stored or none (DESIGN.md "Persistence"). No await inside the transaction waits on anything but
 * the transaction itself.
 *
 * The inventory lists enabled apps only, with their declared Surfaces and their Agent Tools as inventory
 * entries (the contract, not the executor). Its revision is `inventory-<n>` with `n` growing by one on every
 * change and never reused. The capabilities the host declared (`declareCapabilities`) and has not revoked are
 * listed too: declaring, revoking or changing one is a new revision like an app change. Declaring never grants
 * (seed 000 §5.2): a call still needs the user's consent by its risk (`CapabilityRuntime`).
 *
 * Policy (seed 003 §4.1: the inventory is what the user's and the organisation's policy allow): a tool whose
 * effective consent policy is `deny` — by the host's rules (`toolPolicy`), the user's choice (`setToolPolicy`), or
 * the default of a `restricted` risk — is not published at all; a change of that is a new revision. Conversation
 * and agent scoping come later; today every conversation sees the same inventory.
 *
 * `AppRegistry` is the registry's one entry, and its methods stay thin: each part lives beside it — installing
 * (install.ts), what happens to an installed app after (lifecycle.ts), the kept files and their check
 * (kept-files.ts), consent settings (registry-consent.ts), the host's capabilities (capability-declarations.ts),
 * Surface references (surface-references.ts), the inventory (inventory.ts) and how a change is stored
 * (registry-persistence.ts).
 */
import type {
  AppListPayload,
  ClientInventoryPayload,
  McpServerManifest,
  MiniAppManifest,
  SurfaceReference,
} from '@lineup/shared/protocol';
import type { SurfaceReferenceStatus } from '../client/surface-reference.js';
import type { ToolPolicyDecision, ToolPolicyRule } from '../consent/policy.js';
import {
  pageConnectSources,
  viewConnectSources,
  viewDevices,
  viewResourceSources,
} from '../consent/settings.js';
import type { AppRecord, CapabilityRecord, RuntimeDatabase, ToolGrantRecord } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import type { BundlePolicy } from './bundle.js';
import type { CapabilityDeclaration } from './capability-declarations.js';
import * as capabilityDeclarations from './capability-declarations.js';
import type { InstallOutcome } from './install.js';
import * as installing from './install.js';
import { buildInventory } from './inventory.js';
import { verifyKeptFiles } from './kept-files.js';
import * as lifecycle from './lifecycle.js';
import * as consentSettings from './registry-consent.js';
import { notAMiniApp, notAnMcpServer } from './registry-errors.js';
import type { RegistryContext } from './registry-persistence.js';
import { checkSurfaceReference, surfaceUnavailable } from './surface-references.js';

// What this module exported before its parts moved beside it: the modules and tests that import them with the
// registry find them here too.
export type { CapabilityDeclaration } from './capability-declarations.js';
export type { InstallOutcome } from './install.js';
export { buildInventory, HOST_STANDARD_COMPONENTS } from './inventory.js';

export interface AppRegistryOptions {
  readonly clock?: Clock;
  /**
   * The host integrator's consent rules for Agent Tools: the organisation's floor, which no user choice lowers
   * (among the rules that match a tool the strictest wins: deny over ask over allow). A tool they deny is not
   * published; `ToolRuntime` applies them to every call. Checked here: an invalid rule throws.
   */
  readonly toolPolicy?: readonly ToolPolicyRule[];
}

export class AppRegistry {
  readonly #context: RegistryContext;

  constructor(db: RuntimeDatabase, options: AppRegistryOptions = {}) {
    this.#context = Object.freeze({
      db,
      clock: options.clock ?? Date,
      rules: consentSettings.checkedToolPolicy(options.toolPolicy ?? []),
    });
  }

  /** The host's consent rules (see `AppRegistryOptions.toolPolicy`). */
  get toolPolicy(): readonly ToolPolicyRule[] {
    return this.#context.rules;
  }

  /**
   * Publishes the inventory again if the host's rules now publish other tools than the stored inventory (rules
   * changed between two starts). A host calls it once at start. Returns whether a new revision was published.
   */
  applyToolPolicy(): Promise<boolean> {
    return consentSettings.applyToolPolicy(this.#context);
  }

  /**
   * The user's consent choice for one tool of an app (`decision`; `undefined` goes back to the default), bound to
   * the tool's current definition. Publishes a new inventory revision when the tools published change (a tool now
   * denied leaves it; one no longer denied comes back). Audited. Throws for an app or tool that is not installed.
   */
  setToolPolicy(appId: string, method: string, decision: ToolPolicyDecision | undefined): Promise<void> {
    return consentSettings.setToolPolicy(this.#context, appId, method, decision);
  }

  /**
   * Whether the user trusts an MCP server: then a tool it says is read-only runs without a question (a destructive
   * one still asks every time). Audited; throws for an app that is not an installed MCP server.
   */
  setTrusted(appId: string, trusted: boolean): Promise<void> {
    return consentSettings.setTrusted(this.#context, appId, trusted);
  }

  /**
   * Accepts the change of an MCP server's tool that a refresh held back: it is published again, with its new
   * definition (a new inventory revision). Audited; throws for an app or tool with no held change.
   */
  acceptToolChange(appId: string, method: string): Promise<void> {
    return consentSettings.acceptToolChange(this.#context, appId, method);
  }

  /**
   * Grants a view of an MCP server every origin of its declared `connectDomains` and `resourceDomains` that can be
   * granted (all or nothing for the view), or takes them back (`granted` false): what `mcpViewFiles` then gives its
   * mounts (`connectSources`, `resourceSources`). Audited
   * (`consent_settings`, naming the view and the origins); throws for an app that is no MCP server, a view it does
   * not have, or a grant of a view that declares no origin that can be granted.
   */
  setViewNetwork(appId: string, viewId: string, granted: boolean): Promise<void> {
    return consentSettings.setViewNetwork(this.#context, appId, viewId, granted);
  }

  /**
   * Grants a MiniApp's page every origin its manifest declares in `connect_domains` (all or nothing), or takes them
   * back (`granted` false): what `bundleFiles` then gives its mounts (`connectSources`: the granted origins the
   * installed version still declares). Audited (`consent_settings`, naming the origins); throws for an MCP server or
   * a grant of an app that declares no origin.
   */
  setPageNetwork(appId: string, granted: boolean): Promise<void> {
    return consentSettings.setPageNetwork(this.#context, appId, granted);
  }

  /** The grants the user remembered, each for a conversation and a tool (newest first). */
  toolGrants(conversationId?: string): Promise<ToolGrantRecord[]> {
    return consentSettings.toolGrants(this.#context, conversationId);
  }

  /** Revokes a remembered grant: the next call of the tool in that conversation asks again. Audited. */
  revokeToolGrant(conversationId: string, tool: string): Promise<boolean> {
    return consentSettings.revokeToolGrant(this.#context, conversationId, tool);
  }

  /**
   * Installs or updates an app from its manifest (untrusted JSON). Throws `LineUpProtocolError` for an invalid
   * manifest, or one whose app scope another installed app already uses, and `SchemaUnusableError` for a tool
   * whose input or output schema the runtime cannot validate with; nothing is written then. The same
   * manifest again is `unchanged` and writes nothing. (`installBundle` is the verified path: it also keeps the
   * bundle's files.)
   */
  install(input: unknown, options: { readonly bundleUrl: string }): Promise<InstallOutcome> {
    return installing.installManifest(this.#context, input, options);
  }

  /**
   * Installs (or upgrades) the bundle at `bundleUrl`: fetches its manifest and every file it lists, checks each
   * file's size and SHA-256 against it (`BundleIntegrityError` naming the file and both digests, audited as
   * `bundle_rejected`; nothing is kept, and an installed version keeps running untouched), refuses a tool schema
   * the runtime cannot validate with (`SchemaUnusableError`; nothing is kept either), then in one
   * transaction keeps the verified files, switches the app's record to the new manifest and publishes the new
   * inventory revision. A bundle whose manifest lists no files is refused (`no_integrity`). With a `policy`
   * (production) the manifest must be allow-listed or signed by a trusted key first (`not_allowed`,
   * `signature_invalid`).
   *
   * An upgrade to another version keeps the running version's files beside the new ones, as `previous`, until
   * the new version has started once (`confirmStarted`); a failed first start or a failed check before it goes
   * back to it (`rollback`). The same version with other files replaces it in place (no way back).
   */
  installBundle(
    bundleUrl: string | URL,
    options: { readonly fetch?: (url: URL) => Promise<Response>; readonly policy?: BundlePolicy } = {},
  ): Promise<InstallOutcome> {
    return installing.installBundle(this.#context, bundleUrl, options);
  }

  /**
   * Installs, or refreshes, an MCP server from what `readMcpServer` (`@lineup/runtime/mcp`) read of it: in one
   * transaction the app record, its kept views, a new inventory revision, the audit entry and the outbox row. The
   * same manifest again is `unchanged` and writes nothing; another one (a changed tool list or view) is `updated`,
   * and the views of the version it replaces are let go. Throws `LineUpProtocolError` for an invalid manifest,
   * views that do not match it, an app scope another app uses (`duplicate_id` at `app_scope`), or a MiniApp under
   * the same id; nothing is written then.
   */
  installMcpServer(input: unknown, files: ReadonlyMap<string, Uint8Array>): Promise<InstallOutcome> {
    return installing.installMcpServer(this.#context, input, files);
  }

  /**
   * The new version of `appId` started once (its page said `app_ready`): the version it replaced, and that
   * version's files, are let go. Returns whether there was one (an app without a pending upgrade: false).
   */
  confirmStarted(appId: string): Promise<boolean> {
    return lifecycle.confirmStarted(this.#context, appId);
  }

  /**
   * Goes back from a new version that failed its check or its first start to the version it replaced, in one
   * transaction: the record, a new inventory revision (the old version's tools and Surfaces), the audit entry
   * with `reason`; the new version's files are removed. The app's data is not touched. Returns false (and
   * changes nothing) when the app has no previous version to go back to.
   */
  rollback(appId: string, reason: string): Promise<boolean> {
    return lifecycle.rollback(this.#context, appId, reason);
  }

  /**
   * Uninstalls `appId` in one transaction: its record, its kept files (every version), the session data of
   * its instances, and a new inventory revision without it. Calls and instances still open end through
   * `ToolRuntime.withdraw` (the agent gets `revoked`, the host closes the page). Throws `LineUpProtocolError`
   * (`unknown_reference`) for an app that is not installed.
   */
  uninstall(appId: string): Promise<void> {
    return lifecycle.uninstall(this.#context, appId);
  }

  /** Enables or disables an installed app; a change publishes a new inventory. Returns whether it changed. */
  setEnabled(appId: string, enabled: boolean): Promise<boolean> {
    return lifecycle.setEnabled(this.#context, appId, enabled);
  }

  /**
   * Checks the kept files of an installed app against its manifest again (before a mount): each listed file must
   * be there with its size and SHA-256. Throws `BundleIntegrityError` (audited) when one is not; an app installed
   * without a file list is `no_integrity`.
   */
  async verifyInstalled(appId: string): Promise<void> {
    await verifyKeptFiles(this.#context, appId);
  }

  /**
   * The kept, verified files of the installed version of `appId`, by path: checked again first
   * (`verifyInstalled`), so what a host mounts is what was verified. Throws as `verifyInstalled` does.
   */
  async bundleFiles(appId: string): Promise<{
    readonly manifest: MiniAppManifest;
    readonly files: ReadonlyMap<string, Uint8Array>;
    /** The origins the page may connect to: what the user granted that this version still declares. */
    readonly connectSources: readonly string[];
  }> {
    const { app, manifest, files } = await verifyKeptFiles(this.#context, appId);
    if ('kind' in manifest) throw notAMiniApp();
    return { manifest, files, connectSources: pageConnectSources(app) };
  }

  /**
   * The kept, verified views of the installed MCP server `appId`, by path (checked again first, as before every
   * mount), with its manifest. Throws `LineUpProtocolError` (`unknown_reference`) for an app that is no MCP server,
   * and `BundleIntegrityError` when a kept view fails its check.
   */
  async mcpViewFiles(appId: string): Promise<{
    readonly manifest: McpServerManifest;
    readonly files: ReadonlyMap<string, Uint8Array>;
    /** The origins each view may connect to, by view id: what the user granted that it still declares. */
    readonly connectSources: ReadonlyMap<string, readonly string[]>;
    /** The origins each view may load images, styles, fonts and media from, by view id (granted, still declared). */
    readonly resourceSources: ReadonlyMap<string, readonly string[]>;
    /** The device features each view may use (`geolocation`, `clipboard-write`), by view id (granted, still declared). */
    readonly devices: ReadonlyMap<string, readonly string[]>;
  }> {
    const { app, manifest, files } = await verifyKeptFiles(this.#context, appId);
    if (!('kind' in manifest)) throw notAnMcpServer();
    return {
      manifest,
      files,
      connectSources: viewConnectSources(app),
      resourceSources: viewResourceSources(app),
      devices: viewDevices(app),
    };
  }

  /**
   * What a `ui.open` by reference finds (seed 000 §5.1): `available` when an enabled app declares that Surface,
   * `revoked` when its app is disabled or was uninstalled, `unknown_reference` otherwise.
   */
  checkSurfaceReference(reference: SurfaceReference): Promise<SurfaceReferenceStatus> {
    return checkSurfaceReference(this.#context, reference);
  }

  /**
   * The declared Surface `reference` names, with the kept, verified files of its app (checked again first, as
   * before every mount). Throws `LineUpProtocolError` (`unknown_reference`) unless it is `available`, and
   * `BundleIntegrityError` when the files fail their check.
   */
  async surfaceFiles(reference: SurfaceReference): Promise<{
    readonly app: { readonly id: string; readonly name: string; readonly version: string };
    readonly surface: MiniAppManifest['surfaces'][number];
    readonly files: ReadonlyMap<string, Uint8Array>;
  }> {
    const status = await this.checkSurfaceReference(reference);
    if (status !== 'available') throw surfaceUnavailable(reference, status);
    const { manifest, files } = await this.bundleFiles(reference.app_id);
    const surface = manifest.surfaces.find((declared) => declared.id === reference.surface_id);
    if (surface === undefined) throw new TypeError('unreachable: a checked Surface is declared');
    return { app: { id: manifest.id, name: manifest.name, version: manifest.version }, surface, files };
  }

  /** Every installed app, by id. */
  async list(): Promise<AppRecord[]> {
    return this.#context.db.getAll('apps');
  }

  /** The last published inventory, or the empty one of revision 0 before anything was installed. */
  async inventory(): Promise<ClientInventoryPayload> {
    const current = await this.#context.db.get('inventory', 'current');
    return current?.inventory ?? buildInventory(0, []);
  }

  /**
   * Declares the host's capabilities (untrusted input is checked: each a valid descriptor with a description
   * and an output schema, names unique; a schema the runtime cannot validate with is a `SchemaUnusableError`). A declaration that differs from the stored one — new, changed, or
   * revoked before — publishes one new inventory revision for all of them; the same declarations again write
   * nothing. Capabilities not named stay as they are (revoke them with `revokeCapability`). Returns whether the
   * inventory changed.
   */
  declareCapabilities(declarations: readonly CapabilityDeclaration[]): Promise<boolean> {
    return capabilityDeclarations.declareCapabilities(this.#context, declarations);
  }

  /**
   * Revokes a declared capability: a new inventory revision without it; a call naming it is answered
   * `unsupported` (`revoked`). Returns whether it changed (false when already revoked). Throws for a name never
   * declared.
   */
  revokeCapability(name: string): Promise<boolean> {
    return capabilityDeclarations.revokeCapability(this.#context, name);
  }

  /** Every capability the host declared, revoked ones included, by name. */
  capabilities(): Promise<CapabilityRecord[]> {
    return capabilityDeclarations.listCapabilities(this.#context);
  }

  /** `lineup.v1.app.list` (seed 000 §5.2): the unrevoked capabilities with their input schemas. */
  appList(): Promise<AppListPayload> {
    return capabilityDeclarations.appList(this.#context);
  }
}
