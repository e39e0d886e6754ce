/**
 * The MCP App views of the conversation (flow: DESIGN.md "MCP servers and MCP Apps"), and views prepared ahead.
 *
 * An `McpViewSession` is one view of an installed server: its kept HTML in a contained Surface frame
 * (`@lineup/surface-host`) with the MCP Apps SDK's own `AppBridge` as the host end, which answers `ui/initialize`
 * with the host context (theme and style variables, language, inline display mode, room, the tool) and follows the
 * host's theme. Until the session is bound to a call (`bind`), what the view asks of the host — a tool call, a link,
 * a message — waits: a view no one has been shown has no user behind it.
 *
 * `PreparedMcpViews` keeps views ready before the agent calls their tool: a view the user is likely to see next (the
 * first of a server just installed, enabled or refreshed; another of a view just opened; the first of each enabled
 * server once the user sends a message) is mounted out of sight at idle (`prepareMcpView`) and initialized there,
 * so that the call's view shows at once, already drawn. At most
 * `MAX_PREPARED_VIEWS` wait at a time; one whose server is no longer enabled or changed is discarded; one that asked
 * the host for something and was not shown within `PREPARED_HOLD_MS` is discarded (its requests fail), since the
 * view's own SDK would give up on them soon after.
 */
import type { AppRecord, AppRegistry } from '@lineup/runtime';
import type { McpViewStorage } from '@lineup/shared/bridge';
import {
  type AgentToolDescriptor,
  MCP_APP_VIEW_MIME_TYPE,
  type McpServerManifest,
  type McpView,
  type McpViewDevice,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
} from '@lineup/shared/protocol';
import { type McpViewHandle, mcpViewBundle, mountMcpView, prepareMcpView } from '@lineup/surface-host';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { HostLanguage } from '../i18n/language.ts';
import {
  type HostTheme,
  hostTheme,
  localeOf,
  MCP_HOST_INFO,
  mcpHostContext,
  onHostThemeChange,
  themeContext,
} from './mcp-host-context.ts';
import { type ModelContextUpdate, ViewContexts } from './view-context.ts';
import { type ViewDownload, viewDownload } from './view-download.ts';
import { ViewLog } from './view-log.ts';

/** The tallest a view may make its frame in the conversation (CSS pixels). */
export const MAX_VIEW_HEIGHT = 900;
/** The height of a view's frame before it says its size. */
const INITIAL_VIEW_HEIGHT = 160;
/** How many views may wait prepared at once (each is a running document). */
export const MAX_PREPARED_VIEWS = 2;
/** How long a prepared view's request may wait for the view to be shown before the view is discarded. */
export const PREPARED_HOLD_MS = 20_000;
/** How long after the page calmed down a view is prepared (a spare frame is loaded after 400 ms). */
const PREPARE_DELAY_MS = 600;

/** One kept view of an installed server, as the call of one of its tools shows it. */
export interface McpViewSource {
  readonly appId: string;
  readonly manifest: McpServerManifest;
  readonly view: McpView;
  readonly html: string;
  /** The server's own name of the tool whose call shows the view. */
  readonly serverTool: string;
  /** The origins the user let the view connect to (its `connect-src`); none by default. */
  readonly connectDomains: readonly string[];
  /** The origins the user let it load images, styles, fonts and media from; none by default. */
  readonly resourceDomains: readonly string[];
  /** The device features the user let it use (`geolocation`, `clipboard-write`); none by default. */
  readonly devices: readonly McpViewDevice[];
  /**
   * The server's kept views by URI, as verified at install (what `resources/read` may serve the view: never a
   * resource fetched again). Absent: none.
   */
  readonly kept?: ReadonlyMap<string, Uint8Array>;
}

