import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';
import * as mcp from './mcp/index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/runtime public surface', () => {
  it('exports exactly the pinned entry points', () => {
    // No more values over both entry points than the 59 of 2026-12-06, before the consent step came.
    expect(Object.keys(entry).length + Object.keys(mcp).length).toBeLessThanOrEqual(59);
    expect(Object.keys(packageJson.exports)).toEqual(['.', './mcp', './package.json']);
  });

  it('exports exactly the pinned names from "./mcp"', () => {
    expect(Object.keys(mcp).sort()).toEqual([
      'LINEUP_MCP_CLIENT_CAPABILITIES',
      'McpServerError',
      'createMcpConnector',
      'createMcpToolCaller',
      'installMcpServer',
      'mcpServerChange',
      'readMcpChallenge',
      'readMcpServer',
      'refreshMcpServer',
    ]);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'AGENT_CLIENT_LIMITS',
      'ActionLedger',
      'ActionLedgerError',
      'ActionRunner',
      'AgentClient',
      'AgentClientError',
      'AppRegistry',
      'BundleIntegrityError',
      'CapabilityError',
      'CapabilityRuntime',
      'ConversationStore',
      'ConversationStoreError',
      'DSL_RISK_OF',
      'HOST_INTENTS',
      'HOST_STANDARD_COMPONENTS',
      'LINEUP_WEBSOCKET_PROTOCOLS',
      'MiniAppConnection',
      'OPERATION_SESSION_KEY',
      'OutboxDelivery',
      'PICKED_BUNDLE_URL',
      'RUNTIME_DATABASE_BLOCKED_TIMEOUT_MS',
      'RUNTIME_DATABASE_NAME',
      'RUNTIME_DATABASE_VERSION',
      'RUNTIME_LOCK_ANSWER_TIMEOUT_MS',
      'RUNTIME_LOCK_HAND_OVER_TIMEOUT_MS',
      'RuntimeStorageError',
      'SchemaUnusableError',
      'TOOL_POLICY_DECISIONS',
      'ToolCallIntake',
      'ToolRuntime',
      'assertUsableSchema',
      'backoffDelay',
      'buildInventory',
      'checkPolicy',
      'claimsOf',
      'consentToolOf',
      'createInProcessTransport',
      'createWebSocketTransport',
      'digestIntegrity',
      'effectivePolicy',
      'fetchVerifiedBundle',
      'holdRuntimeLock',
      'mountMiniAppFrame',
      'openRuntimeDatabase',
      'pickedBundleFetch',
      'prepareAgentClient',
      'runtimeLockName',
      'verifyBundleFiles',
    ]);
  });
});
