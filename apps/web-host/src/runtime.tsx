/**
 * The host's runtime: one IndexedDB-backed runtime per profile across the browser's tabs. A tab starts it only
 * while it holds the profile's runtime lock (`holdRuntimeLock`); another tab of the profile waits, starts
 * nothing, and says so, with a button that asks the running tab to hand over. At a profile's first start it
 * installs the bundled MiniApps (served under /apps/<name>/) from their verified bundles through the app registry
 * (app-center/catalogue.ts: later starts leave the installed apps to the user's app center), then starts the host
 * side of the runtime (workspace/host-runtime.ts): what fell due while the page was closed is settled, and the app
 * that was in the foreground comes back. The app center, the workspace and the conversation read it from context.
 *
 * The page's agent is decided once per page (`pageAgentGate`, agent/agent-link.ts): an agent from a page link waits
 * for the user's "Connect" (`AgentLinkPanel`) before anything is dialled, in every session this page starts.
 */
import {
  ActionRunner,
  AppRegistry,
  CapabilityRuntime,
  ConversationStore,
  holdRuntimeLock,
  openRuntimeDatabase,
  RUNTIME_DATABASE_NAME,
  type RuntimeDatabase,
  type RuntimeLock,
} from '@lineup/runtime';
import { createMcpConnector, createMcpToolCaller, type McpToolCaller } from '@lineup/runtime/mcp';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { mcpViewBundle } from '@lineup/surface-host';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { AgentLinkPanel } from './agent/AgentLinkPanel.tsx';
import type { AgentLinkGate } from './agent/agent-link.ts';
import {
  AgentConnection,
  type AgentEndpoint,
  conversationToShow,
  pageAgentGate,
} from './agent/connection.ts';
import { AppCenter } from './app-center/app-center.ts';
import { BUNDLED_APPS, installCatalogueAtFirstStart } from './app-center/catalogue.ts';
import { configuredDevBundle, DevLink } from './app-center/dev-link.ts';
import { ServerCredentials } from './app-center/server-credentials.ts';
import { ConsentQueue } from './capabilities/consent.ts';
import { WEB_DSL_CAPABILITIES } from './capabilities/dsl-capabilities.ts';
import { ActionReceipts } from './capabilities/receipts.ts';
import { configuredToolPolicy } from './capabilities/tool-policy.ts';
import { WEB_CAPABILITIES, webCapabilityHandlers } from './capabilities/web-capabilities.ts';
import { PreparedMcpViews } from './conversation/mcp-views.ts';
import { useText } from './i18n/LanguageProvider.tsx';
import { HostRuntime, type WorkspaceState } from './workspace/host-runtime.ts';

export type RuntimeState =
  | { readonly status: 'loading' }
  /** Another tab runs LineUp for this profile: this one starts nothing (see `TabNotice`). */
  | { readonly status: 'elsewhere' }
  | {
      readonly status: 'ready';
      /** The runtime's database (the app center reads each app's audit entries from it). */
      readonly db: RuntimeDatabase;
      readonly registry: AppRegistry;
      readonly host: HostRuntime;
      readonly connection: AgentConnection;
      /** The questions capability calls ask the user (the consent dialog shows them). */
      readonly consent: ConsentQueue;
      /** The host's capabilities (an MCP view's open-link goes through `app.open_url` and its consent). */
      readonly capabilities: CapabilityRuntime;
      /** Runs DSL 1.1 `invoke` actions of the interfaces the agent sent (the action ledger). */
      readonly actions: ActionRunner;
      /** The receipts of those actions, for the views. */
      readonly receipts: ActionReceipts;
      /** The installed apps and the actions on them; it stays current by itself (`host.onAppsChanged`). */
      readonly appCenter: AppCenter;
      /** MCP App views prepared ahead of their tools' calls. */
      readonly mcpViews: PreparedMcpViews;
      /** The inventory when the runtime became ready (the app center shows the current one). */
      readonly inventory: ClientInventoryPayload;
    }
  | { readonly status: 'error'; readonly message: string };

