// The client under test of the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios): LineUp's
// own MCP client code, as built (`@lineup/runtime/mcp`), run by the suite as `node conformance/client.mjs <url>` with
// the scenario in MCP_CONFORMANCE_SCENARIO. It does what the runtime does with a server: reads it as an install would
// (`readMcpServer`: initialize, then every page of tools/list), then — standing in for the agent, which in LineUp
// chooses a tool and its arguments — calls, through the runtime's tool caller (`createMcpToolCaller`), each listed
// tool whose arguments it can fill: two numbers `a` and `b` (5 and 3), or none required (`{}`). It prints what happened and exits 0 when every step did
// what the runtime would accept, 1 otherwise; the suite judges the protocol from what the server saw.
import { createMcpConnector, createMcpToolCaller, readMcpServer } from '../dist/mcp/index.js';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
if (url === undefined) {
  console.error('usage: node conformance/client.mjs <server-url>');
  process.exit(2);
}

const connect = createMcpConnector({
  clientInfo: { name: 'LineUp', version: '0.0.0' },
  requestTimeoutMs: 10_000,
});
let status = 0;
try {
  const { manifest } = await readMcpServer(url, { connect });
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
