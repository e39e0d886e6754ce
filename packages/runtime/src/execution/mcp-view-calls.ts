/**
 * A view's `tools/call` to its own MCP server (an entry point of its own, never an agent's tool call): only a tool
 * views may call, with arguments its input schema accepts, after the consent step's decision; audited as
 * `ui_action` with its outcome.
 */
import type { ConsentSteps } from '../consent/consent-steps.js';
import { type McpToolCaller, refusalMessage, serverErrorMessage } from '../mcp/calls.js';
import type { AppRecord, AuditRecord, RuntimeDatabase } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { withPlaces } from '../tools/intake.js';
import { matchesSchema, refusalOf } from '../tools/schema-validator.js';
import type { McpViewCallAnswer, McpViewCallRefusal } from './runtime-host.js';

/** How long a view's call of an app-only tool may take (an agent tool's own timeout applies to the others). */
const MCP_VIEW_CALL_TIMEOUT_MS = 60_000;

export interface McpViewCallRequest {
  readonly conversationId: string;
  readonly appId: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly signal?: AbortSignal;
}

export interface ViewCallParts {
  readonly db: RuntimeDatabase;
  readonly clock: Clock;
  readonly mcp: McpToolCaller | undefined;
  readonly consent: Pick<ConsentSteps, 'viewCall'>;
}

export async function mcpViewCall(
  parts: ViewCallParts,
  request: McpViewCallRequest,
): Promise<McpViewCallAnswer> {
  const app = await parts.db.get('apps', request.appId);
  const answer = await viewCall(parts, app, request);
  const record: AuditRecord = {
    at: parts.clock.now(),
    type: 'ui_action',
    appId: request.appId.slice(0, 256),
    version: app?.manifest.version ?? '',
    conversationId: request.conversationId,
    detail: `view tools/call ${String(request.tool).slice(0, 128)} ${answer.status === 'ok' ? 'ok' : answer.code}`,
  };
  await parts.db.add('audit', record);
  return answer;
}

async function viewCall(
  parts: ViewCallParts,
  app: AppRecord | undefined,
  request: McpViewCallRequest,
): Promise<McpViewCallAnswer> {
  const refuse = (code: McpViewCallRefusal, message: string): McpViewCallAnswer => ({
    status: 'error',
    code,
    message,
  });
  if (app?.kind !== 'mcp_server') return refuse('unknown_server', 'No MCP server with this id is installed.');
  if (!app.enabled) return refuse('disabled', 'This MCP server is disabled.');
  const { manifest } = app;
  const agentTool = manifest.tools.find((tool) => tool.executor.tool === request.tool);
  const appTool = manifest.app_tools.find((tool) => tool.tool === request.tool);
  if ((agentTool === undefined && appTool === undefined) || manifest.agent_only.includes(request.tool))
    return refuse('unknown_tool', 'This view may call only the tools of its own server that views may call.');
  const args = request.arguments ?? {};
  const schema = agentTool?.input_schema ?? appTool?.input_schema ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args) || !matchesSchema(schema, args))
    return refuse(
      'invalid_arguments',
      withPlaces(
        "The arguments do not match the tool's input schema.",
        refusalOf(schema, args, 'arguments', '(arguments)').places,
      ),
    );
  if (parts.mcp === undefined) return refuse('failed', 'This host cannot call MCP servers.');
  // The consent step, as for an agent's call: nothing reaches the server before the decision its policy requires.
  const refusal = await parts.consent.viewCall({
    conversationId: request.conversationId,
    app,
    agentTool,
    appTool,
    serverTool: request.tool,
    arguments: args as Readonly<Record<string, unknown>>,
    timeoutMs: agentTool?.timeout_ms ?? MCP_VIEW_CALL_TIMEOUT_MS,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  if (refusal !== undefined) return refuse(refusal.code, refusal.message);
  const outcome = await parts.mcp.call({
    url: manifest.server.url,
    tool: request.tool,
    arguments: args as Readonly<Record<string, unknown>>,
    timeoutMs: agentTool?.timeout_ms ?? MCP_VIEW_CALL_TIMEOUT_MS,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  if (outcome.status === 'ok' || outcome.status === 'tool_error')
    return { status: 'ok', result: outcome.result };
  if (outcome.status === 'refused') return refuse('failed', refusalMessage(outcome));
  if (outcome.status === 'server_error') return refuse('failed', serverErrorMessage(outcome));
  return refuse(
    outcome.status === 'timeout' ? 'timeout' : 'failed',
    outcome.status === 'failed' && outcome.phase === 'connect'
      ? 'The MCP server could not be reached.'
      : outcome.status === 'timeout'
        ? 'The MCP server did not answer in time.'
        : 'The call failed.',
  );
}
