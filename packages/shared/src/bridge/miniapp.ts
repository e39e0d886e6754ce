/**
 * `lineup.miniapp.v1`: the postMessage channel between the runtime (through the host) and an installed MiniApp
 * bundle built with `@lineup/miniapp-sdk` (seed 003 §3–§8; DESIGN.md "two iframe channels"). A Surface never
 * gets this channel, and this parser rejects every Surface message (bridge/surface.ts).
 *
 * A frame is bound to one MiniApp instance: the runtime attaches the instance, app session, conversation and
 * activation to what the frame sends, from its own records, so no message carries a conversation, call,
 * operation or agent identity (seed 003 §2.3, §4.3: those never become targets a frame or an agent chooses).
 *
 * Down (runtime → frame):
 * - `tool_invocation` — an agent tool call the runtime accepted and routed to the SDK handler of `method`,
 *   with arguments it validated against the published input schema (seed 003 §4.2 step 5). `invocation_id`
 *   pairs it with its `tool_return`; it is the runtime's, not the agent's `call_id`.
 * - `session_data`    — a snapshot of this app session's data and its revision (seed 003 §5): after
 *   `app_ready`, and after every committed change (seed 003 §8.8: facts first, then the frame reconciles).
 * - `lifecycle`       — `foreground`, `background` or the generic `close` notice; a close never says why
 *   (seed 003 §7 "只接收通用 lifecycle 关闭通知").
 * - `request_result`  — the runtime's answer to a `session_data_write` or `ui_action`.
 * - `tool_invocation_cancel` — the runtime no longer waits for an invocation (its call timed out or ended):
 *   the SDK aborts the handler's `AbortSignal`; a later `tool_return` for it is ignored.
 *
 * Up (frame → runtime):
 * - `app_ready`  — the SDK listens and its handlers are registered: the activation may become ready
 *   (seed 003 §4.3 "MiniApp … 只能向 Runtime 报告自己的就绪或失败"). Sent again after a reload.
 * - `app_failed` — the bundle cannot start; the runtime fails the activation.
 * - `tool_return` — a handler's return for one `invocation_id`: `ok` with a JSON result (which the runtime
 *   still validates against the tool's output schema) or `error` with a stable code. A frame never sends a
 *   result to the agent (seed 003 §8.6).
 * - `session_data_write` — one key of this app session's data (seed 003 §5, §8.5).
 * - `ui_action`  — a local UI action: its own entry point with its own name and bounded arguments, never an
 *   agent tool call (seed 003 §3, §8.2–§8.3).
 *
 * Foreground is confirmed by the host's workspace, never by the frame, which cannot prove it is visible
 * (seed 003 §7 "Host 确认 Pomodoro 已成为当前前台 App"); so there is no upward foreground message.
 */

import { z } from 'zod';
import { ScalarSchema, UIIdentifierSchema } from '../dsl/scalars.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { UI_ISSUE_CODES } from '../errors/issues.js';
import { boundedDictionary, boundedJSONObject, boundedJSONValue } from '../json/json-data.js';
import { messageBudget, parseShape } from '../json/parse.js';
import { AppScopeSchema, TOKEN_PATTERN, ToolMethodSchema } from '../names/names.js';
import { assertInstance, BridgeInstanceIdSchema, BridgeMessageIdSchema, namespaceGate } from './channel.js';
import {
  MINIAPP_CHANNEL_LIMITS,
  MINIAPP_FROM_FRAME_MAX_BYTES,
  MINIAPP_ISSUE_PATH_PATTERN,
  MINIAPP_LIFECYCLE_PHASES,
  MINIAPP_NAME_PATTERN,
  MINIAPP_NAMESPACE,
  MINIAPP_SESSION_KEY_PATTERN,
  MINIAPP_TO_FRAME_MAX_BYTES,
} from './miniapp-constants.js';
import { miniAppErrorIssue } from './miniapp-issues.js';

