/**
 * The conversations this worker handles, and the delivery of what agents say to the devices connected to it.
 *
 * - **Pumping.** The device's worker takes each envelope into the log and pokes its conversation. The owner (this
 *   worker when it holds or can claim the conversation: see `Ownership`) hands the envelopes after `handled_seq` to
 *   the conversation's brain, in order, and records each one handed, only while it still owns the conversation.
 *   Envelopes for a conversation another live worker owns are left to it; every `pollMs` each worker looks for work
 *   of its own and for conversations of its devices whose owner ended, and claims them.
 * - **A brain on a new worker** (after a restart, a takeover) is rebuilt from the log: a brain that can `restore`
 *   replays it and must reproduce what the log says the agent sent; one that cannot gets the last inventory, and if
 *   the device's last message was never answered, the device is told so (a definite answer, never silence).
 * - **Sending.** What a brain sends is validated, its tool call recorded once, and logged — in one transaction with
 *   the ownership check — then sent at once when the device is connected here with the conversation in session;
 *   otherwise the worker the device is connected to sends it (`deliver`, every `pollMs`), and at every session start
 *   what the device has not acknowledged goes out again, same id.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type LineUpMessage, parseEnvelopeText } from '@lineup/shared/protocol';
import type { Ownership } from '../store/owners.js';
import type { AgentStore, ConversationKey, LogEntry } from '../store/store.js';
import type { StreamRecords } from '../store/streams.js';
import type { AgentBrain, ConversationBrain } from './brain.js';

/** A device's connection as conversations see it. */
export interface DeviceLink {
  readonly acking: boolean;
  /** Sends a frame; resolves once it left (rejects when the socket is gone). */
  sendFrame(text: string): Promise<void>;
  /** The conversations that got the inventory on this connection: only those may be written into. */
  inSession(conversationId: string): boolean;
  /** The agent envelopes sent on this connection and not acknowledged yet (sent once per connection). */
  readonly sent: Set<string>;
}

interface Conversation {
  readonly key: ConversationKey;
  brain?: ConversationBrain;
  ids: ReturnType<typeof conversationIds>;
  /** Claimed by this worker; `handledSeq` is the last envelope handed to its brain. */
  owned: boolean;
  handledSeq: number;
  /** The chain of this conversation's work: envelopes in, envelopes out, in order. */
  queue: Promise<void>;
  /** Work queued and not finished, and callbacks its brain scheduled that have not run: while either, it is busy. */
  queued: number;
  timers: number;
  /** When it last had work (ms, the host's clock). */
  lastActive: number;
}

export interface ConversationsOptions {
  readonly store: AgentStore;
  readonly ownership: Ownership;
  readonly streams: StreamRecords;
  readonly brain: AgentBrain;
  readonly agentId: string;
  readonly schedule: (callback: () => void, delayMs: number) => void;
  readonly report: (problem: unknown) => void;
  /** The device's current connection on this worker, if any. */
  readonly linkOf: (deviceId: string) => DeviceLink | undefined;
  /** The devices connected to this worker. */
  readonly devices: () => string[];
  /**
   * How long a conversation's brain may sit idle before it is dropped from memory (default 10 minutes); it is made
   * again, and rebuilt from the log with `restore`, when the conversation next has work. Only brains that can say
   * they are `idle()` and can `restore` are dropped.
   */
  readonly brainIdleMs?: number;
}

/** Said to a device whose last message a brain that cannot `restore` was answering when its worker ended. */
export const INTERRUPTED_TURN_TEXT =
  'Sorry — the agent was interrupted (it restarted) before it answered your last message. Please send it again.';

/** The most envelopes read for a conversation at once. */
const INCOMING_PAGE = 256;

const keyText = (key: ConversationKey) => JSON.stringify([key.deviceId, key.conversationId]);
const ASKS_FOR_ANSWER = new Set(['lineup.v1.chat.user_message', 'lineup.v1.ui.action']);

export class Conversations {
  readonly #conversations = new Map<string, Conversation>();
  constructor(readonly options: ConversationsOptions) {}

