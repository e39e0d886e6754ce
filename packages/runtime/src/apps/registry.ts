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
 */
import { canonicalJSONString, LineUpProtocolError } from '@lineup/shared';
import {
  type AppCapabilityDescriptor,
  AppCapabilityDescriptorSchema,
  type AppListPayload,
  agentToolName,
  type ClientInventoryPayload,
  ClientInventoryPayloadSchema,
  type McpServerManifest,
  type MiniAppManifest,
  parseMcpServerManifest,
  parseMiniAppManifest,
  type StandardComponent,
  type SurfaceReference,
  toAgentToolInventoryEntry,
} from '@lineup/shared/protocol';
import type { SurfaceReferenceStatus } from '../client/surface-reference.js';
import { type ToolPolicyDecision, type ToolPolicyRule, toolPolicyRuleProblem } from '../consent/policy.js';
import { acceptedChange, toolPolicyChange, trustChange, withHeldChanges } from '../consent/settings.js';
import { consentToolOf, effectivePolicy, toolDefinitionHash } from '../consent/tool-consent.js';
import {
  type AppConsentSettings,
  type AppRecord,
  type AuditRecord,
  type BundleFileRecord,
  type CapabilityRecord,
  type McpServerRecord,
  type MiniAppRecord,
  OUTBOX_PENDING,
  REGISTRY_STORES,
  type RegistryTransaction,
  type RuntimeDatabase,
  type ToolGrantRecord,
  writeInventoryFence,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { assertUsableSchema } from '../tools/schema-validator.js';
import {
  BundleIntegrityError,
  type BundlePolicy,
  digestIntegrity,
  fetchVerifiedBundle,
  verifyBundleFiles,
} from './bundle.js';

/** The standard components this host renders itself: the Intelligent UI DSL, versions 1.0 and 1.1. */
export const HOST_STANDARD_COMPONENTS: readonly StandardComponent[] = Object.freeze([
  Object.freeze({ id: 'intelligent_ui', version: '1.1' }),
]);

export type InstallOutcome = 'installed' | 'updated' | 'unchanged';

/** A capability the host declares: its public descriptor, and what running it does in the user's words. */
export interface CapabilityDeclaration extends AppCapabilityDescriptor {
  /** Shown in the confirmation: what will happen (plain text, at most 512 characters). */
  readonly description: string;
  /** The JSON Schema its result must match. */
  readonly output_schema: Readonly<Record<string, unknown>>;
}

/** The error for an app that is an MCP server where a MiniApp was asked for. */
function notAMiniApp(): LineUpProtocolError {
  return new LineUpProtocolError([
    {
      path: 'appId',
      code: 'unknown_reference',
      message: 'This app is an MCP server: it has no bundle to mount.',
    },
  ]);
}

/** The error for an app id that is not installed. */
function notInstalled(): LineUpProtocolError {
  return new LineUpProtocolError([
    { path: 'appId', code: 'unknown_reference', message: 'No app with this id is installed.' },
  ]);
}

/** The key of one kept file. */
function bundleFileKey(appId: string, version: string, path: string): string {
  return `${appId}\n${version}\n${path}`;
}

const byName = <T extends { readonly name: string }>(a: T, b: T) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * Builds the inventory of the enabled apps, without the tools their consent policy denies under the host's `rules`
 * and without an MCP server's tools changed since the user accepted them (`AppConsentSettings.held`); validated with
 * the wire schema before anything stores it.
 */
export function buildInventory(
  counter: number,
  apps: readonly AppRecord[],
  capabilities: readonly CapabilityRecord[] = [],
  rules: readonly ToolPolicyRule[] = [],
): ClientInventoryPayload {
  const enabled = apps.filter((app) => app.enabled).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tools = enabled.flatMap((app) =>
    app.manifest.tools
      .filter(
        (tool) =>
          app.consent?.held?.[tool.method] === undefined &&
          effectivePolicy(app, consentToolOf(tool), rules).decision !== 'deny',
      )
      .map(toAgentToolInventoryEntry),
  );
  const inventory = {
    revision: `inventory-${counter}`,
    standard_components: [...HOST_STANDARD_COMPONENTS],
    applications: enabled.map((app) => ({
      id: app.id,
      version: app.manifest.version,
      // An MCP server's views open beside its tools' calls, never by an agent's reference.
      surfaces:
        app.kind === 'mcp_server'
          ? []
          : app.manifest.surfaces.map((surface) => ({ id: surface.id, events: [...surface.events] })),
    })),
    capabilities: capabilities
      .filter((capability) => !capability.revoked)
      .sort(byName)
      .map(({ name, version, risk }) => ({ name, version, risk })),
    ...(tools.length > 0 ? { tools } : {}),
  };
  const checked = ClientInventoryPayloadSchema.safeParse(inventory);
  if (!checked.success)
    throw new LineUpProtocolError([
      {
        path: 'inventory',
        code: 'invalid_value',
        message: 'The enabled apps do not form a valid inventory.',
      },
    ]);
  return inventory;
}

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
  readonly #db: RuntimeDatabase;
  readonly #clock: Clock;
  readonly #rules: readonly ToolPolicyRule[];

  constructor(db: RuntimeDatabase, options: AppRegistryOptions = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date;
    const rules = options.toolPolicy ?? [];
    rules.forEach((rule, index) => {
      const problem = toolPolicyRuleProblem(rule);
      if (problem !== undefined)
        throw new LineUpProtocolError([
          { path: `toolPolicy[${index}]`, code: 'invalid_value', message: problem },
        ]);
    });
    this.#rules = Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
  }

  /** The host's consent rules (see `AppRegistryOptions.toolPolicy`). */
  get toolPolicy(): readonly ToolPolicyRule[] {
    return this.#rules;
  }

  /**
   * Publishes the inventory again if the host's rules now publish other tools than the stored inventory (rules
   * changed between two starts). A host calls it once at start. Returns whether a new revision was published.
   */
  async applyToolPolicy(): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const [apps, current, declared] = await Promise.all([
      transaction.objectStore('apps').getAll(),
      transaction.objectStore('inventory').get('current'),
      transaction.objectStore('capabilities').getAll(),
    ]);
    const tools = buildInventory(0, apps, declared, this.#rules).tools ?? [];
    if (
      current === undefined ||
      canonicalJSONString(current.inventory.tools ?? []) === canonicalJSONString(tools)
    ) {
      await transaction.done;
      return false;
    }
    await this.#commit(transaction, () =>
      this.#publish(
        transaction,
        apps,
        {
          at: this.#clock.now(),
          type: 'consent_settings',
          appId: 'host',
          version: '',
          detail: 'host policy',
        },
        declared,
      ),
    );
    return true;
  }

  /**
   * The user's consent choice for one tool of an app (`decision`; `undefined` goes back to the default), bound to
   * the tool's current definition. Publishes a new inventory revision when the tools published change (a tool now
   * denied leaves it; one no longer denied comes back). Audited. Throws for an app or tool that is not installed.
   */
  async setToolPolicy(
    appId: string,
    method: string,
    decision: ToolPolicyDecision | undefined,
  ): Promise<void> {
    await this.#changeConsent(appId, (app) => toolPolicyChange(app, method, decision, this.#clock.now()));
  }

  /**
   * Whether the user trusts an MCP server: then a tool it says is read-only runs without a question (a destructive
   * one still asks every time). Audited; throws for an app that is not an installed MCP server.
   */
  async setTrusted(appId: string, trusted: boolean): Promise<void> {
    await this.#changeConsent(appId, (app) => trustChange(app, trusted));
  }

  /**
   * Accepts the change of an MCP server's tool that a refresh held back: it is published again, with its new
   * definition (a new inventory revision). Audited; throws for an app or tool with no held change.
   */
  async acceptToolChange(appId: string, method: string): Promise<void> {
    await this.#changeConsent(appId, (app) => acceptedChange(app, method));
  }

  /** The grants the user remembered, each for a conversation and a tool (newest first). */
  async toolGrants(conversationId?: string): Promise<ToolGrantRecord[]> {
    const grants =
      conversationId === undefined
        ? await this.#db.getAll('tool_grants')
        : await this.#db.getAllFromIndex('tool_grants', 'by_conversation', conversationId);
    return grants.sort((a, b) => b.grantedAt - a.grantedAt);
  }

  /** Revokes a remembered grant: the next call of the tool in that conversation asks again. Audited. */
  async revokeToolGrant(conversationId: string, tool: string): Promise<boolean> {
    const transaction = this.#db.transaction(['tool_grants', 'audit'], 'readwrite');
    const key = `${conversationId}\n${tool}`;
    const grant = await transaction.objectStore('tool_grants').get(key);
    if (grant === undefined) {
      await transaction.done;
      return false;
    }
    await transaction.objectStore('tool_grants').delete(key);
    await transaction.objectStore('audit').add({
      at: this.#clock.now(),
      type: 'consent_settings',
      appId: grant.appId,
      version: '',
      conversationId,
      detail: `${tool} grant revoked`,
    });
    await transaction.done;
    return true;
  }

  /** One change of an app's consent settings: the record, its audit entry, and a new revision if the tools change. */
  async #changeConsent(
    appId: string,
    change: (app: AppRecord) => { readonly consent: AppConsentSettings; readonly detail: string },
  ): Promise<void> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const existing = all.find((app) => app.id === appId);
    let changed: ReturnType<typeof change>;
    try {
      if (existing === undefined) throw notInstalled();
      changed = change(existing);
    } catch (error) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw error;
    }
    const record = { ...existing, consent: changed.consent } as AppRecord;
    const next = all.map((app) => (app.id === appId ? record : app));
    const audit: Omit<AuditRecord, 'id'> = {
      at: this.#clock.now(),
      type: 'consent_settings',
      appId,
      version: existing.manifest.version,
      detail: changed.detail,
    };
    const [current, declared] = await Promise.all([
      transaction.objectStore('inventory').get('current'),
      transaction.objectStore('capabilities').getAll(),
    ]);
    const before = current?.inventory.tools ?? [];
    const after = buildInventory(0, next, declared, this.#rules).tools ?? [];
    await this.#commit(transaction, async () => {
      await apps.put(record);
      if (canonicalJSONString(before) !== canonicalJSONString(after))
        await this.#publish(transaction, next, audit, declared);
      else await transaction.objectStore('audit').add(audit);
    });
  }

  /**
   * Installs or updates an app from its manifest (untrusted JSON). Throws `LineUpProtocolError` for an invalid
   * manifest, or one whose app scope another installed app already uses, and `SchemaUnusableError` for a tool
   * whose input or output schema the runtime cannot validate with; nothing is written then. The same
   * manifest again is `unchanged` and writes nothing. (`installBundle` is the verified path: it also keeps the
   * bundle's files.)
   */
  async install(input: unknown, options: { readonly bundleUrl: string }): Promise<InstallOutcome> {
    const manifest = parseMiniAppManifest(input);
    return this.#installIn(manifest, options.bundleUrl);
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
  async installBundle(
    bundleUrl: string | URL,
    options: { readonly fetch?: (url: URL) => Promise<Response>; readonly policy?: BundlePolicy } = {},
  ): Promise<InstallOutcome> {
    let bundle: Awaited<ReturnType<typeof fetchVerifiedBundle>>;
    try {
      bundle = await fetchVerifiedBundle(bundleUrl, options.fetch, options.policy);
    } catch (error) {
      if (error instanceof BundleIntegrityError) await this.#rejected(String(bundleUrl), '', error);
      throw error;
    }
    return this.#installIn(bundle.manifest, String(bundleUrl), bundle.files);
  }

  /**
   * Installs `manifest` in one transaction: the app record, the verified files (when given), the new inventory
   * revision, its audit entry and outbox row.
   */
  async #installIn(
    manifest: MiniAppManifest,
    bundleUrl: string,
    files?: ReadonlyMap<string, Uint8Array>,
  ): Promise<InstallOutcome> {
    // Before anything is written: a schema the validator cannot use would install and then refuse every call.
    for (const tool of manifest.tools) {
      const name = agentToolName(tool);
      assertUsableSchema(tool.input_schema, { kind: 'tool', name, schema: 'input' });
      assertUsableSchema(tool.output_schema, { kind: 'tool', name, schema: 'output' });
    }
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const found = all.find((app) => app.id === manifest.id);
    if (found?.kind === 'mcp_server') {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw new LineUpProtocolError([
        { path: 'id', code: 'duplicate_id', message: 'An MCP server is installed under this app id.' },
      ]);
    }
    const existing: MiniAppRecord | undefined = found;
    const clash = all.find((app) => app.id !== manifest.id && app.manifest.app_scope === manifest.app_scope);
    if (clash !== undefined) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw new LineUpProtocolError([
        {
          path: 'app_scope',
          code: 'duplicate_id',
          message: 'Another installed app uses this app scope; tool names would collide.',
        },
      ]);
    }
    const same =
      existing !== undefined &&
      existing.bundleUrl === bundleUrl &&
      canonicalJSONString(existing.manifest) === canonicalJSONString(manifest);
    // The version to go back to: the one running, or — over an upgrade that has not started yet — the one
    // before it, the last that did.
    const previous =
      existing === undefined || existing.manifest.version === manifest.version
        ? existing?.previous
        : (existing.previous ?? { manifest: existing.manifest, bundleUrl: existing.bundleUrl });
    const now = this.#clock.now();
    const record: AppRecord = {
      id: manifest.id,
      manifest,
      bundleUrl,
      enabled: existing?.enabled ?? true,
      installedAt: existing?.installedAt ?? now,
      updatedAt: now,
      ...(previous === undefined || previous.manifest.version === manifest.version ? {} : { previous }),
      ...(existing?.consent === undefined ? {} : { consent: existing.consent }),
    };
    await this.#commit(transaction, async () => {
      if (files !== undefined) {
        // The new files go in beside the running version's; files of any other version go.
        const store = transaction.objectStore('bundle_files');
        const keep = new Set([manifest.version, record.previous?.manifest.version]);
        for (const stored of await store.index('by_app').getAll(manifest.id))
          if (!keep.has(stored.version) || (stored.version === manifest.version && !files.has(stored.path)))
            await store.delete(stored.key);
        for (const file of manifest.files ?? [])
          await store.put({
            key: bundleFileKey(manifest.id, manifest.version, file.path),
            appId: manifest.id,
            version: manifest.version,
            path: file.path,
            integrity: file.integrity,
            bytes: files.get(file.path) as Uint8Array,
          } satisfies BundleFileRecord);
      }
      if (same) return;
      await apps.put(record);
      await this.#dropStaleGrants(transaction, manifest.id, record);
      await this.#publish(transaction, [...all.filter((app) => app.id !== manifest.id), record], {
        at: now,
        type: existing === undefined ? 'app_installed' : 'app_updated',
        appId: manifest.id,
        version: manifest.version,
      });
    });
    return same ? 'unchanged' : existing === undefined ? 'installed' : 'updated';
  }

  /**
   * The new version of `appId` started once (its page said `app_ready`): the version it replaced, and that
   * version's files, are let go. Returns whether there was one (an app without a pending upgrade: false).
   */
  async confirmStarted(appId: string): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const existing = await transaction.objectStore('apps').get(appId);
    if (existing?.kind === 'mcp_server' || existing?.previous === undefined) {
      await transaction.done;
      return false;
    }
    const { previous, ...record } = existing;
    await this.#commit(transaction, async () => {
      await transaction.objectStore('apps').put({ ...record, updatedAt: this.#clock.now() });
      await this.#deleteFiles(transaction, appId, previous.manifest.version);
      await transaction.objectStore('audit').add({
        at: this.#clock.now(),
        type: 'app_upgrade_confirmed',
        appId,
        version: existing.manifest.version,
        detail: `from ${previous.manifest.version}`,
      });
    });
    return true;
  }

  /**
   * Goes back from a new version that failed its check or its first start to the version it replaced, in one
   * transaction: the record, a new inventory revision (the old version's tools and Surfaces), the audit entry
   * with `reason`; the new version's files are removed. The app's data is not touched. Returns false (and
   * changes nothing) when the app has no previous version to go back to.
   */
  async rollback(appId: string, reason: string): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const all = await transaction.objectStore('apps').getAll();
    const existing = all.find((app) => app.id === appId);
    if (existing?.kind === 'mcp_server' || existing?.previous === undefined) {
      await transaction.done;
      return false;
    }
    const { previous, ...current } = existing;
    const now = this.#clock.now();
    const record: AppRecord = {
      ...current,
      manifest: previous.manifest,
      bundleUrl: previous.bundleUrl,
      updatedAt: now,
    };
    await this.#commit(transaction, async () => {
      await transaction.objectStore('apps').put(record);
      await this.#deleteFiles(transaction, appId, existing.manifest.version);
      await this.#dropStaleGrants(transaction, appId, record);
      await this.#publish(
        transaction,
        all.map((app) => (app.id === appId ? record : app)),
        {
          at: now,
          type: 'app_rolled_back',
          appId,
          version: previous.manifest.version,
          detail: `from ${existing.manifest.version}: ${reason.slice(0, 200)}`,
        },
      );
    });
    return true;
  }

  /**
   * Uninstalls `appId` in one transaction: its record, its kept files (every version), the session data of
   * its instances, and a new inventory revision without it. Calls and instances still open end through
   * `ToolRuntime.withdraw` (the agent gets `revoked`, the host closes the page). Throws `LineUpProtocolError`
   * (`unknown_reference`) for an app that is not installed.
   */
  async uninstall(appId: string): Promise<void> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const all = await transaction.objectStore('apps').getAll();
    const existing = all.find((app) => app.id === appId);
    if (existing === undefined) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw notInstalled();
    }
    await this.#commit(transaction, async () => {
      await transaction.objectStore('apps').delete(appId);
      await this.#deleteFiles(transaction, appId);
      await this.#dropStaleGrants(transaction, appId, undefined);
      const sessions = transaction.objectStore('session_data');
      for (const instance of await transaction.objectStore('instances').getAll())
        if (instance.appId === appId) await sessions.delete(`${instance.appScope}\n${instance.appSessionId}`);
      await this.#publish(
        transaction,
        all.filter((app) => app.id !== appId),
        {
          at: this.#clock.now(),
          type: 'app_uninstalled',
          appId,
          version: existing.manifest.version,
        },
      );
    });
  }

  /**
   * The kept, verified files of the installed version of `appId`, by path: checked again first
   * (`verifyInstalled`), so what a host mounts is what was verified. Throws as `verifyInstalled` does.
   */
  async bundleFiles(
    appId: string,
  ): Promise<{ readonly manifest: MiniAppManifest; readonly files: ReadonlyMap<string, Uint8Array> }> {
    const { manifest, files } = await this.#verify(appId);
    if ('kind' in manifest) throw notAMiniApp();
    return { manifest, files };
  }

  /**
   * The kept, verified views of the installed MCP server `appId`, by path (checked again first, as before every
   * mount), with its manifest. Throws `LineUpProtocolError` (`unknown_reference`) for an app that is no MCP server,
   * and `BundleIntegrityError` when a kept view fails its check.
   */
  async mcpViewFiles(
    appId: string,
  ): Promise<{ readonly manifest: McpServerManifest; readonly files: ReadonlyMap<string, Uint8Array> }> {
    const { manifest, files } = await this.#verify(appId);
    if (!('kind' in manifest))
      throw new LineUpProtocolError([
        { path: 'appId', code: 'unknown_reference', message: 'This app is not an MCP server.' },
      ]);
    return { manifest, files };
  }

  /**
   * Installs, or refreshes, an MCP server from what `readMcpServer` (`@lineup/runtime/mcp`) read of it: in one
   * transaction the app record, its kept views, a new inventory revision, the audit entry and the outbox row. The
   * same manifest again is `unchanged` and writes nothing; another one (a changed tool list or view) is `updated`,
   * and the views of the version it replaces are let go. Throws `LineUpProtocolError` for an invalid manifest,
   * views that do not match it, an app scope another app uses (`duplicate_id` at `app_scope`), or a MiniApp under
   * the same id; nothing is written then.
   */
  async installMcpServer(input: unknown, files: ReadonlyMap<string, Uint8Array>): Promise<InstallOutcome> {
    const manifest = parseMcpServerManifest(input);
    for (const tool of manifest.tools) {
      const name = agentToolName(tool);
      assertUsableSchema(tool.input_schema, { kind: 'tool', name, schema: 'input' });
      assertUsableSchema(tool.output_schema, { kind: 'tool', name, schema: 'output' });
    }
    for (const tool of manifest.app_tools)
      assertUsableSchema(tool.input_schema, { kind: 'tool', name: tool.tool, schema: 'input' });
    await verifyBundleFiles(manifest, async (path) => files.get(path));
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const found = all.find((app) => app.id === manifest.id);
    const clash = all.find((app) => app.id !== manifest.id && app.manifest.app_scope === manifest.app_scope);
    if (clash !== undefined || (found !== undefined && found.kind !== 'mcp_server')) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw new LineUpProtocolError([
        clash !== undefined
          ? {
              path: 'app_scope',
              code: 'duplicate_id',
              message: 'Another installed app uses this app scope; install the server under another one.',
            }
          : { path: 'id', code: 'duplicate_id', message: 'A MiniApp is installed under this app id.' },
      ]);
    }
    const existing: McpServerRecord | undefined = found;
    if (existing !== undefined && canonicalJSONString(existing.manifest) === canonicalJSONString(manifest)) {
      await transaction.done;
      return 'unchanged';
    }
    const now = this.#clock.now();
    const fresh: McpServerRecord = {
      kind: 'mcp_server',
      id: manifest.id,
      manifest,
      enabled: existing?.enabled ?? true,
      installedAt: existing?.installedAt ?? now,
      updatedAt: now,
      ...(existing?.consent === undefined ? {} : { consent: existing.consent }),
    };
    // A tool the refresh changed is held back until the user accepts the change: a server cannot change a tool the
    // user allowed or trusted and have the agent call it at once.
    const record = existing === undefined ? fresh : withHeldChanges(existing, fresh, now);
    await this.#commit(transaction, async () => {
      const store = transaction.objectStore('bundle_files');
      for (const stored of await store.index('by_app').getAll(manifest.id))
        if (stored.version !== manifest.version) await store.delete(stored.key);
      for (const file of manifest.files)
        await store.put({
          key: bundleFileKey(manifest.id, manifest.version, file.path),
          appId: manifest.id,
          version: manifest.version,
          path: file.path,
          integrity: file.integrity,
          bytes: files.get(file.path) as Uint8Array,
        } satisfies BundleFileRecord);
      await apps.put(record);
      await this.#dropStaleGrants(transaction, manifest.id, record);
      await this.#publish(transaction, [...all.filter((app) => app.id !== manifest.id), record], {
        at: now,
        type: existing === undefined ? 'app_installed' : 'app_updated',
        appId: manifest.id,
        version: manifest.version,
        ...(existing === undefined ? {} : { detail: `from ${existing.manifest.version}` }),
      });
    });
    return existing === undefined ? 'installed' : 'updated';
  }

  /**
   * What a `ui.open` by reference finds (seed 000 §5.1): `available` when an enabled app declares that Surface,
   * `revoked` when its app is disabled or was uninstalled, `unknown_reference` otherwise.
   */
  async checkSurfaceReference(reference: SurfaceReference): Promise<SurfaceReferenceStatus> {
    const app = await this.#db.get('apps', reference.app_id);
    if (app === undefined) {
      const history = await this.#db.getAllFromIndex('audit', 'by_app', reference.app_id);
      return history.some((entry) => entry.type === 'app_uninstalled') ? 'revoked' : 'unknown_reference';
    }
    if (
      app.kind === 'mcp_server' ||
      !app.manifest.surfaces.some((surface) => surface.id === reference.surface_id)
    )
      return 'unknown_reference';
    return app.enabled ? 'available' : 'revoked';
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
    if (status !== 'available')
      throw new LineUpProtocolError([
        {
          path: 'surface',
          code: 'unknown_reference',
          message:
            status === 'revoked'
              ? `${reference.app_id} is disabled or was removed; its Surfaces cannot be opened.`
              : `No enabled app ${reference.app_id} declares a Surface ${reference.surface_id}.`,
        },
      ]);
    const { manifest, files } = await this.bundleFiles(reference.app_id);
    const surface = manifest.surfaces.find((declared) => declared.id === reference.surface_id);
    if (surface === undefined) throw new TypeError('unreachable: a checked Surface is declared');
    return { app: { id: manifest.id, name: manifest.name, version: manifest.version }, surface, files };
  }

  /** Deletes the kept files of `appId` (of one `version`, or all). */
  async #deleteFiles(transaction: RegistryTransaction, appId: string, version?: string): Promise<void> {
    const store = transaction.objectStore('bundle_files');
    for (const stored of await store.index('by_app').getAll(appId))
      if (version === undefined || stored.version === version) await store.delete(stored.key);
  }

  /**
   * Checks the kept files of an installed app against its manifest again (before a mount): each listed file must
   * be there with its size and SHA-256. Throws `BundleIntegrityError` (audited) when one is not; an app installed
   * without a file list is `no_integrity`.
   */
  async verifyInstalled(appId: string): Promise<void> {
    await this.#verify(appId);
  }

  async #verify(appId: string): Promise<{
    readonly manifest: MiniAppManifest | McpServerManifest;
    readonly files: ReadonlyMap<string, Uint8Array>;
  }> {
    const app = await this.#db.get('apps', appId);
    if (app === undefined) throw notInstalled();
    const { manifest } = app;
    const files = new Map<string, Uint8Array>();
    try {
      if (manifest.files === undefined)
        throw new BundleIntegrityError(
          'no_integrity',
          `${manifest.id} was installed without a verified file list.`,
        );
      for (const file of manifest.files) {
        const stored = await this.#db.get(
          'bundle_files',
          bundleFileKey(manifest.id, manifest.version, file.path),
        );
        if (stored === undefined)
          throw new BundleIntegrityError('missing_file', `The kept bundle has no ${file.path}.`, {
            path: file.path,
            expected: file.integrity,
          });
        if (stored.bytes.length !== file.size)
          throw new BundleIntegrityError(
            'size_mismatch',
            `The kept ${file.path} is ${stored.bytes.length} bytes; the manifest says ${file.size}.`,
            {
              path: file.path,
              expected: String(file.size),
              actual: String(stored.bytes.length),
            },
          );
        const actual = await digestIntegrity(stored.bytes);
        if (actual !== file.integrity)
          throw new BundleIntegrityError(
            'digest_mismatch',
            `The kept ${file.path} does not match the manifest: expected ${file.integrity}, found ${actual}.`,
            { path: file.path, expected: file.integrity, actual },
          );
        files.set(file.path, stored.bytes);
      }
    } catch (error) {
      if (error instanceof BundleIntegrityError) await this.#rejected(manifest.id, manifest.version, error);
      throw error;
    }
    return { manifest, files };
  }

  async #rejected(appId: string, version: string, error: BundleIntegrityError): Promise<void> {
    await this.#db.add('audit', {
      at: this.#clock.now(),
      type: 'bundle_rejected',
      appId: appId.slice(0, 256),
      version,
      detail: `${error.code}${error.path === undefined ? '' : ` ${error.path}`}`,
    });
  }

  /** Enables or disables an installed app; a change publishes a new inventory. Returns whether it changed. */
  async setEnabled(appId: string, enabled: boolean): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const apps = transaction.objectStore('apps');
    const all = await apps.getAll();
    const existing = all.find((app) => app.id === appId);
    if (existing === undefined) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw notInstalled();
    }
    if (existing.enabled === enabled) {
      await transaction.done;
      return false;
    }
    const now = this.#clock.now();
    const record: AppRecord = { ...existing, enabled, updatedAt: now };
    const next = all.map((app) => (app.id === appId ? record : app));
    await this.#commit(transaction, async () => {
      await apps.put(record);
      await this.#publish(transaction, next, {
        at: now,
        type: enabled ? 'app_enabled' : 'app_disabled',
        appId: existing.manifest.id,
        version: existing.manifest.version,
      });
    });
    return true;
  }

  /** Every installed app, by id. */
  async list(): Promise<AppRecord[]> {
    return this.#db.getAll('apps');
  }

  /** The last published inventory, or the empty one of revision 0 before anything was installed. */
  async inventory(): Promise<ClientInventoryPayload> {
    const current = await this.#db.get('inventory', 'current');
    return current?.inventory ?? buildInventory(0, []);
  }

  /**
   * A change of an app drops the allowances remembered for its tools that no longer hold: a tool gone, or defined
   * otherwise (its description, schemas, the server's claims, the server's URL) — the user is asked again. Without
   * `record` (uninstalled), every allowance of the app goes.
   */
  async #dropStaleGrants(
    transaction: RegistryTransaction,
    appId: string,
    record: AppRecord | undefined,
  ): Promise<void> {
    const store = transaction.objectStore('tool_grants');
    const hashes = new Map(
      (record?.manifest.tools ?? []).map((tool) => [
        `${tool.app_scope}.${tool.method}`,
        toolDefinitionHash(record as AppRecord, consentToolOf(tool)),
      ]),
    );
    for (const grant of await store.getAll())
      if (grant.appId === appId && hashes.get(grant.tool) !== grant.definitionHash)
        await store.delete(grant.key);
  }

  /**
   * Runs the writes of one change and waits for the commit. If anything throws on the way (an inventory the
   * wire schema refuses, say), the transaction is aborted, so the writes already issued are undone too.
   */
  async #commit(transaction: RegistryTransaction, writes: () => Promise<void>): Promise<void> {
    try {
      await writes();
    } catch (error) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw error;
    }
    await transaction.done;
  }

  /**
   * Declares the host's capabilities (untrusted input is checked: each a valid descriptor with a description
   * and an output schema, names unique; a schema the runtime cannot validate with is a `SchemaUnusableError`). A declaration that differs from the stored one — new, changed, or
   * revoked before — publishes one new inventory revision for all of them; the same declarations again write
   * nothing. Capabilities not named stay as they are (revoke them with `revokeCapability`). Returns whether the
   * inventory changed.
   */
  async declareCapabilities(declarations: readonly CapabilityDeclaration[]): Promise<boolean> {
    const checked = declarations.map((declaration, index) => checkDeclaration(declaration, index));
    const names = new Set<string>();
    for (const [index, declaration] of checked.entries()) {
      if (names.has(declaration.name))
        throw new LineUpProtocolError([
          { path: `[${index}].name`, code: 'duplicate_id', message: 'Each capability is declared once.' },
        ]);
      names.add(declaration.name);
    }
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const store = transaction.objectStore('capabilities');
    const stored = new Map((await store.getAll()).map((record) => [record.name, record]));
    const now = this.#clock.now();
    const changed = checked.filter((declaration) => {
      const existing = stored.get(declaration.name);
      return (
        existing === undefined ||
        existing.revoked ||
        canonicalJSONString(declarationOf(existing)) !== canonicalJSONString(declaration)
      );
    });
    if (changed.length === 0) {
      await transaction.done;
      return false;
    }
    const records: CapabilityRecord[] = changed.map((declaration) => ({
      ...declaration,
      revoked: false,
      declaredAt: now,
    }));
    for (const record of records) stored.set(record.name, record);
    const apps = await transaction.objectStore('apps').getAll();
    await this.#commit(transaction, async () => {
      for (const record of records) await store.put(record);
      await this.#publish(
        transaction,
        apps,
        {
          at: now,
          type: 'capability_declared',
          appId: 'host',
          version: records.map((record) => `${record.name}@${record.version}`).join(' '),
        },
        [...stored.values()],
      );
    });
    return true;
  }

  /**
   * Revokes a declared capability: a new inventory revision without it; a call naming it is answered
   * `unsupported` (`revoked`). Returns whether it changed (false when already revoked). Throws for a name never
   * declared.
   */
  async revokeCapability(name: string): Promise<boolean> {
    const transaction = this.#db.transaction(REGISTRY_STORES, 'readwrite');
    const store = transaction.objectStore('capabilities');
    const existing = await store.get(name);
    if (existing === undefined) {
      transaction.abort();
      await transaction.done.catch(() => {});
      throw new LineUpProtocolError([
        { path: 'name', code: 'unknown_reference', message: 'No capability with this name was declared.' },
      ]);
    }
    if (existing.revoked) {
      await transaction.done;
      return false;
    }
    const now = this.#clock.now();
    const record: CapabilityRecord = { ...existing, revoked: true };
    const all = (await store.getAll()).map((item) => (item.name === name ? record : item));
    const apps = await transaction.objectStore('apps').getAll();
    await this.#commit(transaction, async () => {
      await store.put(record);
      await this.#publish(
        transaction,
        apps,
        { at: now, type: 'capability_revoked', appId: 'host', version: `${name}@${existing.version}` },
        all,
      );
    });
    return true;
  }

  /** Every capability the host declared, revoked ones included, by name. */
  async capabilities(): Promise<CapabilityRecord[]> {
    return (await this.#db.getAll('capabilities')).sort(byName);
  }

  /** `lineup.v1.app.list` (seed 000 §5.2): the unrevoked capabilities with their input schemas. */
  async appList(): Promise<AppListPayload> {
    const capabilities = (await this.capabilities())
      .filter((capability) => !capability.revoked)
      .map(({ name, version, risk, input_schema }) => ({ name, version, risk, input_schema }));
    return { capabilities } as AppListPayload;
  }

  /** The new inventory, its audit entry and its outbox row, inside the caller's transaction. */
  async #publish(
    transaction: RegistryTransaction,
    apps: readonly AppRecord[],
    audit: Omit<AuditRecord, 'id'>,
    capabilities?: readonly CapabilityRecord[],
  ): Promise<void> {
    const inventoryStore = transaction.objectStore('inventory');
    const [current, declared] = await Promise.all([
      inventoryStore.get('current'),
      capabilities ?? transaction.objectStore('capabilities').getAll(),
    ]);
    const counter = (current?.counter ?? 0) + 1;
    const inventory = buildInventory(counter, apps, declared, this.#rules);
    // A step that assumes the replaced inventory cannot commit any more (`guardInventory`).
    if (current !== undefined) writeInventoryFence(transaction, current.counter);
    await inventoryStore.put({ key: 'current', counter, inventory });
    await transaction.objectStore('audit').add(audit);
    await transaction.objectStore('outbox').add({
      at: audit.at,
      type: 'lineup.v1.client.inventory',
      payload: inventory,
      pending: OUTBOX_PENDING,
    });
  }
}

