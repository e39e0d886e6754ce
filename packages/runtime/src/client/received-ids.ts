/**
 * The ids of the envelopes the client received, for dedupe (seed 000 §3): a bounded window of them, seeded at
 * start with the ids the journal recorded last, so a message the agent sends again — also after a reload — is
 * handed on once. Calls are not kept here: the runtime deduplicates them by `call_id`, and answers a call sent
 * again from its record.
 */
import type { AgentClientHandlers, AgentClientOptions } from './agent-client-options.js';
import { DRAIN_BATCH } from './drain-pacing.js';

/**
 * How many of the envelope ids the journal recorded last the client reads when it starts (`recentlyReceived`):
 * what an agent may send again after a reload is what it has no acknowledgement for, and the client acknowledges
 * a batch (at most `DRAIN_BATCH` messages) once it is recorded.
 */
const RECENT_READ = 4 * DRAIN_BATCH;

export class ReceivedIds {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #seen = new Set<string>();
  readonly #dedupeWindow: number;
  /** `#seen` holds the ids the journal recorded last (`readRecent`): a message not among them is new. */
  #recentRead = false;

  constructor(options: AgentClientOptions, handlers: AgentClientHandlers) {
    this.#options = options;
    this.#handlers = handlers;
    this.#dedupeWindow = options.dedupeWindow ?? 4_096;
  }

  /** Whether the ids the journal recorded last are in: a message whose id is not seen is then new. */
  get recentRead(): boolean {
    return this.#recentRead;
  }

  /** Whether `id` was seen; it is remembered from now on, the oldest let go past the window. */
  isDuplicate(id: string): boolean {
    if (this.#seen.has(id)) return true;
    this.#seen.add(id);
    if (this.#seen.size > this.#dedupeWindow) {
      const [oldest] = this.#seen;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return false;
  }

  /** Lets `id` go: a message refused under it may come again, corrected. */
  forget(id: string): void {
    this.#seen.delete(id);
  }

  /**
   * Reads the envelope ids the journal recorded last into the ids seen (`RECENT_READ`): a repeat of one is then
   * dropped as a copy, and any other message is known to be new without waiting for the journal's read.
   */
  async readRecent(): Promise<void> {
    const journal = this.#options.journal;
    if (journal?.recentlyReceived === undefined) return;
    try {
      const ids = await journal.recentlyReceived(RECENT_READ);
      // Oldest first, and before what was seen meanwhile: the window lets go of the oldest.
      const since = [...this.#seen];
      this.#seen.clear();
      for (const id of [...ids].reverse()) this.isDuplicate(id);
      for (const id of since) this.isDuplicate(id);
      // A window smaller than what was read has let some of them go again: then the journal decides.
      this.#recentRead = this.#dedupeWindow >= RECENT_READ;
    } catch (error) {
      // Not fatal: the journal reads each batch before it is handed on, as without them.
      this.#handlers.problem?.(error);
    }
  }
}
