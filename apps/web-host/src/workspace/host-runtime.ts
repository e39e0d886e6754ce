/**
 * The web host's side of the runtime (seed 003 §3, §7, §8): the `RuntimeHost` a browser page provides, and the
 * workspace it keeps. Framework-free; React views subscribe to it.
 *
 * - When an activation needs the foreground, the app comes forward by itself: the workspace shows it, the
 *   host mounts its page (a sandboxed frame), and confirms the foreground only once the page reported
 *   `app_ready`, the workspace is laid out and the tab is visible. A start that cannot be confirmed ends
 *   `not_started` when the runtime's bounded wait runs out (the wake-up timer settles it).
 * - Leaving the workspace (back to the conversation, to another app) and closing it are host lifecycle
 *   intents; a hidden tab is `background`, a visible one `resume` — neither interrupts a focus.
 * - Deadlines are facts in IndexedDB: a timer only wakes the runtime at the next one (`nextDueAt`), and the
 *   start-up `recover()` settles whatever fell due while the page was closed.
 * - Every outbox row goes to the agent sink in order once the conversation attached one; none is lost while
 *   no sink is attached (rows stay pending).
 */
import {
  type AppRecord,
  type AppRegistry,
  type AppTarget,
  type HostIntent,
  type McpToolCaller,
  type MiniAppInvocation,
  type MountedMiniApp,
  mountMiniAppFrame,
  OutboxDelivery,
  type OutboxMessage,
  type RuntimeDatabase,
  type RuntimeHost,
  type SessionDataSnapshot,
  type ToolCallAnswer,
  type ToolCallDisposition,
  type ToolConsentConfirm,
  ToolRuntime,
} from '@lineup/runtime';
import type { ToolCallPayload } from '@lineup/shared/protocol';
import { moveFrame, removedPageProblem } from './page-frames.ts';

/** What the workspace shows: the app in the foreground, if any. */
export interface WorkspaceState {
  readonly foreground: { readonly target: AppTarget; readonly app: AppRecord } | null;
  /** Whether the runtime confirmed the foreground app as seen by the user. */
  readonly confirmed: boolean;
}

export type AgentSink = (message: OutboxMessage) => void | Promise<void>;

/** Which kept view of which MCP server an agent tool opens, and the server's own name of the tool. */
export interface McpViewRef {
  readonly appId: string;
  readonly viewId: string;
  /** The server's name, for people. */
  readonly server: string;
  /** The server's own name of the tool (what the view knows it by). */
  readonly tool: string;
}

export interface HostRuntimeOptions {
  /** How long a start may wait for the user to see the app before it ends `not_started` (default 30 s). */
  readonly foregroundTimeoutMs?: number;
  /** Reports what the host refused or could not do (a page's invalid message, a storage error). */
  readonly onProblem?: (text: string) => void;
  readonly document?: Document;
  /** How long a new version's first start may take before it rolls back (default 10 s). */
  readonly firstStartMs?: number;
  /** Calls the tools of installed MCP servers (`createMcpToolCaller`); without it their calls fail. */
  readonly mcp?: McpToolCaller;
  /** Asks the user about an Agent Tool or view call its consent policy asks about (`ToolRuntime`'s option). */
  readonly confirmTool?: ToolConsentConfirm;
}

/** The longest a wake-up timer is set for; a later deadline is reached through several wake-ups. */
const MAX_TIMER_MS = 2 ** 30;

