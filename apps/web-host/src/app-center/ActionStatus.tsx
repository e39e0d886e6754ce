/** What an app center action is doing or did, in words, and the details of why it did not happen. */
import type { HostText } from '../i18n/host-text.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import type { AppCenterProblem } from './problems.ts';
import type { ActionState, AppAction, AppCenterResult } from './snapshot.ts';

/** What an action is doing or did: a polite status while it runs or when it worked, an alert when it did not. */
export function ActionStatus({
  state,
  version,
}: {
  readonly state: ActionState | undefined;
  /** The installed version: an update's result no longer shows once another version is back (a rollback). */
  readonly version?: string;
}) {
  const text = useText();
  if (
    state?.status === 'done' &&
    state.result.kind === 'updated' &&
    version !== undefined &&
    version !== state.result.to
  )
    return <p className="host__app-status" role="status" />;
  return (
    <>
      <p className="host__app-status" role="status">
        {state?.status === 'running' && text.apps.running[state.action]}
        {state?.status === 'done' && resultText(text, state.action, state.result)}
      </p>
      {state?.status === 'failed' && (
        <div className="host__app-problem" role="alert">
          <p>{text.apps.joined(text.apps.failed[state.action], text.apps.problem(state.problem))}</p>
          <ProblemDetails problem={state.problem} />
        </div>
      )}
    </>
  );
}

function resultText(text: HostText, action: AppAction, result: AppCenterResult): string {
  const words = text.apps.results;
  switch (result.kind) {
    case 'installed':
      return words.installed(result.name, result.version);
    case 'replaced':
      return words.replaced(result.name, result.version);
    case 'updated':
      return result.change === undefined
        ? words.updated(result.name, result.from, result.to)
        : `${words.refreshed(result.name, result.from, result.to)} ${text.apps.mcp.changes(
            result.change.addedTools.length,
            result.change.removedTools.length,
            result.change.changedTools.length,
            result.change.changedViews.length,
          )}`;
    case 'unchanged':
      return action === 'update'
        ? words.upToDate(result.name, result.version)
        : words.unchanged(result.name, result.version);
    case 'enabled':
      return words.enabled(result.name);
    case 'disabled':
      return words.disabled(result.name);
    case 'uninstalled':
      return words.uninstalled(result.name);
    case 'token_forgotten':
      return words.tokenForgotten(result.name);
    case 'signed_in':
      return words.signedIn(result.name);
    case 'signed_out':
      return words.signedOut(result.name);
  }
}

/**
 * An invalid manifest's issues, each with where it is. (A refused file needs nothing more: its sentence names the
 * file and both digests.)
 */
export function ProblemDetails({ problem }: { readonly problem: AppCenterProblem }) {
  if (problem.kind === 'protocol')
    return (
      <ul className="host__app-issues">
        {problem.issues.map((issue) => (
          <li key={`${issue.path} ${issue.code}`}>
            <code>{issue.path || '/'}</code> {issue.message}
          </li>
        ))}
      </ul>
    );
  if (problem.kind === 'dev_build_failed')
    return (
      // Its own words, lines kept (the build's message is in English, as the terminal's).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a long message scrolls; the keyboard must reach it.
      <pre className="host__app-build-message" lang="en" tabIndex={0}>
        {problem.message}
      </pre>
    );
  return null;
}
