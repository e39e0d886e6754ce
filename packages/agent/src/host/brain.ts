/**
 * The model-loop seam: the agent's brain is a function the deployer supplies. The host creates one
 * `ConversationBrain` per conversation (on its first envelope after the host started, with the conversation's last
 * inventory replayed to it first) and hands it every new envelope the device sends, once; the brain answers through
 * `context.send`, which checks, persists and delivers what it sends.
 */
import type { LineUpMessage } from '@lineup/shared/protocol';
import type { AgentStore, ConversationKey } from '../store/store.js';
import type { StreamRecords } from '../store/streams.js';

export interface BrainContext {
  readonly key: ConversationKey;
  /** `sender.id` for the envelopes the brain sends. */
  readonly agentId: string;
  /**
   * Sends one `lineup.v1` envelope (JSON text) into this conversation. It is validated (agent → client), a
   * `tool.call` is recorded first and never sent twice, and it is in the log before it leaves; the device gets it
   * now or, until it acknowledges it, again at its next session start. Never throws: problems go to `report`.
   */
  send(text: string): void;
  /** Runs `callback` after `delayMs`, unless the host has closed by then. */
  schedule(callback: () => void, delayMs: number): void;
  readonly store: AgentStore;
  readonly streams: StreamRecords;
  report(problem: unknown): void;
  /**
   * New envelope ids for this conversation. For a brain that can `restore`, they count (`c<hash>.<n>`), so a replay
   * makes the same ids again; otherwise (or once a replay did not match) they are random.
   */
  ids(): string;
}

/** What a replay gets: the device's envelopes and the agent's, in the order the log has them. */
export interface ReplayEntry {
  readonly direction: 'in' | 'out';
  readonly envelope: Record<string, unknown>;
}

export interface ConversationBrain {
  /** One new envelope of the device (never a copy), already validated; `text` is its JSON text. Never throws. */
  receive(message: LineUpMessage, text: string): void;
  /**
   * Optional: rebuilds the brain's memory after a restart (or on another worker) from the conversation's log, before
   * the next envelope — sending nothing, calling no model. Returns what it would have sent, as JSON texts, in order:
   * the host checks that it is what the log holds (same ids, same types), and keeps the counting ids only then.
   * A brain without it starts from the last inventory alone.
   */
  restore?(entries: readonly ReplayEntry[]): string[];
  /**
   * Optional: whether the brain has nothing in flight (no model turn running). A brain that can both `restore` and
   * say it is idle may be dropped from memory once its conversation has been quiet for the host's `brainIdleMs`
   * (nothing queued, nothing it `schedule`d still to run); it is made again, and restored from the log, when the
   * conversation next has work. A brain without it stays in memory while the host runs.
   */
  idle?(): boolean;
}

export type AgentBrain = (context: BrainContext) => ConversationBrain;
