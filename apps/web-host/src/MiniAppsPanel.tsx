/**
 * The MiniApps panel: the runtime's installed apps and the inventory it publishes to agents. On start-up the
 * host installs its bundled MiniApps (served under /apps/<name>/) through the runtime, which validates each
 * manifest and persists the registry in IndexedDB; an app already installed at the same version is left as
 * it is, so a reload publishes no new inventory.
 */
import { type AppRecord, AppRegistry, openRuntimeDatabase } from '@lineup/runtime';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { useEffect, useState } from 'react';

/** The bundled apps' manifest URLs, relative to the host page. */
const BUNDLED_APPS = [{ bundleUrl: './apps/pomodoro/' }];

type PanelState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly apps: readonly AppRecord[];
      readonly inventory: ClientInventoryPayload;
    }
  | { readonly status: 'error'; readonly message: string };

async function installBundledApps(registry: AppRegistry): Promise<void> {
  for (const app of BUNDLED_APPS) {
    const response = await fetch(new URL('lineup.manifest.json', new URL(app.bundleUrl, document.baseURI)));
    if (!response.ok)
      throw new Error(`The bundled app at ${app.bundleUrl} has no manifest (HTTP ${response.status}).`);
    await registry.install(await response.json(), { bundleUrl: app.bundleUrl });
  }
}

export function MiniAppsPanel() {
  const [state, setState] = useState<PanelState>({ status: 'loading' });
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
      if (active) setState({ status: 'ready', apps, inventory });
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

  return (
    <aside className="host__apps" aria-labelledby="apps-title">
      <h2 id="apps-title">MiniApps</h2>
      {state.status === 'loading' && (
        <p className="host__empty" role="status">
          Starting the runtime…
        </p>
      )}
      {state.status === 'error' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && (
        <>
          {state.apps.length === 0 && <p className="host__empty">No MiniApp is installed.</p>}
          <ul className="host__app-list">
            {state.apps.map((app) => (
              <li key={app.id} className="host__app" aria-label={app.manifest.name}>
                <div className="host__app-head">
                  <strong>{app.manifest.name}</strong>
                  <span className="host__app-version">{app.manifest.version}</span>
                  <span className="host__app-state">{app.enabled ? 'enabled' : 'disabled'}</span>
                </div>
                <div className="host__app-id">{app.id}</div>
                <ul className="host__tools" aria-label={`${app.manifest.name} Agent Tools`}>
                  {app.manifest.tools.map((tool) => (
                    <li key={tool.method}>
                      <code>
                        {tool.app_scope}.{tool.method}
                      </code>{' '}
                      <span className="host__tool-meta">
                        {tool.call_model} · {tool.activation.replaceAll('_', ' ')}
                      </span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <p className="host__inventory">
            Inventory published to agents: <code>{state.inventory.revision}</code>,{' '}
            {state.inventory.tools?.length ?? 0} Agent Tools
          </p>
        </>
      )}
    </aside>
  );
}