const RuntimeContext = createContext<RuntimeState>({ status: 'loading' });

export function useRuntime(): RuntimeState {
  return useContext(RuntimeContext);
}

const AgentLinkContext = createContext<AgentLinkGate | null>(null);

/** This page's decision about its agent (null outside `RuntimeProvider`). */
export function useAgentLink(): AgentLinkGate | null {
  return useContext(AgentLinkContext);
}

/** What the connection of a session starting now talks to, from where the page's decision stands. */
function endpointOf(gate: AgentLinkGate): AgentEndpoint {
  const state = gate.state;
  switch (state.phase) {
    case 'demo':
      return { kind: 'demo' };
    case 'configured':
    case 'allowed':
      return { kind: 'remote', url: state.url, held: false };
    case 'asking':
      return { kind: 'remote', url: state.url, held: true };
    default:
      // Declined, refused, or forgotten: the page runs with no agent.
      return { kind: 'none' };
  }
}

const NO_WORKSPACE: WorkspaceState = { foreground: null, confirmed: false };
const ignore = () => () => {};

/** The workspace's state (the foreground app), re-rendering on every change. */
export function useWorkspace(): WorkspaceState {
  const state = useRuntime();
  const host = state.status === 'ready' ? state.host : null;
  const snapshot = () => host?.state ?? NO_WORKSPACE;
  return useSyncExternalStore(
    host === null ? ignore : (listener) => host.subscribe(listener),
    snapshot,
    snapshot,
  );
}

/** Problems the host reports (a page's refused message, a storage failure), for the conversation's notes. */
const problemListeners = new Set<(text: string) => void>();
export function onHostProblem(listener: (text: string) => void): () => void {
  problemListeners.add(listener);
  return () => problemListeners.delete(listener);
}

/**
 * What the runtime database's connection asks of the user: wait for (or close) an older tab that blocks this
 * version's upgrade, or reload because a newer tab took the database over, another tab deleted it, or the browser
 * closed it.
 */
export type StorageNotice = 'blocked' | 'replaced' | 'deleted' | 'terminated';

/**
 * Where LineUp runs among this profile's tabs: another tab runs it and this one waits (`waiting`), it moved to
 * another tab (`moved`), or this browser has no Web Locks, so nothing keeps two tabs apart (`unguarded`).
 */
export type TabNotice = 'waiting' | 'moved' | 'unguarded';

/** One start of the runtime in this tab, from opening the database to closing it. */
interface RuntimeSession {
  /**
   * Hands over to another tab: the pages, timers and deliveries stop, the agent connection closes (the agent has
   * seen it end), the delivery under way finishes its last write, then the database is closed and the rest
   * (open consent questions, the capability runtime) let go. Resolves once the database is closed.
   */
  stop(): Promise<void>;
  /** Stops at once, the database first (another tab already runs, or the page is going). */
  abandon(): void;
}

interface SessionReports {
  readonly ready: (state: Extract<RuntimeState, { status: 'ready' }>) => void;
  readonly failed: (message: string) => void;
  readonly storage: (
    notice: StorageNotice | null | ((notice: StorageNotice | null) => StorageNotice | null),
  ) => void;
}

/** What a session has started so far, each let go once. */
interface SessionParts {
  db?: RuntimeDatabase;
  credentials?: ServerCredentials;
  mcpCaller?: ReturnType<typeof createMcpToolCaller>;
  host?: HostRuntime;
  appCenter?: AppCenter;
  mcpViews?: PreparedMcpViews;
  devLink?: DevLink;
  consent?: ConsentQueue;
  capabilities?: CapabilityRuntime;
  connection?: AgentConnection;
  /** Stops following the page's agent decision. */
  agentLink?: () => void;
}

/**
 * Starts the runtime in this tab (only while it holds the profile's runtime lock). A stop or an abandon during the
 * start takes effect at its next step.
 */
