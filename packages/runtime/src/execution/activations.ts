/**
 * The app's lifecycle for the calls that need it (steps 4–5): the conversation's instance of the tool's app, the
 * activation that brings the app forward (or just starts it) and queues the calls that arrive meanwhile, in arrival
 * order; the activation ready (its calls run) or ended (each gets its final result).
 */
import type { AgentToolDescriptor, ToolErrorCode } from '@lineup/shared/protocol';
import type {
  ActivationRecord,
  ExecutionTransaction,
  InstanceRecord,
  ToolCallRecord,
} from '../storage/database.js';
import type { Descriptors } from './descriptors.js';
import {
  audit,
  currentActivation,
  type Effect,
  type Facts,
  finish,
  instanceKeyOf,
  progress,
  targetOf,
} from './facts.js';
import { callIn, instanceIn, putCall } from './step-records.js';

/** Runs a call whose app is ready (the executor of its tool). */
export type Execute = (
  transaction: ExecutionTransaction,
  effects: Effect[],
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
) => Promise<void>;

export interface ActivationParts {
  readonly facts: Facts;
  readonly ids: () => string;
  /** How long an activation may wait for the foreground (or the app's start) before it fails. */
  readonly foregroundTimeoutMs: number;
  readonly execute: Execute;
}

export async function instanceFor(
  parts: ActivationParts,
  transaction: ExecutionTransaction,
  conversationId: string,
  descriptor: AgentToolDescriptor,
  descriptors: Descriptors,
  now: number,
): Promise<InstanceRecord> {
  const instances = transaction.objectStore('instances');
  const key = instanceKeyOf(conversationId, descriptor.app_scope);
  const known = await instanceIn(transaction, key);
  if (known !== undefined && known.state === 'open') return known;
  const appId = descriptors.appIds.get(descriptor.app_scope) ?? descriptor.app_scope;
  const instance: InstanceRecord = {
    key,
    instanceId: parts.ids(),
    appSessionId: parts.ids(),
    conversationId,
    appScope: descriptor.app_scope,
    appId,
    state: 'open',
    foreground: false,
    createdAt: now,
  };
  await instances.put(instance);
  return instance;
}

export async function startActivation(
  parts: ActivationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  instance: InstanceRecord,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  now: number,
): Promise<void> {
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
  await transaction.objectStore('activations').add(activation);
  await transaction.objectStore('instances').put({ ...instance, activationId: activation.activationId });
  await putCall(transaction, { ...call, stage: 'waiting' });
  await progress(parts.facts, transaction, call, descriptor, 'starting');
  await audit(parts.facts, transaction, 'activation_started', instance, { detail: requirement });
  const target = targetOf(instance);
  effects.push((host) =>
    requirement === 'foreground_required' ? host.requestForeground(target) : host.startApp?.(target),
  );
}

/** The host confirmed the foreground: the activation is ready, and its calls run, in arrival order. */
export async function onForeground(
  parts: ActivationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  key: string,
  descriptors: Descriptors,
): Promise<boolean> {
  const instance = await transaction.objectStore('instances').get(key);
  if (instance === undefined || instance.state !== 'open') return false;
  const foregrounded = { ...instance, foreground: true };
  await transaction.objectStore('instances').put(foregrounded);
  const activation = await currentActivation(transaction, foregrounded);
  if (activation?.status !== 'starting') return true;
  await activationReady(parts, transaction, effects, foregrounded, activation, descriptors);
  return true;
}

/** A starting activation is ready: it is persisted so, and its calls run, in arrival order. */
export async function activationReady(
  parts: ActivationParts,
  transaction: ExecutionTransaction,
  effects: Effect[],
  instance: InstanceRecord,
  activation: ActivationRecord,
  descriptors: Descriptors,
): Promise<void> {
  const { dueAt: _, ...ready } = activation;
  await transaction
    .objectStore('activations')
    .put({ ...ready, status: 'ready', settledAt: parts.facts.clock.now(), waiting: [] });
  await audit(parts.facts, transaction, 'activation_ready', instance, {});
  for (const callKey of [activation.callKey, ...activation.waiting]) {
    const call = await callIn(transaction, callKey);
    const descriptor = call === undefined ? undefined : descriptors.get(call.call.tool);
    if (call === undefined || call.stage === 'finished' || descriptor === undefined) continue;
    // The starting call says `activation_ready` unless its own progress says more (seed 003 §4.3).
    if (callKey === activation.callKey && !reportsStarted(descriptor))
      await progress(parts.facts, transaction, call, descriptor, 'activation_ready');
    await parts.execute(transaction, effects, call, descriptor, descriptors);
  }
}

/** Whether a tool's business progress already says the app is ready (`started` implies it). */
export function reportsStarted(descriptor: AgentToolDescriptor): boolean {
  return descriptor.executor.kind === 'runtime' && descriptor.executor.builtin === 'deadline_operation';
}

/** Ends a starting activation: its starting call and every waiting call get their final result. */
export async function endActivation(
  parts: ActivationParts,
  transaction: ExecutionTransaction,
  activation: ActivationRecord,
  status: 'failed' | 'cancelled',
  reason: 'foreground_not_confirmed' | 'cancelled' | 'app_failed',
  descriptors: Descriptors,
): Promise<void> {
  const { dueAt: _, ...ended } = activation;
  await transaction
    .objectStore('activations')
    .put({ ...ended, status, reason, settledAt: parts.facts.clock.now(), waiting: [] });
  const instance = await transaction.objectStore('instances').get(activation.instanceKey);
  if (instance !== undefined)
    await audit(
      parts.facts,
      transaction,
      status === 'failed' ? 'activation_failed' : 'activation_cancelled',
      instance,
      {
        detail: reason,
      },
    );
  const code: ToolErrorCode = status === 'failed' ? 'app_activation_failed' : 'app_activation_cancelled';
  for (const callKey of [activation.callKey, ...activation.waiting]) {
    const call = await callIn(transaction, callKey);
    if (call === undefined || call.stage === 'finished') continue;
    const descriptor = descriptors.get(call.call.tool);
    if (callKey === activation.callKey && descriptor !== undefined && reportsStarted(descriptor)) {
      // A deadline operation that never started is a business result of its own (seed 003 §7).
      await finish(
        parts.facts,
        transaction,
        call,
        {
          outcome: 'completed',
          // An app that failed to start never came to the foreground either.
          result: {
            status: 'not_started',
            reason: reason === 'app_failed' ? 'foreground_not_confirmed' : reason,
          },
        },
        descriptors,
      );
      continue;
    }
    if (callKey === activation.callKey && descriptor !== undefined)
      await progress(
        parts.facts,
        transaction,
        call,
        descriptor,
        status === 'failed' ? 'activation_failed' : 'activation_cancelled',
      );
    await finish(parts.facts, transaction, call, { outcome: 'error', error: { code } }, descriptors);
  }
}