export {
  MINIAPP_CHANNEL_LIMITS,
  MINIAPP_FROM_FRAME_MAX_BYTES,
  MINIAPP_INSTANCE_PARAMETER,
  MINIAPP_ISSUE_PATH_PATTERN,
  MINIAPP_LIFECYCLE_PHASES,
  MINIAPP_NAME_PATTERN,
  MINIAPP_NAMESPACE,
  MINIAPP_SDK_ERROR_CODES,
  MINIAPP_SESSION_KEY_PATTERN,
  MINIAPP_TO_FRAME_MAX_BYTES,
  type MiniAppLifecyclePhase,
  type MiniAppSdkErrorCode,
} from './miniapp-constants.js';

const name = (id: string, description: string) =>
  z
    .string()
    .min(1)
    .max(MINIAPP_CHANNEL_LIMITS.maxNameLength)
    .regex(MINIAPP_NAME_PATTERN)
    .meta({ id, description });

/**
 * The method of a tool and its app scope, exactly as the tool's descriptor publishes them (`start`, `pomodoro`;
 * seed 003 §4.1): one definition, so the SDK dispatches precisely what the manifest declared.
 */
export const MiniAppMethodSchema = ToolMethodSchema;
/** The app scope of a tool; the frame's own app, never another. */
export const MiniAppScopeSchema = AppScopeSchema;
/** The name of a local UI action: its identity as an entry point (seed 003 §3). */
export const MiniAppUIActionNameSchema = name('MiniAppUIActionName', 'A dotted name such as focus.start.');

export const MiniAppSessionKeySchema = z
  .string()
  .min(1)
  .max(MINIAPP_CHANNEL_LIMITS.maxSessionKeyLength)
  .regex(MINIAPP_SESSION_KEY_PATTERN)
  .meta({ id: 'MiniAppSessionKey' });

const revision = () => z.int().min(0).max(MINIAPP_CHANNEL_LIMITS.maxRevision);

/** Where a value failed a schema, and how: a path of names and indexes and a stable code, never the value. */
export const MiniAppErrorIssueSchema = z
  .strictObject({
    path: z
      .string()
      .min(1)
      .max(MINIAPP_CHANNEL_LIMITS.maxErrorIssuePathLength)
      .regex(MINIAPP_ISSUE_PATH_PATTERN),
    code: z.enum(UI_ISSUE_CODES),
  })
  .meta({ id: 'MiniAppErrorIssue' });

export const MiniAppErrorSchema = z
  .strictObject({
    code: z.string().min(1).max(MINIAPP_CHANNEL_LIMITS.maxErrorCodeLength).regex(TOKEN_PATTERN),
    message: z.string().max(MINIAPP_CHANNEL_LIMITS.maxErrorMessageLength).exactOptional(),
    /** The first issues of an `invalid_arguments` or `invalid_output` (paths in the arguments or the result). */
    issues: z
      .array(MiniAppErrorIssueSchema)
      .min(1)
      .max(MINIAPP_CHANNEL_LIMITS.maxErrorIssues)
      .exactOptional(),
  })
  .meta({
    id: 'MiniAppError',
    description: 'A stable snake_case code, an optional message for people, and optional located issues.',
  });

/** A session data dictionary: bounded keys, any JSON values, bounded in count and bytes. */
export const MiniAppSessionDataSchema = boundedDictionary(MiniAppSessionKeySchema, z.json(), {
  maxEntries: MINIAPP_CHANNEL_LIMITS.maxSessionDataKeys,
  maxBytes: MINIAPP_CHANNEL_LIMITS.maxSessionDataBytes,
  what: 'Session data',
}).meta({ id: 'MiniAppSessionData' });

