/**
 * Recovery and deadlines, the entry points a host calls at start-up and on its wake-up timer: `recover` (what the
 * last page left unfinished gets a definite answer — never a second run), `withdraw` (what belongs to an app no
 * longer enabled ends `revoked`), `settle` (whatever fell due ends: operations at their deadline, activations that
 * waited too long, calls past their timeout) and `nextDueAt`.
 */
import type { ToolCallPayload } from '@lineup/shared/protocol';
import type { RuntimeDatabase, ToolCallRecord } from '../storage/database.js';
import { endActivation } from './activations.js';
import type { ExecutorParts } from './executors.js';
import { completeOperation } from './operation-executor.js';
import { project, targetOf } from './projection.js';
import { audit, fail, finish } from './results.js';
import { instanceKeyOf } from './scope.js';
import type { Step } from './step.js';
import { currentActivation, runningOperation } from './step-reads.js';
import type { StepRunner } from './step-runner.js';

const iso = (milliseconds: number) => new Date(milliseconds).toISOString();

export interface RecoveryParts {
  readonly db: RuntimeDatabase;
  readonly runner: StepRunner;
  readonly executors: ExecutorParts;
  /** Asks the user again about a call whose question the last page left open. */
  readonly ask: (callKey: string) => void;
  /** Routes a call that was accepted and not routed yet (a step of its own). */
  readonly route: (conversationId: string, call: ToolCallPayload) => Promise<boolean>;
}

export async function recover(parts: RecoveryParts): Promise<void> {
  const unfinished = await parts.db.getAllFromIndex('tool_calls', 'by_due');
  for (const record of unfinished) {
    // A question the last page left open is asked again (its call's timeout still runs).
    if (record.stage === 'awaiting_consent') parts.ask(record.key);
    else if (record.stage === 'received') await parts.route(record.conversationId, record.call);
    else if (record.stage === 'running' && record.dispatchedAt !== undefined)
      // Handed to an MCP server before the page closed: it may have run there. Never sent again.
      await parts.runner.step(async (step) => {
        await finish(step, record, {
          outcome: 'error',
          error: {
            code: 'outcome_unknown',
            message:
              'The page closed while the MCP server had the call: it may have run there, and is not sent again.',
          },
        });
        return true;
      });
    else if (record.stage === 'running' && record.invocationId !== undefined)
      // The page that ran the handler is gone with the old page; running it again could do it twice.
      await parts.runner.step(async (step) => {
        await fail(step, record, 'The app was reloaded while its handler ran; it was not run again.');
        return true;
      });
  }
  await withdraw(parts);
  await settle(parts);
}

export async function withdraw(parts: RecoveryParts): Promise<number> {
  let ended = 0;
  await parts.runner.step(async (step) => {
    const { transaction, descriptors } = step;
    const now = step.clock.now();
    const calls = transaction.objectStore('tool_calls');
    for (const call of await calls.index('by_due').getAll()) {
      if (call.stage === 'finished' || descriptors.has(call.call.tool)) continue;
      await finish(step, call, { outcome: 'error', error: { code: 'revoked' } });
      ended++;
    }
    const installed = new Set((await transaction.objectStore('apps').getAll()).map((app) => app.id));
    for (const instance of await transaction.objectStore('instances').getAll()) {
      if (instance.state !== 'open' || descriptors.appIds.get(instance.appScope) === instance.appId) continue;
      const activation = await currentActivation(step, instance);
      if (activation?.status === 'starting') await endActivation(step, activation, 'cancelled', 'cancelled');
      const operation = await runningOperation(step, instance.key);
      if (operation !== undefined) {
        const { dueAt: _, ...stopped } = operation;
        await transaction.objectStore('operations').put({ ...stopped, status: 'interrupted', endedAt: now });
        // A disabled app keeps its data (enabled again, it shows the operation ended); an uninstalled one
        // has none left to write to.
        if (installed.has(instance.appId))
          await project(step, instance, {
            status: 'interrupted',
            started_at: iso(operation.startedAt),
            interrupted_at: iso(now),
            focused_seconds: Math.max(0, Math.floor((now - operation.startedAt) / 1_000)),
          });
      }
      await audit(step, 'instance_withdrawn', instance, {});
      await transaction.objectStore('instances').put({ ...instance, state: 'closed', foreground: false });
      const target = targetOf(instance);
      step.effects.push((host) => host.closeApp(target));
    }
    return true;
  });
  return ended;
}