const MAX_DESCRIPTION_LENGTH = 512;

/** The stored declaration, as it was given (for comparing). */
function declarationOf(record: CapabilityRecord): CapabilityDeclaration {
  const { revoked: _revoked, declaredAt: _declaredAt, ...declaration } = record;
  return declaration as CapabilityDeclaration;
}

function checkDeclaration(input: CapabilityDeclaration, index: number): CapabilityDeclaration {
  if (typeof input !== 'object' || input === null)
    throw new LineUpProtocolError([
      { path: `[${index}]`, code: 'invalid_type', message: 'A capability declaration is an object.' },
    ]);
  const { description, output_schema, ...descriptor } = input;
  const parsed = AppCapabilityDescriptorSchema.safeParse(descriptor);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LineUpProtocolError([
      {
        path: `[${index}]${issue?.path.length ? `.${issue.path.join('.')}` : ''}`,
        code: 'invalid_value',
        message: `Not a valid capability descriptor: ${issue?.message ?? 'invalid'}`,
      },
    ]);
  }
  if (
    typeof description !== 'string' ||
    description.trim() === '' ||
    description.length > MAX_DESCRIPTION_LENGTH
  )
    throw new LineUpProtocolError([
      {
        path: `[${index}].description`,
        code: 'invalid_value',
        message: `A capability needs a description of 1–${MAX_DESCRIPTION_LENGTH} characters: what running it does.`,
      },
    ]);
  if (typeof output_schema !== 'object' || output_schema === null || Array.isArray(output_schema))
    throw new LineUpProtocolError([
      {
        path: `[${index}].output_schema`,
        code: 'invalid_type',
        message: 'An output schema is a JSON Schema object.',
      },
    ]);
  assertUsableSchema(parsed.data.input_schema, {
    kind: 'capability',
    name: parsed.data.name,
    schema: 'input',
  });
  assertUsableSchema(output_schema, { kind: 'capability', name: parsed.data.name, schema: 'output' });
  return JSON.parse(JSON.stringify({ ...parsed.data, description, output_schema })) as CapabilityDeclaration;
}
