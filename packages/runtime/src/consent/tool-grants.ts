/**
 * The allowances a user remembered for a conversation (`tool_grants`): each bound to the app, the MCP server's URL
 * and the exact definition the user saw, so a changed tool is asked about again.
 */
import type { AppRecord, ToolGrantRecord } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import type { ConsentTool } from './consent-tool.js';

/** The key of a grant: `conversationId + "\n" + tool`. */
export const grantKey = (conversationId: string, tool: string) => `${conversationId}\n${tool}`;

/** Whether `grant` still holds for `app` and the definition `definitionHash`. */
export function grantHolds(grant: ToolGrantRecord, app: AppRecord, definitionHash: string): boolean {
  return (
    grant.appId === app.id &&
    grant.definitionHash === definitionHash &&
    grant.serverUrl === (app.kind === 'mcp_server' ? app.manifest.server.url : undefined)
  );
}

/** The grant the user remembered for `tool` of `app` in `conversationId`, for the definition they saw. */
export function grantRecord(
  conversationId: string,
  app: AppRecord,
  tool: ConsentTool,
  definitionHash: string,
  clock: Clock,
): ToolGrantRecord {
  return {
    key: grantKey(conversationId, tool.name),
    conversationId,
    tool: tool.name,
    appId: app.id,
    ...(app.kind === 'mcp_server' ? { serverUrl: app.manifest.server.url } : {}),
    definitionHash,
    grantedAt: clock.now(),
  };
}