/** What a view's requests do once the view is shown beside a call. */
export interface McpViewBinding {
  callTool(params: {
    readonly name: string;
    readonly arguments?: Record<string, unknown> | undefined;
  }): Promise<unknown>;
  /** True when the link was opened (after the user's consent). */
  openLink(url: string): Promise<boolean>;
  /** True when the message box took the text. */
  message(text: string): boolean;
  /** True when the file was saved (after the user's consent to `artifact.save`). */
  downloadFile(args: Extract<ViewDownload, { ok: true }>['args']): Promise<boolean>;
  /** The view asked to be closed: the host closes it as the user would (which tears it down). */
  close(): void;
  /** The whole of the view's `localStorage` after it changed it: kept for its call (view state). */
  saveStorage?(entries: McpViewStorage): void;
  /** The view's `ui/update-model-context`: kept for the user's next turn; throws why one is not. */
  updateContext?(update: ModelContextUpdate): void;
  /** The view asks for a display mode: the one it has after (view-fullscreen.ts). */
  displayMode?(mode: string): Promise<'inline' | 'fullscreen'>;
  /** The user pressed Escape in the view. */
  escape?(): void;
}

/** The same view of the same server version for the same tool: a prepared view serves a call with this key. */
export function mcpViewKey(
  source: Pick<
    McpViewSource,
    'appId' | 'manifest' | 'view' | 'serverTool' | 'connectDomains' | 'resourceDomains' | 'devices'
  >,
): string {
  // The grant is part of the key: a view prepared before the user changed it never serves a call after.
  return JSON.stringify([
    source.appId,
    source.manifest.integrity,
    source.view.id,
    source.serverTool,
    source.connectDomains,
    source.resourceDomains,
    source.devices,
  ]);
}

/** The key of `view` of the installed server `app` for `serverTool`, with the origins the user granted it now. */
export function installedViewKey(
  app: Extract<AppRecord, { kind: 'mcp_server' }>,
  view: McpView,
  serverTool: string,
): string {
  return mcpViewKey({
    appId: app.id,
    manifest: app.manifest,
    view,
    serverTool,
    connectDomains: mcpViewGrantedSources(view.declared, app.consent?.network?.[view.id]),
    resourceDomains: mcpViewGrantedResources(view.declared, app.consent?.network?.[view.id]),
    devices: mcpViewGrantedDevices(view.declared, app.consent?.network?.[view.id]),
  });
}

/** Reads a kept view of `appId` from the registry (verified against its hash); throws when it is not kept. */
export async function readMcpViewSource(
  registry: Pick<AppRegistry, 'mcpViewFiles'>,
  appId: string,
  viewId: string,
  serverTool: string,
): Promise<McpViewSource> {
  const { manifest, files, connectSources, resourceSources, devices } = await registry.mcpViewFiles(appId);
  const view = manifest.views.find((candidate) => candidate.id === viewId);
  const bytes = view === undefined ? undefined : files.get(view.path);
  if (view === undefined || bytes === undefined) throw new Error('The server no longer keeps this view.');
  return {
    appId,
    manifest,
    view,
    html: new TextDecoder().decode(bytes),
    serverTool,
    connectDomains: connectSources.get(viewId) ?? [],
    resourceDomains: resourceSources.get(viewId) ?? [],
    devices: (devices.get(viewId) ?? []) as readonly McpViewDevice[],
    kept: new Map(
      manifest.views.flatMap((kept) => {
        const data = files.get(kept.path);
        return data === undefined ? [] : [[kept.uri, data] as const];
      }),
    ),
  };
}

interface Waiter {
  readonly resolve: (binding: McpViewBinding) => void;
  readonly reject: (error: Error) => void;
}

/** Where a view opens: the host's language, the room it has, and where what it logs is kept. */
export interface McpViewContext {
  readonly language: HostLanguage;
  readonly width: number;
  readonly log?: ViewLog;
  /** What its `localStorage` held when it was last shown for this call (none for a view prepared ahead). */
  readonly storage?: McpViewStorage;
}

