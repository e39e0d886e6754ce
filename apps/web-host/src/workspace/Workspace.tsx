/**
 * The workspace: the MiniApp in the foreground, beside the conversation (which stays usable: talking to the
 * agent is not leaving). The app comes here by itself when a start needs it; "Back to conversation" and
 * "Close" are the user's leave and close intents (host-runtime.ts).
 */
import { useCallback } from 'react';
import { useText } from '../i18n.tsx';
import { useRuntime, useWorkspace } from '../runtime.tsx';

export function Workspace() {
  const runtime = useRuntime();
  const text = useText();
  const { foreground, confirmed } = useWorkspace();
  const host = runtime.status === 'ready' ? runtime.host : null;
  // The frame lives in this container; the host mounts it (and keeps it while the same app stays).
  const container = useCallback((element: HTMLDivElement | null) => host?.attachWorkspace(element), [host]);
  if (host === null || foreground === null) return null;
  const { app } = foreground;
  return (
    <section className="host__workspace" aria-labelledby="workspace-title">
      <header className="host__workspace-head">
        <h2 id="workspace-title">{app.manifest.name}</h2>
        <span className="host__workspace-state" role="status">
          {confirmed ? text.workspace.shown : text.workspace.opening}
        </span>
        <div className="host__workspace-actions">
          <button type="button" onClick={() => host.leave()}>
            {text.workspace.back}
          </button>
          <button type="button" onClick={() => host.close()} aria-label={text.closeNamed(app.manifest.name)}>
            {text.workspace.close}
          </button>
        </div>
      </header>
      <div className="host__workspace-frame" ref={container} key={foreground.target.instanceId} />
    </section>
  );
}
