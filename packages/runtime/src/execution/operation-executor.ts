/**
 * The runtime's `deadline_operation` built-in: an operation of whole minutes that ends at its deadline (settled
 * whenever the runtime next runs, a closed page included) or earlier when interrupted (by the agent, or by the user
 * leaving the app). Its state is projected into the app's session data; its result is the call's one final result.
 */
import {
  type AgentToolDescriptor,
  DeadlineOperationArgumentsSchema,
  type DeadlineOperationResult,
  type OperationInterruptResult,
} from '@lineup/shared/protocol';
import type { InstanceRecord, OperationRecord, ToolCallRecord } from '../storage/database.js';
import { endActivation } from './activations.js';
import { project, targetOf } from './projection.js';
import { audit, fail, finish, progress } from './results.js';
import { instanceKeyOf } from './scope.js';
import type { Step } from './step.js';
import { currentActivation, runningOperation } from './step-reads.js';
import { callIn, instanceIn, putCall } from './step-records.js';

export interface OperationParts {
  readonly ids: () => string;
}

const iso = (milliseconds: number) => new Date(milliseconds).toISOString();

export async function startOperation(
  parts: OperationParts,
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
): Promise<void> {
  const parsed = DeadlineOperationArgumentsSchema.safeParse(call.call.arguments);
  if (!parsed.success) {
    await fail(step, call, 'deadline_operation needs whole minutes.');
    return;
  }
  const key = instanceKeyOf(call.conversationId, descriptor.app_scope);
  if ((await runningOperation(step, key)) !== undefined) {
    await fail(step, call, 'An operation is already running.');
    return;
  }
  const { transaction } = step;
  const now = step.clock.now();
  const minutes = parsed.data.minutes;
  const operation: OperationRecord = {
    operationId: parts.ids(),
    instanceKey: key,
    callKey: call.key,
    status: 'running',
    minutes,
    startedAt: now,
    deadlineAt: now + minutes * 60_000,
    dueAt: now + minutes * 60_000,
  };
  await transaction.objectStore('operations').add(operation);
  await putCall(transaction, { ...call, stage: 'running' });
  await progress(step, call, descriptor, 'started');
  const instance = (await transaction.objectStore('instances').get(key)) as InstanceRecord;
  await audit(step, 'operation_started', instance, { operationId: operation.operationId });
  const label = call.call.arguments.label;
  await project(step, instance, {
    status: 'running',
    minutes,
    ...(typeof label === 'string' ? { label } : {}),
    started_at: iso(operation.startedAt),
    deadline_at: iso(operation.deadlineAt),
  });
}

export async function interruptOperation(
  step: Step,
  operation: OperationRecord,
  by: 'agent' | 'user_left',
): Promise<void> {
  const now = step.clock.now();
  const { dueAt: _, ...ended } = operation;
  await step.transaction.objectStore('operations').put({ ...ended, status: 'interrupted', endedAt: now, by });
  const result: DeadlineOperationResult = {
    status: 'interrupted',
    started_at: iso(operation.startedAt),
    interrupted_at: iso(now),
    focused_seconds: Math.max(0, Math.floor((now - operation.startedAt) / 1_000)),
    by,
  };
  await endOperation(step, operation, result);
}

export async function completeOperation(step: Step, operation: OperationRecord): Promise<void> {
  const { dueAt: _, ...ended } = operation;
  // It ended at its deadline, whenever the runtime got to settle it (a page closed in between).
  await step.transaction
    .objectStore('operations')
    .put({ ...ended, status: 'completed', endedAt: operation.deadlineAt });
  const result: DeadlineOperationResult = {
    status: 'completed',
    minutes: operation.minutes,
    started_at: iso(operation.startedAt),
    ended_at: iso(operation.deadlineAt),
  };
  await endOperation(step, operation, result);
}

async function endOperation(
  step: Step,
  operation: OperationRecord,
  result: DeadlineOperationResult,
): Promise<void> {
  const instance = await step.transaction.objectStore('instances').get(operation.instanceKey);
  if (instance !== undefined) {
    await audit(step, 'operation_finished', instance, {
      operationId: operation.operationId,
      detail: result.status,
    });
    const { status: _, ...times } = result;
    await project(step, instance, { status: result.status, ...times });
  }
  const call = await callIn(step.transaction, operation.callKey);
  if (call !== undefined && call.stage !== 'finished')
    await finish(step, call, { outcome: 'completed', result });
}

/**
 * The `operation_interrupt` built-in: cancels the app's starting activation or interrupts its running operation, and
 * closes the app (which hears only a generic lifecycle close); the call's result says which, or that nothing ran.
 */
export async function interrupt(
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
): Promise<void> {
  const key = instanceKeyOf(call.conversationId, descriptor.app_scope);
  const instance = await instanceIn(step.transaction, key);
  let status: OperationInterruptResult['status'] = 'nothing_to_interrupt';
  if (instance !== undefined) {
    const activation = await currentActivation(step, instance);
    const operation = await runningOperation(step, key);
    if (activation?.status === 'starting') {
      await endActivation(step, activation, 'cancelled', 'cancelled');
      status = 'start_cancelled';
    } else if (operation !== undefined) {
      await interruptOperation(step, operation, 'agent');
      status = 'interrupted';
    }
    if (status !== 'nothing_to_interrupt') {
      // seed 003 §7: the app only hears a generic lifecycle close.
      await step.transaction
        .objectStore('instances')
        .put({ ...instance, state: 'closed', foreground: false });
      const target = targetOf(instance);
      step.effects.push((host) => host.closeApp(target));
    }
  }
  // Nothing above changed this call's own record: it is current, and needs no second read.
  await finish(step, call, { outcome: 'completed', result: { status } }, true);
}
