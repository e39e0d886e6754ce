// The SDK page: the tools, the client, session data drawn into the page.
import { createMiniAppClient } from '@lineup/miniapp-sdk';
import tools from './tools.js';

const client = createMiniAppClient({ tools });
client.onSessionData(({ data }) => {
  document.body.textContent = JSON.stringify(data);
});
void client.writeSessionData('opened', true);
