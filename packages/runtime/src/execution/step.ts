/**
 * The context every step of the pipeline works in, passed from one function of the step to the next instead of a
 * list of parameters: its one strict transaction, the host effects to run once it committed, the registry's tools as
 * it read them, the runtime's clock, and where a consent question it ends is noted.
 */
import type { ExecutionTransaction } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import type { Descriptors } from './descriptors.js';
import type { RuntimeHost } from './runtime-host.js';

/** What happens after a commit: host notifications, in order. */
export type Effect = (host: RuntimeHost) => void;

export interface Step {
  /** The step's one strict transaction: every fact it writes commits with the others, or none does. */
  readonly transaction: ExecutionTransaction;
  /** Host notifications, run in order once the transaction committed (never if it aborted). */
  readonly effects: Effect[];
  /** The tools of the enabled apps as the step read them (`registry-snapshot.ts`). */
  readonly descriptors: Descriptors;
  /** The runtime's clock. */
  readonly clock: Clock;
  /** The consent question of the call with this key closes once the step commits. */
  questionEnded(key: string): void;
}
