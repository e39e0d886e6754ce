/**
 * The host's runtime: one IndexedDB-backed runtime per page, opened at start-up. It installs the bundled
 * MiniApps (served under /apps/<name>/) through the app registry — which validates each manifest and
 * persists it — then starts the host side of the runtime (workspace/host-runtime.ts): what fell due while the
 * page was closed is settled, and the app that was in the foreground comes back. The MiniApps panel, the
 * workspace and the conversation read it from context.
 */
import {
  ActionRunner,
  type AppRecord,
  AppRegistry,
  BundleIntegrityError,
  CapabilityRuntime,
  ConversationStore,
  openRuntimeDatabase,
} from '@lineup/runtime';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { AgentConnection, configuredAgentUrl, conversationToShow } from './agent/connection.ts';
import { ConsentQueue } from './capabilities/consent.ts';
import { WEB_DSL_CAPABILITIES } from './capabilities/dsl-capabilities.ts';
import { ActionReceipts } from './capabilities/receipts.ts';
import { WEB_CAPABILITIES, webCapabilityHandlers } from './capabilities/web-capabilities.ts';
import { HostRuntime, type WorkspaceState } from './workspace/host-runtime.ts';

/** The bundled apps, relative to the host page. */
const BUNDLED_APPS = [{ bundleUrl: './apps/pomodoro/' }];

export type RuntimeState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly registry: AppRegistry;
      readonly host: HostRuntime;
      readonly connection: AgentConnection;
      /** The questions capability calls ask the user (the consent dialog shows them). */
      readonly consent: ConsentQueue;
      /** Runs DSL 1.1 `invoke` actions of the interfaces the agent sent (the action ledger). */
      readonly actions: ActionRunner;
      /** The receipts of those actions, for the views. */
      readonly receipts: ActionReceipts;
      readonly apps: readonly AppRecord[];
      readonly inventory: ClientInventoryPayload;
      /** Bundled apps that failed their integrity check at start-up (not installed), as text. */
      readonly bundleProblems: readonly string[];
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
 * Installs the bundled apps from their verified bundles: every file is checked against the manifest's SHA-256
 * digests before anything is kept. One that fails is not installed, and says which file and both digests.
 */
async function installBundledApps(registry: AppRegistry): Promise<string[]> {
  const problems: string[] = [];
  for (const app of BUNDLED_APPS) {
    try {
      await registry.installBundle(new URL(app.bundleUrl, document.baseURI));
    } catch (error) {
      if (!(error instanceof BundleIntegrityError)) throw error;
      problems.push(`The bundle at ${app.bundleUrl} was not installed: ${error.message}`);
    }
  }
  return problems;
}

export function RuntimeProvider({ children }: { readonly children: ReactNode }) {
  const [state, setState] = useState<RuntimeState>({ status: 'loading' });
  useEffect(() => {
    let active = true;
    let close = () => {};
    (async () => {
      const db = await openRuntimeDatabase();
      close = () => db.close();
      if (!active) return close();
      const registry = new AppRegistry(db);
      const bundleProblems = await installBundledApps(registry);
      // What an agent may ask this page to do (app.call); each runs only after the user's consent by its risk.
      await registry.declareCapabilities(WEB_CAPABILITIES);
      const host = new HostRuntime(db, registry, {
        onProblem: (text) => {
          for (const listener of [...problemListeners]) listener(text);
        },
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
        onResult: () => void host.deliver(),
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
      close = () => {
        consent.dismissAll();
        capabilities.dispose();
        started.stop();
        host.dispose();
        db.close();
      };
      if (!active) return close();
      await host.start();
      const [apps, inventory] = await Promise.all([registry.list(), registry.inventory()]);
      if (active)
        setState({
          status: 'ready',
          registry,
          host,
          connection: started,
          consent,
          actions,
          receipts,
          apps,
          inventory,
          bundleProblems,
        });
    })().catch((error: unknown) => {
      if (active)
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
  return <RuntimeContext.Provider value={state}>{children}</RuntimeContext.Provider>;
}
