import { createMiniAppClient } from '@lineup/miniapp-sdk';
import tools from './tools.js';

// src/main.ts of a MiniApp, the entry its index.html loads: it starts the client when it loads, as the app
// `npm create @lineup/miniapp` writes does (a page that never starts it never says app_ready). The runtime opens
// the page as index.html#lineup-instance=<id>. The client announces app_ready, runs the tools' handlers when the
// runtime routes a call here, and hands the page the session data the runtime committed. The page draws from
// that data; it never talks to the agent.
const list = document.getElementById('notes') as HTMLUListElement;

const client = createMiniAppClient({ tools });
client.onSessionData(({ data }) => {
  const notes = Array.isArray(data.notes) ? data.notes : [];
  list.replaceChildren(
    ...notes.map((text) => {
      const item = document.createElement('li');
      item.textContent = String(text);
      return item;
    }),
  );
});
client.onLifecycle((phase) => {
  if (phase === 'close') client.close();
});
