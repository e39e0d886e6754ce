/**
 * The workspace: the MiniApp in the foreground, beside the conversation (which stays usable: talking to the
 * agent is not leaving). The app comes here by itself when a start needs it; "Back to conversation" and
 * "Close" are the user's leave and close intents (host-runtime.ts). When it goes, a focus inside it returns to what
 * had it when it opened (focus.ts).
 */
import { useCallback, useEffect, useRef } from 'react';
import { currentOpener, returnFocus } from '../focus.ts';
import { useText } from '../i18n/LanguageProvider.tsx';
import { useRuntime, useWorkspace } from '../runtime.tsx';

export function Workspace() {
  const runtime = useRuntime();
  const text = useText();
  const { foreground, confirmed } = useWorkspace();
  const host = runtime.status === 'ready' ? runtime.host : null;
  // The frame lives in this container; the host mounts it (and keeps it while the same app stays).
  const container = useCallback((element: HTMLDivElement | null) => host?.attachWorkspace(element), [host]);
  const section = useRef<HTMLElement>(null);
  /** What had the focus when the workspace opened: where it goes back when the workspace goes. */
  const opener = useRef<Element | null>(null);
  const shown = host !== null && foreground !== null;
  useEffect(() => {
    if (!shown) return;
    opener.current = currentOpener();
    const element = section.current;
    return () => {
      // Only when the focus was in the workspace (its buttons, its app): it is not taken from elsewhere.
      const active = document.activeElement;
      if (active === null || active === document.body || element?.contains(active))
        returnFocus(opener.current);
    };
  }, [shown]);
  if (host === null || foreground === null) return null;
  const { app } = foreground;
  return (
    <section ref={section} className="host__workspace" aria-labelledby="workspace-title">
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
