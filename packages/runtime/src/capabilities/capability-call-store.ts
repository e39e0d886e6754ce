/**
 * The persisted steps of an `app.call` once it is recorded, each in a strict transaction of the capability call
 * stores: marking it running once consent is given, and finishing it with its one result — never over another —
 * audited and queued for the agent in the same transaction.
 */
import type { AppResultPayload } from '@lineup/shared/protocol';
import {
  CAPABILITY_CALL_STORES,
  type CapabilityCallRecord,
  OUTBOX_PENDING,
  type RuntimeDatabase,
  STRICT,
} from '../storage/database.js';

/** What the steps need of the runtime that takes them. */
export interface CapabilityCallContext {
  readonly db: RuntimeDatabase;
  readonly now: () => number;
  /** Called after a result was written to the outbox: deliver it. */
  readonly options: { readonly onResult?: (conversationId: string, result: AppResultPayload) => void };
}

/** Consent given: the call waiting for it is running (its decision recorded and audited). */
export async function markCallRunning(
  context: CapabilityCallContext,
  record: CapabilityCallRecord,
  decision: CapabilityCallRecord['decision'],
): Promise<void> {
  const tx = context.db.transaction(CAPABILITY_CALL_STORES, 'readwrite', STRICT);
  const calls = tx.objectStore('capability_calls');
  const current = await calls.get(record.key);
  if (current?.stage === 'awaiting_consent') {
    await calls.put({ ...current, stage: 'running', ...(decision === undefined ? {} : { decision }) });
    await tx.objectStore('audit').add({
      at: context.now(),
      type: 'capability_call_decided',
      appId: 'host',
      version: '',
      conversationId: record.conversationId,
      callId: record.callId,
      detail: decision ?? 'allowed',
    });
  }
  await tx.done;
}

/** Persists the one result (never over another), audits it and queues it for the agent. */
export async function finishCall(
  context: CapabilityCallContext,
  record: CapabilityCallRecord,
  result: AppResultPayload,
  decision?: CapabilityCallRecord['decision'],
): Promise<AppResultPayload> {
  const tx = context.db.transaction(CAPABILITY_CALL_STORES, 'readwrite', STRICT);
  const calls = tx.objectStore('capability_calls');
  const current = await calls.get(record.key);
  if (current === undefined || current.result !== undefined) {
    await tx.done;
    return current?.result ?? result;
  }
  const now = context.now();
  await calls.put({
    ...current,
    stage: 'finished',
    result,
    ...(decision === undefined ? {} : { decision }),
  });
  const audit = tx.objectStore('audit');
  if (decision !== undefined && current.stage === 'awaiting_consent')
    await audit.add({
      at: now,
      type: 'capability_call_decided',
      appId: 'host',
      version: '',
      conversationId: record.conversationId,
      callId: record.callId,
      detail: decision,
    });
  await audit.add({
    at: now,
    type: 'capability_call_finished',
    appId: 'host',
    version: '',
    conversationId: record.conversationId,
    callId: record.callId,
    detail: `${record.call.capability} ${result.status}`,
  });
  await tx.objectStore('outbox').add({
    at: now,
    pending: OUTBOX_PENDING,
    conversationId: record.conversationId,
    type: 'lineup.v1.app.result',
    payload: result,
  });
  await tx.done;
  context.options.onResult?.(record.conversationId, result);
  return result;
}
