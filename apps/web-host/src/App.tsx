import { prepareRenderer } from '@lineup/renderer-react';
import { prepareAgentClient } from '@lineup/runtime';
import { useEffect, useSyncExternalStore } from 'react';
import { shownAgentUrl } from './agent/agent-link.ts';
import { AppCenter } from './app-center/AppCenter.tsx';
import { ConsentDialog } from './capabilities/ConsentDialog.tsx';
import { AgentConsole } from './console/AgentConsole.tsx';
import { Conversation } from './conversation/Conversation.tsx';
import { LanguageProvider, LanguageSwitch, useText } from './i18n/LanguageProvider.tsx';
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
  // One-time costs of the agent's first document — reading its message (prepareAgentClient), the renderer's
  // number formatting data, Markdown parser, document checks and every component type's first render
  // (prepareRenderer) — paid while the page is idle, each part in a task of its own, not by that document.
  useEffect(() => {
    const locale = text.locale;
    // User Timing marks, for benchmarks and DevTools: when the preparation started and when its renders ended.
    const prepare = () => {
      performance.mark('lineup:prepare-renderer');
      setTimeout(prepareAgentClient, 0);
      prepareRenderer({ locale }).then(
        () => performance.mark('lineup:renderer-prepared'),
        (error: unknown) =>
          console.error('LineUp: preparing the renderer failed (the first document will be slower).', error),
      );
    };
    if (typeof requestIdleCallback !== 'function') {
      prepare();
      return;
    }
    const handle = requestIdleCallback(prepare, { timeout: 2_000 });
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

/** The confirmation dialog of capability, Agent Tool and view calls, once the runtime is ready. */
function RuntimeConsent() {
  const runtime = useRuntime();
  const text = useText();
  const connection = runtime.status === 'ready' ? runtime.connection : null;
  const shownConversation = useSyncExternalStore(
    (listener) => {
      const unsubscribe = connection?.onConversation(listener);
      return () => {
        unsubscribe?.();
      };
    },
    () => connection?.conversationId ?? null,
    () => null,
  );
  if (runtime.status !== 'ready') return null;
  return (
    <ConsentDialog
      queue={runtime.consent}
      agent={
        runtime.connection.remoteUrl == null ? text.demoAgent : shownAgentUrl(runtime.connection.remoteUrl)
      }
      shownConversation={shownConversation}
    />
  );
}
