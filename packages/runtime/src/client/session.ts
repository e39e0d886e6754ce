/**
 * The agent session (seed 000 §5.1): whenever the transport opens, each open conversation gets the current
 * `client.inventory` first. A conversation is of this session once it got the inventory on this connection: the
 * agent acts only there (seed 003 §2.3 "不能…跨会话操控"), and the client announces a conversation before it sends
 * anything else into it. Outbox rows (tool progress and results, inventory changes) go out with ids derived from
 * the row; with a journal, the user's messages wait while the agent is away and go out in order at the next
 * session start.
 */
import type { ClientInventoryPayload, LineUpMessage } from '@lineup/shared/protocol';
import type { OutboxMessage } from '../outbox/delivery.js';
import { notConnected } from './agent-client-error.js';
import type {
  AgentClientHandlers,
  AgentClientOptions,
  AgentClientSendResult,
} from './agent-client-options.js';
import type { ConnectionStatus } from './connection-status.js';
import type { Outgoing } from './outgoing.js';

export class AgentSession {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #outgoing: Outgoing;
  readonly #status: ConnectionStatus;
  readonly #conversations = new Set<string>();
  /** The inventory revision last sent to each conversation (seed 000 §5.1: which revision went to whom). */
  readonly #inventorySent = new Map<string, { readonly revision: string }>();
  /** The journal's queued messages are sent by one flush at a time, oldest first. */
  #flushing: Promise<ReadonlySet<string>> = Promise.resolve(new Set());
  /** True between a session's start (inventories sent) and the transport closing. */
  #sessionStarted = false;

  constructor(
    options: AgentClientOptions,
    handlers: AgentClientHandlers,
    outgoing: Outgoing,
    status: ConnectionStatus,
  ) {
    this.#options = options;
    this.#handlers = handlers;
    this.#outgoing = outgoing;
    this.#status = status;
    for (const id of options.conversations ?? []) this.#conversations.add(id);
  }

