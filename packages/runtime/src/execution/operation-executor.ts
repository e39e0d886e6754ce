/**
 * The runtime's `deadline_operation` built-in: an operation of whole minutes that ends at its deadline (settled
 * whenever the runtime next runs, a closed page included) or earlier when interrupted (by the agent, or by the user
 * leaving the app). Its state is projected into the app's session data; its result is the call's one final result.
 */
import {
  type AgentToolDescriptor,
  DeadlineOperationArgumentsSchema,
  type DeadlineOperationResult,
} from '@lineup/shared/protocol';
import type {
  ExecutionTransaction,
  InstanceRecord,
  OperationRecord,
  ToolCallRecord,
} from '../storage/database.js';
import type { Descriptors } from './descriptors.js';
import {
  audit,
  type Effect,
  type Facts,
  fail,
  finish,
  instanceKeyOf,
  progress,
  project,
  runningOperation,
} from './facts.js';
import { callIn, putCall } from './step-records.js';

export interface OperationParts {
  readonly facts: Facts;
  readonly ids: () => string;
}

const iso = (milliseconds: number) => new Date(milliseconds).toISOString();

export async function startOperation(
  parts: OperationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
): Promise<void> {
  const parsed = DeadlineOperationArgumentsSchema.safeParse(call.call.arguments);
  if (!parsed.success) {
    await fail(parts.facts, transaction, call, 'deadline_operation needs whole minutes.', descriptors);
    return;
  }
  const key = instanceKeyOf(call.conversationId, descriptor.app_scope);
  if ((await runningOperation(transaction, key)) !== undefined) {
    await fail(parts.facts, transaction, call, 'An operation is already running.', descriptors);
    return;
  }
  const now = parts.facts.clock.now();
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
  await progress(parts.facts, transaction, call, descriptor, 'started');
  const instance = (await transaction.objectStore('instances').get(key)) as InstanceRecord;
  await audit(parts.facts, transaction, 'operation_started', instance, {
    operationId: operation.operationId,
  });
  const label = call.call.arguments.label;
  await project(transaction, effects, instance, {
    status: 'running',
    minutes,
    ...(typeof label === 'string' ? { label } : {}),
    started_at: iso(operation.startedAt),
    deadline_at: iso(operation.deadlineAt),
  });
}

export async function interruptOperation(
  parts: OperationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  operation: OperationRecord,
  by: 'agent' | 'user_left',
  now: number,
  descriptors: Descriptors,
): Promise<void> {
  const { dueAt: _, ...ended } = operation;
  await transaction.objectStore('operations').put({ ...ended, status: 'interrupted', endedAt: now, by });
  const result: DeadlineOperationResult = {
    status: 'interrupted',
    started_at: iso(operation.startedAt),
    interrupted_at: iso(now),
    focused_seconds: Math.max(0, Math.floor((now - operation.startedAt) / 1_000)),
    by,
  };
  await endOperation(parts, transaction, effects, operation, result, descriptors);
}

export async function completeOperation(
  parts: OperationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  operation: OperationRecord,
  descriptors: Descriptors,
): Promise<void> {
  const { dueAt: _, ...ended } = operation;
  // It ended at its deadline, whenever the runtime got to settle it (a page closed in between).
  await transaction
    .objectStore('operations')
    .put({ ...ended, status: 'completed', endedAt: operation.deadlineAt });
  const result: DeadlineOperationResult = {
    status: 'completed',
    minutes: operation.minutes,
    started_at: iso(operation.startedAt),
    ended_at: iso(operation.deadlineAt),
  };
  await endOperation(parts, transaction, effects, operation, result, descriptors);
}

async function endOperation(
  parts: OperationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  operation: OperationRecord,
  result: DeadlineOperationResult,
  descriptors: Descriptors,
): Promise<void> {
  const instance = await transaction.objectStore('instances').get(operation.instanceKey);
  if (instance !== undefined) {
    await audit(parts.facts, transaction, 'operation_finished', instance, {
      operationId: operation.operationId,
      detail: result.status,
    });
    const { status: _, ...times } = result;
    await project(transaction, effects, instance, { status: result.status, ...times });
  }
  const call = await callIn(transaction, operation.callKey);
  if (call !== undefined && call.stage !== 'finished')
    await finish(parts.facts, transaction, call, { outcome: 'completed', result }, descriptors);
}