function startSession(reports: SessionReports, gate: AgentLinkGate): RuntimeSession {
  /** Set once the session is stopping (handed over, lost, unmounted, or its database lost). */
  let ending = false;
  const parts: SessionParts = {};
  // The database goes first: whatever still runs can then write nothing (a closed connection throws).
  const closeParts = () => {
    const {
      db,
      appCenter,
      mcpViews,
      devLink,
      host,
      connection,
      consent,
      capabilities,
      mcpCaller,
      agentLink,
      credentials,
    } = parts;
    for (const key of Object.keys(parts)) delete parts[key as keyof SessionParts];
    agentLink?.();
    devLink?.stop();
    db?.close();
    credentials?.close();
    // Calls in flight to MCP servers end with the page: the next start's recover() says outcome_unknown.
    host?.runtime.abortMcpCalls();
    void mcpCaller?.close();
    appCenter?.dispose();
    mcpViews?.dispose();
    host?.dispose();
    void connection?.stop();
    // Open questions leave the screen unanswered: the next start's recover() settles their calls, once.
    consent?.dismissAll();
    capabilities?.dispose();
  };
  const run = (async () => {
    // A newer tab took the database over, or the browser closed it: this page can no longer read or write,
    // so everything that would (timers, deliveries, the agent connection, the app's page) stops; what is on
    // screen stays readable under the notice asking to reload.
    const lost = (notice: StorageNotice) => {
      if (ending) return;
      ending = true;
      reports.storage(notice);
      closeParts();
    };
    const db = await openRuntimeDatabase(undefined, {
      onBlocked: () => !ending && reports.storage('blocked'),
      onVersionChange: ({ newVersion }) => lost(newVersion === null ? 'deleted' : 'replaced'),
      onTerminated: () => lost('terminated'),
    });
    // The older tab let go: opening went on.
    reports.storage((notice) => (notice === 'blocked' ? null : notice));
    parts.db = db;
    if (ending) return closeParts();
    // The host integrator's consent rules for Agent Tools (the build's LINEUP_TOOL_POLICY, a JSON array of rules):
    // a floor no user choice lowers. Tools they deny are not published.
    const registry = new AppRegistry(db, { toolPolicy: configuredToolPolicy() });
    const startupProblems = await installCatalogueAtFirstStart(db, registry, BUNDLED_APPS, document.baseURI);
    if (ending) return closeParts();
    // Rules changed since the last start: the inventory publishes what they allow now.
    await registry.applyToolPolicy();
    if (ending) return closeParts();
    // What an agent may ask this page to do (app.call); each runs only after the user's consent by its risk.
    await registry.declareCapabilities(WEB_CAPABILITIES);
    // MCP servers: one connector (the official SDK's client, loaded with the first server) for reading servers
    // and for calling their tools; a view is kept only if a contained frame can run it.
    // Their access tokens, kept in this browser, go with the requests to their own URL only.
    const credentials = new ServerCredentials();
    parts.credentials = credentials;
    await credentials.load();
    if (ending) return closeParts();
    const connect = createMcpConnector({
      clientInfo: { name: 'LineUp Web Reference Host', version: '0.0.0' },
      auth: credentials.auth,
    });
    const caller = createMcpToolCaller({ connect });
    parts.mcpCaller = caller;
    // A server that no longer takes the token the user gave it says so on its card (the agent hears it in the result).
    const mcpCaller: McpToolCaller = {
      call: async (request) => {
        const sent = credentials.token(request.url);
        const outcome = await caller.call(request);
        credentials.callEnded(request.url, outcome, Date.now(), sent);
        return outcome;
      },
    };
    // The questions the user is asked: capability calls, and Agent Tool and view calls (one dialog, one queue).
    const consent = new ConsentQueue();
    parts.consent = consent;
    const host = new HostRuntime(db, registry, {
      confirmTool: consent.confirmTool,
      onProblem: (text) => {
        for (const listener of [...problemListeners]) listener(text);
      },
      mcp: mcpCaller,
    });
    parts.host = host;
    const appCenter = new AppCenter({
      db,
      registry,
      host,
      catalogue: BUNDLED_APPS,
      baseUri: document.baseURI,
      startupProblems,
      mcp: { connect, checkView: (html) => void mcpViewBundle(html), credentials },
    });
    parts.appCenter = appCenter;
    // In the language the conversation sets (Conversation.tsx) before any is prepared.
    const mcpViews = new PreparedMcpViews(registry, host, 'en');
    parts.mcpViews = mcpViews;
    // The conversation shown last comes back; a fresh profile starts one.
    const store = new ConversationStore(db);
    const capabilities = new CapabilityRuntime(db, {
      handlers: webCapabilityHandlers(),
      confirm: consent.confirm,
      onResult: () => host.deliver(),
    });
    parts.capabilities = capabilities;
    if (ending) return closeParts();
    // Calls cut by the last page's end (or left open by the tab this one took over from) get their one result;
    // none runs again.
    await capabilities.recover();
    if (ending) return closeParts();
    const receipts = new ActionReceipts();
    let connection: AgentConnection | null = null;
    // DSL 1.1 invoke buttons: tool actions through the same consent and handlers, agent actions as a turn.
    const actions = new ActionRunner(db, {
      documents: store,
      capabilities,
      bindings: WEB_DSL_CAPABILITIES,
      agent: {
        sendAction: async (conversationId, payload) => {
          if (connection === null) throw new Error('The agent connection has not started.');
          return connection.client.sendUIAction(conversationId, payload);
        },
      },
      onReceipt: (conversationId, receipt) => receipts.update(conversationId, receipt),
    });
    receipts.attach(actions);
    // Operations cut by the last page's end: nothing is scheduled again (sent agent actions keep waiting).
    await actions.recover();
    if (ending) return closeParts();
    const shown = await conversationToShow(store);
    if (ending) return closeParts();
    // A link's agent the user has not answered for yet is held: nothing is dialled until "Connect".
    const current = new AgentConnection(
      host,
      registry,
      store,
      shown,
      endpointOf(gate),
      capabilities,
      actions,
    );
    connection = current;
    parts.connection = current;
    parts.agentLink = gate.subscribe(() => {
      const phase = gate.state.phase;
      if (phase === 'allowed') current.release();
      else if (phase === 'declined') current.decline();
      // The user forgot the agent this page talks to: the connection ends now, for good on this page.
      else if (phase === 'forgotten') void current.stop();
    });
    await host.start();
    if (ending) return closeParts();
    await appCenter.refresh();
    // `?dev=`: a MiniApp in development, installed from its dev server and again on every change.
    const devBundle = configuredDevBundle();
    if (devBundle !== null) {
      const devLink = new DevLink(devBundle, appCenter, (appId) => host.reloadApp(appId));
      parts.devLink = devLink;
      devLink.start();
    }
    const inventory = await registry.inventory();
    if (ending) return closeParts();
    reports.ready({
      status: 'ready',
      db,
      registry,
      host,
      connection,
      consent,
      capabilities,
      actions,
      receipts,
      appCenter,
      mcpViews,
      inventory,
    });
  })().catch((error: unknown) => {
    // A start cut by its end fails on its closed connection: the notice already says why.
    if (!ending) reports.failed(error instanceof Error ? error.message : 'The runtime could not start.');
  });
  return {
    async stop() {
      if (ending) return;
      ending = true;
      // A start under way goes on to its next step and stops there.
      await run;
      const { host, connection } = parts;
      host?.dispose();
      await connection?.stop();
      await host?.idle();
      closeParts();
    },
    abandon() {
      ending = true;
      closeParts();
    },
  };
}

