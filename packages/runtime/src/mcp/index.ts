/**
 * @lineup/runtime/mcp — MCP servers as apps of the runtime (`@lineup/shared` docs/mcp.md): open sessions with the
 * official MCP TypeScript SDK's client over Streamable HTTP (`createMcpConnector`), read a server for install or
 * refresh (`readMcpServer`, kept by `AppRegistry.installMcpServer`; `installMcpServer` and `refreshMcpServer` do
 * both), and call its tools (`createMcpToolCaller`, the `mcp` option of `ToolRuntime`).
 */
export {
  createMcpToolCaller,
  type McpCallOutcome,
  type McpCallToolResult,
  type McpToolCaller,
  type McpToolCallerOptions,
  type McpToolCallRequest,
} from './calls.js';
export {
  installMcpServer,
  type McpServerChange,
  mcpServerChange,
  refreshMcpServer,
} from './install.js';
export {
  McpServerError,
  type McpServerErrorCode,
  type ReadMcpServer,
  type ReadMcpServerOptions,
  readMcpServer,
} from './read-server.js';
export {
  createMcpConnector,
  LINEUP_MCP_CLIENT_CAPABILITIES,
  type McpChallenge,
  type McpConnector,
  type McpConnectorOptions,
  type McpServerAuth,
  type McpServerIdentity,
  type McpSession,
  readMcpChallenge,
} from './session.js';