/** One view of an installed server with its bridge; see the module's comment. */
export class McpViewSession {
  readonly key: string;
  readonly handle: McpViewHandle;
  readonly bridge: AppBridge;
  /** Resolves once the view said `initialized` (never, if it never does). */
  readonly initialized: Promise<void>;
  /** Called when the view asks for something before it is bound (the first time). */
  onHeld: (() => void) | null = null;
  /** Shown full screen: the view's own size requests wait until it is inline again. */
  fullscreen = false;
  /** The last height the view asked for (CSS pixels), if it asked. */
  height: number | undefined;
  #binding: McpViewBinding | null = null;
  #waiting: Waiter[] = [];
  /** The view's storage as it changed before it was bound to a call: kept for that call once it is. */
  #unsavedStorage: McpViewStorage | null = null;
  #width: number;
  #closed = false;
  readonly #stopTheme: () => void;

  /**
   * Mounts the view in `container`, or ahead, out of sight, when `container` is null (then null where this
   * browser cannot move frames). Throws for a view a frame cannot run.
   */
  static open(
    container: HTMLElement | null,
    source: McpViewSource,
    context: McpViewContext,
    instanceId: string,
  ): McpViewSession | null {
    const options = {
      instanceId,
      name: `${source.manifest.name}: ${source.serverTool}`,
      view: mcpViewBundle(source.html, { resourceDomains: source.resourceDomains }),
      maxHeight: MAX_VIEW_HEIGHT,
      initialHeight: INITIAL_VIEW_HEIGHT,
      connectDomains: source.connectDomains,
      resourceDomains: source.resourceDomains,
      devices: source.devices,
      ...(context.storage === undefined ? {} : { storage: context.storage }),
      onStorage: (entries: McpViewStorage) => {
        if (session !== null) session.#storageChanged(entries);
      },
      onEscape: () => {
        if (session !== null) session.#binding?.escape?.();
      },
    };
    const handle =
      container === null
        ? prepareMcpView(document, { ...options, width: context.width })
        : mountMcpView(container, options);
    const session = handle === null ? null : new McpViewSession(handle, source, context);
    return session;
  }

