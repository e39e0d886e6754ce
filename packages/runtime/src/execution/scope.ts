/**
 * Step 4 of the pipeline: the scope a call acts in. A tool acts in its own app's instance in the call's
 * conversation — the key is the conversation and the tool's app scope, never a target the agent names (a call
 * carries no instance or session id) — opened for the call when the conversation has none open.
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { InstanceRecord } from '../storage/database.js';
import type { AppTarget } from './runtime-host.js';
import type { Step } from './step.js';
import { instanceIn } from './step-records.js';

/** The key of a conversation's instance of an app: the conversation and the app's scope, nothing else. */
export const instanceKeyOf = (conversationId: string, appScope: string) => `${conversationId}\n${appScope}`;

/** The conversation's open instance of the tool's app, or a new one opened in this step. */
export async function instanceFor(
  parts: { readonly ids: () => string },
  step: Step,
  conversationId: string,
  descriptor: AgentToolDescriptor,
): Promise<InstanceRecord> {
  const key = instanceKeyOf(conversationId, descriptor.app_scope);
  const known = await instanceIn(step.transaction, key);
  if (known !== undefined && known.state === 'open') return known;
  const appId = step.descriptors.appIds.get(descriptor.app_scope) ?? descriptor.app_scope;
  const instance: InstanceRecord = {
    key,
    instanceId: parts.ids(),
    appSessionId: parts.ids(),
    conversationId,
    appScope: descriptor.app_scope,
    appId,
    state: 'open',
    foreground: false,
    createdAt: step.clock.now(),
  };
  await step.transaction.objectStore('instances').put(instance);
  return instance;
}

/** The open instance `target` names, if it is still the conversation's current one. */
export async function currentInstance(step: Step, target: AppTarget): Promise<InstanceRecord | undefined> {
  const instance = await step.transaction
    .objectStore('instances')
    .get(instanceKeyOf(target.conversationId, target.appScope));
  return instance?.state === 'open' && instance.instanceId === target.instanceId ? instance : undefined;
}