  get conversations(): readonly string[] {
    return [...this.#conversations];
  }

  /** Opens a conversation the user started; once connected, it gets the inventory first. */
  async open(conversationId: string): Promise<void> {
    if (this.#conversations.has(conversationId)) return;
    this.#conversations.add(conversationId);
    if (this.#status.current === 'open')
      await this.#sendInventory(conversationId, await this.#options.inventory());
  }

  /** A conversation of this session: it got the inventory on this connection. */
  inSession(conversationId: string): boolean {
    return this.#inventorySent.has(conversationId);
  }

  /** The inventory revision last sent to `conversationId` on this client, if any. */
  revisionSent(conversationId: string): string | undefined {
    return this.#inventorySent.get(conversationId)?.revision;
  }

  /** A new session, once the transport opened and the frames waiting from before are in. */
  async start(): Promise<void> {
    // A new session: every conversation gets the inventory again, first (an outbox delivery of the same
    // revision that runs meanwhile sends it in its place, once: see #claimInventory).
    this.#inventorySent.clear();
    this.#status.set('open');
    const inventory = await this.#options.inventory();
    for (const conversationId of this.#conversations)
      if (this.#inventorySent.get(conversationId)?.revision !== inventory.revision)
        await this.#sendInventory(conversationId, inventory);
    this.#sessionStarted = true;
    // What the user said while the agent was away goes out now, in order, before anything else of ours.
    await this.#flush();
    this.#options.onSessionStart?.();
  }

  /** The transport closed: nothing more goes out until the next session starts. */
  end(): void {
    this.#sessionStarted = false;
  }

  /**
   * Sends one of the user's messages: recorded first with a journal, where it waits while the agent is away;
   * without one, `not_connected` while the agent is away.
   */
  async sendQueued(message: LineUpMessage): Promise<AgentClientSendResult> {
    const journal = this.#options.journal;
    if (journal === undefined) {
      if (this.#status.current !== 'open') throw notConnected();
      this.#handlers.queued?.(message);
      await this.#outgoing.transmit(message);
      return { message, delivery: 'sent' };
    }
    await journal.queued(message);
    this.#handlers.queued?.(message);
    const delivered = await this.#flush();
    return { message, delivery: delivered.has(message.id) ? 'sent' : 'queued' };
  }

  /**
   * Sends the journal's queued messages, oldest first, once the session has started (inventories first);
   * resolves with the ids it delivered. A failed send leaves the rest pending for the next session.
   */
  #flush(): Promise<ReadonlySet<string>> {
    const run = async (): Promise<ReadonlySet<string>> => {
      const delivered = new Set<string>();
      const journal = this.#options.journal;
      if (journal === undefined || !this.#sessionStarted) return delivered;
      for (;;) {
        const pending = (await journal.pending()).filter((message) => !delivered.has(message.id));
        if (pending.length === 0) return delivered;
        for (const message of pending) {
          if (!this.#sessionStarted) return delivered;
          try {
            await this.#announce(message.conversation_id);
            await this.#outgoing.transmit(message, false);
          } catch (error) {
            this.#handlers.problem?.(error);
            return delivered;
          }
          delivered.add(message.id);
          await journal.delivered(message);
        }
      }
    };
    this.#flushing = this.#flushing.then(run, run);
    return this.#flushing;
  }

  /** See `AgentClient.sendOutboxMessage`. */
  async sendOutboxMessage(message: OutboxMessage): Promise<void> {
    const outgoing = this.#outgoing;
    if (message.conversationId !== undefined) {
      await this.#announce(message.conversationId);
      await outgoing.send(message.conversationId, message.type, message.payload, outgoing.rowId(message.id));
      return;
    }
    const revision =
      message.type === 'lineup.v1.client.inventory'
        ? (message.payload as ClientInventoryPayload).revision
        : undefined;
    // A row of an inventory that is no longer the current one is superseded: an agent must never get an older
    // revision after a newer one. It counts as delivered (the current one goes out in its place).
    if (revision !== undefined && (await this.#options.inventory()).revision !== revision) return;
    for (const conversationId of this.#conversations) {
      if (revision === undefined) {
        await outgoing.send(
          conversationId,
          message.type,
          message.payload,
          outgoing.rowId(message.id, conversationId),
        );
        continue;
      }
      // A conversation that already has this revision (sent at session start, maybe still on its way) does not
      // get it twice.
      if (this.#inventorySent.get(conversationId)?.revision === revision) continue;
      await this.#claimInventory(conversationId, revision, () =>
        outgoing.send(
          conversationId,
          message.type,
          message.payload,
          outgoing.rowId(message.id, conversationId),
        ),
      );
    }
  }

  /**
   * Makes `conversationId` one of this session before anything else goes into it: it gets the inventory first
   * (seed 000 §5.1), and from then on the agent may answer there.
   */
  async #announce(conversationId: string): Promise<void> {
    this.#conversations.add(conversationId);
    if (!this.inSession(conversationId))
      await this.#sendInventory(conversationId, await this.#options.inventory());
  }

  async #sendInventory(conversationId: string, inventory: ClientInventoryPayload): Promise<void> {
    // One id per revision and conversation: sent again after a reconnect, the agent can drop the copy.
    await this.#claimInventory(conversationId, inventory.revision, () =>
      this.#outgoing.send(
        conversationId,
        'lineup.v1.client.inventory',
        inventory,
        this.#outgoing.inventoryId(inventory.revision, conversationId),
      ),
    );
  }

  /**
   * Sends an inventory revision to a conversation, noting it as sent *before* the send awaits anything, so a
   * session start and an outbox delivery running at once never both send it; a failed send takes the note back.
   */
  async #claimInventory(conversationId: string, revision: string, send: () => Promise<void>): Promise<void> {
    const previous = this.#inventorySent.get(conversationId);
    // A note of its own: taken back only if no one (a new session, another revision) replaced it meanwhile.
    const note = { revision };
    this.#inventorySent.set(conversationId, note);
    try {
      await send();
    } catch (error) {
      if (this.#inventorySent.get(conversationId) === note) {
        if (previous === undefined) this.#inventorySent.delete(conversationId);
        else this.#inventorySent.set(conversationId, previous);
      }
      throw error;
    }
    await this.#recordInventory(conversationId, revision);
  }

  async #recordInventory(conversationId: string, revision: string): Promise<void> {
    await this.#options.journal
      ?.inventorySent(conversationId, revision)
      .catch((error: unknown) => this.#handlers.problem?.(error));
  }
}