  private constructor(handle: McpViewHandle, source: McpViewSource, context: McpViewContext) {
    this.key = mcpViewKey(source);
    this.handle = handle;
    this.#width = context.width;
    const descriptor: AgentToolDescriptor | undefined = source.manifest.tools.find(
      (tool) => tool.executor.tool === source.serverTool,
    );
    const bridge = new AppBridge(
      null,
      { ...MCP_HOST_INFO },
      {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
      },
      {
        hostContext: mcpHostContext({
          theme: hostTheme(),
          language: context.language,
          width: context.width,
          maxHeight: MAX_VIEW_HEIGHT,
          tool: {
            name: source.serverTool,
            description: descriptor?.description ?? '',
            inputSchema: descriptor?.input_schema ?? { type: 'object' },
          },
        }) as never,
      },
    );
    this.bridge = bridge;
    this.initialized = new Promise((resolve) => {
      bridge.oninitialized = () => resolve();
    });
    bridge.onsizechange = ({ height }) => {
      if (typeof height !== 'number') return;
      this.height = height;
      if (!this.fullscreen) handle.resize(height);
    };
    bridge.oncalltool = async (params) => (await this.#bound()).callTool(params) as never;
    bridge.onopenlink = async ({ url }) =>
      (await (await this.#bound()).openLink(url)) ? {} : { isError: true };
    bridge.onmessage = async (params) => {
      const binding = await this.#bound();
      const words = params.content
        .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
        .join('\n');
      return words !== '' && binding.message(words) ? {} : { isError: true };
    };
    // A file the view offers is saved through `artifact.save` and its confirmation; one it cannot be is refused
    // with why (a JSON-RPC error), a save the user declined is `isError`.
    bridge.ondownloadfile = async ({ contents }) => {
      const download = viewDownload(contents);
      if (!download.ok) throw new Error(download.reason);
      return (await (await this.#bound()).downloadFile(download.args)) ? {} : { isError: true };
    };
    // Its server's resources, as kept at install (its views), never fetched again: nothing else is served.
    bridge.onlistresources = async () => ({
      resources: [...(source.kept?.keys() ?? [])].map((uri) => ({
        uri,
        name: uri,
        mimeType: MCP_APP_VIEW_MIME_TYPE,
      })),
    });
    bridge.onreadresource = async ({ uri }) => {
      const data = source.kept?.get(uri);
      if (data === undefined)
        throw new Error(
          `${String(uri).slice(0, 200)} is not kept: a view may read only its server's views as kept at install, never a resource fetched again.`,
        );
      return { contents: [{ uri, mimeType: MCP_APP_VIEW_MIME_TYPE, text: new TextDecoder().decode(data) }] };
    };
    bridge.onrequestdisplaymode = async ({ mode }) => ({
      mode: (await (await this.#bound()).displayMode?.(mode)) ?? 'inline',
    });
    // What the view tells the agent about itself waits for the user's next turn (view-context.ts).
    bridge.onupdatemodelcontext = async (params) => {
      const binding = await this.#bound();
      if (binding.updateContext === undefined)
        throw new Error('This view cannot tell the agent anything here.');
      binding.updateContext(params as ModelContextUpdate);
      return {};
    };
    // What the view logs goes to the agent console's view log (bounded), never to the agent.
    bridge.onloggingmessage = (params) =>
      context.log?.add({ server: source.manifest.name, tool: source.serverTool }, params);
    // The view asks to be closed (`ui/notifications/request-teardown`): shown, it closes as its close button would;
    // prepared and never shown, it is discarded.
    bridge.onrequestteardown = () => {
      if (this.#binding !== null) this.#binding.close();
      else this.close();
    };
    this.#stopTheme = onHostThemeChange((theme: HostTheme) => {
      quietly(bridge.sendHostContextChange(themeContext(theme) as never));
    });
    void bridge.connect(handle.transport as never).catch(() => {});
  }

  get closed(): boolean {
    return this.#closed || this.handle.closed;
  }

  /** What the view's requests do from now on; those that waited go on now. */
  bind(binding: McpViewBinding): void {
    this.#binding = binding;
    for (const waiter of this.#waiting.splice(0)) waiter.resolve(binding);
    const unsaved = this.#unsavedStorage;
    this.#unsavedStorage = null;
    if (unsaved !== null) binding.saveStorage?.(unsaved);
  }

  #storageChanged(entries: McpViewStorage): void {
    if (this.#binding !== null) this.#binding.saveStorage?.(entries);
    else this.#unsavedStorage = entries;
  }

  /** Moves a prepared view into `container`; the view hears the room it has there when that changed. */
  show(container: HTMLElement): void {
    this.handle.moveTo(container);
    this.resizeTo(container.clientWidth);
  }

  /** The view's room changed (its width in CSS pixels). */
  resizeTo(width: number): void {
    const rounded = Math.max(1, Math.round(width));
    if (rounded === this.#width || this.fullscreen) return;
    this.#width = rounded;
    quietly(
      this.bridge.sendHostContextChange({
        containerDimensions: { width: rounded, maxHeight: MAX_VIEW_HEIGHT },
      } as never),
    );
  }

  setLanguage(language: HostLanguage): void {
    quietly(this.bridge.sendHostContextChange({ locale: localeOf(language) } as never));
  }

  /**
   * Closes the view: requests still waiting fail; a view that initialized is asked to tear down (a bounded wait),
   * then its frame is removed. Calling it again does nothing.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopTheme();
    for (const waiter of this.#waiting.splice(0))
      waiter.reject(new Error('The view was closed before it was shown.'));
    void this.bridge
      .teardownResource({}, { timeout: 500 })
      .catch(() => {})
      .finally(() => this.handle.close());
  }

  #bound(): Promise<McpViewBinding> {
    if (this.#binding !== null) return Promise.resolve(this.#binding);
    if (this.#closed) return Promise.reject(new Error('The view was closed before it was shown.'));
    if (this.#waiting.length === 0) this.onHeld?.();
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
}

interface PreparedView {
  readonly session: McpViewSession;
  timer: ReturnType<typeof setTimeout> | null;
}

/** The host's side `PreparedMcpViews` reads: the installed apps, and when they change. */
export interface PreparedViewsHost {
  readonly apps: readonly AppRecord[];
  onAppsChanged(listener: () => void): () => void;
}

/** Views prepared ahead of their calls; see the module's comment. */
export class PreparedMcpViews {
  readonly #registry: Pick<AppRegistry, 'mcpViewFiles'>;
  readonly #host: PreparedViewsHost;
  /** What the views log, prepared or shown (the agent console shows it). */
  readonly log = new ViewLog();
  /** What the views shown tell the agent about themselves, until the user's next turn takes it. */
  readonly contexts = new ViewContexts();
  /** Oldest first. */
  readonly #prepared = new Map<string, PreparedView>();
  /** Each enabled MCP server's manifest integrity as last seen: a new one or a changed one gets a view prepared. */
  #known: Map<string, string>;
  #language: HostLanguage;
  #width = 600;
  #count = 0;
  #disposed = false;
  readonly #unsubscribe: () => void;

  constructor(registry: Pick<AppRegistry, 'mcpViewFiles'>, host: PreparedViewsHost, language: HostLanguage) {
    this.#registry = registry;
    this.#host = host;
    this.#language = language;
    this.#known = enabledServers(host.apps);
    this.#unsubscribe = host.onAppsChanged(() => this.#appsChanged());
  }

  /** The prepared view for `key`, if one waits (it is no longer prepared: the caller shows it or closes it). */
  take(key: string): McpViewSession | undefined {
    const prepared = this.#prepared.get(key);
    if (prepared === undefined) return undefined;
    this.#drop(key, false);
    return prepared.session.closed ? undefined : prepared.session;
  }

  /** Prepares a view for the next call of `serverTool` of `appId` once the page is idle (unless one waits). */
  prepareSoon(appId: string, viewId: string, serverTool: string): void {
    if (this.#disposed) return;
    setTimeout(() => {
      const run = () => void this.#prepare(appId, viewId, serverTool).catch(() => {});
      if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
      else run();
    }, PREPARE_DELAY_MS);
  }

  /**
   * The user said something: the agent may open a view next. The first view of each enabled MCP server is
   * prepared (as many as may wait, those with none waiting), so that the first view after a page load shows at
   * once too.
   */
  prepareLikely(): void {
    let room = MAX_PREPARED_VIEWS - this.#prepared.size;
    for (const app of this.#host.apps) {
      if (room <= 0) return;
      if (app.kind !== 'mcp_server' || !app.enabled) continue;
      const tool = app.manifest.tools.find((candidate) => candidate.executor.view !== undefined);
      const view = app.manifest.views.find((candidate) => candidate.id === tool?.executor.view);
      if (tool?.executor.tool === undefined || view === undefined) continue;
      const key = installedViewKey(app, view, tool.executor.tool);
      if (this.#prepared.has(key)) continue;
      this.prepareSoon(app.id, view.id, tool.executor.tool);
      room--;
    }
  }

  /** The language views are prepared in; those waiting hear the change. */
  setLanguage(language: HostLanguage): void {
    if (language === this.#language) return;
    this.#language = language;
    for (const { session } of this.#prepared.values()) session.setLanguage(language);
  }

  /** The width a view had where it was shown last: the next are prepared as wide. */
  setWidth(width: number): void {
    if (width > 0) this.#width = Math.round(width);
  }

  /** How many views wait prepared. */
  get size(): number {
    return this.#prepared.size;
  }

  /** The views waiting prepared, oldest first (for tests and the benchmark: `take` is how a view is used). */
  get waiting(): readonly McpViewSession[] {
    return [...this.#prepared.values()].map((prepared) => prepared.session);
  }

  dispose(): void {
    this.#disposed = true;
    this.#unsubscribe();
    for (const key of [...this.#prepared.keys()]) this.#drop(key, true);
  }

  async #prepare(appId: string, viewId: string, serverTool: string): Promise<void> {
    const app = this.#host.apps.find((record) => record.id === appId);
    if (this.#disposed || app?.kind !== 'mcp_server' || !app.enabled) return;
    // A view the user let reach the network (to connect or to load from) is never prepared: out of sight, it would
    // reach it before anyone saw it (and for a call that may never come). It opens when its call shows it.
    const view = app.manifest.views.find((candidate) => candidate.id === viewId);
    const granted = app.consent?.network?.[viewId];
    if (
      view === undefined ||
      mcpViewGrantedSources(view.declared, granted).length > 0 ||
      mcpViewGrantedResources(view.declared, granted).length > 0 ||
      mcpViewGrantedDevices(view.declared, granted).length > 0
    )
      return;
    const source = await readMcpViewSource(this.#registry, appId, viewId, serverTool);
    const key = mcpViewKey(source);
    const current = this.#host.apps.find((record) => record.id === appId);
    // The server changed or went while its files were read, or a view of this key already waits.
    if (
      this.#disposed ||
      this.#prepared.has(key) ||
      current?.kind !== 'mcp_server' ||
      !current.enabled ||
      current.manifest.integrity !== source.manifest.integrity
    )
      return;
    this.#count++;
    const session = McpViewSession.open(
      null,
      source,
      { language: this.#language, width: this.#width, log: this.log },
      `mcp.prepared.${this.#count}`,
    );
    if (session === null) return;
    const prepared: PreparedView = { session, timer: null };
    session.onHeld = () => {
      prepared.timer ??= setTimeout(() => {
        if (this.#prepared.get(key) === prepared) this.#drop(key, true);
      }, PREPARED_HOLD_MS);
    };
    this.#prepared.set(key, prepared);
    while (this.#prepared.size > MAX_PREPARED_VIEWS)
      this.#drop(this.#prepared.keys().next().value as string, true);
  }

  #drop(key: string, close: boolean): void {
    const prepared = this.#prepared.get(key);
    if (prepared === undefined) return;
    this.#prepared.delete(key);
    if (prepared.timer !== null) clearTimeout(prepared.timer);
    prepared.session.onHeld = null;
    if (close) prepared.session.close();
  }

  /** Discards views of servers no longer enabled or changed; prepares one for each server new or changed. */
  #appsChanged(): void {
    const servers = enabledServers(this.#host.apps);
    for (const [key, { session }] of [...this.#prepared]) {
      const [appId, integrity] = JSON.parse(key) as [string, string];
      if (servers.get(appId) !== integrity || session.closed) this.#drop(key, true);
    }
    for (const [appId, integrity] of servers) {
      if (this.#known.get(appId) === integrity) continue;
      const app = this.#host.apps.find((record) => record.id === appId);
      const tool = app?.manifest.tools.find((candidate) => candidate.executor.view !== undefined);
      if (tool?.executor.view !== undefined && tool.executor.tool !== undefined)
        this.prepareSoon(appId, tool.executor.view, tool.executor.tool);
    }
    this.#known = servers;
  }
}

/** A notification to a view that may have closed meanwhile: nothing to do if it did not go. */
function quietly(sent: Promise<void> | void): void {
  if (sent !== undefined) sent.catch(() => {});
}

/** The enabled MCP servers' ids and manifest integrity. */
function enabledServers(apps: readonly AppRecord[]): Map<string, string> {
  const servers = new Map<string, string>();
  for (const app of apps)
    if (app.kind === 'mcp_server' && app.enabled) servers.set(app.id, app.manifest.integrity);
  return servers;
}