  #of(key: ConversationKey): Conversation {
    const id = keyText(key);
    let conversation = this.#conversations.get(id);
    if (conversation === undefined) {
      conversation = {
        key,
        ids: conversationIds(key),
        owned: false,
        handledSeq: 0,
        queue: Promise.resolve(),
        queued: 0,
        timers: 0,
        lastActive: Date.now(),
      };
      this.#conversations.set(id, conversation);
    }
    return conversation;
  }

  #forget(conversation: Conversation): void {
    if (this.#conversations.get(keyText(conversation.key)) === conversation)
      this.#conversations.delete(keyText(conversation.key));
  }

  /** Runs `work` after everything queued for the conversation before it. */
  #enqueue(conversation: Conversation, work: () => Promise<void>): Promise<void> {
    conversation.queued += 1;
    conversation.lastActive = Date.now();
    const run = conversation.queue
      .then(work)
      .catch((error: unknown) => this.options.report(error))
      .finally(() => {
        conversation.queued -= 1;
        conversation.lastActive = Date.now();
      });
    conversation.queue = run;
    return run;
  }

  /** How many conversations have a brain in memory on this worker. */
  get brains(): number {
    let count = 0;
    for (const conversation of this.#conversations.values()) if (conversation.brain !== undefined) count += 1;
    return count;
  }

  /**
   * Drops the conversations whose brain has been idle for `brainIdleMs`: nothing queued, nothing scheduled, and the
   * brain itself says it is `idle()` (no model turn running). Their next work makes a brain again from the log.
   */
  evictIdle(now = Date.now()): number {
    const idleMs = this.options.brainIdleMs ?? 600_000;
    let evicted = 0;
    for (const conversation of [...this.#conversations.values()]) {
      const { brain } = conversation;
      if (
        brain?.idle === undefined ||
        brain.restore === undefined ||
        conversation.queued > 0 ||
        conversation.timers > 0 ||
        now - conversation.lastActive < idleMs ||
        !brain.idle()
      )
        continue;
      this.#forget(conversation);
      evicted += 1;
    }
    return evicted;
  }

  /** New envelopes were taken for `key`: hands them to its brain here, if this worker owns or can claim it. */
  poke(key: ConversationKey): Promise<void> {
    const conversation = this.#of(key);
    return this.#enqueue(conversation, () => this.#pump(conversation));
  }

  async #pump(conversation: Conversation): Promise<void> {
    const { key } = conversation;
    const { ownership, store } = this.options;
    if (!conversation.owned) {
      const handled = await ownership.claim(key);
      if (handled === null) return this.#forget(conversation); // a live worker has it
      conversation.owned = true;
      conversation.handledSeq = handled;
    }
    // A conversation with a past gets its brain at once (a turn cut off resumes, or the device hears it was lost).
    if (conversation.brain === undefined && conversation.handledSeq > 0) await this.#startBrain(conversation);
    for (;;) {
      const entries = await ownership.incoming(key, conversation.handledSeq, INCOMING_PAGE);
      if (entries.length === 0) return;
      for (const entry of entries) {
        if (conversation.brain === undefined) await this.#startBrain(conversation);
        const message = entry.envelope as unknown as LineUpMessage;
        let forBrain = true;
        if (message.type === 'lineup.v1.tool.result') {
          // A final result applies once: a copy under another envelope id is not handed on.
          const applied = await store.recordCallAnswer(
            key,
            message.payload.call_id,
            'final',
            message.payload,
            message.id,
          );
          forBrain = applied !== 'duplicate';
        } else if (message.type === 'lineup.v1.tool.progress') {
          await store.recordCallAnswer(key, message.payload.call_id, 'progress', message.payload);
        }
        if (forBrain) conversation.brain?.receive(message, JSON.stringify(message));
        if (!(await ownership.handled(key, entry.seq))) {
          this.options.report(
            new Error(`This worker no longer owns ${key.conversationId}; another one goes on with it.`),
          );
          return this.#forget(conversation);
        }
        conversation.handledSeq = entry.seq;
      }
      // A short page was the end: an envelope taken since then pokes the conversation again.
      if (entries.length < INCOMING_PAGE) return;
    }
  }

  /**
   * Makes the conversation's brain, rebuilt from the log when the conversation has a past (see the top of this file).
   */
  async #startBrain(conversation: Conversation): Promise<void> {
    const { key, handledSeq } = conversation;
    const brain = this.#createBrain(conversation);
    conversation.brain = brain;
    if (handledSeq === 0) {
      if (brain.restore === undefined) conversation.ids.randomise();
      return;
    }
    // The whole log, page by page: a brain rebuilt from a part of it would count ids the device already has.
    const log: LogEntry[] = [];
    for (;;) {
      const page = await this.options.store.log(key, { afterSeq: log.at(-1)?.seq ?? 0, limit: 10_000 });
      log.push(...page);
      if (page.length < 10_000) break;
    }
    const past = log.filter((entry) => entry.direction === 'out' || entry.seq <= handledSeq);
    if (brain.restore === undefined) {
      conversation.ids.randomise();
      const handledIn = past.filter((entry) => entry.direction === 'in');
      const inventory = handledIn.findLast((entry) => entry.type === 'lineup.v1.client.inventory');
      if (inventory !== undefined)
        brain.receive(inventory.envelope as never, JSON.stringify(inventory.envelope));
      this.#answerInterrupted(conversation, log, handledIn);
      return;
    }
    const produced = brain.restore(past).map((text) => JSON.parse(text) as { id?: unknown; type?: unknown });
    const expected = past.filter((entry) => entry.direction === 'out').map((entry) => entry.envelope);
    const matches =
      produced.length <= expected.length &&
      produced.every(
        (envelope, at) => envelope.id === expected[at]?.id && envelope.type === expected[at]?.type,
      );
    if (!matches) {
      conversation.ids.randomise();
      this.options.report(
        new Error(
          `The brain of ${key.conversationId} did not replay its log as it was (${produced.length} envelopes made, ${expected.length} logged): it goes on with what it rebuilt, on new random ids.`,
        ),
      );
    }
  }

  /** The device's last message asked for an answer that never came: says so, once (a definite answer). */
  #answerInterrupted(
    conversation: Conversation,
    log: readonly LogEntry[],
    handledIn: readonly LogEntry[],
  ): void {
    const last = handledIn.findLast((entry) => ASKS_FOR_ANSWER.has(entry.type));
    if (last === undefined) return;
    const answered = log.some(
      (entry) =>
        entry.direction === 'out' && entry.seq > last.seq && entry.type === 'lineup.v1.chat.agent_message',
    );
    if (answered) return;
    const envelope = {
      v: 1,
      id: conversation.ids.next(),
      type: 'lineup.v1.chat.agent_message',
      conversation_id: conversation.key.conversationId,
      sender: { kind: 'agent', id: this.options.agentId },
      payload: { text: INTERRUPTED_TURN_TEXT },
    };
    void this.#enqueue(conversation, () => this.#sendOut(conversation, JSON.stringify(envelope)));
  }

  #createBrain(conversation: Conversation): ConversationBrain {
    const { key } = conversation;
    return this.options.brain({
      key,
      ids: conversation.ids.next,
      agentId: this.options.agentId,
      store: this.options.store,
      streams: this.options.streams,
      // Counted, so that a conversation with a callback still to run is never dropped as idle.
      schedule: (callback, delayMs) => {
        conversation.timers += 1;
        this.options.schedule(() => {
          conversation.timers -= 1;
          conversation.lastActive = Date.now();
          callback();
        }, delayMs);
      },
      report: this.options.report,
      send: (text) => {
        void this.#enqueue(conversation, () => this.#sendOut(conversation, text));
      },
    });
  }

  async #sendOut(conversation: Conversation, text: string): Promise<void> {
    const { key } = conversation;
    const parsed = parseEnvelopeText(text, { direction: 'agent_to_client' });
    if (parsed.kind !== 'message')
      throw new TypeError('The brain sent something that is not an agent message.');
    const envelope = parsed.message;
    if (envelope.conversation_id !== key.conversationId)
      throw new TypeError(
        `The brain of ${key.conversationId} wrote into another conversation (${envelope.conversation_id}); nothing was sent.`,
      );
    const call =
      envelope.type === 'lineup.v1.tool.call'
        ? {
            callId: envelope.payload.call_id,
            tool: envelope.payload.tool,
            arguments: envelope.payload.arguments,
          }
        : undefined;
    const outcome = await this.options.ownership.sendOut(key, envelope, call);
    if (outcome === 'call_repeated')
      throw new Error(`The tool call ${call?.callId} was sent before; a call is never sent twice.`);
    if (outcome === 'not_owner') {
      this.#forget(conversation);
      throw new Error(
        `${key.conversationId} moved to another worker; what its brain sent here was not sent.`,
      );
    }
    await this.#deliver(key, envelope.id, text);
  }

  /** Sends an agent envelope to its device when it is connected here with the conversation in session. */
  async #deliver(key: ConversationKey, id: string, text: string): Promise<void> {
    const link = this.options.linkOf(key.deviceId);
    // Not here, or no session yet: the device's worker sends it, or it goes out at the next session start.
    if (link === undefined || !link.inSession(key.conversationId) || link.sent.has(id)) return;
    link.sent.add(id);
    try {
      await link.sendFrame(text);
      if (!link.acking) await this.options.store.markDelivered(key.deviceId, id);
    } catch {
      link.sent.delete(id); // the connection went away: it stays undelivered
    }
  }

  /** The conversation's session started on `link`: sends again, in order, what the device has not acknowledged. */
  async resume(key: ConversationKey, link: DeviceLink): Promise<void> {
    for (const entry of await this.options.store.undelivered(key)) {
      const id = String(entry.envelope.id);
      link.sent.add(id);
      try {
        await link.sendFrame(JSON.stringify(entry.envelope));
        if (!link.acking) await this.options.store.markDelivered(key.deviceId, id);
      } catch {
        link.sent.delete(id);
        return;
      }
    }
  }

  /**
   * One round of the work that reaches this worker through the database: conversations to pump (its own, and its
   * devices' whose owner ended), and what other workers' brains said to the devices connected here.
   */
  async poll(): Promise<void> {
    const devices = this.options.devices();
    for (const key of await this.options.ownership.work(devices)) void this.poke(key);
    for (const entry of await this.options.ownership.undeliveredFor(devices))
      await this.#deliver(entry, String(entry.envelope.id), JSON.stringify(entry.envelope));
  }
}

/**
 * A conversation's envelope ids: counting (`c<10 hex of the key>.<n>`, the same again in a replay) until
 * `randomise()`, then random (never repeating an id the conversation had).
 */
function conversationIds(key: ConversationKey): { next: () => string; randomise: () => void } {
  const prefix = `c${createHash('sha256')
    .update(JSON.stringify([key.deviceId, key.conversationId]))
    .digest('hex')
    .slice(0, 10)}`;
  let counter = 0;
  let random = false;
  return {
    next: () => (random ? `${prefix}.${randomUUID()}` : `${prefix}.${++counter}`),
    randomise: () => {
      random = true;
    },
  };
}