export class HostRuntime implements RuntimeHost {
  readonly runtime: ToolRuntime;
  readonly #registry: AppRegistry;
  readonly #outbox: OutboxDelivery;
  readonly #document: Document;
  readonly #onProblem: (text: string) => void;
  readonly #listeners = new Set<() => void>();
  readonly #appListeners = new Set<() => void>();
  readonly #consentListeners = new Set<(conversationId: string, callId: string) => void>();
  readonly #firstStartMs: number;
  #state: WorkspaceState = { foreground: null, confirmed: false };
  #apps: readonly AppRecord[] = [];
  #sink: AgentSink | null = null;
  #mounted: { readonly target: AppTarget; readonly page: MountedMiniApp } | null = null;
  /**
   * Invocations for a page being reloaded (`reloadApp`): the runtime still counts it ready, so they come before
   * the new page can take them; they go to it once it says `app_ready`.
   */
  #held: { readonly target: AppTarget; readonly invocations: MiniAppInvocation[] } | null = null;
  #container: HTMLElement | null = null;
  /** The mount waiting for its bundle check; a newer attach or an unmount replaces it. */
  #attempt: object | null = null;
  #wake: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;
  /** The outbox delivery under way (settled, never rejected), for `idle`. */
  #delivering: Promise<unknown> = Promise.resolve();

  constructor(db: RuntimeDatabase, registry: AppRegistry, options: HostRuntimeOptions = {}) {
    this.#registry = registry;
    this.#document = options.document ?? document;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#firstStartMs = options.firstStartMs ?? 10_000;
    this.#outbox = new OutboxDelivery(db);
    this.runtime = new ToolRuntime(db, registry, {
      host: this,
      foregroundTimeoutMs: options.foregroundTimeoutMs ?? 30_000,
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
      ...(options.confirmTool === undefined ? {} : { confirmTool: options.confirmTool }),
    });
    this.#document.addEventListener('visibilitychange', this.#onVisibility);
  }

  /**
   * Opens the workspace as the page was left: settles what fell due while it was closed, brings back the
   * app that was in the foreground (a reload is not leaving), and arms the wake-up timer.
   */
  async start(): Promise<void> {
    this.#apps = await this.#registry.list();
    await this.runtime.recover();
    const shown = (await this.runtime.openApps()).find((app) => app.foreground);
    if (shown !== undefined) {
      await this.runtime.hostIntent(shown.target.conversationId, shown.target.appScope, 'surface_reload');
      this.requestForeground(shown.target);
    }
    await this.#changed();
  }

