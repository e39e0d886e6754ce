/**
 * What the app's page asks of the runtime, each an entry point of its own: it is ready or failed to start (its
 * activation ends accordingly), a handler's return (checked, then the call's one final result), a write of its
 * session data (at a base revision, never a key the runtime writes), a local UI action (run with the page's own
 * instance, never an agent's identity, audited as `ui_action`); and what the host reads: session data, open apps.
 */
import { MINIAPP_CHANNEL_LIMITS, MiniAppSessionDataSchema } from '@lineup/shared/bridge';
import type { ToolResultPayload } from '@lineup/shared/protocol';
import type { RuntimeDatabase } from '../storage/database.js';
import { type ActivationParts, activationReady, endActivation } from './activations.js';
import { handlerError } from './handler-error.js';
import { sessionKeyOf, targetOf } from './projection.js';
import { audit, fail, finish } from './results.js';
import {
  type AppTarget,
  type InvocationOutcome,
  OPERATION_SESSION_KEY,
  type PageRequestAnswer,
  type PageRequestErrorCode,
  type SessionDataSnapshot,
  type UIActionHandler,
} from './runtime-host.js';
import { currentInstance, instanceKeyOf } from './scope.js';
import { currentActivation, runningInvocations } from './step-reads.js';
import type { StepRunner } from './step-runner.js';

function refused(code: PageRequestErrorCode, message: string): PageRequestAnswer {
  return { status: 'error', code, message };
}

export interface PageParts {
  readonly db: RuntimeDatabase;
  readonly runner: StepRunner;
  readonly activations: ActivationParts;
  /** Local UI actions by `<app_scope>.<action>`. */
  readonly uiActions: Readonly<Record<string, UIActionHandler>>;
}

export async function sessionData(
  parts: PageParts,
  conversationId: string,
  appScope: string,
): Promise<SessionDataSnapshot | undefined> {
  const instance = await parts.db.get('instances', instanceKeyOf(conversationId, appScope));
  if (instance === undefined) return undefined;
  const record = await parts.db.get('session_data', sessionKeyOf(instance));
  return record === undefined ? { revision: 0, data: {} } : { revision: record.revision, data: record.data };
}

export async function openApps(
  parts: PageParts,
): Promise<readonly { readonly target: AppTarget; readonly foreground: boolean }[]> {
  const instances = await parts.db.getAll('instances');
  return instances
    .filter((instance) => instance.state === 'open')
    .map((instance) => ({ target: targetOf(instance), foreground: instance.foreground }));
}

export async function appReady(parts: PageParts, target: AppTarget): Promise<boolean> {
  return parts.runner.step(async (step) => {
    const instance = await currentInstance(step, target);
    if (instance === undefined) return false;
    await audit(step, 'app_ready', instance, {});
    const activation = await currentActivation(step, instance);
    if (activation?.status === 'starting' && activation.requirement === 'app_ready') {
      await activationReady(parts.activations, step, instance, activation);
      step.effects.push((host) => host.outboxChanged?.());
    }
    return true;
  });
}

export async function appFailed(parts: PageParts, target: AppTarget, code: string): Promise<boolean> {
  return parts.runner.step(async (step) => {
    const instance = await currentInstance(step, target);
    if (instance === undefined) return false;
    step.effects.push((host) => host.outboxChanged?.());
    await audit(step, 'app_failed', instance, { detail: code });
    const activation = await currentActivation(step, instance);
    if (activation?.status === 'starting') await endActivation(step, activation, 'failed', 'app_failed');
    for (const call of await runningInvocations(step, instance))
      await fail(step, call, `The app failed (${code}).`);
    return true;
  });
}

export async function completeInvocation(
  parts: PageParts,
  target: AppTarget,
  invocationId: string,
  outcome: InvocationOutcome,
): Promise<boolean> {
  return parts.runner.step(async (step) => {
    const instance = await currentInstance(step, target);
    if (instance === undefined) return false;
    const call = (await runningInvocations(step, instance)).find(
      (record) => record.invocationId === invocationId,
    );
    if (call === undefined) return false;
    // The page, not the host, ended this call: the host learns its final result is waiting.
    step.effects.push((host) => host.outboxChanged?.());
    await finish(
      step,
      call,
      outcome.status === 'ok'
        ? { outcome: 'completed', result: outcome.result as NonNullable<ToolResultPayload['result']> }
        : { outcome: 'error', error: handlerError(outcome, step.descriptors.get(call.call.tool)) },
    );
    return true;
  });
}

export async function writeSessionData(
  parts: PageParts,
  target: AppTarget,
  key: string,
  value: unknown,
  baseRevision?: number,
): Promise<PageRequestAnswer> {
  let answer: PageRequestAnswer = { status: 'error', code: 'not_current', message: 'This app has ended.' };
  await parts.runner.step(async (step) => {
    const instance = await currentInstance(step, target);
    if (instance === undefined) return false;
    if (key === OPERATION_SESSION_KEY) {
      answer = refused('reserved_key', `The ${key} key is written by the runtime.`);
      return false;
    }
    const store = step.transaction.objectStore('session_data');
    const known = await store.get(sessionKeyOf(instance));
    const revision = known?.revision ?? 0;
    if (baseRevision !== undefined && baseRevision !== revision) {
      answer = refused('revision_conflict', `The data is at revision ${revision}, not ${baseRevision}.`);
      return false;
    }
    const data = { ...(known?.data ?? {}), [key]: value };
    if (!MiniAppSessionDataSchema.safeParse(data).success) {
      answer = refused(
        'too_large',
        `Session data holds at most ${MINIAPP_CHANNEL_LIMITS.maxSessionDataKeys} keys and ${MINIAPP_CHANNEL_LIMITS.maxSessionDataBytes} bytes.`,
      );
      return false;
    }
    const snapshot: SessionDataSnapshot = { revision: revision + 1, data };
    await store.put({ key: sessionKeyOf(instance), ...snapshot });
    await audit(step, 'session_data_written', instance, { detail: key });
    const current = targetOf(instance);
    step.effects.push((host) => host.sessionDataChanged(current, snapshot));
    answer = { status: 'ok', revision: snapshot.revision };
    return true;
  });
  return answer;
}

export async function uiAction(
  parts: PageParts,
  target: AppTarget,
  action: string,
  args: Readonly<Record<string, string | number | boolean | null>>,
): Promise<PageRequestAnswer> {
  const instance = await parts.db.get('instances', instanceKeyOf(target.conversationId, target.appScope));
  if (instance === undefined || instance.state !== 'open' || instance.instanceId !== target.instanceId)
    return refused('not_current', 'This app has ended.');
  const handler = Object.hasOwn(parts.uiActions, `${target.appScope}.${action}`)
    ? parts.uiActions[`${target.appScope}.${action}`]
    : undefined;
  let answer: PageRequestAnswer;
  if (handler === undefined) answer = refused('unknown_action', `${action} is not an action of this app.`);
  else {
    try {
      await handler({ target: targetOf(instance), arguments: args });
      answer = { status: 'ok' };
    } catch (error) {
      answer = refused('action_failed', error instanceof Error ? error.message.slice(0, 256) : 'It failed.');
    }
  }
  await parts.runner.step(async (step) => {
    await audit(step, 'ui_action', instance, {
      detail: `${action} ${answer.status === 'ok' ? 'ok' : answer.code}`,
    });
    return true;
  });
  return answer;
}
