import { Conversation } from './conversation/Conversation.tsx';

/**
 * The Web Reference Host shell: the conversation (DSL interfaces through @lineup/renderer-react; Surfaces and
 * Agent Tool progress come with their packages) and the side panel with the runtime's installed MiniApps.
 */
export function App() {
  return (
    <div className="host">
      <header className="host__header">
        <h1>LineUp</h1>
        <p className="host__tagline">Web Reference Host</p>
      </header>
      <main className="host__main">
        <Conversation />
        <aside className="host__apps" aria-labelledby="apps-title">
          <h2 id="apps-title">MiniApps</h2>
          <p className="host__empty">No MiniApp is installed.</p>
        </aside>
      </main>
    </div>
  );
}
