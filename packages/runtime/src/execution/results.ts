/**
 * Step 8 of the pipeline: a call's protocol progress and its one final result, each persisted as the call's latest
 * answer with its outbox row in the step's own transaction — progress never carries business output; a completed
 * result must satisfy the tool's output schema, or the agent gets `invalid_output` instead — and the audit entries
 * that go with them.
 */
import type { AgentToolDescriptor, ToolProgressStatus, ToolResultPayload } from '@lineup/shared/protocol';
import {
  type AuditType,
  type InstanceRecord,
  issue,
  OUTBOX_PENDING,
  type ToolCallRecord,
} from '../storage/database.js';
import { type ToolCallAnswer, withPlaces } from '../tools/intake.js';
import { matchesSchema, refusalOf } from '../tools/schema-validator.js';
import type { Step } from './step.js';
import { callIn, putCall } from './step-records.js';

/** Ends `call` with `execution_failed` and a message for the agent. */
export function fail(step: Step, call: ToolCallRecord, message: string): Promise<void> {
  return finish(step, call, { outcome: 'error', error: { code: 'execution_failed', message } });
}

/** Persists a protocol progress of `call` as its latest answer, with its outbox row. */
export async function progress(
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  status: ToolProgressStatus,
): Promise<void> {
  const answer: ToolCallAnswer = {
    type: 'lineup.v1.tool.progress',
    payload: { call_id: call.callId, app_scope: descriptor.app_scope, status },
  };
  const current = (await callIn(step.transaction, call.key)) ?? call;
  await putCall(step.transaction, { ...current, latest: answer });
  await outbox(step, call.conversationId, answer);
}

/**
 * Persists the one final result of `call`: a completed result must satisfy the tool's output schema, or the agent
 * gets `invalid_output` instead.
 */
export async function finish(
  step: Step,
  call: ToolCallRecord,
  result: Omit<ToolResultPayload, 'call_id'>,
  /** `call` is the record as this transaction last wrote it (no need to read it again). */
  isCurrent = false,
): Promise<void> {
  const { transaction } = step;
  const current = isCurrent ? call : ((await callIn(transaction, call.key)) ?? call);
  if (current.stage === 'finished') return;
  if (current.stage === 'awaiting_consent') {
    // Its question closes once this commits (a timeout, a withdrawal, an answer).
    step.questionEnded(current.key);
  }
  const descriptor = step.descriptors.get(call.call.tool);
  let payload: ToolResultPayload = { call_id: call.callId, ...result };
  if (
    result.outcome === 'completed' &&
    (descriptor === undefined || !matchesSchema(descriptor.output_schema, result.result))
  ) {
    // Where the result fails the published schema (never what it held): the agent learns the app is at fault.
    const refusal =
      descriptor === undefined
        ? undefined
        : refusalOf(descriptor.output_schema, result.result, 'result', '(result)');
    const message = "The result does not match the tool's output schema, so it was not delivered.";
    payload = {
      call_id: call.callId,
      outcome: 'error',
      error: {
        code: 'invalid_output',
        message: refusal === undefined ? message : withPlaces(message, refusal.places),
        ...(refusal === undefined || refusal.issues.length === 0 ? {} : { issues: refusal.issues }),
      },
    };
  }
  const answer: ToolCallAnswer = { type: 'lineup.v1.tool.result', payload };
  const { dueAt: _, mcpInFlight, ...finished } = current;
  // Issued together, not awaited: the transaction applies them in order (a later read in it sees them), and a
  // failing one aborts the step, whose commit says so. The final result of a call handed to an MCP server names
  // the request it ends: a second one for that request fails (`OutboxRecord.requestEnded`).
  issue(
    putCall(transaction, { ...finished, stage: 'finished', latest: answer }),
    outbox(step, call.conversationId, answer, mcpInFlight),
    transaction.objectStore('audit').add({
      at: step.clock.now(),
      type: 'tool_call_finished',
      appId: descriptor?.app_scope ?? '',
      version: descriptor?.contract_version ?? '',
      conversationId: call.conversationId,
      callId: call.callId,
      detail: payload.outcome === 'completed' ? 'completed' : (payload.error?.code ?? 'error'),
    }),
  );
}

export async function outbox(
  step: Step,
  conversationId: string,
  answer: ToolCallAnswer,
  requestEnded?: string,
): Promise<void> {
  await step.transaction.objectStore('outbox').add({
    at: step.clock.now(),
    pending: OUTBOX_PENDING,
    conversationId,
    ...(requestEnded === undefined ? {} : { requestEnded }),
    ...answer,
  });
}

export async function audit(
  step: Step,
  type: AuditType,
  instance: InstanceRecord,
  extra: { readonly operationId?: string; readonly detail?: string },
): Promise<void> {
  await step.transaction.objectStore('audit').add({
    at: step.clock.now(),
    type,
    appId: instance.appId,
    version: '',
    conversationId: instance.conversationId,
    instanceId: instance.instanceId,
    ...extra,
  });
}
