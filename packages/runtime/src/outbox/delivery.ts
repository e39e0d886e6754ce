/**
 * Outbox delivery (DESIGN.md "Persistence"; seed 003 §4.2 step 8): every message for the agent side is first
 * written as an outbox row in the same transaction as the facts it reports, and only then delivered. Delivery
 * sends the pending rows in the order they were written, one at a time, and marks a row delivered only after
 * the transport accepted it: a failure stops the run and leaves that row and the later ones pending for the
 * next run (at least once, in order; the agent side deduplicates by message). Two runs never overlap: not in
 * one page (one run at a time), and not across the tabs of a profile (a Web Lock named after the database,
 * where the browser has Web Locks). Finding the pending rows reads the `by_pending` index only, never the
 * delivered history.
 */
import type { OutboxRecord, RuntimeDatabase } from '../storage/database.js';
import type { Clock } from '../time/clock.js';

/** The part of `navigator.locks` delivery uses. */
export interface OutboxLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** A message as the transport sends it: its type, payload and, for tool answers, its conversation. */
export type OutboxMessage = Pick<OutboxRecord, 'type' | 'payload' | 'conversationId'> & {
  readonly id: number;
};

export interface DeliveryReport {
  readonly delivered: number;
  /** The error of the row that could not be sent, which stays pending; `null` when every row went out. */
  readonly error: unknown;
}

export interface OutboxDeliveryOptions {
  /** Unix milliseconds for `deliveredAt` (default `Date`). */
  readonly clock?: Clock;
  /**
   * Cross-tab mutual exclusion (default `navigator.locks` where it exists). Without it, runs of one
   * `OutboxDelivery` still never overlap, but two tabs could each send a row before marking it.
   */
  readonly locks?: OutboxLocks | null;
}

function defaultLocks(): OutboxLocks | null {
  const locks = (globalThis as { navigator?: { locks?: OutboxLocks } }).navigator?.locks;
  return locks === undefined ? null : locks;
}

export class OutboxDelivery {
  readonly #db: RuntimeDatabase;
  readonly #clock: Clock;
  readonly #locks: OutboxLocks | null;
  #running: Promise<DeliveryReport> | null = null;
  /** A `deliver` call came during a run: read the pending rows once more before ending it. */
  #again = false;

  constructor(db: RuntimeDatabase, options: OutboxDeliveryOptions = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date;
    this.#locks = options.locks === undefined ? defaultLocks() : options.locks;
  }

  /** The rows not delivered yet, oldest first (the index orders equal keys by the row's id). */
  pending(): Promise<OutboxRecord[]> {
    return this.#db.getAllFromIndex('outbox', 'by_pending');
  }

  /**
   * Sends every pending row through `send`, in order. If a run is already going, returns that run's report
   * instead of starting another (so no row is sent twice by overlapping runs), and that run reads the pending
   * rows again before it ends, so a row written meanwhile is not left behind; it keeps the first caller's `send`.
   */
  deliver(send: (message: OutboxMessage) => Promise<void> | void): Promise<DeliveryReport> {
    if (this.#running !== null) {
      this.#again = true;
      return this.#running;
    }
    const pass = () =>
      this.#locks === null
        ? this.#run(send)
        : this.#locks.request(`lineup-outbox:${this.#db.name}`, () => this.#run(send));
    const running = (async (): Promise<DeliveryReport> => {
      // The run is `#running` before it can end (a lock callback could otherwise fail synchronously).
      await undefined;
      let delivered = 0;
      try {
        do {
          this.#again = false;
          const report = await pass();
          delivered += report.delivered;
          if (report.error !== null) return { delivered, error: report.error };
        } while (this.#again);
        return { delivered, error: null };
      } finally {
        // In the same microtask as the last look at `#again`: a `deliver` call from now on starts a new run.
        // (Clearing it in a `.finally` on the promise left a few microtasks in which a call was answered
        // with this run's report, and its row stayed pending until some later delivery.)
        this.#running = null;
      }
    })();
    this.#running = running;
    return running;
  }

  async #run(send: (message: OutboxMessage) => Promise<void> | void): Promise<DeliveryReport> {
    let delivered = 0;
    for (const row of await this.pending()) {
      const message = {
        id: row.id!,
        type: row.type,
        payload: row.payload,
        conversationId: row.conversationId,
      } as OutboxMessage;
      try {
        await send(message);
      } catch (error) {
        return { delivered, error };
      }
      // Its own transaction, after the send: nothing else is awaited while it is open.
      const { pending: _, ...sent } = row;
      await this.#db.put('outbox', { ...sent, deliveredAt: this.#clock.now() });
      delivered++;
    }
    return { delivered, error: null };
  }
}
