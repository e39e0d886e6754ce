/**
 * The MiniApps panel: the runtime's installed apps and the inventory it publishes to agents (runtime.tsx
 * installs the bundled apps at start-up; an app already installed at the same version is left as it is, so a
 * reload publishes no new inventory).
 */
import { useText } from './i18n.tsx';
import { useRuntime } from './runtime.tsx';

export function MiniAppsPanel() {
  const state = useRuntime();
  const text = useText();
  return (
    <aside className="host__apps" aria-labelledby="apps-title">
      <h2 id="apps-title">{text.apps.title}</h2>
      {state.status === 'loading' && (
        <p className="host__empty" role="status">
          {text.apps.starting}
        </p>
      )}
      {state.status === 'error' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && (
        <>
          {state.apps.length === 0 && <p className="host__empty">{text.apps.none}</p>}
          <ul className="host__app-list">
            {state.apps.map((app) => (
              <li key={app.id} className="host__app" aria-label={app.manifest.name}>
                <div className="host__app-head">
                  <strong>{app.manifest.name}</strong>
                  <span className="host__app-version">{app.manifest.version}</span>
                  <span className="host__app-state">
                    {app.enabled ? text.apps.enabled : text.apps.disabled}
                  </span>
                </div>
                <div className="host__app-id">{app.id}</div>
                <ul className="host__tools" aria-label={text.apps.tools(app.manifest.name)}>
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
            {text.apps.inventory} <code>{state.inventory.revision}</code>,{' '}
            {text.apps.toolCount(state.inventory.tools?.length ?? 0)}
          </p>
        </>
      )}
    </aside>
  );
}
