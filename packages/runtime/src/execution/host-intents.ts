/**
 * The lifecycle's third entry point: the host's intents for an app (leave, close, switch, …), which the runtime
 * decides by the app's rules — never as a tool call — and audits as `host_intent`.
 */
import { endActivation } from './activations.js';
import { interruptOperation } from './operation-executor.js';
import { audit } from './results.js';
import type { HostIntent } from './runtime-host.js';
import { instanceKeyOf } from './scope.js';
import { currentActivation, runningOperation } from './step-reads.js';
import type { StepRunner } from './step-runner.js';

/**
 * A host lifecycle intent for the conversation's instance of `appScope` (the third entry point, never a forged tool
 * call), audited as one: leaving or closing ends what needs the foreground — a start waiting for it fails
 * `foreground_not_confirmed`, an operation the user watched is interrupted — and the instance leaves the
 * foreground (closing closes it); any other intent is only audited.
 */
export function hostIntent(
  runner: Pick<StepRunner, 'step'>,
  conversationId: string,
  appScope: string,
  intent: HostIntent,
): Promise<boolean> {
  return runner.step(async (step) => {
    const { transaction } = step;
    const key = instanceKeyOf(conversationId, appScope);
    const instance = await transaction.objectStore('instances').get(key);
    if (instance === undefined) return false;
    await audit(step, 'host_intent', instance, { detail: intent });
    if (intent !== 'leave' && intent !== 'close') return true;
    // Leaving ends what needs the foreground: a start waiting for it, and an operation the user watched.
    const activation = await currentActivation(step, instance);
    if (activation?.status === 'starting' && activation.requirement === 'foreground_required')
      await endActivation(step, activation, 'failed', 'foreground_not_confirmed');
    const operation = await runningOperation(step, key);
    if (operation !== undefined) await interruptOperation(step, operation, 'user_left');
    await transaction
      .objectStore('instances')
      .put({ ...instance, foreground: false, ...(intent === 'close' ? { state: 'closed' as const } : {}) });
    return true;
  });
}