  /** Stops: no more deliveries, wake-ups or pages (the page is stopping, or handing over to another tab). */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#wake);
    this.#document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#unmount();
  }

  /**
   * Resolves once the outbox delivery under way has ended — its row marked delivered, or left pending when the
   * send failed — so a tab that hands over closes its database only after that row's last write.
   */
  idle(): Promise<void> {
    return this.#delivering.then(() => {});
  }

  // ── For the views ─────────────────────────────────────────────────────────────────────────────────

  get state(): WorkspaceState {
    return this.#state;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Where the agent's messages go; rows wait in the outbox while there is none. */
  setAgentSink(sink: AgentSink | null): void {
    this.#sink = sink;
    if (sink !== null) this.#background(this.#deliver(), 'A message could not be sent to the agent');
  }

  /**
   * Sends what the outbox holds now (after a capability call wrote its result, say), in the background: a
   * failure is reported through `onProblem`, and the rows stay pending.
   */
  deliver(): void {
    this.#background(this.#deliver(), 'A message could not be sent to the agent');
  }

  /** A `tool.call` from the agent. */
  async receive(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition }> {
    const received = await this.runtime.receive(conversationId, call);
    // Delivery goes on in the background: the client takes the agent's next frames (and acknowledges this one)
    // without waiting for the agent to acknowledge the answers — an agent slow to ack, or one that never does,
    // must not hold up what it sends.
    this.#background(this.#changed(), 'A message could not be sent to the agent');
    return received;
  }

  /** Whether the runtime recorded a `tool.call` with `callId` in the conversation. */
  callRecorded(conversationId: string, callId: string): Promise<boolean> {
    return this.runtime.callRecorded(conversationId, callId);
  }

  /** The workspace view's frame container for the foreground app (null when it unmounts). */
  attachWorkspace(container: HTMLElement | null): void {
    this.#container = container;
    if (container === null) {
      this.#unmount();
      return;
    }
    const foreground = this.#state.foreground;
    if (foreground === null) return;
    if (this.#mounted?.target.instanceId === foreground.target.instanceId) {
      const frame = this.#mounted.page.frame;
      // Moved, not re-inserted (that would reload it); where frames cannot move, the page mounts anew below.
      if (frame.parentElement === container || moveFrame(container, frame)) return;
    }
    this.#unmount();
    const { target, app } = foreground;
    // The app's kept files are checked against its manifest before every mount, and the page is built from
    // them: a failed check never mounts.
    const attempt = {};
    this.#attempt = attempt;
    this.#registry.bundleFiles(app.id).then(
      ({ manifest, files, connectSources }) => {
        if (this.#attempt !== attempt || this.#disposed || this.#container !== container) return;
        if (this.#state.foreground?.target.instanceId !== target.instanceId) return;
        this.#attempt = null;
        try {
          this.#mount(container, target, app, manifest.entry, files, connectSources);
        } catch (error) {
          this.#background(
            this.#failedStart(app, error instanceof Error ? error.message : 'its page could not be built'),
          );
        }
      },
      (error: unknown) => {
        if (this.#attempt !== attempt) return;
        this.#attempt = null;
        this.#background(
          this.#failedStart(app, error instanceof Error ? error.message : 'its bundle could not be checked'),
        );
      },
    );
  }

  /**
   * The app's registry record changed (installed, upgraded, rolled back, enabled, disabled, uninstalled): read
   * the apps again, and end what belongs to apps no longer enabled (their calls get `revoked`, their pages close).
   */
  async appsChanged(): Promise<void> {
    this.#apps = await this.#registry.list();
    await this.runtime.withdraw();
    const foreground = this.#state.foreground;
    if (foreground !== null) {
      const app = this.#apps.find((record) => record.id === foreground.app.id);
      if (app !== undefined && app !== foreground.app) {
        this.#set({ ...this.#state, foreground: { ...foreground, app } });
        // The user changed what its page may connect to: a frame's policy is fixed when it loads, so the page
        // shown is built again with the change (a handler it was running ends as a reload does).
        if (
          JSON.stringify(app.consent?.network ?? null) !==
          JSON.stringify(foreground.app.consent?.network ?? null)
        )
          this.reloadApp(app.id);
      }
    }
    await this.#changed();
    for (const listener of [...this.#appListeners]) listener();
  }

  /**
   * The files of `appId` changed under the same version (a dev bundle rebuilt): its page, if it is the one shown,
   * is built again from the new files and starts over (a handler it was running ends as a reload does).
   */
  reloadApp(appId: string): void {
    const mounted = this.#mounted;
    if (mounted === null || this.#state.foreground?.app.id !== appId) return;
    const container = this.#container;
    this.#unmount();
    this.#held = { target: mounted.target, invocations: [] };
    if (container !== null) this.attachWorkspace(container);
  }

  /**
   * The runtime wrote outbox rows by itself (an MCP server answered a call, an app's page returned a handler's
   * result or said it is ready): they go to the agent now.
   */
  outboxChanged(): void {
    this.#background(this.#changed(), 'A message could not be sent to the agent');
  }

  consentChanged(conversationId: string, callId: string): void {
    for (const listener of [...this.#consentListeners]) listener(conversationId, callId);
  }

  /** Called when a call starts or stops waiting for the user's consent (a view waits for it before its input). */
  onConsentChanged(listener: (conversationId: string, callId: string) => void): () => void {
    this.#consentListeners.add(listener);
    return () => {
      this.#consentListeners.delete(listener);
    };
  }

  /** The installed apps as the host last read them (at start, and after every change). */
  get apps(): readonly AppRecord[] {
    return this.#apps;
  }

  /**
   * The kept view an agent tool opens (`<app_scope>.<method>`), when the tool is one of an enabled MCP server's
   * and names a view: what the conversation shows beside the call.
   */
  mcpViewOf(tool: string): McpViewRef | undefined {
    for (const app of this.#apps) {
      if (app.kind !== 'mcp_server' || !app.enabled) continue;
      const descriptor = app.manifest.tools.find((entry) => `${entry.app_scope}.${entry.method}` === tool);
      const viewId = descriptor?.executor.view;
      if (descriptor === undefined || viewId === undefined) continue;
      return { appId: app.id, viewId, server: app.manifest.name, tool: descriptor.executor.tool ?? tool };
    }
    return undefined;
  }

  /** Called after `appsChanged` (the app center reads the registry again). */
  onAppsChanged(listener: () => void): () => void {
    this.#appListeners.add(listener);
    return () => this.#appListeners.delete(listener);
  }

  /**
   * A start that failed — the kept files failed their check, the page could not be built, or it said
   * `app_failed`. A new version that never started before goes back to the one it replaced (its data is
   * untouched) and the page opens again with it; otherwise the problem is reported and nothing mounts.
   */
  async #failedStart(app: AppRecord, reason: string): Promise<void> {
    this.#onProblem(`${app.manifest.name} was not opened: ${reason}`);
    this.#releaseHeld();
    if (app.previous === undefined) return;
    if (!(await this.#registry.rollback(app.id, reason))) return;
    this.#onProblem(
      `${app.manifest.name} ${app.manifest.version} did not start; version ${app.previous.manifest.version} is back.`,
    );
    this.#unmount();
    await this.appsChanged();
    const foreground = this.#state.foreground;
    if (foreground !== null && this.#container !== null && foreground.app.id === app.id)
      this.attachWorkspace(this.#container);
  }

  #mount(
    container: HTMLElement,
    target: AppTarget,
    app: AppRecord,
    entry: string,
    files: ReadonlyMap<string, Uint8Array>,
    connectSources: readonly string[],
  ): void {
    const page = mountMiniAppFrame(container, this.runtime, target, {
      page: { entry, files },
      // The origins the user let this app's page connect to (none by default): its frame's connect-src.
      connectDomains: connectSources,
      title: app.manifest.name,
      // The app speaks the user's language (the browser's), whatever the host's own page is written in.
      parameters: { lang: navigator.language },
      onReady: () => {
        // A reloaded page takes the invocations that came while it loaded.
        if (this.#held?.target.instanceId === target.instanceId) {
          const { invocations } = this.#held;
          this.#held = null;
          for (const invocation of invocations) page.connection.invoke(invocation);
        }
        // A new version's first start: the version it replaced is let go.
        if (app.previous !== undefined)
          this.#background(
            this.#registry.confirmStarted(app.id).then(async (confirmed) => {
              if (confirmed) await this.appsChanged();
            }),
          );
        this.#background(this.#confirmWhenSeen());
      },
      onFailed: (code) => {
        this.#onProblem(`${app.manifest.name} could not start (${code}).`);
        this.#releaseHeld();
        if (app.previous !== undefined)
          this.#background(this.#failedStart(app, `it could not start (${code})`));
      },
      onRejected: (error) =>
        this.#onProblem(
          `Ignored a message from ${app.manifest.name}: ${error.issues[0]?.message ?? 'invalid'}`,
        ),
      onError: (error) =>
        this.#onProblem(`The runtime failed: ${error instanceof Error ? error.message : 'unknown error'}`),
      onContained: (rejection) => {
        const problem = removedPageProblem(app.manifest.name, rejection);
        if (problem === null) return;
        this.#onProblem(problem);
        if (this.#mounted?.page.frame === page.frame) this.close();
      },
    });
    this.#mounted = { target, page };
    if (app.previous !== undefined) {
      // A page that never says ready (its script threw, say) is a failed first start too.
      const timer = setTimeout(() => {
        if (this.#mounted?.page.frame === page.frame && !page.connection.ready)
          this.#background(this.#failedStart(app, `it did not start within ${this.#firstStartMs / 1_000} s`));
      }, this.#firstStartMs);
      const remove = page.remove.bind(page);
      this.#mounted = {
        target,
        page: {
          ...page,
          remove() {
            clearTimeout(timer);
            remove();
          },
        },
      };
    }
  }

  /** The user went back to the conversation-only view (or to another app): a `leave` intent. */
  leave(): void {
    this.#background(this.#endForeground('leave'));
  }

  /** The user closed the app: a `close` intent; the page hears a generic close. */
  close(): void {
    this.#background(this.#endForeground('close'));
  }

  // ── RuntimeHost ─────────────────────────────────────────────────────────────────────────────────────

  requestForeground(target: AppTarget): void {
    const app = this.#apps.find((record) => record.id === target.appId);
    if (app === undefined) {
      this.#onProblem(`No installed app ${target.appId} to bring forward.`);
      return;
    }
    const current = this.#state.foreground;
    if (current !== null && current.target.instanceId !== target.instanceId)
      // Another app takes the workspace: for the one it replaces, that is leaving.
      this.#background(
        this.runtime
          .hostIntent(current.target.conversationId, current.target.appScope, 'leave')
          .then(() => this.#changed()),
      );
    this.#set({ foreground: { target, app }, confirmed: false });
    // The view attaches the container as it renders; if it is already there, mount now.
    if (this.#container !== null) this.attachWorkspace(this.#container);
  }

  startApp(target: AppTarget): void {
    // This host runs apps in the workspace; an app that need not be seen is started there too.
    this.requestForeground(target);
  }

  closeApp(target: AppTarget): void {
    if (this.#mounted?.target.instanceId === target.instanceId) {
      this.#mounted.page.connection.lifecycle('close');
      this.#unmount();
    }
    if (this.#state.foreground?.target.instanceId === target.instanceId)
      this.#set({ foreground: null, confirmed: false });
  }

  sessionDataChanged(target: AppTarget, snapshot: SessionDataSnapshot): void {
    this.#page(target)?.connection.pushSessionData(snapshot);
  }

  invoke(target: AppTarget, invocation: MiniAppInvocation): void {
    const page = this.#page(target);
    if (this.#held?.target.instanceId === target.instanceId && page?.connection.ready !== true)
      this.#held.invocations.push(invocation);
    else if (page !== undefined) page.connection.invoke(invocation);
    else
      this.#background(
        this.runtime
          .completeInvocation(target, invocation.invocationId, { status: 'error', code: 'app_not_running' })
          .then(() => this.#changed()),
      );
  }

  cancelInvocation(target: AppTarget, invocationId: string): void {
    const held = this.#held?.invocations;
    const index = held?.findIndex((invocation) => invocation.invocationId === invocationId) ?? -1;
    if (held !== undefined && index >= 0) held.splice(index, 1);
    else this.#page(target)?.connection.cancelInvocation(invocationId);
  }

  // ── Internals ───────────────────────────────────────────────────────────────────────────────────────

  #page(target: AppTarget): MountedMiniApp | undefined {
    return this.#mounted?.target.instanceId === target.instanceId ? this.#mounted.page : undefined;
  }

  /** Confirms the foreground once the user can see the app: page ready, workspace laid out, tab visible. */
  async #confirmWhenSeen(): Promise<void> {
    const mounted = this.#mounted;
    const foreground = this.#state.foreground;
    if (mounted === null || foreground === null || mounted.target.instanceId !== foreground.target.instanceId)
      return;
    if (!mounted.page.connection.ready || this.#document.visibilityState !== 'visible') return;
    const box = mounted.page.frame.getBoundingClientRect();
    if (!mounted.page.frame.isConnected || box.width === 0 || box.height === 0) return;
    const { target } = foreground;
    await this.runtime.confirmForeground(target.conversationId, target.appScope);
    if (this.#state.foreground?.target.instanceId === target.instanceId)
      this.#set({ ...this.#state, confirmed: true });
    mounted.page.connection.lifecycle('foreground');
    await this.#changed();
  }

  async #endForeground(intent: Extract<HostIntent, 'leave' | 'close'>): Promise<void> {
    const foreground = this.#state.foreground;
    if (foreground === null) return;
    const { target } = foreground;
    await this.runtime.hostIntent(target.conversationId, target.appScope, intent);
    if (intent === 'close') this.#mounted?.page.connection.lifecycle('close');
    this.#unmount();
    this.#set({ foreground: null, confirmed: false });
    await this.#changed();
  }

  readonly #onVisibility = () => {
    const foreground = this.#state.foreground;
    if (foreground === null) return;
    const visible = this.#document.visibilityState === 'visible';
    const { target } = foreground;
    this.#background(
      this.runtime
        .hostIntent(target.conversationId, target.appScope, visible ? 'resume' : 'background')
        .then(() => {
          this.#mounted?.page.connection.lifecycle(visible ? 'foreground' : 'background');
          return visible && !this.#state.confirmed ? this.#confirmWhenSeen() : this.#changed();
        }),
    );
  };

  /**
   * Work nobody awaits (a delivery after the agent connected, a failed start's rollback): its failure is
   * reported, never left as an unhandled rejection. After `dispose` (the page is stopping: a newer tab took the
   * database, say) it is dropped silently — what it would report can no longer be acted on.
   */
  #background(task: Promise<unknown>, what = 'The runtime failed'): void {
    task.catch((error: unknown) => {
      if (this.#disposed) return;
      this.#onProblem(`${what}: ${error instanceof Error ? error.message : 'unknown error'}`);
    });
  }

  /** The invocations held for a reloaded page that did not start: they end as for a page that is not running. */
  #releaseHeld(): void {
    const held = this.#held;
    this.#held = null;
    for (const invocation of held?.invocations ?? [])
      this.#background(
        this.runtime
          .completeInvocation(held!.target, invocation.invocationId, {
            status: 'error',
            code: 'app_not_running',
          })
          .then(() => this.#changed()),
      );
  }

  #unmount(): void {
    this.#attempt = null;
    this.#mounted?.page.remove();
    this.#mounted = null;
  }

  #set(state: WorkspaceState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) listener();
  }

  /** After anything that may have written outbox rows or deadlines: deliver, then re-arm the wake-up. */
  async #changed(): Promise<void> {
    if (this.#disposed) return;
    await this.#deliver();
    const due = await this.runtime.nextDueAt();
    clearTimeout(this.#wake);
    if (due === undefined || this.#disposed) return;
    this.#wake = setTimeout(
      () => {
        this.runtime
          .settle()
          .then(() => this.#changed())
          .catch((error: unknown) =>
            this.#onProblem(
              `The runtime failed: ${error instanceof Error ? error.message : 'unknown error'}`,
            ),
          );
      },
      Math.min(Math.max(0, due - Date.now()), MAX_TIMER_MS),
    );
  }

  /**
   * Sends every pending outbox row to the sink, in order. `OutboxDelivery` keeps one run at a time and reads the
   * pending rows again when asked during a run, so nothing written meanwhile is left behind.
   */
  async #deliver(): Promise<void> {
    const sink = this.#sink;
    // Once disposed, the rows are left to the next runtime of the profile (this tab's or another's).
    if (sink === null || this.#disposed) return;
    const run = this.#outbox.deliver(sink);
    this.#delivering = run.catch(() => {});
    const report = await run;
    if (report.error !== null && !this.#disposed)
      this.#onProblem('A message could not be sent to the agent; it stays pending.');
  }
}
