/**
 * The host's runtime: one IndexedDB-backed runtime per page, opened at start-up. It installs the bundled
 * MiniApps (served under /apps/<name>/) through the app registry — which validates each manifest and
 * persists it — and receives Agent Tool calls. The MiniApps panel and the conversation read it from context.
 */
import {
  type AppRecord,
  AppRegistry,
  OutboxDelivery,
  openRuntimeDatabase,
  ToolCallIntake,
} from '@lineup/runtime';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

/** The bundled apps, relative to the host page. */
const BUNDLED_APPS = [{ bundleUrl: './apps/pomodoro/' }];

export type RuntimeState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly registry: AppRegistry;
      readonly intake: ToolCallIntake;
      readonly outbox: OutboxDelivery;
      readonly apps: readonly AppRecord[];
      readonly inventory: ClientInventoryPayload;
    }
  | { readonly status: 'error'; readonly message: string };

const RuntimeContext = createContext<RuntimeState>({ status: 'loading' });

export function useRuntime(): RuntimeState {
  return useContext(RuntimeContext);
}

async function installBundledApps(registry: AppRegistry): Promise<void> {
  for (const app of BUNDLED_APPS) {
    const response = await fetch(new URL('lineup.manifest.json', new URL(app.bundleUrl, document.baseURI)));
    if (!response.ok)
      throw new Error(`The bundled app at ${app.bundleUrl} has no manifest (HTTP ${response.status}).`);
    await registry.install(await response.json(), { bundleUrl: app.bundleUrl });
  }
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
      await installBundledApps(registry);
      const [apps, inventory] = await Promise.all([registry.list(), registry.inventory()]);
      if (active)
        setState({
          status: 'ready',
          registry,
          intake: new ToolCallIntake(db, registry),
          outbox: new OutboxDelivery(db),
          apps,
          inventory,
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