/** UI action arguments: flat scalars under identifier keys, bounded in count and bytes. */
export const MiniAppUIActionArgumentsSchema = boundedDictionary(UIIdentifierSchema, ScalarSchema, {
  maxEntries: MINIAPP_CHANNEL_LIMITS.maxUIActionArguments,
  maxBytes: MINIAPP_CHANNEL_LIMITS.maxUIActionArgumentBytes,
  what: 'UI action arguments',
}).meta({ id: 'MiniAppUIActionArguments' });

const namespace = z.literal(MINIAPP_NAMESPACE);
const instance_id = BridgeInstanceIdSchema;

// Down: runtime → frame

export const MiniAppToolInvocationMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('tool_invocation'),
    instance_id,
    invocation_id: BridgeMessageIdSchema,
    app_scope: MiniAppScopeSchema,
    method: MiniAppMethodSchema,
    arguments: boundedJSONObject(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes, 'Tool arguments'),
  })
  .meta({ id: 'MiniAppToolInvocationMessage' });

export const MiniAppSessionDataMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('session_data'),
    instance_id,
    revision: revision(),
    data: MiniAppSessionDataSchema,
  })
  .meta({ id: 'MiniAppSessionDataMessage' });

export const MiniAppLifecycleMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('lifecycle'),
    instance_id,
    phase: z.enum(MINIAPP_LIFECYCLE_PHASES),
  })
  .meta({ id: 'MiniAppLifecycleMessage' });

export const MiniAppRequestResultMessageSchema = z
  .discriminatedUnion('status', [
    z.strictObject({
      namespace,
      type: z.literal('request_result'),
      instance_id,
      request_id: BridgeMessageIdSchema,
      status: z.literal('ok'),
      /** The session data revision after an accepted write. */
      revision: revision().exactOptional(),
    }),
    z.strictObject({
      namespace,
      type: z.literal('request_result'),
      instance_id,
      request_id: BridgeMessageIdSchema,
      status: z.literal('error'),
      error: MiniAppErrorSchema,
    }),
  ])
  .meta({ id: 'MiniAppRequestResultMessage' });

export const MiniAppToolInvocationCancelMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('tool_invocation_cancel'),
    instance_id,
    invocation_id: BridgeMessageIdSchema,
  })
  .meta({ id: 'MiniAppToolInvocationCancelMessage' });

// Up: frame → runtime

export const MiniAppReadyMessageSchema = z
  .strictObject({ namespace, type: z.literal('app_ready'), instance_id })
  .meta({ id: 'MiniAppReadyMessage' });

export const MiniAppFailedMessageSchema = z
  .strictObject({ namespace, type: z.literal('app_failed'), instance_id, error: MiniAppErrorSchema })
  .meta({ id: 'MiniAppFailedMessage' });

export const MiniAppToolReturnMessageSchema = z
  .discriminatedUnion('status', [
    z.strictObject({
      namespace,
      type: z.literal('tool_return'),
      instance_id,
      invocation_id: BridgeMessageIdSchema,
      status: z.literal('ok'),
      result: boundedJSONValue(MINIAPP_CHANNEL_LIMITS.maxToolResultBytes, 'A tool result'),
    }),
    z.strictObject({
      namespace,
      type: z.literal('tool_return'),
      instance_id,
      invocation_id: BridgeMessageIdSchema,
      status: z.literal('error'),
      error: MiniAppErrorSchema,
    }),
  ])
  .meta({ id: 'MiniAppToolReturnMessage' });

export const MiniAppSessionDataWriteMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('session_data_write'),
    instance_id,
    request_id: BridgeMessageIdSchema,
    key: MiniAppSessionKeySchema,
    value: boundedJSONValue(MINIAPP_CHANNEL_LIMITS.maxSessionValueBytes, 'A session data value'),
    /** When present, the runtime applies the write only at this revision (an optimistic check). */
    base_revision: revision().exactOptional(),
  })
  .meta({ id: 'MiniAppSessionDataWriteMessage' });

