/**
 * How a step of the pipeline runs: one strict IndexedDB transaction over the execution stores, the facts it writes
 * (`facts.ts`), and the host effects it collects — run only after the commit, so a host failure never undoes a fact
 * and an aborted step tells the host nothing.
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
import type { Effect, Facts } from './facts.js';
import { type RegistryRead, RegistryReader } from './registry-snapshot.js';
import type { RuntimeHost } from './runtime-host.js';
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

export interface StepRunnerOptions {
  readonly db: RuntimeDatabase;
  readonly host: RuntimeHost;
  readonly clock: Clock;
  /** Closes the consent question of the call with this key (a step ended its wait for the user). */
  readonly closeQuestion: (key: string) => void;
}

export class StepRunner {
  readonly #options: StepRunnerOptions;
  /** Calls that stopped waiting for the user in a step's transaction: their questions close after its commit. */
  readonly #questionsEnded = new WeakMap<object, string[]>();
  /** The facts steps write, with the runtime's clock; a consent question a step ends closes after its commit. */
  readonly facts: Facts;
  /** The registry as the steps read it: kept between steps while its stamp stays. */
  readonly registry = new RegistryReader();

  constructor(options: StepRunnerOptions) {
    this.#options = options;
    this.facts = {
      clock: options.clock,
      questionEnded: (transaction, key) => {
        const ended = this.#questionsEnded.get(transaction) ?? [];
        ended.push(key);
        this.#questionsEnded.set(transaction, ended);
      },
    };
  }

  /**
   * Runs `body` in one strict transaction over the execution stores; host effects only after the commit. The
   * transaction commits as soon as `body` is done (it issues nothing after), not once its last answers came back.
   */
  async step(
    body: (
      transaction: ExecutionTransaction,
      effects: Effect[],
      descriptors: Descriptors,
      registry: RegistryRead,
    ) => Promise<boolean>,
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
    const effects: Effect[] = [];
    let changed: boolean;
    try {
      const [registry] = await Promise.all([this.registry.readIn(transaction), first?.(transaction)]);
      changed = await body(transaction, effects, registry.descriptors, registry);
      releaseCalls(transaction);
      commitNow(transaction);
    } catch (error) {
      abortQuietly(transaction);
      await transaction.done.catch(() => {});
      throw error;
    }
    await transaction.done;
    for (const key of this.#questionsEnded.get(transaction) ?? []) {
      this.#options.closeQuestion(key);
      const [conversationId = '', callId = ''] = key.split('\n');
      effects.push((host) => host.consentChanged?.(conversationId, callId));
    }
    this.run(effects);
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
    registry: RegistrySnapshot | undefined,
    body: (transaction: ExecutionTransaction, effects: Effect[]) => Promise<void>,
  ): Promise<boolean> {
    const transaction = this.#options.db.transaction(
      registry === undefined ? CALL_STORES : WRITE_ONLY_STORES,
      'readwrite',
      STRICT,
    ) as unknown as ExecutionTransaction;
    if (registry !== undefined) guardInventory(transaction as never, registry.counter);
    const effects: Effect[] = [];
    try {
      await body(transaction, effects);
      commitNow(transaction);
      await transaction.done;
    } catch {
      abortQuietly(transaction);
      await transaction.done.catch(() => {});
      return false;
    }
    this.run(effects);
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
