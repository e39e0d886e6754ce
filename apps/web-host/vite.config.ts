import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, loadEnv } from 'vite';
import { SOURCE_CONDITIONS } from '../../vitest.shared.ts';
import { bundledMiniApps } from './bundled-miniapps.ts';
import { PREVIEW_PORT } from './preview-port.ts';
import { checkAgentUrl } from './src/agent/agent-link.ts';
import { parseToolPolicy } from './src/capabilities/tool-policy.ts';

/**
 * The deployer's agent (LINEUP_AGENT_URL) follows the transport rule of any agent URL (src/agent/agent-link.ts):
 * `wss://`, or `ws://` to this computer only. A build that would break it fails here, with the reason; the page
 * refuses it too.
 */
function checkConfiguredAgent(mode: string): void {
  const url = loadEnv(mode, process.cwd(), 'LINEUP_AGENT_URL').LINEUP_AGENT_URL ?? '';
  if (url === '') return;
  const checked = checkAgentUrl(url);
  if (checked.ok) return;
  const why = {
    not_a_url: 'it is not a URL',
    not_websocket: 'it is not a ws:// or wss:// URL',
    insecure:
      'ws:// (unencrypted) is allowed only to localhost, 127.0.0.0/8 or [::1]; use wss:// for any other host',
    credentials: 'it holds a user name or password',
    fragment: 'it has a # part, which a WebSocket URL cannot have',
    too_long: 'it is longer than 2,048 characters',
    several: 'it names more than one agent',
    framed: 'it is shown inside another page',
  }[checked.problem];
  throw new Error(`LINEUP_AGENT_URL=${url} cannot be used: ${why}.`);
}

export default defineConfig(({ mode }) => {
  checkConfiguredAgent(mode);
  // The deployer's consent rules for Agent Tools (src/capabilities/tool-policy.ts): not JSON, the build fails.
  parseToolPolicy(loadEnv(mode, process.cwd(), 'LINEUP_TOOL_POLICY').LINEUP_TOOL_POLICY);
  return {
    plugins: [react(), bundledMiniApps()],
    // LINEUP_AGENT_URL=ws://host:port/path at build time connects the host to that agent without asking
    // (see agent/connection.ts); it follows the ws/wss rule of agent/agent-link.ts.
    // LINEUP_TOOL_POLICY='[{"tools":"files.*","decision":"deny"}]' sets the host integrator's consent rules.
    envPrefix: ['VITE_', 'LINEUP_AGENT_URL', 'LINEUP_TOOL_POLICY'],
    // The host is built from the workspace packages' sources, so a change in a package shows up without
    // publishing it first.
    resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
    build: { target: 'es2022', sourcemap: true },
    preview: { host: '127.0.0.1', port: PREVIEW_PORT, strictPort: true },
    server: { host: '127.0.0.1' },
  };
});