export const MiniAppUIActionMessageSchema = z
  .strictObject({
    namespace,
    type: z.literal('ui_action'),
    instance_id,
    request_id: BridgeMessageIdSchema,
    action: MiniAppUIActionNameSchema,
    arguments: MiniAppUIActionArgumentsSchema,
  })
  .meta({ id: 'MiniAppUIActionMessage' });

/** Every message the runtime may send to a MiniApp frame. */
export const MiniAppMessageToFrameSchema = z
  .discriminatedUnion('type', [
    MiniAppToolInvocationMessageSchema,
    MiniAppToolInvocationCancelMessageSchema,
    MiniAppSessionDataMessageSchema,
    MiniAppLifecycleMessageSchema,
    MiniAppRequestResultMessageSchema,
  ])
  .meta({ id: 'MiniAppMessageToFrame' });

/** Every message a MiniApp frame may send to the runtime. */
export const MiniAppMessageFromFrameSchema = z
  .discriminatedUnion('type', [
    MiniAppReadyMessageSchema,
    MiniAppFailedMessageSchema,
    MiniAppToolReturnMessageSchema,
    MiniAppSessionDataWriteMessageSchema,
    MiniAppUIActionMessageSchema,
  ])
  .meta({ id: 'MiniAppMessageFromFrame' });

export type MiniAppError = z.infer<typeof MiniAppErrorSchema>;
export type MiniAppErrorIssue = z.infer<typeof MiniAppErrorIssueSchema>;
export type MiniAppSessionData = z.infer<typeof MiniAppSessionDataSchema>;
export type MiniAppUIActionArguments = z.infer<typeof MiniAppUIActionArgumentsSchema>;
export type MiniAppToolInvocationMessage = z.infer<typeof MiniAppToolInvocationMessageSchema>;
export type MiniAppToolInvocationCancelMessage = z.infer<typeof MiniAppToolInvocationCancelMessageSchema>;
export type MiniAppSessionDataMessage = z.infer<typeof MiniAppSessionDataMessageSchema>;
export type MiniAppLifecycleMessage = z.infer<typeof MiniAppLifecycleMessageSchema>;
export type MiniAppRequestResultMessage = z.infer<typeof MiniAppRequestResultMessageSchema>;
export type MiniAppReadyMessage = z.infer<typeof MiniAppReadyMessageSchema>;
export type MiniAppFailedMessage = z.infer<typeof MiniAppFailedMessageSchema>;
export type MiniAppToolReturnMessage = z.infer<typeof MiniAppToolReturnMessageSchema>;
export type MiniAppSessionDataWriteMessage = z.infer<typeof MiniAppSessionDataWriteMessageSchema>;
export type MiniAppUIActionMessage = z.infer<typeof MiniAppUIActionMessageSchema>;
export type MiniAppMessageToFrame = z.infer<typeof MiniAppMessageToFrameSchema>;
export type MiniAppMessageFromFrame = z.infer<typeof MiniAppMessageFromFrameSchema>;

const FROM_FRAME = namespaceGate(MINIAPP_NAMESPACE, MiniAppMessageFromFrameSchema);
const TO_FRAME = namespaceGate(MINIAPP_NAMESPACE, MiniAppMessageToFrameSchema);
const FROM_FRAME_BUDGET = messageBudget(MINIAPP_FROM_FRAME_MAX_BYTES);
const TO_FRAME_BUDGET = messageBudget(MINIAPP_TO_FRAME_MAX_BYTES);

/**
 * Validates a message a MiniApp frame posted, for the instance the runtime mounted in that frame. The caller
 * has already checked that `event.source` is that frame's window. Returns a deep-frozen copy; throws
 * `LineUpProtocolError` for anything else, a Surface message included.
 */