export async function settle(parts: RecoveryParts): Promise<number> {
  let settled = 0;
  for (;;) {
    const changed = await parts.runner.step(async (step) => {
      const { transaction, effects, descriptors } = step;
      const range = IDBKeyRange.upperBound(step.clock.now());
      const operation = await transaction.objectStore('operations').index('by_due').get(range);
      if (operation !== undefined) {
        await completeOperation(step, operation);
        return true;
      }
      const activation = await transaction.objectStore('activations').index('by_due').get(range);
      if (activation !== undefined) {
        await endActivation(step, activation, 'failed', 'foreground_not_confirmed');
        return true;
      }
      const call = await transaction.objectStore('tool_calls').index('by_due').get(range);
      if (call !== undefined) {
        await timeOut(step, call);
        const instance = await transaction
          .objectStore('instances')
          .get(instanceKeyOf(call.conversationId, descriptors.get(call.call.tool)?.app_scope ?? ''));
        const { invocationId } = call;
        // An MCP request still in flight in this page is cancelled (the server gets notifications/cancelled).
        if (invocationId !== undefined && call.dispatchedAt !== undefined)
          effects.push(() => parts.executors.mcp.abort(invocationId));
        if (invocationId !== undefined && instance !== undefined) {
          const target = targetOf(instance);
          effects.push((host) => host.cancelInvocation?.(target, invocationId));
        }
        return true;
      }
      return false;
    });
    if (!changed) return settled;
    settled++;
  }
}

export async function nextDueAt(parts: RecoveryParts): Promise<number | undefined> {
  const transaction = parts.db.transaction(['tool_calls', 'activations', 'operations']);
  const firsts = await Promise.all(
    (['tool_calls', 'activations', 'operations'] as const).map((store) =>
      transaction.objectStore(store).index('by_due').openKeyCursor(),
    ),
  );
  await transaction.done;
  const keys = firsts.flatMap((cursor) => (cursor === null ? [] : [cursor.key as number]));
  return keys.length === 0 ? undefined : Math.min(...keys);
}

async function timeOut(step: Step, call: ToolCallRecord): Promise<void> {
  const { transaction } = step;
  const key = call.key;
  // Whatever the call had going ends with it, so that its one final result stays the timeout.
  const operations = await transaction.objectStore('operations').index('by_due').getAll();
  for (const operation of operations)
    if (operation.callKey === key) {
      const { dueAt: _, ...ended } = operation;
      await transaction
        .objectStore('operations')
        .put({ ...ended, status: 'interrupted', endedAt: step.clock.now() });
    }
  const activations = await transaction.objectStore('activations').index('by_due').getAll();
  for (const activation of activations)
    if (activation.callKey === key) {
      const { dueAt: _, ...ended } = activation;
      await transaction
        .objectStore('activations')
        .put({ ...ended, status: 'failed', reason: 'timeout', settledAt: step.clock.now() });
    } else if (activation.waiting.includes(key))
      await transaction
        .objectStore('activations')
        .put({ ...activation, waiting: activation.waiting.filter((waiting) => waiting !== key) });
  await finish(step, call, {
    outcome: 'error',
    error:
      call.stage === 'awaiting_consent'
        ? { code: 'timeout', message: "The user did not answer before the call's deadline; it did not run." }
        : { code: 'timeout' },
  });
}
