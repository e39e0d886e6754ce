/**
 * The host's runtime: one IndexedDB-backed runtime per page, opened at start-up. At a profile's first start it
 * installs the bundled MiniApps (served under /apps/<name>/) from their verified bundles through the app registry
 * (app-center/catalogue.ts: later starts leave the installed apps to the user's app center), then starts the host
 * side of the runtime (workspace/host-runtime.ts): what fell due while the page was closed is settled, and the app
 * that was in the foreground comes back. The app center, the workspace and the conversation read it from context.
 */
import {
  ActionRunner,
  AppRegistry,
  CapabilityRuntime,
  ConversationStore,
  openRuntimeDatabase,
  type RuntimeDatabase,
} from '@lineup/runtime';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { AgentConnection, configuredAgentUrl, conversationToShow } from './agent/connection.ts';
import { AppCenter } from './app-center/app-center.ts';
import { BUNDLED_APPS, installCatalogueAtFirstStart } from './app-center/catalogue.ts';
import { ConsentQueue } from './capabilities/consent.ts';
import { WEB_DSL_CAPABILITIES } from './capabilities/dsl-capabilities.ts';
import { ActionReceipts } from './capabilities/receipts.ts';
import { WEB_CAPABILITIES, webCapabilityHandlers } from './capabilities/web-capabilities.ts';
import { useText } from './i18n.tsx';
import { HostRuntime, type WorkspaceState } from './workspace/host-runtime.ts';

export type RuntimeState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      /** The runtime's database (the app center reads each app's audit entries from it). */
      readonly db: RuntimeDatabase;
      readonly registry: AppRegistry;
      readonly host: HostRuntime;
      readonly connection: AgentConnection;
      /** The questions capability calls ask the user (the consent dialog shows them). */
      readonly consent: ConsentQueue;
      /** Runs DSL 1.1 `invoke` actions of the interfaces the agent sent (the action ledger). */
      readonly actions: ActionRunner;
      /** The receipts of those actions, for the views. */
      readonly receipts: ActionReceipts;
      /** The installed apps and the actions on them; it stays current by itself (`host.onAppsChanged`). */
      readonly appCenter: AppCenter;
      /** The inventory when the runtime became ready (the app center shows the current one). */
      readonly inventory: ClientInventoryPayload;
    }
  | { readonly status: 'error'; readonly message: string };

const RuntimeContext = createContext<RuntimeState>({ status: 'loading' });

export function useRuntime(): RuntimeState {
  return useContext(RuntimeContext);
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

export function RuntimeProvider({ children }: { readonly children: ReactNode }) {
  const [state, setState] = useState<RuntimeState>({ status: 'loading' });
  const [storage, setStorage] = useState<StorageNotice | null>(null);
  useEffect(() => {
    let active = true;
    /** Set once the database is lost: a start still under way stops at its next step. */
    let storageLost = false;
    let close = () => {};
    (async () => {
      // A newer tab took the database over, or the browser closed it: this page can no longer read or write,
      // so everything that would (timers, deliveries, the agent connection, the app's page) stops; what is on
      // screen stays readable under the notice asking to reload.
      const lost = (notice: StorageNotice) => {
        if (!active) return;
        storageLost = true;
        setStorage(notice);
        close();
      };
      const db = await openRuntimeDatabase(undefined, {
        onBlocked: () => active && setStorage('blocked'),
        onVersionChange: ({ newVersion }) => lost(newVersion === null ? 'deleted' : 'replaced'),
        onTerminated: () => lost('terminated'),
      });
      // The older tab let go: opening went on.
      setStorage((notice) => (notice === 'blocked' ? null : notice));
      close = () => db.close();
      if (!active || storageLost) return close();
      const registry = new AppRegistry(db);
      const startupProblems = await installCatalogueAtFirstStart(
        db,
        registry,
        BUNDLED_APPS,
        document.baseURI,
      );
      // What an agent may ask this page to do (app.call); each runs only after the user's consent by its risk.
      await registry.declareCapabilities(WEB_CAPABILITIES);
      const host = new HostRuntime(db, registry, {
        onProblem: (text) => {
          for (const listener of [...problemListeners]) listener(text);
        },
      });
      const appCenter = new AppCenter({
        db,
        registry,
        host,
        catalogue: BUNDLED_APPS,
        baseUri: document.baseURI,
        startupProblems,
      });
      let remoteUrl: string | null = null;
      try {
        remoteUrl = configuredAgentUrl();
        if (remoteUrl !== null) new URL(remoteUrl);
      } catch {
        throw new Error(`The agent URL ${String(remoteUrl)} is not a valid ws:// or wss:// URL.`);
      }
      // The conversation shown last comes back; a fresh profile starts one.
      const store = new ConversationStore(db);
      const consent = new ConsentQueue();
      const capabilities = new CapabilityRuntime(db, {
        handlers: webCapabilityHandlers(),
        confirm: consent.confirm,
        onResult: () => host.deliver(),
      });
      // Calls cut by the last page's end get their one result; none runs again.
      await capabilities.recover();
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
      connection = new AgentConnection(
        host,
        registry,
        store,
        await conversationToShow(store),
        remoteUrl,
        capabilities,
        actions,
      );
      const started = connection;
      let closed = false;
      close = () => {
        if (closed) return;
        closed = true;
        appCenter.dispose();
        consent.dismissAll();
        capabilities.dispose();
        started.stop();
        host.dispose();
        db.close();
      };
      if (!active || storageLost) return close();
      await host.start();
      await appCenter.refresh();
      const inventory = await registry.inventory();
      if (active && !storageLost)
        setState({
          status: 'ready',
          db,
          registry,
          host,
          connection: started,
          consent,
          actions,
          receipts,
          appCenter,
          inventory,
        });
    })().catch((error: unknown) => {
      // A start cut by the database's loss fails on its closed connection: the notice already says why.
      if (active && !storageLost)
        setState({
          status: 'error',
          message: error instanceof Error ? error.message : 'The runtime could not start.',
        });
    });
    return () => {
      active = false;
      close();
    };
  }, []);
  return (
    <RuntimeContext.Provider value={state}>
      {storage !== null && <StorageBanner notice={storage} />}
      {children}
    </RuntimeContext.Provider>
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
