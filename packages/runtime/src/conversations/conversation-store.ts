/**
 * Conversations in IndexedDB (seed 000 §3, §5.1): every envelope the client received from the agent and every
 * envelope it sent, in order, per conversation; which inventory revision went to which conversation; the user's
 * own messages (chat turns, Surface events) queued until the transport takes them; and the last local state of
 * each interface a host shows. A host restores a conversation after a reload by replaying its messages into its
 * views (never into the runtime: a tool call is executed once, by `ToolRuntime`, from its own records).
 *
 * `ConversationStore` is the `ConversationJournal` an `AgentClient` writes through: incoming envelopes are
 * deduplicated by id across reloads, and a queued message keeps its envelope id until it is delivered, so an
 * agent can drop the copy of one sent twice around a crash.
 */
import { LineUpError } from '@lineup/shared';
import { LINEUP_WIRE_LIMITS, type LineUpMessage } from '@lineup/shared/protocol';
import type { IDBPObjectStore, StoreNames } from 'idb';
import {
  CONVERSATION_STORES,
  type ConversationMessageRecord,
  type ConversationRecord,
  MESSAGE_PENDING,
  RECENT_RECEIVED_KEPT,
  type RuntimeDatabase,
  type RuntimeDatabaseSchema,
  STRICT,
  type StoredMessageRecord,
  type ViewStateRecord,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';

export interface ReceivedManyOptions {
  /** Told, once, which of the messages are new, as soon as that is known (before the transaction commits). */
  readonly known?: (fresh: readonly boolean[]) => void;
  /**
   * The JSON text each message was read from (the frame the agent sent; `undefined` where there is none), kept in
   * the message's place: it must parse to the message's data. Writing a string copies its characters, where
   * writing a large document's objects is a structured clone of every value on the page's thread.
   */
  readonly texts?: readonly (string | undefined)[];
  /**
   * What the caller knows of each message: `false` when it knows that none with its id is recorded (it holds the
   * ids recorded last, `recentlyReceived`, and every id it recorded since, and this one is not among them),
   * `undefined` when it does not know. When every message is known, `known` is told at once, without waiting for
   * the database; the transaction still reads, and if the database does not agree (a page of the same profile
   * recorded one meanwhile, or one recorded too long ago to be among the last) it keeps nothing and the batch is
   * recorded again from what the database holds (`known` is not told again; the promise gives that answer).
   */
  readonly recorded?: readonly (false | undefined)[];
}

/** Where an `AgentClient` records what goes in and out (a `ConversationStore`, or a host's own). */
export interface ConversationJournal {
  /** Records an envelope from the agent; resolves `false` when one with this id was already recorded. */
  received(message: LineUpMessage): Promise<boolean>;
  /**
   * Records several envelopes from the agent in one transaction, in order: for each, `false` when one with its id
   * was already recorded (or came earlier in the same list). Nothing is recorded if the transaction fails.
   * `options.known`, when given, is told the same list as soon as it is known, before the writes are on disk:
   * an `AgentClient` hands the messages on then, and acknowledges them only once this promise has resolved.
   */
  receivedMany?(
    messages: readonly LineUpMessage[],
    options?: ReceivedManyOptions,
  ): Promise<readonly boolean[]>;
  /**
   * The ids of the envelopes recorded from the agent last (at most `limit`, newest first): what an agent may send
   * again after a reload, since it sends again what was not acknowledged, and a client acknowledges what it has
   * recorded. An `AgentClient` reads them when it starts, to tell a new message from a repeat without waiting for
   * the database.
   */
  recentlyReceived?(limit: number): Promise<readonly string[]>;
  /** Records one of the user's envelopes before it is sent: it stays pending until `delivered`. */
  queued(message: LineUpMessage): Promise<void>;
  /** The transport took a queued envelope. */
  delivered(message: LineUpMessage): Promise<void>;
  /** Records an envelope sent without being queued first (an outbox row, an answer); a repeat is ignored. */
  sent(message: LineUpMessage): Promise<void>;
  /** Queued envelopes not yet delivered, oldest first. */
  pending(): Promise<readonly LineUpMessage[]>;
  /** Which inventory revision the conversation was sent last. */
  inventorySent(conversationId: string, revision: string): Promise<void>;
  /**
   * The checkpoints of one component stream the agent sent in a conversation, in the order they were recorded
   * (the client rebuilds its judgement of a stream from them after a reload).
   */
  checkpoints?(conversationId: string, sourceCallId: string, uiId: string): Promise<readonly unknown[]>;
}

export interface ConversationStoreOptions {
  readonly clock?: Clock;
  /** Ids of new conversations (default `conv_` + `crypto.randomUUID()`). */
  readonly ids?: () => string;
}

export interface ConversationPage {
  readonly messages: readonly ConversationMessageRecord[];
  /** The `seq` to pass as `after` for the next page; absent at the end. */
  readonly next?: number;
}

/** A conversation's title is its first user message, cut to this many characters (the message stays whole). */
export const CONVERSATION_TITLE_LENGTH = 80;

/** Bad input to the store: an invalid id, key or page size. Nothing was written. */
export class ConversationStoreError extends LineUpError<'invalid_input'> {
  override readonly name = 'ConversationStoreError';
  constructor(message: string) {
    super('invalid_input', message);
  }
}

const ID = /^[\x21-\x7e]{1,128}$/;

function checkId(id: string, what: string): void {
  if (typeof id !== 'string' || !ID.test(id))
    throw new ConversationStoreError(`${what} must be 1–128 printable ASCII characters without spaces.`);
}

export class ConversationStore implements ConversationJournal {
  readonly #db: RuntimeDatabase;
  readonly #now: () => number;
  readonly #ids: () => string;

  constructor(db: RuntimeDatabase, options: ConversationStoreOptions = {}) {
    this.#db = db;
    const clock = options.clock;
    this.#now = clock === undefined ? Date.now : () => clock.now();
    this.#ids = options.ids ?? (() => `conv_${crypto.randomUUID()}`);
  }

  /** Starts a new conversation (with a fresh id unless one is given); an existing id is returned as it is. */
  async create(id: string = this.#ids()): Promise<ConversationRecord> {
    checkId(id, 'A conversation id');
    const tx = this.#db.transaction('conversations', 'readwrite');
    const existing = await tx.store.get(id);
    const now = this.#now();
    const record: ConversationRecord = existing ?? { id, createdAt: now, updatedAt: now, messageCount: 0 };
    if (existing === undefined) await tx.store.add(record);
    await tx.done;
    return record;
  }

  get(id: string): Promise<ConversationRecord | undefined> {
    return this.#db.get('conversations', id);
  }

  /** Conversations, most recently active first. */
  async list(options: { readonly limit?: number } = {}): Promise<readonly ConversationRecord[]> {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
      throw new ConversationStoreError('limit must be an integer from 1 to 1,000.');
    const result: ConversationRecord[] = [];
    let cursor = await this.#db
      .transaction('conversations')
      .store.index('by_updated')
      .openCursor(null, 'prev');
    while (cursor && result.length < limit) {
      result.push(cursor.value);
      cursor = await cursor.continue();
    }
    return result;
  }

  /** A conversation's messages in the order they were recorded, a page at a time (default 500). */
  async messages(
    conversationId: string,
    options: { readonly after?: number | undefined; readonly limit?: number } = {},
  ): Promise<ConversationPage> {
    checkId(conversationId, 'A conversation id');
    const limit = options.limit ?? 500;
    if (!Number.isInteger(limit) || limit < 1 || limit > 5_000)
      throw new ConversationStoreError('limit must be an integer from 1 to 5,000.');
    const after = options.after ?? 0;
    const range = IDBKeyRange.bound([conversationId, after], [conversationId, Infinity], true, false);
    const messages: ConversationMessageRecord[] = [];
    let cursor = await this.#db.transaction('messages').store.index('by_conversation').openCursor(range);
    while (cursor && messages.length < limit) {
      messages.push(readable(cursor.value));
      cursor = await cursor.continue();
    }
    const last = messages.at(-1);
    return cursor && last !== undefined ? { messages, next: last.seq } : { messages };
  }

  /** Every message of a conversation (pages through `messages`). */
  async allMessages(conversationId: string): Promise<readonly ConversationMessageRecord[]> {
    const all: ConversationMessageRecord[] = [];
    let page = await this.messages(conversationId);
    all.push(...page.messages);
    while (page.next !== undefined) {
      page = await this.messages(conversationId, { after: page.next });
      all.push(...page.messages);
    }
    return all;
  }

  /**
   * The document an agent sent in this conversation (the ledger's document source): a complete UI is the
   * `ui.document` whose envelope id is `sourceCallId` and whose document id is `uiId` (generation 0); a stream's
   * is the `ui.checkpoint` snapshot of that source, UI, generation and revision, complete only when that frame
   * completed the stream. Never a copy the page holds.
   */
  async findDocument(
    conversationId: string,
    ref: {
      readonly sourceCallId: string;
      readonly uiId: string;
      readonly generation: number;
      readonly revision: number;
    },
  ): Promise<{ readonly document: unknown; readonly complete: boolean } | undefined> {
    let candidate: { readonly document: unknown; readonly complete: boolean } | undefined;
    for (const record of await this.allMessages(conversationId)) {
      if (record.direction !== 'in') continue;
      const { message } = record;
      if (
        ref.generation === 0 &&
        message.type === 'lineup.v1.ui.document' &&
        message.id === ref.sourceCallId
      ) {
        const document = message.payload.document as { id?: unknown };
        if (document.id === ref.uiId) return { document, complete: true };
      }
      if (ref.generation > 0 && message.type === 'lineup.v1.ui.checkpoint') {
        const frame = message.payload.checkpoint as {
          sourceCallId?: unknown;
          uiId?: unknown;
          generation?: unknown;
          revision?: unknown;
          type?: unknown;
          snapshot?: unknown;
        };
        if (
          frame.sourceCallId === ref.sourceCallId &&
          frame.uiId === ref.uiId &&
          frame.generation === ref.generation &&
          frame.revision === ref.revision
        ) {
          // The frame that completed the stream may share its revision with the last one before it.
          if (frame.type === 'complete') return { document: frame.snapshot, complete: true };
          candidate = { document: frame.snapshot, complete: false };
        }
      }
    }
    return candidate;
  }

  /** Saves the local state of one interface the host shows (`key` is the host's: a document's message id…). */
  async saveViewState(conversationId: string, key: string, state: unknown): Promise<void> {
    checkId(conversationId, 'A conversation id');
    if (typeof key !== 'string' || key.length === 0 || key.length > 512)
      throw new ConversationStoreError('A view state key is 1–512 characters.');
    const text = JSON.stringify(state);
    if (text === undefined) throw new ConversationStoreError('A view state must be JSON.');
    if (text.length > LINEUP_WIRE_LIMITS.maxEnvelopeBytes)
      throw new ConversationStoreError(
        `A view state is at most ${LINEUP_WIRE_LIMITS.maxEnvelopeBytes} characters of JSON.`,
      );
    const record: ViewStateRecord = {
      key: `${conversationId}\n${key}`,
      conversationId,
      viewKey: key,
      state: JSON.parse(text) as unknown,
      at: this.#now(),
    };
    await this.#db.put('view_states', record);
  }

  /** The saved view states of a conversation, by the host's key. */
  async viewStates(conversationId: string): Promise<ReadonlyMap<string, unknown>> {
    checkId(conversationId, 'A conversation id');
    const records = await this.#db.getAll(
      'view_states',
      IDBKeyRange.bound(`${conversationId}\n`, `${conversationId}\n\uffff`),
    );
    return new Map(records.map((record) => [record.viewKey, record.state]));
  }

  // ── ConversationJournal ────────────────────────────────────────────────────────────────────────────────

  async received(message: LineUpMessage): Promise<boolean> {
    return this.#append(message, 'in');
  }

  async receivedMany(
    messages: readonly LineUpMessage[],
    options: ReceivedManyOptions = {},
  ): Promise<readonly boolean[]> {
    if (messages.length === 0) return [];
    const asked = options.recorded;
    const early =
      asked !== undefined && messages.every((_, index) => asked[index] === false)
        ? messages.map(() => false)
        : undefined;
    // Strict: the client acknowledges what it recorded, so the agent will not send it again.
    const tx = this.#db.transaction(CONVERSATION_STORES, 'readwrite', STRICT);
    const store = tx.objectStore('messages');
    const conversations = tx.objectStore('conversations');
    const recent = tx.objectStore('received_recent');
    const conversationIds = [...new Set(messages.map((message) => message.conversation_id))];
    // Issued first: they read what the database holds before this transaction's own writes.
    const reads = Promise.all([
      Promise.all(messages.map((message) => store.index('by_envelope').getKey(['in', message.id]))),
      Promise.all(conversationIds.map((id) => conversations.get(id))),
    ]);
    const now = this.#now();
    const writes: Promise<unknown>[] = [];
    const add = (fresh: readonly boolean[]) => {
      for (const [index, message] of messages.entries())
        if (fresh[index])
          writes.push(
            store
              .add(this.#record(message, 'in', now, false, options.texts?.[index]))
              .then((seq) => keepRecent(recent, message.id, seq)),
          );
      // Every message is written: what is new is known, though not yet on disk.
      options.known?.(fresh);
    };
    let fresh = early === undefined ? undefined : newOnes(messages, early);
    if (fresh !== undefined) add(fresh);
    let seen: readonly (number | undefined)[];
    let existing: readonly (ConversationRecord | undefined)[];
    try {
      [seen, existing] = await reads;
    } catch (error) {
      await Promise.allSettled(writes);
      throw error;
    }
    const held = newOnes(
      messages,
      seen.map((key) => key !== undefined),
    );
    if (fresh === undefined) {
      fresh = held;
      add(fresh);
    } else if (held.some((value, index) => value !== fresh?.[index])) {
      // The database changed since `recorded` answered: nothing of this transaction is kept.
      tx.abort();
      await Promise.allSettled([...writes, tx.done]);
      return this.receivedMany(messages, options.texts === undefined ? {} : { texts: options.texts });
    }
    const counts = new Map(conversationIds.map((id, index) => [id, existing[index]]));
    for (const [index, message] of messages.entries()) {
      if (!fresh[index]) continue;
      const known = counts.get(message.conversation_id);
      counts.set(message.conversation_id, {
        ...(known ?? { id: message.conversation_id, createdAt: now, messageCount: 0 }),
        updatedAt: now,
        messageCount: (known?.messageCount ?? 0) + 1,
      });
    }
    for (const [index, id] of conversationIds.entries()) {
      const record = counts.get(id);
      if (record !== undefined && record !== existing[index]) writes.push(conversations.put(record));
    }
    await Promise.all(writes);
    await tx.done;
    return fresh;
  }

  async recentlyReceived(limit: number): Promise<readonly string[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > RECENT_RECEIVED_KEPT)
      throw new ConversationStoreError(`limit must be an integer from 1 to ${RECENT_RECEIVED_KEPT}.`);
    return this.#db.getAll('received_recent', null, limit);
  }

  async queued(message: LineUpMessage): Promise<void> {
    // The user's own words exist nowhere else until the agent has them: on disk before anything is sent.
    await this.#append(message, 'out', true);
  }

  async delivered(message: LineUpMessage): Promise<void> {
    const tx = this.#db.transaction('messages', 'readwrite');
    const index = tx.store.index('by_envelope');
    const key = await index.getKey(['out', message.id]);
    if (key !== undefined) {
      const record = await tx.store.get(key);
      if (record?.pending === MESSAGE_PENDING) {
        const { pending: _pending, ...rest } = record;
        await tx.store.put({ ...rest, sentAt: this.#now() });
      }
    }
    await tx.done;
  }

  async sent(message: LineUpMessage): Promise<void> {
    await this.#append(message, 'out');
  }

  async pending(): Promise<readonly LineUpMessage[]> {
    const records = await this.#db.getAllFromIndex('messages', 'by_pending', MESSAGE_PENDING);
    return records.sort((a, b) => a.seq - b.seq).map((record) => readable(record).message);
  }

  async checkpoints(conversationId: string, sourceCallId: string, uiId: string): Promise<readonly unknown[]> {
    const frames: unknown[] = [];
    for (const record of await this.allMessages(conversationId)) {
      if (record.direction !== 'in' || record.message.type !== 'lineup.v1.ui.checkpoint') continue;
      const frame = record.message.payload.checkpoint as { sourceCallId?: unknown; uiId?: unknown };
      if (frame.sourceCallId === sourceCallId && frame.uiId === uiId) frames.push(frame);
    }
    return frames;
  }

  async inventorySent(conversationId: string, revision: string): Promise<void> {
    const tx = this.#db.transaction('conversations', 'readwrite');
    const existing = await tx.store.get(conversationId);
    const now = this.#now();
    await tx.store.put({
      ...(existing ?? { id: conversationId, createdAt: now, updatedAt: now, messageCount: 0 }),
      inventoryRevision: revision,
      inventorySentAt: now,
    });
    await tx.done;
  }

  /**
   * A message's record (with its JSON text in the message's place when given), without its `seq`: the store
   * assigns it (auto-increment), the order messages were recorded in.
   */
  #record(
    message: LineUpMessage,
    direction: 'in' | 'out',
    now: number,
    pending = false,
    text?: string,
  ): StoredMessageRecord {
    return {
      conversationId: message.conversation_id,
      direction,
      id: message.id,
      type: message.type,
      ...(text === undefined ? { message } : { text }),
      at: now,
      ...(pending ? { pending: MESSAGE_PENDING } : direction === 'out' ? { sentAt: now } : {}),
    } as StoredMessageRecord;
  }

  /** Appends one envelope unless this direction already has its id; touches its conversation. */
  async #append(message: LineUpMessage, direction: 'in' | 'out', pending = false): Promise<boolean> {
    // Strict for what exists nowhere else once it is acknowledged or queued: the agent's envelopes (the client
    // acknowledges what it recorded) and the user's words waiting for the agent.
    const strict = pending || direction === 'in';
    const tx = this.#db.transaction(CONVERSATION_STORES, 'readwrite', strict ? STRICT : undefined);
    const messages = tx.objectStore('messages');
    const conversations = tx.objectStore('conversations');
    const [seen, existing] = await Promise.all([
      messages.index('by_envelope').getKey([direction, message.id]),
      conversations.get(message.conversation_id),
    ]);
    if (seen !== undefined) {
      await tx.done;
      return false;
    }
    const now = this.#now();
    const title =
      existing?.title ??
      (message.type === 'lineup.v1.chat.user_message' ? titleOf(message.payload.text) : undefined);
    await Promise.all([
      // `seq` is assigned by the store (auto-increment): the order messages were recorded in.
      messages
        .add(this.#record(message, direction, now, pending))
        .then((seq) =>
          direction === 'in' ? keepRecent(tx.objectStore('received_recent'), message.id, seq) : undefined,
        ),
      conversations.put({
        ...(existing ?? { id: message.conversation_id, createdAt: now, messageCount: 0 }),
        updatedAt: now,
        messageCount: (existing?.messageCount ?? 0) + 1,
        ...(title === undefined ? {} : { title }),
      }),
    ]);
    await tx.done;
    return true;
  }
}

/**
 * Which messages of a list are new, given which are recorded already: a message is new unless it is recorded or
 * came earlier in the same list.
 */
function newOnes(messages: readonly LineUpMessage[], recorded: readonly boolean[]): boolean[] {
  const taken = new Set<string>();
  return messages.map((message, index) => {
    if (recorded[index] || taken.has(message.id)) return false;
    taken.add(message.id);
    return true;
  });
}

/**
 * Notes the id of an envelope from the agent recorded as `seq` in `received_recent`, and lets go of the ids of
 * records older than the last `RECENT_RECEIVED_KEPT`. Issued in the recording transaction.
 */
function keepRecent(
  recent: IDBPObjectStore<
    RuntimeDatabaseSchema,
    StoreNames<RuntimeDatabaseSchema>[],
    'received_recent',
    'readwrite'
  >,
  id: string,
  seq: number,
): Promise<unknown> {
  const writes: Promise<unknown>[] = [recent.put(id, -seq)];
  if (seq > RECENT_RECEIVED_KEPT)
    writes.push(recent.delete(IDBKeyRange.lowerBound(RECENT_RECEIVED_KEPT - seq)));
  return Promise.all(writes);
}

/** A record as the store's readers see it: a message kept as its JSON text is parsed back. */
function readable(record: StoredMessageRecord): ConversationMessageRecord {
  if (record.text === undefined) return record as ConversationMessageRecord;
  const { text, ...rest } = record;
  return { ...rest, message: JSON.parse(text) as LineUpMessage };
}

function titleOf(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  const characters = [...line];
  return characters.length <= CONVERSATION_TITLE_LENGTH
    ? line
    : `${characters.slice(0, CONVERSATION_TITLE_LENGTH - 1).join('')}…`;
}
