/**
 * The Web Reference Host shell. Later issues fill the conversation with DSL documents, Surfaces and Agent
 * Tool progress, and the side panel with the runtime's installed MiniApps.
 */
export function App() {
  return (
    <div className="host">
      <header className="host__header">
        <h1>LineUp</h1>
        <p className="host__tagline">Web Reference Host</p>
      </header>
      <main className="host__main">
        <section className="host__conversation" aria-labelledby="conversation-title">
          <h2 id="conversation-title">Conversation</h2>
          <p className="host__empty">
            No agent is connected yet. Messages, interfaces and tool progress appear here.
          </p>
        </section>
        <aside className="host__apps" aria-labelledby="apps-title">
          <h2 id="apps-title">MiniApps</h2>
          <p className="host__empty">No MiniApp is installed.</p>
        </aside>
      </main>
    </div>
  );
}
