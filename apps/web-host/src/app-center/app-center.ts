/**
 * The app center's logic, framework-free (the view, `AppCenter.tsx`, only renders what this hands it): the
 * installed apps with their kept bundle's size and integrity state, their audit log, the bundled catalogue, and the
 * user's actions — install (from the catalogue, a same-origin URL, a picked folder), enable, disable, check for
 * an update, uninstall. Every action goes through `@lineup/runtime`'s `AppRegistry`, and every change is followed by
 * `host.appsChanged()`: the host reads the apps again, withdraws what belongs to apps no longer enabled (their
 * calls get a definite `revoked`, their pages close) and the agent gets the new inventory revision. What the
 * center shows is read again after each action and whenever the host says the apps changed (a first start that
 * confirmed or rolled back an upgrade), so it is never a copy that drifts from the database.
 *
 * What it shows is typed in snapshot.ts, one installed app is read by installed-apps.ts, and where a bundle may come
 * from is checked by bundle-sources.ts.
 */
import {
  type AppRecord,
  type AppRegistry,
  PICKED_BUNDLE_URL,
  pickedBundleFetch,
  type RuntimeDatabase,
  type ToolPolicyDecision,
  type ToolPolicyRule,
} from '@lineup/runtime';
import { installMcpServer, McpServerError, refreshMcpServer } from '@lineup/runtime/mcp';
import { MINIAPP_MANIFEST_FILE_NAME, mcpServerUrlProblem } from '@lineup/shared/protocol';
import type { AppCenterOptions, AppsHost, McpInstallOptions } from './app-center-options.ts';
import { appSource, devBundleUrl, pickedFolderFiles, sameOriginBundleUrl } from './bundle-sources.ts';
import { type CatalogueEntry, catalogueUrl } from './catalogue.ts';
import { type GrantQuestion, grantQuestion, PAGE_PART, stillAsked } from './grant-question.ts';
import { readInstalledApp } from './installed-apps.ts';
import { type AppCenterProblem, problemOf } from './problems.ts';
import { tokenProblem } from './server-credentials.ts';
import { SignInError } from './server-sign-in.ts';
import type { ActionState, AppAction, AppCenterResult, AppCenterSnapshot } from './snapshot.ts';

export type { AppCenterOptions, AppsHost, McpInstallOptions } from './app-center-options.ts';

const IDLE: ActionState = { status: 'idle' };

/** What one action did: its result, whether it changed anything, and what it asks the user to grant. */
interface ActionOutcome {
  readonly result: AppCenterResult;
  readonly changed: boolean;
  readonly asks?: GrantQuestion | undefined;
}

export class AppCenter {
  readonly #db: RuntimeDatabase;
  readonly #registry: AppRegistry;
  readonly #host: AppsHost;
  readonly #catalogue: readonly CatalogueEntry[];
  readonly #baseUri: string;
  readonly #mcp: McpInstallOptions | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: () => void;
  #snapshot: AppCenterSnapshot;
  /** Only the newest read is shown, whatever order reads finish in. */
  #reads = 0;
  #disposed = false;