export function parseMiniAppMessageFromFrame(
  input: unknown,
  expectedInstanceId: string,
): MiniAppMessageFromFrame {
  return assertInstance(
    parseShape(FROM_FRAME, input, { budget: FROM_FRAME_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

/**
 * Validates a message the runtime posted to a MiniApp frame (used by the SDK inside the frame). With
 * `expectedInstanceId`, a message for another instance is rejected too.
 */
export function parseMiniAppMessageToFrame(
  input: unknown,
  expectedInstanceId?: string,
): MiniAppMessageToFrame {
  return assertInstance(
    parseShape(TO_FRAME, input, { budget: TO_FRAME_BUDGET }, LineUpProtocolError),
    expectedInstanceId,
  );
}

/**
 * How the runtime answers a message from a frame that `parseMiniAppMessageFromFrame` refused, when the message
 * says whom to answer — so the page learns of its mistake at once, with where it is, instead of waiting out a
 * timeout:
 * - `request`: a `session_data_write` or `ui_action` gets this `request_result` error: code `protocol_invalid`,
 *   the refusal's message (bounded) and its first issues as the channel carries them (paths into the message,
 *   such as `key` or `value.items[2]`, and codes; never a value);
 * - `invocation`: an `ok` `tool_return` whose result the channel refuses (over its bytes, not JSON data) ends its
 *   invocation as `invalid_output`, the handler's result that could not be delivered. An `error` return the
 *   channel refuses ends nothing: the SDK writes those within the rules, so one that breaks them is not the
 *   SDK's, and the call goes on to its own end (its timeout, or a valid return).
 * Only the envelope and the one id are read, through own data properties (a getter never runs), each checked
 * by its own rule: namespace, the expected instance, the type, then the id. Anything else gets no answer.
 */
export type MiniAppRefusalAnswer =
  | { readonly kind: 'request'; readonly message: MiniAppRequestResultMessage }
  | { readonly kind: 'invocation'; readonly invocationId: string; readonly code: 'invalid_output' };

/** The code of a `request_result` error for a request the channel refused. */
export const MINIAPP_PROTOCOL_INVALID = 'protocol_invalid';

/** See `MiniAppRefusalAnswer`; `undefined` when the refused message names nothing of `expectedInstanceId` to answer. */
export function answerRefusedMiniAppMessage(
  input: unknown,
  expectedInstanceId: string,
  error: LineUpProtocolError,
): MiniAppRefusalAnswer | undefined {
  const field = (key: string): unknown => {
    const descriptor = Object.getOwnPropertyDescriptor(input, key);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  };
  const id = (value: unknown): value is string =>
    typeof value === 'string' && BridgeMessageIdSchema.safeParse(value).success;
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
    if (field('namespace') !== MINIAPP_NAMESPACE || field('instance_id') !== expectedInstanceId)
      return undefined;
    const type = field('type');
    if (type === 'session_data_write' || type === 'ui_action') {
      const requestId = field('request_id');
      if (!id(requestId)) return undefined;
      const issues = error.issues
        .slice(0, MINIAPP_CHANNEL_LIMITS.maxErrorIssues)
        .map((issue) => miniAppErrorIssue(issue.path, issue.code));
      const max = MINIAPP_CHANNEL_LIMITS.maxErrorMessageLength;
      return {
        kind: 'request',
        message: {
          namespace: MINIAPP_NAMESPACE,
          type: 'request_result',
          instance_id: expectedInstanceId,
          request_id: requestId,
          status: 'error',
          error: {
            code: MINIAPP_PROTOCOL_INVALID,
            message: error.message.length <= max ? error.message : `${error.message.slice(0, max - 1)}…`,
            ...(issues.length === 0 ? {} : { issues }),
          },
        },
      };
    }
    if (type === 'tool_return' && field('status') === 'ok') {
      const invocationId = field('invocation_id');
      return id(invocationId) ? { kind: 'invocation', invocationId, code: 'invalid_output' } : undefined;
    }
    return undefined;
  } catch {
    // Only a Proxy's trap can throw while its own properties are read.
    return undefined;
  }
}
