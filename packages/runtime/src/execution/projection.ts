/**
 * Step 7 of the pipeline: what an app is given of a call or an operation — the public target of its instance (its
 * conversation, scope, app, instance and session ids: never another conversation's), and the built-in's trimmed
 * projection of its operation in the instance's session data, which the host passes on once the step committed.
 */
import type { InstanceRecord } from '../storage/database.js';
import { type AppTarget, OPERATION_SESSION_KEY, type SessionDataSnapshot } from './runtime-host.js';
import type { Step } from './step.js';

/** The key of an instance's session data: its app scope and app session. */
export function sessionKeyOf(instance: InstanceRecord): string {
  return `${instance.appScope}\n${instance.appSessionId}`;
}

/** What the host and the app's page are told of an instance. */
export function targetOf(instance: InstanceRecord): AppTarget {
  return {
    conversationId: instance.conversationId,
    appScope: instance.appScope,
    appId: instance.appId,
    instanceId: instance.instanceId,
    appSessionId: instance.appSessionId,
  };
}

/** Writes the built-in's projection of its operation into the instance's session data, then tells the host. */
export async function project(
  step: Step,
  instance: InstanceRecord,
  operation: Readonly<Record<string, unknown>>,
): Promise<void> {
  const store = step.transaction.objectStore('session_data');
  const key = sessionKeyOf(instance);
  const known = await store.get(key);
  const snapshot: SessionDataSnapshot = {
    revision: (known?.revision ?? 0) + 1,
    data: { ...(known?.data ?? {}), [OPERATION_SESSION_KEY]: operation },
  };
  await store.put({ key, ...snapshot });
  const target = targetOf(instance);
  step.effects.push((host) => host.sessionDataChanged(target, snapshot));
}