  constructor(options: AppCenterOptions) {
    this.#db = options.db;
    this.#registry = options.registry;
    this.#host = options.host;
    this.#catalogue = options.catalogue;
    this.#baseUri = options.baseUri;
    this.#mcp = options.mcp;
    this.#snapshot = {
      apps: [],
      available: [],
      inventory: undefined,
      startupProblems: options.startupProblems ?? [],
      readProblem: undefined,
      actions: new Map(),
      url: IDLE,
      folder: IDLE,
      mcp: IDLE,
      devUrl: null,
      dev: IDLE,
      grantQuestion: undefined,
    };
    const apps = this.#host.onAppsChanged(() => void this.refresh());
    // An answer may remember an allowance (or a call's end audits one): the settings and audit are read again.
    const consent = this.#host.onConsentChanged?.(() => void this.refresh());
    // A server that starts or stops refusing its token changes what its card says.
    const credentials = this.#mcp?.credentials?.onChange?.(() => this.#set({}));
    this.#unsubscribe = () => {
      apps();
      consent?.();
      credentials?.();
    };
  }

  get snapshot(): AppCenterSnapshot {
    return this.#snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dispose(): void {
    this.#disposed = true;
    this.#unsubscribe();
    this.#listeners.clear();
  }

  /**
   * Reads the apps, the inventory and each app's audit entries again. A read that fails (the database closed, say)
   * is kept as `readProblem` for the view to show, never thrown at a listener.
   */
  async refresh(): Promise<void> {
    const read = ++this.#reads;
    try {
      await this.#read(read);
    } catch (error) {
      if (read === this.#reads) this.#set({ readProblem: problemOf(error) });
    }
  }

  async #read(read: number): Promise<void> {
    const [records, inventory, grants] = await Promise.all([
      this.#registry.list(),
      this.#registry.inventory(),
      this.#registry.toolGrants(),
    ]);
    const apps = await Promise.all(
      records.map((record) =>
        readInstalledApp(
          this.#db,
          record,
          grants.filter((grant) => grant.appId === record.id),
        ),
      ),
    );
    if (read !== this.#reads || this.#disposed) return;
    const installed = new Set(records.map((record) => record.id));
    const question = this.#snapshot.grantQuestion;
    this.#set({
      // A question about an app no longer installed has nothing left to grant.
      grantQuestion: question !== undefined && installed.has(question.appId) ? question : undefined,
      readProblem: undefined,
      apps: apps.sort(
        (a, b) =>
          a.record.manifest.name.localeCompare(b.record.manifest.name) ||
          (a.record.id < b.record.id ? -1 : 1),
      ),
      available: this.#catalogue.filter((entry) => !installed.has(entry.id)),
      inventory,
    });
  }

  // ── Actions ─────────────────────────────────────────────────────────────────────────────────────────

  /** Installs a catalogue entry (after an uninstall, this is how it comes back). */
  installFromCatalogue(entry: CatalogueEntry): Promise<void> {
    return this.#run({ app: entry.id }, 'install', async () =>
      this.#install(catalogueUrl(entry, this.#baseUri)),
    );
  }

  /** Installs (or updates) the bundle at `input`, a base URL on this page's origin; others are refused unfetched. */
  installFromUrl(input: string): Promise<void> {
    return this.#run({ form: 'url' }, 'install', async () => {
      const url = sameOriginBundleUrl(input, this.#baseUri);
      if (!(url instanceof URL)) throw new RefusedAction(url);
      return this.#install(url);
    });
  }

  /**
   * Installs (or updates) a dev bundle on this machine (`devBundleUrl`), read fresh (`no-store`): what `DevLink`
   * does on every change. After a change, once the host has read the apps again, `reload` gets the app's id (its
   * page, if shown, loads the new files) — before the status says it is done. Resolves with whether it installed
   * (a failure is shown in the center).
   */
  async installFromDevServer(input: string, reload: (appId: string) => void): Promise<boolean> {
    let appId: string | undefined;
    let installed = false;
    await this.#run(
      { form: 'dev' },
      'install',
      async () => {
        const url = devBundleUrl(input);
        if (!(url instanceof URL)) throw new RefusedAction(url);
        const done = await this.#install(url, (address) => fetch(address, { cache: 'no-store' }));
        appId = (await this.#registry.list()).find((record) => appSource(record) === url.href)?.id;
        installed = true;
        return done;
      },
      () => {
        if (appId !== undefined) reload(appId);
      },
    );
    return installed;
  }

  /** The dev bundle this page follows, shown in the center (`null`: none). */
  setDevUrl(url: string | null): void {
    this.#set({ devUrl: url });
  }

  /** A dev bundle that could not be read or was refused before an install: shown as its last install's state. */
  devProblem(problem: AppCenterProblem): void {
    let shown = problem;
    if (problem.kind === 'dev_build_failed' && problem.running === undefined) {
      // The app the last good build installed keeps running: say which.
      const devUrl = this.#snapshot.devUrl;
      const record = this.#snapshot.apps.find((app) => appSource(app.record) === devUrl)?.record;
      if (record !== undefined)
        shown = { ...problem, running: { name: record.manifest.name, version: record.manifest.version } };
    }
    this.#setAction({ form: 'dev' }, { status: 'failed', action: 'install', problem: shown });
  }

  /** Installs (or updates) the bundle in a folder the user picked: the same verification as a served one. */
  installFromFolder(files: Iterable<File>): Promise<void> {
    return this.#run({ form: 'folder' }, 'install', async () => {
      const picked = pickedFolderFiles(files);
      if (picked.files.size === 0) throw new RefusedAction({ kind: 'nothing_picked' });
      if (!picked.files.has(MINIAPP_MANIFEST_FILE_NAME))
        throw new RefusedAction({ kind: 'no_manifest', folder: picked.folder });
      return this.#install(new URL(PICKED_BUNDLE_URL), pickedBundleFetch(picked.files));
    });
  }

  /**
   * Adds the MCP server at `url` (its Streamable HTTP endpoint): the runtime lists its tools and keeps the views
   * they name, checked; under `appScope` when given, else one from its name. A server that cannot be read is
   * refused with why (`McpServerError`), and nothing is kept.
   */
  /**
   * Signs in to the MCP server at `url` with OAuth (server-sign-in.ts), then adds it (or, added already, keeps it as
   * it is). Call it from the user's click: the sign-in window opens at once, and the browser allows that only then.
   * `appId`: the installed server's card whose sign-in ended, where the outcome shows.
   */
  signInMcpServer(url: string, appScope?: string, appId?: string): Promise<void> {
    const address = url.trim();
    const credentials = this.#mcp?.credentials;
    const popup =
      credentials?.signInTo === undefined
        ? null
        : window.open('about:blank', 'lineup-sign-in', 'popup,width=520,height=720');
    return this.#run(appId === undefined ? { form: 'mcp' } : { app: appId }, 'sign_in', async () => {
      const mcp = this.#mcp;
      if (mcp === undefined || credentials?.signInTo === undefined)
        throw new RefusedAction({ kind: 'mcp_unavailable' });
      const problem = mcpServerUrlProblem(address);
      if (problem !== undefined) throw new McpServerError('invalid_url', problem);
      const signIn = credentials.signInTo(address);
      try {
        await signIn.signIn(popup);
      } catch (error) {
        // A first sign-in that did not end keeps nothing; one to renew keeps what it had, marked to sign in again.
        if (!signIn.signedIn && !signIn.expired) await credentials.remove(address);
        if (error instanceof SignInError)
          throw new RefusedAction({ kind: 'sign_in_failed', reason: error.reason, message: error.message });
        throw error;
      }
      return this.#addMcp(mcp, address, appScope, true);
    });
  }

  /** How the MCP server `appId` proves who it is here: a token given, a sign-in, one to renew, or nothing. */
  credentialKind(appId: string): 'token' | 'oauth' | 'expired' | undefined {
    const server = this.#serverUrl(appId);
    return server === undefined ? undefined : this.#mcp?.credentials?.kind?.(server);
  }

  /** When the MCP server `appId` last refused the access token the user gave it (a 401 or 403), or undefined. */
  tokenRefusedAt(appId: string): number | undefined {
    const server = this.#serverUrl(appId);
    return server === undefined ? undefined : this.#mcp?.credentials?.refusedAt?.(server);
  }

  installMcpServer(url: string, appScope?: string, token?: string): Promise<void> {
    return this.#run({ form: 'mcp' }, 'install', async () => {
      const mcp = this.#mcp;
      if (mcp === undefined) throw new RefusedAction({ kind: 'mcp_unavailable' });
      const address = url.trim();
      const given = token?.trim() ?? '';
      const { credentials } = mcp;
      if (given !== '') {
        const problem = tokenProblem(given);
        if (problem !== undefined || credentials === undefined)
          throw new RefusedAction({ kind: 'bad_token', reason: problem ?? 'This host keeps no tokens.' });
      }
      // A token given now is used to read the server, and kept only if it was added: otherwise the one it had (if
      // any) is back.
      const earlierToken = credentials?.token(address);
      if (given !== '') await credentials?.set(address, given);
      try {
        return await this.#addMcp(mcp, address, appScope, false);
      } catch (error) {
        if (given !== '')
          await (earlierToken === undefined
            ? credentials?.remove(address)
            : credentials?.set(address, earlierToken));
        throw error;
      }
    });
  }

  /** Reads and keeps the MCP server at `address`; one kept already is `unchanged` (`signed_in` after a sign-in). */
  async #addMcp(
    mcp: McpInstallOptions,
    address: string,
    appScope: string | undefined,
    signedIn: boolean,
  ): Promise<ActionOutcome> {
    const scope = appScope?.trim();
    const earlier = await this.#registry.list();
    const { outcome, manifest } = await installMcpServer(this.#registry, address, {
      ...mcp,
      ...(scope === undefined || scope === '' ? {} : { appScope: scope }),
    });
    const { name, version } = manifest;
    if (outcome === 'unchanged')
      return signedIn
        ? { result: { kind: 'signed_in', name }, changed: true }
        : { result: { kind: 'unchanged', name, version }, changed: false };
    const before = earlier.find((record) => record.id === manifest.id);
    const asks = await this.#asks(before, manifest.id);
    return { result: { kind: 'installed', name, version }, changed: true, asks };
  }

  setEnabled(appId: string, enabled: boolean): Promise<void> {
    return this.#run({ app: appId }, enabled ? 'enable' : 'disable', async () => {
      const name = this.#name(appId);
      const changed = await this.#registry.setEnabled(appId, enabled);
      return { result: { kind: enabled ? 'enabled' : 'disabled', name }, changed };
    });
  }

  /**
   * Fetches the app's bundle URL again: `unchanged` is up to date; another version is an upgrade. An MCP server is
   * read again from its URL: another tool list or view is a new version, kept at once (with what changed).
   */
  checkForUpdate(appId: string): Promise<void> {
    return this.#run({ app: appId }, 'update', async () => {
      const record = this.#snapshot.apps.find((app) => app.record.id === appId)?.record;
      if (record?.kind === 'mcp_server') {
        const mcp = this.#mcp;
        if (mcp === undefined) throw new RefusedAction({ kind: 'mcp_unavailable' });
        const { outcome, change } = await refreshMcpServer(this.#registry, appId, mcp);
        const name = record.manifest.name;
        if (outcome === 'unchanged')
          return { result: { kind: 'unchanged', name, version: record.manifest.version }, changed: false };
        const asks = await this.#asks(record, appId);
        return {
          result: { kind: 'updated', name, from: change.from, to: change.to, change },
          changed: true,
          asks,
        };
      }
      if (record === undefined || record.bundleUrl === PICKED_BUNDLE_URL)
        throw new RefusedAction({ kind: 'no_bundle_url' });
      return this.#install(new URL(record.bundleUrl), undefined, record);
    });
  }

  // ── Consent settings (app-center/ConsentSettings.tsx) ──────────────────────────────────────────────

  /** The host integrator's consent rules: what the user's choices cannot lower. */
  get toolPolicy(): readonly ToolPolicyRule[] {
    return this.#registry.toolPolicy;
  }

  /** The user's choice for one tool (`undefined`: back to the default); a tool now denied leaves the inventory. */
  setToolPolicy(appId: string, method: string, decision: ToolPolicyDecision | undefined): Promise<void> {
    return this.#consentChange(() => this.#registry.setToolPolicy(appId, method, decision));
  }

  /** Whether the user trusts an MCP server's claims that a tool changes nothing. */
  setTrusted(appId: string, trusted: boolean): Promise<void> {
    return this.#consentChange(() => this.#registry.setTrusted(appId, trusted));
  }

  /**
   * Lets a view of an MCP server connect to every origin it declared that can be granted (`granted`), or to none
   * again: its next mount gets the change (a view already shown keeps the frame it has).
   */
  setViewNetwork(appId: string, viewId: string, granted: boolean): Promise<void> {
    return this.#consentChange(() => this.#registry.setViewNetwork(appId, viewId, granted));
  }

  /**
   * Lets a MiniApp's page connect to every origin its manifest declares (`granted`), or to none again: a page open
   * now is built again with the change (a frame's policy is fixed when it loads).
   */
  setPageNetwork(appId: string, granted: boolean): Promise<void> {
    return this.#consentChange(() => this.#registry.setPageNetwork(appId, granted));
  }

  /**
   * Answers the question an install asked (`snapshot.grantQuestion`): `allow` grants each part it asked about
   * everything that part declares (`setViewNetwork`, `setPageNetwork`: audited, followed by the host); otherwise
   * nothing changes ("Not now": it stays in the app center to grant later). Only the question shown is answered.
   */
  async answerGrantQuestion(question: GrantQuestion, allow: boolean): Promise<void> {
    if (this.#snapshot.grantQuestion !== question) return;
    this.#set({ grantQuestion: undefined });
    if (!allow) return;
    let record: AppRecord | undefined;
    try {
      record = (await this.#registry.list()).find((app) => app.id === question.appId);
    } catch (error) {
      this.#set({ readProblem: problemOf(error) });
      return;
    }
    if (!stillAsked(question, record)) {
      // The app changed since the question was asked (an update, uninstalled): what it declares now is asked.
      const again = record === undefined ? undefined : grantQuestion(undefined, record);
      if (again !== undefined) this.#set({ grantQuestion: again });
      return;
    }
    await this.#consentChange(async () => {
      for (const ask of question.asks)
        if (question.kind === 'mcp_server')
          await this.#registry.setViewNetwork(question.appId, ask.part, true);
        else if (ask.part === PAGE_PART) await this.#registry.setPageNetwork(question.appId, true);
    });
  }

  /** Accepts the change of an MCP server's tool that a refresh held back: the agent is offered it again. */
  acceptToolChange(appId: string, method: string): Promise<void> {
    return this.#consentChange(() => this.#registry.acceptToolChange(appId, method));
  }

  /** Revokes an allowance the user remembered: the tool's next call in that conversation asks again. */
  revokeGrant(conversationId: string, tool: string): Promise<void> {
    return this.#consentChange(async () => {
      await this.#registry.revokeToolGrant(conversationId, tool);
    });
  }

  /** One change of the consent settings, then the host follows (a new inventory goes out) and the center reads again. */
  async #consentChange(work: () => Promise<void>): Promise<void> {
    try {
      await work();
      await this.#host.appsChanged();
    } catch (error) {
      this.#set({ readProblem: problemOf(error) });
      return;
    }
    await this.refresh();
  }

  uninstall(appId: string): Promise<void> {
    return this.#run({ app: appId }, 'uninstall', async () => {
      const name = this.#name(appId);
      const server = this.#serverUrl(appId);
      await this.#registry.uninstall(appId);
      // An uninstalled server's token goes with it (unless another installed server has the same URL).
      if (
        server !== undefined &&
        !this.#snapshot.apps.some(
          (app) => app.record.id !== appId && this.#serverUrl(app.record.id) === server,
        )
      )
        await this.#mcp?.credentials?.remove(server);
      return { result: { kind: 'uninstalled', name }, changed: true };
    });
  }

  /** Forgets the access token of the MCP server `appId` (signs out): its next request goes without one. */
  forgetToken(appId: string): Promise<void> {
    return this.#run({ app: appId }, 'forget_token', async () => {
      const name = this.#name(appId);
      const server = this.#serverUrl(appId);
      const kind = this.credentialKind(appId);
      if (server !== undefined) await this.#mcp?.credentials?.remove(server);
      return {
        result: { kind: kind === 'oauth' || kind === 'expired' ? 'signed_out' : 'token_forgotten', name },
        changed: true,
      };
    });
  }

  /** The URL of the MCP server `appId` as it was added, or undefined for another app. */
  #serverUrl(appId: string): string | undefined {
    const record = this.#snapshot.apps.find((app) => app.record.id === appId)?.record;
    return record?.kind === 'mcp_server' ? record.manifest.server.url : undefined;
  }

  // ── Internals ───────────────────────────────────────────────────────────────────────────────────────

  async #install(
    url: URL,
    fetch?: (url: URL) => Promise<Response>,
    before?: AppRecord,
  ): Promise<ActionOutcome> {
    const earlier = new Map((await this.#registry.list()).map((record) => [record.id, record]));
    const outcome = await this.#registry.installBundle(url, fetch === undefined ? {} : { fetch });
    const after = await this.#registry.list();
    // The app the install wrote is the one whose record changed; `unchanged` wrote none, so it is the one at
    // this URL (an update check knows its app).
    const written = after.find((record) => earlier.get(record.id)?.updatedAt !== record.updatedAt);
    const app = written ?? before ?? after.find((record) => appSource(record) === url.href);
    const name = app?.manifest.name ?? url.href;
    const version = app?.manifest.version ?? '';
    if (outcome === 'unchanged') return { result: { kind: 'unchanged', name, version }, changed: false };
    const asks = written === undefined ? undefined : grantQuestion(earlier.get(written.id), written);
    if (outcome === 'installed') return { result: { kind: 'installed', name, version }, changed: true, asks };
    const from = (app === undefined ? undefined : earlier.get(app.id))?.manifest.version ?? '';
    if (from === version) return { result: { kind: 'replaced', name, version }, changed: true, asks };
    return { result: { kind: 'updated', name, from, to: version }, changed: true, asks };
  }

  /** What the app `appId`, now installed over `before`, asks the user to grant (grant-question.ts). */
  async #asks(before: AppRecord | undefined, appId: string): Promise<GrantQuestion | undefined> {
    const after = (await this.#registry.list()).find((record) => record.id === appId);
    return after === undefined ? undefined : grantQuestion(before, after);
  }

  /**
   * Runs one action: marks it running, then done or failed. A change is followed by `host.appsChanged()`, which
   * makes the center read everything again; a failure (which may have written a `bundle_rejected` audit entry)
   * reads again too.
   */
  async #run(
    target: { readonly app: string } | { readonly form: 'url' | 'folder' | 'mcp' | 'dev' },
    action: AppAction,
    work: () => Promise<ActionOutcome>,
    /** After a change, once the host has read the apps again (a dev bundle's page reloads here). */
    after?: () => void,
  ): Promise<void> {
    this.#setAction(target, { status: 'running', action });
    let done: ActionOutcome;
    try {
      done = await work();
    } catch (error) {
      this.#setAction(target, {
        status: 'failed',
        action,
        problem: error instanceof RefusedAction ? error.problem : problemOf(error),
      });
      await this.refresh();
      return;
    }
    if (done.changed)
      try {
        await this.#host.appsChanged();
        after?.();
      } catch (error) {
        // The registry changed, but the host could not follow (withdraw, deliver): that is shown, not lost.
        this.#setAction(target, { status: 'failed', action, problem: problemOf(error) });
        await this.refresh();
        return;
      }
    // Done once the host follows too: a call made after this status reaches what was installed. What it asks to
    // be granted is asked now (a newer question replaces one left unanswered: that one stays in the app center).
    // The status and the question change together: the question is in the page when the status says done.
    this.#setAction(target, { status: 'done', action, result: done.result }, done.asks);
    await this.refresh();
  }

  #name(appId: string): string {
    return this.#snapshot.apps.find((app) => app.record.id === appId)?.record.manifest.name ?? appId;
  }

  #setAction(
    target: { readonly app: string } | { readonly form: 'url' | 'folder' | 'mcp' | 'dev' },
    state: ActionState,
    asks?: GrantQuestion,
  ): void {
    const question = asks === undefined ? {} : { grantQuestion: asks };
    if ('form' in target) {
      this.#set({ [target.form]: state, ...question });
      return;
    }
    const actions = new Map(this.#snapshot.actions);
    actions.set(target.app, state);
    this.#set({ actions, ...question });
  }

  #set(change: Partial<AppCenterSnapshot>): void {
    if (this.#disposed) return;
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of [...this.#listeners]) listener();
  }
}

/** A refusal the center decided itself, before asking the registry. */
class RefusedAction extends Error {
  readonly problem: AppCenterProblem;
  constructor(problem: AppCenterProblem) {
    super(problem.kind);
    this.problem = problem;
  }
}
