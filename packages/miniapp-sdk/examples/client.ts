import { createMiniAppClient, type MiniAppSessionData } from '@lineup/miniapp-sdk';
import tools from './tools.js';

// A MiniApp page's start, as a function: the entry module must call it (`startPage(render)`) when it loads, or
// the page never says app_ready. The runtime opens the page as index.html#lineup-instance=<id>. The client
// announces app_ready, runs the tools' handlers when the runtime routes a call here, and hands the page the
// session data the runtime committed. The page draws from that data; it never talks to the agent.
export function startPage(render: (data: MiniAppSessionData) => void) {
  const client = createMiniAppClient({ tools });
  client.onSessionData(({ data }) => render(data));
  client.onLifecycle((phase) => {
    if (phase === 'close') client.close();
  });
  return client;
}
