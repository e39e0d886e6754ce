import { prepareRenderer } from '@lineup/renderer-react';
import { useEffect } from 'react';
import { AppCenter } from './app-center/AppCenter.tsx';
import { ConsentDialog } from './capabilities/ConsentDialog.tsx';
import { AgentConsole } from './console/AgentConsole.tsx';
import { Conversation } from './conversation/Conversation.tsx';
import { LanguageProvider, LanguageSwitch, useText } from './i18n.tsx';
import { RuntimeProvider, useRuntime } from './runtime.tsx';
import { Workspace } from './workspace/Workspace.tsx';

/**
 * The Web Reference Host shell: the conversation (DSL interfaces through @lineup/renderer-react, inline
 * Surfaces through @lineup/surface-host, Agent Tool calls received by the runtime) and the side column: the
 * workspace with the MiniApp in the foreground, and the app center (the runtime's MiniApps).
 */
export function App() {
  return (
    <LanguageProvider>
      <Shell />
    </LanguageProvider>
  );
}

function Shell() {
  const text = useText();
  // The renderer's one-time costs (number formatting data, the Markdown parser's first run), paid while the page
  // is idle rather than by the agent's first document.
  useEffect(() => {
    const locale = text.locale;
    if (typeof requestIdleCallback !== 'function') {
      prepareRenderer({ locale });
      return;
    }
    const handle = requestIdleCallback(() => prepareRenderer({ locale }), { timeout: 2_000 });
    return () => cancelIdleCallback(handle);
  }, [text.locale]);
  return (
    <div className="host">
      <header className="host__header">
        <h1>LineUp</h1>
        <p className="host__tagline">{text.tagline}</p>
        <LanguageSwitch />
      </header>
      <RuntimeProvider>
        <main className="host__main" aria-label={text.mainLabel}>
          <Conversation />
          <div className="host__side">
            <Workspace />
            <AppCenter />
            <AgentConsole />
          </div>
        </main>
        <RuntimeConsent />
      </RuntimeProvider>
    </div>
  );
}

/** The confirmation dialog of capability calls, once the runtime is ready. */
function RuntimeConsent() {
  const runtime = useRuntime();
  return runtime.status === 'ready' ? <ConsentDialog queue={runtime.consent} /> : null;
}
