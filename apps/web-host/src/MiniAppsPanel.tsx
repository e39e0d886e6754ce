/**
 * The MiniApps panel: the runtime's installed apps and the inventory it publishes to agents (runtime.tsx
 * installs the bundled apps at start-up from their verified bundles; an app already installed at the same
 * version is left as it is, so a reload publishes no new inventory). Each app shows whether its bundle was
 * verified (its `integrity`); a bundle that failed the check is named with the file and both digests.
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
          {state.bundleProblems.map((problem) => (
            <p key={problem} className="host__bundle-problem" role="alert">
              {problem}
            </p>
          ))}
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
                <div className="host__app-integrity">
                  {app.manifest.integrity === undefined ? (
                    text.apps.unverified
                  ) : (
                    <>
                      {text.apps.verified(app.manifest.files?.length ?? 0)}{' '}
                      <code title={app.manifest.integrity}>{app.manifest.integrity.slice(0, 19)}…</code>
                    </>
                  )}
                </div>
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
