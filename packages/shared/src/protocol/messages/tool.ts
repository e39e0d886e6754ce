/**
 * Agent Tool calls on the wire (seed 003 §4; names from DESIGN.md "Wire messages", which the seeds leave open):
 * - `lineup.v1.tool.call` (agent → client): a call of a tool in the current inventory, with its `call_id`
 *   and the `inventory_revision` it was chosen from (seed 003 §1 "Tool Call", §4.2 step 1).
 * - `lineup.v1.tool.progress` (client → agent): a protocol receipt or progress fact of an accepted call,
 *   persisted and sent through the runtime's outbox. It is not a business result and follows no output
 *   schema (seed 003 §1, §4.2 step 8, §4.3).
 * - `lineup.v1.tool.result` (client → agent): the one final result of a call — a business result the
 *   runtime has validated against the tool's output schema, or a stable error. Exactly one per `call_id`;
 *   a replay of the `call_id` returns the persisted one (seed 003 §4.2). Uniqueness is the runtime's duty:
 *   a single message cannot prove it.
 *
 * No message names an `instance_id`, `app_session_id` or `operation_id`: the runtime resolves the target from
 * the conversation and app scope, and never lets an agent choose or learn one (seed 003 §2.3, §4.3, §7).
 * The closed objects reject those fields.
 */
import { z } from 'zod';
import { MINIAPP_CHANNEL_LIMITS } from '../../bridge/miniapp.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { boundedJSONObject, boundedJSONValue } from '../../json/json-data.js';
import { AppScopeSchema } from '../../names/names.js';
import { AgentToolNameSchema } from '../tools/descriptor.js';
import { LineUpIdSchema, LineUpTokenSchema } from './common.js';
import { resultError } from './issues.js';

/**
 * `lineup.v1.tool.call`. Arguments are bounded like the MiniApp channel's invocation, to which the runtime
 * hands them after validating them against the published input schema.
 */
export const ToolCallPayloadSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    inventory_revision: LineUpIdSchema,
    tool: AgentToolNameSchema,
    arguments: boundedJSONObject(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes, 'Tool arguments'),
  })
  .meta({ id: 'ToolCallPayload' });
export type ToolCallPayload = z.infer<typeof ToolCallPayloadSchema>;

/**
 * seed 003 §4.3, §7: `accepted` / `starting` — the call is accepted and the MiniApp is being prepared;
 * `activation_ready` — the MiniApp is ready, so tools needing `app_ready` can be served; `started` — the
 * business really began (Pomodoro: foreground confirmed and the timer running; it implies ready, so the
 * runtime does not send both); `activation_failed` / `activation_cancelled` — the start cannot go on, and
 * waiting calls will get a controlled failure.
 */
export const TOOL_PROGRESS_STATUSES = [
  'accepted',
  'starting',
  'activation_ready',
  'started',
  'activation_failed',
  'activation_cancelled',
] as const;
export type ToolProgressStatus = (typeof TOOL_PROGRESS_STATUSES)[number];

/**
 * `lineup.v1.tool.progress`: only `call_id`, `app_scope`, the status and a controlled reason (seed 003 §4.3
 * "公开通知只携带 call_id、app_scope、状态和受控 reason"). The reason is a token the runtime chooses
 * (`foreground_denied`), never free text that could carry an id.
 */
export const ToolProgressPayloadSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    app_scope: AppScopeSchema,
    status: z.enum(TOOL_PROGRESS_STATUSES),
    reason: LineUpTokenSchema.exactOptional(),
  })
  .meta({ id: 'ToolProgressPayload' });
export type ToolProgressPayload = z.infer<typeof ToolProgressPayloadSchema>;

/**
 * Stable error codes of a final tool result. From seed 003 §4.3: `app_activation_failed`,
 * `app_activation_cancelled` (the activation a waiting call depended on ended; its handler never ran). The
 * others name the checks of seed 003 §4.2 and seed 000 §5.1:
 * - `unsupported` — no such tool in the inventory visible to this agent and conversation (an invisible tool
 *   is not distinguished from an unknown one);
 * - `revoked` — the tool, or its app, was withdrawn since the agent's revision (seed 000 §5.1);
 * - `stale_inventory` — `inventory_revision` is not the current revision;
 * - `invalid_arguments` — the arguments fail the published input schema;
 * - `permission_denied` — policy, or the user, refused (the consent step: the user said no, the host's or the
 *   user's policy denies the tool, the host cannot ask, or too many calls already wait for the user's answer);
 * - `consent_dismissed` — the user closed the consent question without answering (Escape, the close button): not a
 *   refusal of the tool, and nothing ran; the agent may ask again later;
 * - `call_id_conflict` — the `call_id` was used before for a different call;
 * - `timeout` — no final result within the tool's `timeout_ms`;
 * - `invalid_output` — the handler's result failed the tool's output schema, so it was not delivered;
 * - `execution_failed` — the handler or built-in failed;
 * - `invalid_message` — the call message itself was invalid (its `call_id` readable, something else not): it
 *   was not recorded and never ran, and `error.issues` says where;
 * - `unknown_conversation` — the call named a conversation that is not one of this client's session;
 * - `outcome_unknown` — the call was sent to an MCP server and the page closed before its answer came: it may
 *   have taken effect there, so it is never sent again (an unknown external effect is not retried).
 */
export const TOOL_ERROR_CODES = [
  'unsupported',
  'revoked',
  'stale_inventory',
  'invalid_arguments',
  'permission_denied',
  'consent_dismissed',
  'call_id_conflict',
  'app_activation_failed',
  'app_activation_cancelled',
  'timeout',
  'invalid_output',
  'execution_failed',
  'invalid_message',
  'unknown_conversation',
  'outcome_unknown',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export const ToolErrorSchema = resultError(z.enum(TOOL_ERROR_CODES)).meta({ id: 'ToolError' });
export type ToolError = z.infer<typeof ToolErrorSchema>;

/** `completed`: a business result (which may itself say "not started"); `error`: a protocol failure. */
export const TOOL_RESULT_OUTCOMES = ['completed', 'error'] as const;
export type ToolResultOutcome = (typeof TOOL_RESULT_OUTCOMES)[number];

/**
 * `lineup.v1.tool.result`: `completed` with `result`, any JSON value, as the MiniApp channel's handler
 * return (validated by the runtime against the tool's output schema before it was persisted), or `error`
 * with `error`. Pomodoro's `not_started` is a `completed`
 * business result of its output schema, not an error (seed 003 §7).
 */
export const ToolResultPayloadSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    outcome: z.enum(TOOL_RESULT_OUTCOMES),
    result: boundedJSONValue(MINIAPP_CHANNEL_LIMITS.maxToolResultBytes, 'A tool result').exactOptional(),
    error: ToolErrorSchema.exactOptional(),
  })
  .superRefine((payload, context) => {
    const [required, forbidden] = payload.outcome === 'completed' ? ['result', 'error'] : ['error', 'result'];
    if (payload[required as 'result' | 'error'] === undefined) {
      context.addIssue({
        code: 'custom',
        path: [required],
        message: `A ${payload.outcome} outcome carries ${required}.`,
        params: { code: 'missing_property' satisfies UIIssueCode },
      });
    }
    if (payload[forbidden as 'result' | 'error'] !== undefined) {
      context.addIssue({
        code: 'custom',
        path: [forbidden],
        message: `A ${payload.outcome} outcome carries no ${forbidden}.`,
        params: { code: 'unknown_property' satisfies UIIssueCode },
      });
    }
  })
  .meta({ id: 'ToolResultPayload' });
export type ToolResultPayload = z.infer<typeof ToolResultPayloadSchema>;
