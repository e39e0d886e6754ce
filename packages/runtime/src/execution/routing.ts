/**
 * Step 5 of the pipeline, routing an accepted call: a call whose tool was withdrawn meanwhile ends `revoked`; the
 * consent step decides first; then the call gets its deadline and, in its scope (step 4, `scope.ts`), runs at once
 * through its executor (no activation needed, or the app is ready: `executors.ts`), waits behind the app's starting
 * activation in arrival order, or starts one (`activations.ts`).
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';
import type { ConsentSteps } from '../consent/consent-steps.js';
import type { ToolCallRecord } from '../storage/database.js';
import { startActivation } from './activations.js';
import { type ExecutorParts, execute } from './executors.js';
import { finish } from './results.js';
import { instanceFor } from './scope.js';
import type { Step } from './step.js';
import { currentActivation } from './step-reads.js';
import { callIn, putCall } from './step-records.js';

export interface RoutingParts {
  readonly executors: ExecutorParts;
  /** The consent step: `gateIn` lets a call on only once its policy's decision is made. */
  readonly consent: Pick<ConsentSteps, 'gateIn'>;
}

const callKeyOf = (conversationId: string, callId: string) => `${conversationId}\n${callId}`;

export async function routeIn(
  parts: RoutingParts,
  step: Step,
  conversationId: string,
  call: ToolCallPayload,
  /** The call's record when the caller just wrote it in this transaction. */
  written?: ToolCallRecord,
): Promise<boolean> {
  const descriptor = step.descriptors.get(call.tool);
  const record = written ?? (await callIn(step.transaction, callKeyOf(conversationId, call.call_id)));
  if (record === undefined || record.stage === 'finished') return false;
  if (descriptor === undefined) {
    // The tool was withdrawn between the intake and now.
    await finish(step, record, { outcome: 'error', error: { code: 'revoked' } });
    return true;
  }
  if (record.stage === 'awaiting_consent') return false;
  // The consent step (consent/): nothing below runs before the decision the call's policy requires.
  if (!(await parts.consent.gateIn(step, record, descriptor))) return true;
  const dueAt = record.receivedAt + descriptor.timeout_ms;
  const withDue: ToolCallRecord = { ...record, stage: 'received', dueAt };
  if (record.stage !== 'received' || record.dueAt !== dueAt) await putCall(step.transaction, withDue);
  if (descriptor.activation === 'activation_not_required') {
    await execute(parts.executors, step, withDue, descriptor, true);
    return true;
  }
  const instance = await instanceFor(parts.executors.activations, step, conversationId, descriptor);
  const activation = await currentActivation(step, instance);
  if (activation?.status === 'starting') {
    // seed 003 §4.3: a call that needs the app, arriving while it starts, waits for it in arrival order.
    await step.transaction
      .objectStore('activations')
      .put({ ...activation, waiting: [...activation.waiting, withDue.key] });
    await putCall(step.transaction, { ...withDue, stage: 'waiting' });
    return true;
  }
  const ready =
    activation?.status === 'ready' &&
    (descriptor.activation === 'app_ready' || (instance.foreground && instance.state === 'open'));
  if (ready) {
    await execute(parts.executors, step, withDue, descriptor, true);
    return true;
  }
  await startActivation(parts.executors.activations, step, instance, withDue, descriptor);
  return true;
}
