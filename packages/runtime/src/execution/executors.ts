/**
 * Running a call whose app is ready (steps 5–8), by its tool's executor: a `miniapp_sdk` handler in the app's page
 * (its return comes back through `completeInvocation`), an MCP server's tool (`mcp-executor.ts`), or a runtime
 * built-in — `deadline_operation` (`operation-executor.ts`) or `interrupt`, which stops what the app is doing.
 */
import type { AgentToolDescriptor, OperationInterruptResult } from '@lineup/shared/protocol';
import type { ExecutionTransaction, ToolCallRecord } from '../storage/database.js';
import { type ActivationParts, endActivation, instanceFor } from './activations.js';
import type { Descriptors } from './descriptors.js';
import {
  currentActivation,
  type Effect,
  type Facts,
  fail,
  finish,
  instanceKeyOf,
  reread,
  runningOperation,
  targetOf,
} from './facts.js';
import type { McpExecutor } from './mcp-executor.js';
import { interruptOperation, type OperationParts, startOperation } from './operation-executor.js';
import type { MiniAppInvocation, RuntimeHost } from './runtime-host.js';
import { instanceIn, putCall } from './step-records.js';

export interface ExecutorParts {
  readonly facts: Facts;
  readonly ids: () => string;
  readonly host: RuntimeHost;
  readonly activations: ActivationParts;
  readonly operations: OperationParts;
  readonly mcp: McpExecutor;
}

export async function execute(
  parts: ExecutorParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
  /** `call` is the record as this transaction last wrote it (no need to read it again). */
  isCurrent = false,
): Promise<void> {
  const executor = descriptor.executor;
  if (executor.kind === 'mcp') {
    await parts.mcp.dispatch(transaction, effects, call, descriptor, descriptors, isCurrent);
    return;
  }
  if (executor.kind !== 'runtime') {
    await invoke(parts, transaction, effects, call, descriptor, descriptors, isCurrent);
    return;
  }
  if (executor.builtin === 'deadline_operation')
    await startOperation(parts.operations, transaction, effects, call, descriptor, descriptors);
  else await interrupt(parts, transaction, effects, call, descriptor, descriptors);
}

/** Routes a call to the SDK handler in the app's page; its return comes back through `completeInvocation`. */
async function invoke(
  parts: ExecutorParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
  isCurrent = false,
): Promise<void> {
  if (parts.host.invoke === undefined) {
    await fail(parts.facts, transaction, call, 'This host cannot run MiniApp handlers.', descriptors);
    return;
  }
  const instance = await instanceFor(
    parts.activations,
    transaction,
    call.conversationId,
    descriptor,
    descriptors,
    parts.facts.clock.now(),
  );
  const invocationId = parts.ids();
  const current = isCurrent ? call : await reread(transaction, call);
  await putCall(transaction, { ...current, stage: 'running', invocationId, instanceId: instance.instanceId });
  const target = targetOf(instance);
  const invocation: MiniAppInvocation = {
    invocationId,
    method: descriptor.method,
    arguments: call.call.arguments,
  };
  effects.push((host) => host.invoke?.(target, invocation));
}

async function interrupt(
  parts: ExecutorParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
): Promise<void> {
  const key = instanceKeyOf(call.conversationId, descriptor.app_scope);
  const instance = await instanceIn(transaction, key);
  let status: OperationInterruptResult['status'] = 'nothing_to_interrupt';
  if (instance !== undefined) {
    const activation = await currentActivation(transaction, instance);
    const operation = await runningOperation(transaction, key);
    if (activation?.status === 'starting') {
      await endActivation(parts.activations, transaction, activation, 'cancelled', 'cancelled', descriptors);
      status = 'start_cancelled';
    } else if (operation !== undefined) {
      await interruptOperation(
        parts.operations,
        transaction,
        effects,
        operation,
        'agent',
        parts.facts.clock.now(),
        descriptors,
      );
      status = 'interrupted';
    }
    if (status !== 'nothing_to_interrupt') {
      // seed 003 §7: the app only hears a generic lifecycle close.
      await transaction.objectStore('instances').put({ ...instance, state: 'closed', foreground: false });
      const target = targetOf(instance);
      effects.push((host) => host.closeApp(target));
    }
  }
  // Nothing above changed this call's own record: it is current, and needs no second read.
  await finish(
    parts.facts,
    transaction,
    call,
    { outcome: 'completed', result: { status } },
    descriptors,
    true,
  );
}
