import { AppRegistry, openRuntimeDatabase, type ToolConsentConfirm, ToolRuntime } from '@lineup/runtime';
import { createMcpConnector, createMcpToolCaller, installMcpServer } from '@lineup/runtime/mcp';

// Install an MCP server by its Streamable HTTP URL: its tools join the inventory as Agent Tools, the ui://
// views they name are kept hash-pinned. An agent's tool.call then goes through the whole pipeline (revision,
// schema, dedupe by call_id, persisted receipt) and the mcp executor calls the server; the one final result
// waits in the outbox. A server that cannot be read is refused with an McpServerError, and nothing is kept.
// Nothing reaches the server before the user's say: an MCP tool's call asks (`ask`: the host's dialog, which shows
// the question's server, tool, description and exact arguments) unless the user trusts the server and the tool
// says it is read-only.
export async function useMcpServer(url: string, ask: ToolConsentConfirm) {
  const db = await openRuntimeDatabase('lineup-mcp-example');
  const registry = new AppRegistry(db);
  const connect = createMcpConnector();
  const { manifest } = await installMcpServer(registry, url, { connect });
  const runtime = new ToolRuntime(db, registry, { mcp: createMcpToolCaller({ connect }), confirmTool: ask });
  const inventory = await registry.inventory();
  const [tool] = manifest.tools;
  if (tool === undefined) return runtime;
  const { answer } = await runtime.receive('conv_1', {
    call_id: 'call_1',
    inventory_revision: inventory.revision,
    tool: `${tool.app_scope}.${tool.method}`,
    arguments: {},
  });
  console.log(
    manifest.id,
    inventory.tools?.map((entry) => entry.name),
    answer.type,
  );
  return runtime;
}
