/**
 * The app center, in the side column where the MiniApps panel was: the installed MiniApps (size, integrity,
 * enabled state, Agent Tools, Surfaces, audit log) with their actions, the bundled apps not installed, and installing
 * from a URL on this site or a picked folder. It only renders: `app-center.ts` runs the actions and says what to show.
 */
import { useSyncExternalStore } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useRuntime } from '../runtime.tsx';
import { ProblemDetails } from './ActionStatus.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import { Catalogue } from './Catalogue.tsx';
import { DevStatus } from './DevStatus.tsx';
import { GrantQuestionDialog } from './GrantQuestionDialog.tsx';
import { InstalledAppItem } from './InstalledAppItem.tsx';
import { InstallForm, McpInstallForm } from './InstallForms.tsx';

export function AppCenter() {
  const state = useRuntime();
  const text = useText();
  return (
    <aside className="host__apps" aria-labelledby="apps-title">
      <h2 id="apps-title" tabIndex={-1}>
        {text.apps.title}
      </h2>
      {state.status === 'loading' && (
        <p className="host__empty" role="status">
          {text.apps.starting}
        </p>
      )}
      {state.status === 'error' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && <AppCenterView center={state.appCenter} />}
    </aside>
  );
}

function AppCenterView({ center }: { readonly center: AppCenterModel }) {
  const text = useText();
  const snapshot = useSyncExternalStore(
    (listener) => center.subscribe(listener),
    () => center.snapshot,
    () => center.snapshot,
  );
  return (
    <>
      {snapshot.startupProblems.map(({ bundleUrl, problem }) => (
        <div key={bundleUrl} className="host__app-problem" role="alert">
          <p>{text.apps.startup(bundleUrl, text.apps.problem(problem))}</p>
          <ProblemDetails problem={problem} />
        </div>
      ))}
      {snapshot.readProblem !== undefined && (
        <p className="host__app-problem" role="alert">
          {text.apps.problem(snapshot.readProblem)}
        </p>
      )}
      {snapshot.devUrl !== null && <DevStatus url={snapshot.devUrl} state={snapshot.dev} />}
      {snapshot.apps.length === 0 && <p className="host__empty">{text.apps.none}</p>}
      <ul className="host__app-list" aria-label={text.apps.installedList}>
        {snapshot.apps.map((app) => (
          <InstalledAppItem
            key={app.record.id}
            center={center}
            app={app}
            action={snapshot.actions.get(app.record.id)}
          />
        ))}
      </ul>
      {snapshot.available.length > 0 && (
        <Catalogue center={center} entries={snapshot.available} actions={snapshot.actions} />
      )}
      <InstallForm center={center} url={snapshot.url} folder={snapshot.folder} />
      <McpInstallForm center={center} state={snapshot.mcp} />
      {snapshot.inventory !== undefined && (
        <p className="host__inventory">
          {text.apps.inventory} <code>{snapshot.inventory.revision}</code>,{' '}
          {text.apps.toolCount(snapshot.inventory.tools?.length ?? 0)}
        </p>
      )}
      <GrantQuestionDialog center={center} question={snapshot.grantQuestion} />
    </>
  );
}
