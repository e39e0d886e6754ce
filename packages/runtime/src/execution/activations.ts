/**
 * The app's lifecycle for the calls that need it (step 5): the activation that brings the conversation's instance of
 * the tool's app (`scope.ts`) forward, or just starts it, and queues the calls that arrive meanwhile, in arrival
 * order; the activation ready (its calls run) or ended (each gets its final result).
 */
import type { AgentToolDescriptor, ToolErrorCode } from '@lineup/shared/protocol';
import type { ActivationRecord, InstanceRecord, ToolCallRecord } from '../storage/database.js';
import { targetOf } from './projection.js';
import { audit, finish, progress } from './results.js';
import type { Step } from './step.js';
import { currentActivation } from './step-reads.js';
import { callIn, putCall } from './step-records.js';

/** Runs a call whose app is ready (the executor of its tool). */
export type Execute = (step: Step, call: ToolCallRecord, descriptor: AgentToolDescriptor) => Promise<void>;

export interface ActivationParts {
  readonly ids: () => string;
  /** How long an activation may wait for the foreground (or the app's start) before it fails. */
  readonly foregroundTimeoutMs: number;
  readonly execute: Execute;
}

export async function startActivation(
  parts: ActivationParts,
  step: Step,
  instance: InstanceRecord,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
): Promise<void> {
  const now = step.clock.now();
  const requirement = descriptor.activation === 'foreground_required' ? 'foreground_required' : 'app_ready';
  const activation: ActivationRecord = {
    activationId: parts.ids(),
    instanceKey: instance.key,
    status: 'starting',
    requirement,
    callKey: call.key,
    waiting: [],
    startedAt: now,
    dueAt: now + parts.foregroundTimeoutMs,
  };
  await step.transaction.objectStore('activations').add(activation);
  await step.transaction.objectStore('instances').put({ ...instance, activationId: activation.activationId });
  await putCall(step.transaction, { ...call, stage: 'waiting' });
  await progress(step, call, descriptor, 'starting');
  await audit(step, 'activation_started', instance, { detail: requirement });
  const target = targetOf(instance);
  step.effects.push((host) =>
    requirement === 'foreground_required' ? host.requestForeground(target) : host.startApp?.(target),
  );
}

/** The host confirmed the foreground: the activation is ready, and its calls run, in arrival order. */
export async function onForeground(parts: ActivationParts, step: Step, key: string): Promise<boolean> {
  const instance = await step.transaction.objectStore('instances').get(key);
  if (instance === undefined || instance.state !== 'open') return false;
  const foregrounded = { ...instance, foreground: true };
  await step.transaction.objectStore('instances').put(foregrounded);
  const activation = await currentActivation(step, foregrounded);
  if (activation?.status !== 'starting') return true;
  await activationReady(parts, step, foregrounded, activation);
  return true;
}

/** A starting activation is ready: it is persisted so, and its calls run, in arrival order. */
export async function activationReady(
  parts: ActivationParts,
  step: Step,
  instance: InstanceRecord,
  activation: ActivationRecord,
): Promise<void> {
  const { dueAt: _, ...ready } = activation;
  await step.transaction
    .objectStore('activations')
    .put({ ...ready, status: 'ready', settledAt: step.clock.now(), waiting: [] });
  await audit(step, 'activation_ready', instance, {});
  for (const callKey of [activation.callKey, ...activation.waiting]) {
    const call = await callIn(step.transaction, callKey);
    const descriptor = call === undefined ? undefined : step.descriptors.get(call.call.tool);
    if (call === undefined || call.stage === 'finished' || descriptor === undefined) continue;
    // The starting call says `activation_ready` unless its own progress says more (seed 003 §4.3).
    if (callKey === activation.callKey && !reportsStarted(descriptor))
      await progress(step, call, descriptor, 'activation_ready');
    await parts.execute(step, call, descriptor);
  }
}

/** Whether a tool's business progress already says the app is ready (`started` implies it). */
export function reportsStarted(descriptor: AgentToolDescriptor): boolean {
  return descriptor.executor.kind === 'runtime' && descriptor.executor.builtin === 'deadline_operation';
}

/** Ends a starting activation: its starting call and every waiting call get their final result. */
export async function endActivation(
  step: Step,
  activation: ActivationRecord,
  status: 'failed' | 'cancelled',
  reason: 'foreground_not_confirmed' | 'cancelled' | 'app_failed',
): Promise<void> {
  const { dueAt: _, ...ended } = activation;
  await step.transaction
    .objectStore('activations')
    .put({ ...ended, status, reason, settledAt: step.clock.now(), waiting: [] });
  const instance = await step.transaction.objectStore('instances').get(activation.instanceKey);
  if (instance !== undefined)
    await audit(step, status === 'failed' ? 'activation_failed' : 'activation_cancelled', instance, {
      detail: reason,
    });
  const code: ToolErrorCode = status === 'failed' ? 'app_activation_failed' : 'app_activation_cancelled';
  for (const callKey of [activation.callKey, ...activation.waiting]) {
    const call = await callIn(step.transaction, callKey);
    if (call === undefined || call.stage === 'finished') continue;
    const descriptor = step.descriptors.get(call.call.tool);
    if (callKey === activation.callKey && descriptor !== undefined && reportsStarted(descriptor)) {
      // A deadline operation that never started is a business result of its own (seed 003 §7).
      await finish(step, call, {
        outcome: 'completed',
        // An app that failed to start never came to the foreground either.
        result: {
          status: 'not_started',
          reason: reason === 'app_failed' ? 'foreground_not_confirmed' : reason,
        },
      });
      continue;
    }
    if (callKey === activation.callKey && descriptor !== undefined)
      await progress(
        step,
        call,
        descriptor,
        status === 'failed' ? 'activation_failed' : 'activation_cancelled',
      );
    await finish(step, call, { outcome: 'error', error: { code } });
  }
}
