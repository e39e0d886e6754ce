/**
 * Per conversation: its brain (created on its first envelope after the host started, the last inventory replayed
 * to it first), the order of its work, and what the agent sends into it — validated, a tool call recorded once,
 * logged undelivered, then sent on the device's connection that has the conversation in session; what the device
 * has not acknowledged goes out again, same id, at its next session start.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type LineUpMessage, parseEnvelopeText } from '@lineup/shared/protocol';
import type { AgentStore, ConversationKey } from '../store/store.js';
import type { StreamRecords } from '../store/streams.js';
import type { AgentBrain, ConversationBrain } from './brain.js';

/** A device's connection as conversations see it. */
export interface DeviceLink {
  readonly acking: boolean;
  /** Sends a frame; resolves once it left (rejects when the socket is gone). */
  sendFrame(text: string): Promise<void>;
  /** The conversations that got the inventory on this connection: only those may be written into. */
  inSession(conversationId: string): boolean;
}

interface Conversation {
  readonly key: ConversationKey;
  brain?: ConversationBrain;
  /** The chain of this conversation's work: envelopes in, envelopes out, in order. */
  queue: Promise<void>;
}

export interface ConversationsOptions {
  readonly store: AgentStore;
  readonly streams: StreamRecords;
  readonly brain: AgentBrain;
  readonly agentId: string;
  readonly schedule: (callback: () => void, delayMs: number) => void;
  readonly report: (problem: unknown) => void;
  /** The device's current connection, if any. */
  readonly linkOf: (deviceId: string) => DeviceLink | undefined;
}

const keyText = (key: ConversationKey) => JSON.stringify([key.deviceId, key.conversationId]);

export class Conversations {
  readonly #conversations = new Map<string, Conversation>();
  constructor(readonly options: ConversationsOptions) {}

  #of(key: ConversationKey): Conversation {
    const id = keyText(key);
    let conversation = this.#conversations.get(id);
    if (conversation === undefined) {
      conversation = { key, queue: Promise.resolve() };
      this.#conversations.set(id, conversation);
    }
    return conversation;
  }

  /** Runs `work` after everything queued for the conversation before it. */
  #enqueue(conversation: Conversation, work: () => Promise<void>): Promise<void> {
    const run = conversation.queue.then(work).catch((error: unknown) => this.options.report(error));
    conversation.queue = run;
    return run;
  }

  /** Hands a new envelope to the conversation's brain (created first when it has none). */
  deliverIn(key: ConversationKey, message: LineUpMessage, text: string): Promise<void> {
    const conversation = this.#of(key);
    return this.#enqueue(conversation, async () => {
      if (conversation.brain === undefined) await this.#startBrain(conversation, message);
      conversation.brain?.receive(message, text);
    });
  }

  /** The conversation's session started on `link`: sends again, in order, what the device has not acknowledged. */
  resume(key: ConversationKey, link: DeviceLink): Promise<void> {
    const conversation = this.#of(key);
    return this.#enqueue(conversation, async () => {
      for (const entry of await this.options.store.undelivered(key)) {
        const id = String(entry.envelope.id);
        await link.sendFrame(JSON.stringify(entry.envelope));
        if (!link.acking) await this.options.store.markDelivered(key.deviceId, id);
      }
    });
  }

  /**
   * Makes the conversation's brain. When the log holds an earlier part of the conversation (a restart, another
   * worker), a brain that can `restore` replays it — and must reproduce what the log says the agent sent, or it
   * continues on random ids (its memory may then lack calls in flight, which is reported); a brain that cannot is
   * given the last inventory.
   */
  async #startBrain(conversation: Conversation, message: LineUpMessage): Promise<void> {
    const { key } = conversation;
    const ids = conversationIds(key);
    const brain = this.#createBrain(conversation, ids.next);
    conversation.brain = brain;
    const log = await this.options.store.log(key, { limit: 10_000 });
    const index = log.findIndex(
      (entry) =>
        entry.direction === 'in' &&
        entry.envelope.id === message.id &&
        JSON.stringify(entry.envelope.sender) === JSON.stringify(message.sender),
    );
    const earlier = index === -1 ? log : log.slice(0, index);
    if (brain.restore === undefined) {
      ids.randomise();
      if (message.type !== 'lineup.v1.client.inventory') {
        const inventory = await this.options.store.lastIncoming(key, 'lineup.v1.client.inventory');
        if (inventory !== undefined) brain.receive(inventory as never, JSON.stringify(inventory));
      }
      return;
    }
    if (earlier.length === 0) return;
    const produced = brain.restore(earlier).map((text) => JSON.parse(text) as { id?: unknown; type?: unknown });
    const expected = earlier.filter((entry) => entry.direction === 'out').map((entry) => entry.envelope);
    const matches =
      produced.length <= expected.length &&
      produced.every((envelope, at) => envelope.id === expected[at]?.id && envelope.type === expected[at]?.type);
    if (!matches) {
      ids.randomise();
      this.options.report(
        new Error(
          `The brain of ${key.conversationId} did not replay its log as it was (${produced.length} envelopes made, ${expected.length} logged): it goes on with what it rebuilt, on new random ids.`,
        ),
      );
    }
  }

  #createBrain(conversation: Conversation, ids: () => string): ConversationBrain {
    const { key } = conversation;
    return this.options.brain({
      key,
      ids,
      agentId: this.options.agentId,
      store: this.options.store,
      streams: this.options.streams,
      schedule: this.options.schedule,
      report: this.options.report,
      send: (text) => {
        void this.#enqueue(conversation, () => this.#sendOut(key, text));
      },
    });
  }

  async #sendOut(key: ConversationKey, text: string): Promise<void> {
    const parsed = parseEnvelopeText(text, { direction: 'agent_to_client' });
    if (parsed.kind !== 'message')
      throw new TypeError('The brain sent something that is not an agent message.');
    const envelope = parsed.message;
    if (envelope.conversation_id !== key.conversationId)
      throw new TypeError(
        `The brain of ${key.conversationId} wrote into another conversation (${envelope.conversation_id}); nothing was sent.`,
      );
    if (envelope.type === 'lineup.v1.tool.call') {
      const { call_id: callId, tool, arguments: args } = envelope.payload;
      if (!(await this.options.store.recordCall(key, callId, tool, args)))
        throw new Error(`The tool call ${callId} was sent before; a call is never sent twice.`);
    }
    await this.options.store.logOutgoing(key, envelope);
    const link = this.options.linkOf(key.deviceId);
    // Not connected, or the conversation has no session on this connection yet: it goes out at the next start.
    if (link === undefined || !link.inSession(key.conversationId)) return;
    try {
      await link.sendFrame(text);
      if (!link.acking) await this.options.store.markDelivered(key.deviceId, envelope.id);
    } catch {
      // The connection went away: the envelope stays undelivered and goes out at the next session start.
    }
  }
}

/**
 * A conversation's envelope ids: counting (`c<10 hex of the key>.<n>`, the same again in a replay) until
 * `randomise()`, then random (never repeating an id the conversation had).
 */
function conversationIds(key: ConversationKey): { next: () => string; randomise: () => void } {
  const prefix = `c${createHash('sha256').update(JSON.stringify([key.deviceId, key.conversationId])).digest('hex').slice(0, 10)}`;
  let counter = 0;
  let random = false;
  return {
    next: () => (random ? `${prefix}.${randomUUID()}` : `${prefix}.${++counter}`),
    randomise: () => {
      random = true;
    },
  };
}
