/**
 * Step 6 of the pipeline, how every step runs: one strict IndexedDB transaction over the execution stores, so the
 * business state, an operation's end and the outbox rows it writes (`results.ts`) commit together or not at all;
 * and the host effects it collects — run only after the commit, so a host failure never undoes a fact and an
 * aborted step tells the host nothing.
 */
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import {
  abortQuietly,
  type CONSENT_STORES,
  commitNow,
  EXECUTION_STORES,
  type ExecutionTransaction,
  guardInventory,
  type RuntimeDatabase,
  STRICT,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import type { Descriptors } from './descriptors.js';
import { type RegistryRead, RegistryReader } from './registry-snapshot.js';
import type { RuntimeHost } from './runtime-host.js';
import type { Effect, Step } from './step.js';
import { releaseCalls } from './step-records.js';

/**
 * The registry as a step read it: the published inventory with its counter, and the descriptors of the enabled
 * apps' tools. The steps that do not read it assert that the counter is still the published one.
 */
export interface RegistrySnapshot {
  readonly counter: number;
  readonly inventory: ClientInventoryPayload;
  readonly descriptors: Descriptors;
}

/** What a step that reads nothing touches: the call, its outbox row and audit entry; and the inventory's guard. */
const CALL_STORES = ['tool_calls', 'audit', 'outbox'] as const;
const WRITE_ONLY_STORES = ['inventory_fences', ...CALL_STORES] as const;

/** A step's context while it runs, with the consent questions it ended. */
interface StepInProgress {
  readonly step: Step;
  readonly questionsEnded: string[];
}

export interface StepRunnerOptions {
  readonly db: RuntimeDatabase;
  readonly host: RuntimeHost;
  readonly clock: Clock;
  /** Closes the consent question of the call with this key (a step ended its wait for the user). */
  readonly closeQuestion: (key: string) => void;
}

export class StepRunner {
  readonly #options: StepRunnerOptions;
  /** The registry as the steps read it: kept between steps while its stamp stays. */
  readonly registry = new RegistryReader();

  constructor(options: StepRunnerOptions) {
    this.#options = options;
  }

  /** The context of a step in `transaction`, and the consent questions it ends (closed after its commit). */
  #stepIn(transaction: ExecutionTransaction, descriptors: Descriptors): StepInProgress {
    const questionsEnded: string[] = [];
    const step: Step = {
      transaction,
      effects: [],
      descriptors,
      clock: this.#options.clock,
      questionEnded: (key) => void questionsEnded.push(key),
    };
    return { step, questionsEnded };
  }

  /** After a step committed: the questions it ended close, and its host effects run, in order. */
  #committed({ step, questionsEnded }: StepInProgress): void {
    for (const key of questionsEnded) {
      this.#options.closeQuestion(key);
      const [conversationId = '', callId = ''] = key.split('\n');
      step.effects.push((host) => host.consentChanged?.(conversationId, callId));
    }
    this.run(step.effects);
  }

  /**
   * Runs `body` in one strict transaction over the execution stores; host effects only after the commit. The
   * transaction commits as soon as `body` is done (it issues nothing after), not once its last answers came back.
   */
  async step(
    body: (step: Step, registry: RegistryRead) => Promise<boolean>,
    /** Work that needs no descriptors, issued alongside their read (one round trip fewer). */
    first?: (transaction: ExecutionTransaction) => Promise<void>,
    /** The consent steps that read or write remembered allowances take `CONSENT_STORES`. */
    stores: typeof EXECUTION_STORES | typeof CONSENT_STORES = EXECUTION_STORES,
  ): Promise<boolean> {
    const transaction = this.#options.db.transaction(
      stores,
      'readwrite',
      STRICT,
    ) as unknown as ExecutionTransaction;
    let changed: boolean;
    let inProgress: StepInProgress;
    try {
      const [registry] = await Promise.all([this.registry.readIn(transaction), first?.(transaction)]);
      inProgress = this.#stepIn(transaction, registry.descriptors);
      changed = await body(inProgress.step, registry);
      releaseCalls(transaction);
      commitNow(transaction);
    } catch (error) {
      abortQuietly(transaction);
      await transaction.done.catch(() => {});
      throw error;
    }
    await transaction.done;
    this.#committed(inProgress);
    return changed;
  }

  /**
   * A step that reads nothing: `body` only issues writes, computed from what this runtime knows — `registry`, as
   * the last `receive` read it, or a call as this runtime dispatched it. Every request succeeds when the step may
   * commit, so it asks to commit at once (`commitNow`): the registry is asserted by the guard row
   * (`guardInventory`), and that the call still waits for its request by the final result's outbox row, whose
   * `requestEnded` the unique index refuses once the call ended otherwise (timed out, withdrawn, recovered by another
   * tab). If an assertion fails, or a write does (a `call_id` recorded already), the transaction aborts, nothing of it
   * is kept, and it returns false — the caller then takes the step that reads, or drops the answer. Host effects
   * run only after the commit, as for every step. It spares the round trips that a read, and then the answers to
   * the writes, would cost before the commit could even be asked for.
   */
  async writeOnlyStep(
    /** The registry the step assumes (asserted), or only the tools it knows (nothing asserted of the registry). */
    assumed: RegistrySnapshot | { readonly descriptors: Descriptors },
    body: (step: Step) => Promise<void>,
  ): Promise<boolean> {
    const registry = 'counter' in assumed ? assumed : undefined;
    const transaction = this.#options.db.transaction(
      registry === undefined ? CALL_STORES : WRITE_ONLY_STORES,
      'readwrite',
      STRICT,
    ) as unknown as ExecutionTransaction;
    if (registry !== undefined) guardInventory(transaction as never, registry.counter);
    const inProgress = this.#stepIn(transaction, assumed.descriptors);
    try {
      await body(inProgress.step);
      releaseCalls(transaction);
      commitNow(transaction);
      await transaction.done;
    } catch {
      abortQuietly(transaction);
      await transaction.done.catch(() => {});
      return false;
    }
    this.#committed(inProgress);
    return true;
  }

  run(effects: readonly Effect[]): void {
    for (const effect of effects) {
      try {
        effect(this.#options.host);
      } catch {
        // A host failure after the commit never undoes committed facts (seed 003 §8.8).
      }
    }
  }
}
