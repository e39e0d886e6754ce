// The client under test of the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios): LineUp's
// own MCP client code, as built (`@lineup/runtime/mcp`), run by the suite as `node conformance/client.mjs <url>` with
// the scenario in MCP_CONFORMANCE_SCENARIO. It does what the runtime does with a server: reads it as an install would
// (`readMcpServer`: initialize, then every page of tools/list), then — standing in for the agent, which in LineUp
// chooses a tool and its arguments — calls, through the runtime's tool caller (`createMcpToolCaller`), each listed
// tool whose arguments it can fill: two numbers `a` and `b` (5 and 3), or none required (`{}`). A server that asks
// who you are (401) is signed in to as the Web Reference Host signs in — the MCP SDK's `auth` with an OAuth client
// provider, here one that plays the user who approves (it follows the authorization URL to where the authorization
// server sends the answer, as the suite's authorization servers approve without a page) — and read again. It prints
// what happened and exits 0 when every step did what the runtime would accept, 1 otherwise; the suite judges the
// protocol from what the servers saw.
import { auth } from '@modelcontextprotocol/client';
import {
  createMcpConnector,
  createMcpToolCaller,
  readMcpChallenge,
  readMcpServer,
} from '../dist/mcp/index.js';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
if (url === undefined) {
  console.error('usage: node conformance/client.mjs <server-url>');
  process.exit(2);
}

/** The user's sign-in, played; a scenario's pre-registered client comes in MCP_CONFORMANCE_CONTEXT. */
class PlayedSignIn {
  constructor() {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
    this.client =
      typeof context.client_id === 'string'
        ? {
            client_id: context.client_id,
            ...(typeof context.client_secret === 'string' ? { client_secret: context.client_secret } : {}),
          }
        : undefined;
  }
  get redirectUrl() {
    return 'http://127.0.0.1:3000/oauth-callback.html';
  }
  get clientMetadata() {
    return {
      client_name: 'LineUp',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(authorizationUrl) {
    const answer = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location') ?? '', authorizationUrl);
    this.code = back.searchParams.get('code') ?? undefined;
    this.iss = back.searchParams.get('iss') ?? undefined;
  }
}

const signIn = new PlayedSignIn();
const connect = createMcpConnector({
  clientInfo: { name: 'LineUp', version: '0.0.0' },
  requestTimeoutMs: 10_000,
  auth: () => signIn,
});

/** Reads the server; one that asks who you are is signed in to, then read again. */
async function read() {
  try {
    return await readMcpServer(url, { connect });
  } catch (error) {
    if (error?.code !== 'unauthorized') throw error;
    const challenge = await readMcpChallenge(url);
    if ((await auth(signIn, { serverUrl: url, ...challenge })) !== 'AUTHORIZED') {
      if (signIn.code === undefined) throw new Error('The authorization server gave no code.');
      await auth(signIn, {
        serverUrl: url,
        ...challenge,
        authorizationCode: signIn.code,
        ...(signIn.iss === undefined ? {} : { iss: signIn.iss }),
      });
    }
    return readMcpServer(url, { connect });
  }
}

let status = 0;
try {
  const { manifest } = await read();
  console.log(`[${scenario}] read ${manifest.name}: ${manifest.tools.length} tool(s) for agents`);
  const caller = createMcpToolCaller({ connect });
  for (const tool of manifest.tools) {
    const properties = tool.input_schema?.properties ?? {};
    const numbers = properties.a?.type === 'number' && properties.b?.type === 'number';
    if (!numbers && (tool.input_schema?.required ?? []).length > 0) continue;
    const outcome = await caller.call({
      url,
      tool: tool.executor.tool,
      arguments: numbers ? { a: 5, b: 3 } : {},
      timeoutMs: 10_000,
    });
    console.log(`[${scenario}] ${tool.executor.tool}: ${JSON.stringify(outcome).slice(0, 300)}`);
    if (outcome.status !== 'ok') status = 1;
  }
  await caller.close();
} catch (error) {
  console.error(
    `[${scenario}] ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  );
  status = 1;
}
process.exit(status);
