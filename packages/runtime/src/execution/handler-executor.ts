/**
 * The `miniapp_sdk` executor: hands the tool's method and the checked arguments to the SDK handler in the app's page
 * (after the step commits). The runtime never reads what the arguments mean; the handler's return comes back through
 * `completeInvocation` (page-requests.ts) and ends the call there.
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { ToolCallRecord } from '../storage/database.js';
import { targetOf } from './projection.js';
import { fail } from './results.js';
import type { MiniAppInvocation, RuntimeHost } from './runtime-host.js';
import { instanceFor } from './scope.js';
import type { Step } from './step.js';
import { reread } from './step-reads.js';
import { putCall } from './step-records.js';

export interface HandlerParts {
  readonly ids: () => string;
  readonly host: RuntimeHost;
}

/** Routes a call to the SDK handler in the app's page; its return comes back through `completeInvocation`. */
export async function invoke(
  parts: HandlerParts,
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  isCurrent = false,
): Promise<void> {
  if (parts.host.invoke === undefined) {
    await fail(step, call, 'This host cannot run MiniApp handlers.');
    return;
  }
  const instance = await instanceFor(parts, step, call.conversationId, descriptor);
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
