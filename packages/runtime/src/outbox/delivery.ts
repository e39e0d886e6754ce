/**
 * Outbox delivery (DESIGN.md "Persistence"; seed 003 §4.2 step 8): every message for the agent side is first
 * written as an outbox row in the same transaction as the facts it reports, and only then delivered. Delivery
 * sends the pending rows in the order they were written, one at a time, and marks a row delivered only after
 * the transport accepted it: a failure stops the run and leaves that row and the later ones pending for the
 * next run (at least once, in order; the agent side deduplicates by message). Two runs never overlap.
 */
import type { OutboxRecord, RuntimeDatabase } from '../storage/database.js';

/** A message as the transport sends it: its type, payload and, for tool answers, its conversation. */
export type OutboxMessage = Pick<OutboxRecord, 'type' | 'payload' | 'conversationId'> & {
  readonly id: number;
};

export interface DeliveryReport {
  readonly delivered: number;
  /** The error of the row that could not be sent, which stays pending; `null` when every row went out. */
  readonly error: unknown;
}

export class OutboxDelivery {
  readonly #db: RuntimeDatabase;
  #running: Promise<DeliveryReport> | null = null;

  constructor(db: RuntimeDatabase) {
    this.#db = db;
  }

  /** The rows not delivered yet, oldest first. */
  async pending(): Promise<OutboxRecord[]> {
    const rows = await this.#db.getAll('outbox');
    return rows.filter((row) => !row.delivered);
  }

  /**
   * Sends every pending row through `send`, in order. If a run is already going, returns that run's report
   * instead of starting another (so no row is sent twice by overlapping runs).
   */
  deliver(send: (message: OutboxMessage) => Promise<void> | void): Promise<DeliveryReport> {
    this.#running ??= this.#run(send).finally(() => {
      this.#running = null;
    });
    return this.#running;
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
      await this.#db.put('outbox', { ...row, delivered: true });
      delivered++;
    }
    return { delivered, error: null };
  }
}