export function RuntimeProvider({ children }: { readonly children: ReactNode }) {
  const [state, setState] = useState<RuntimeState>({ status: 'loading' });
  /** Decided once per page: a session started later (after a hand-over) follows the same decision. */
  const [agentLink] = useState(pageAgentGate);
  const [storage, setStorage] = useState<StorageNotice | null>(null);
  const [tab, setTab] = useState<TabNotice | null>(null);
  const [takingOver, setTakingOver] = useState(false);
  const lock = useRef<RuntimeLock | null>(null);
  /** Grows when the page comes back from the back/forward cache: the lock is asked for again. */
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => event.persisted && setEpoch((value) => value + 1);
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new epoch is exactly what restarts the runtime.
  useEffect(() => {
    const controller = new AbortController();
    let session: RuntimeSession | null = null;
    const elsewhere = (notice: TabNotice) => {
      setTab(notice);
      setState({ status: 'elsewhere' });
    };
    // One runtime per profile: this tab starts only while it holds the lock; another tab's runtime is left alone.
    const held = holdRuntimeLock(RUNTIME_DATABASE_NAME, {
      signal: controller.signal,
      onWaiting: () => elsewhere('waiting'),
      onAcquired: () => {
        setTakingOver(false);
        setTab((notice) => (notice === 'unguarded' ? notice : null));
        setStorage(null);
        setState({ status: 'loading' });
        session = startSession(
          {
            ready: (ready) => !controller.signal.aborted && setState(ready),
            failed: (message) => !controller.signal.aborted && setState({ status: 'error', message }),
            storage: setStorage,
          },
          agentLink,
        );
      },
      onHandOver: async () => {
        const stopping = session;
        session = null;
        elsewhere('moved');
        await stopping?.stop();
      },
      onLost: () => {
        const lost = session;
        session = null;
        lost?.abandon();
        elsewhere('moved');
      },
    });
    lock.current = held;
    if (!held.guarded) setTab('unguarded');
    const stop = () => {
      controller.abort();
      session?.abandon();
      session = null;
    };
    // A tab that closes (or goes into the back/forward cache) stops before its document goes: its agent socket
    // closes now, so the tab that starts next never overlaps it at the agent, and the lock is let go at once.
    window.addEventListener('pagehide', stop);
    return () => {
      window.removeEventListener('pagehide', stop);
      stop();
    };
  }, [epoch]);
  const takeOver = () => {
    setTakingOver(true);
    void lock.current?.takeOver().then((holds) => {
      if (!holds) setTakingOver(false);
    });
  };
  return (
    <RuntimeContext.Provider value={state}>
      <AgentLinkContext.Provider value={agentLink}>
        {tab !== null && <TabBanner notice={tab} takingOver={takingOver} onTakeOver={takeOver} />}
        {storage !== null && <StorageBanner notice={storage} />}
        <AgentLinkPanel gate={agentLink} />
        {children}
      </AgentLinkContext.Provider>
    </RuntimeContext.Provider>
  );
}

/** The notice of `TabNotice`, with the button that moves LineUp to this tab. */
function TabBanner({
  notice,
  takingOver,
  onTakeOver,
}: {
  readonly notice: TabNotice;
  readonly takingOver: boolean;
  readonly onTakeOver: () => void;
}) {
  const text = useText().tabs;
  return (
    <div className="host__storage-notice" role="alert" data-notice={notice}>
      <p>{text[notice]}</p>
      {notice !== 'unguarded' && (
        <button type="button" onClick={onTakeOver} disabled={takingOver}>
          {takingOver ? text.takingOver : text.useHere}
        </button>
      )}
    </div>
  );
}

/** The notice of `StorageNotice`, with a reload button where only a reload helps. */
function StorageBanner({ notice }: { readonly notice: StorageNotice }) {
  const text = useText().storage;
  return (
    <div className="host__storage-notice" role="alert" data-notice={notice}>
      <p>{text[notice]}</p>
      {notice !== 'blocked' && (
        <button type="button" onClick={() => window.location.reload()}>
          {text.reload}
        </button>
      )}
    </div>
  );
}
