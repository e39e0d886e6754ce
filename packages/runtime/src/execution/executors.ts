/**
 * Running a call whose app is ready (steps 5–8), by its tool's executor: a `miniapp_sdk` handler in the app's page
 * (its return comes back through `completeInvocation`), an MCP server's tool (`mcp-executor.ts`), or a runtime
 * built-in — `deadline_operation` (`operation-executor.ts`) or `interrupt`, which stops what the app is doing.
 */
import type { AgentToolDescriptor, OperationInterruptResult } from '@lineup/shared/protocol';
import type { ToolCallRecord } from '../storage/database.js';
import { type ActivationParts, endActivation, instanceFor } from './activations.js';
import {
  currentActivation,
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
import type { Step } from './step.js';
import { instanceIn, putCall } from './step-records.js';

export interface ExecutorParts {
  readonly ids: () => string;
  readonly host: RuntimeHost;
  readonly activations: ActivationParts;
  readonly operations: OperationParts;
  readonly mcp: McpExecutor;
}

export async function execute(
  parts: ExecutorParts,
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  /** `call` is the record as this transaction last wrote it (no need to read it again). */
  isCurrent = false,
): Promise<void> {
  const executor = descriptor.executor;
  if (executor.kind === 'mcp') {
    await parts.mcp.dispatch(step, call, descriptor, isCurrent);
    return;
  }
  if (executor.kind !== 'runtime') {
    await invoke(parts, step, call, descriptor, isCurrent);
    return;
  }
  if (executor.builtin === 'deadline_operation')
    await startOperation(parts.operations, step, call, descriptor);
  else await interrupt(step, call, descriptor);
}

/** Routes a call to the SDK handler in the app's page; its return comes back through `completeInvocation`. */
async function invoke(
  parts: ExecutorParts,
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  isCurrent = false,
): Promise<void> {
  if (parts.host.invoke === undefined) {
    await fail(step, call, 'This host cannot run MiniApp handlers.');
    return;
  }
  const instance = await instanceFor(parts.activations, step, call.conversationId, descriptor);
  const invocationId = parts.ids();
  const current = isCurrent ? call : await reread(step, call);
  await putCall(step.transaction, {
    ...current,
    stage: 'running',
    invocationId,
    instanceId: instance.instanceId,
  });
  const target = targetOf(instance);
  const invocation: MiniAppInvocation = {
    invocationId,
    method: descriptor.method,
    arguments: call.call.arguments,
  };
  step.effects.push((host) => host.invoke?.(target, invocation));
}

async function interrupt(step: Step, call: ToolCallRecord, descriptor: AgentToolDescriptor): Promise<void> {
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
