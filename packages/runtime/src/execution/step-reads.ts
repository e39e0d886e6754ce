/**
 * What a step reads of the state its call meets, in its own transaction: the record of a call as the step sees it
 * now, the calls whose handler runs in an instance's page, an instance's current activation and its running
 * operation.
 */
import type {
  ActivationRecord,
  InstanceRecord,
  OperationRecord,
  ToolCallRecord,
} from '../storage/database.js';
import type { Step } from './step.js';
import { callIn, unfinishedCallsIn } from './step-records.js';

/** The unfinished calls of `instance` whose SDK handler runs in its page. */
export async function runningInvocations(step: Step, instance: InstanceRecord): Promise<ToolCallRecord[]> {
  const unfinished = await unfinishedCallsIn(step.transaction);
  return unfinished.filter(
    (call) =>
      call.stage === 'running' && call.invocationId !== undefined && call.instanceId === instance.instanceId,
  );
}

export async function currentActivation(
  step: Step,
  instance: InstanceRecord,
): Promise<ActivationRecord | undefined> {
  if (instance.activationId === undefined) return undefined;
  return step.transaction.objectStore('activations').get(instance.activationId);
}

export async function runningOperation(
  step: Step,
  instanceKey: string,
): Promise<OperationRecord | undefined> {
  const running = await step.transaction.objectStore('operations').index('by_due').getAll();
  return running.find((operation) => operation.instanceKey === instanceKey);
}

/** The record of `call` as this transaction sees it now. */
export async function reread(step: Step, call: ToolCallRecord): Promise<ToolCallRecord> {
  return (await callIn(step.transaction, call.key)) ?? call;
}
