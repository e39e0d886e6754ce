/**
 * The client's judgement of component-stream frames (seed 002 §12 "重复、乱序、恢复与终止"): one receiver per stream
 * — conversation, `sourceCallId`, `uiId` — folding every `ui.checkpoint` the agent sends with `acceptCheckpoint`, so
 * a frame the stream cannot take (a conflict, one after the end, a contract change) is refused with its located
 * issues before anything records or shows it, whichever conversation the host shows. A stale frame (an older seq
 * never seen, an older generation) is taken and changes nothing, as the seed says.
 *
 * Receivers live in memory, the most recently used `capacity` of them. One that is missing (after a reload, or
 * evicted) is rebuilt from the frames the conversation's journal recorded before it judges the next frame, so a
 * reload never makes the client accept a frame the conversation's history refuses.
 */
import { acceptCheckpoint, UIStreamError, type UIStreamState } from '@lineup/shared';

/** The checkpoints of one stream that the journal recorded, oldest first. */
export type StreamHistory = (
  conversationId: string,
  sourceCallId: string,
  uiId: string,
) => Promise<readonly unknown[]>;

export class StreamReceivers {
  readonly #states = new Map<string, UIStreamState>();
  readonly #history: StreamHistory | undefined;
  readonly #capacity: number;

  constructor(history?: StreamHistory, capacity = 256) {
    this.#history = history;
    this.#capacity = capacity;
  }

  /** Folds `checkpoint` into its stream; throws `UIStreamError` (nothing changes) for a frame it refuses. */
  async accept(conversationId: string, checkpoint: unknown): Promise<void> {
    const { sourceCallId, uiId } = (checkpoint ?? {}) as { sourceCallId?: unknown; uiId?: unknown };
    if (typeof sourceCallId !== 'string' || typeof uiId !== 'string') {
      // Not a frame at all: acceptCheckpoint says where.
      acceptCheckpoint(null, checkpoint);
      return;
    }
    const key = `${conversationId}\n${sourceCallId}\n${uiId}`;
    let current = this.#states.get(key);
    if (current === undefined && this.#history !== undefined) {
      let folded: UIStreamState | null = null;
      for (const frame of await this.#history(conversationId, sourceCallId, uiId)) {
        try {
          folded = acceptCheckpoint(folded, frame);
        } catch (error) {
          // A frame refused when it came (recorded by a client before this one judged frames): skipped again.
          if (!(error instanceof UIStreamError)) throw error;
        }
      }
      if (folded !== null) current = folded;
    }
    const next = acceptCheckpoint(current ?? null, checkpoint);
    this.#states.delete(key);
    this.#states.set(key, next);
    if (this.#states.size > this.#capacity) {
      const [oldest] = this.#states.keys();
      if (oldest !== undefined) this.#states.delete(oldest);
    }
  }
}
