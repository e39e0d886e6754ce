/**
 * What the runtime database keeps of conversations (seed 000 §3): each conversation, its messages in and out
 * (`messages`, with the ids of the envelopes received last in `received_recent`), and the local state of the
 * interfaces a host shows.
 */
import type { LineUpMessage } from '@lineup/shared/protocol';

/** The value of `ConversationMessageRecord.pending` while a queued message waits for the transport. */
export const MESSAGE_PENDING = 1;

/**
 * `received_recent` keeps the ids of the envelopes from the agent among the last this many records of the
 * `messages` store (by `seq`: at most this many rows).
 */
export const RECENT_RECEIVED_KEPT = 1_024;

/** One conversation (seed 000 §3): what a host lists, and which inventory revision it was sent last. */
export interface ConversationRecord {
  readonly id: string;
  /** The first user message, shortened; absent until the user says something. */
  readonly title?: string;
  readonly createdAt: number;
  /** The last message in or out (Unix ms); the `by_updated` index lists conversations by it. */
  readonly updatedAt: number;
  readonly messageCount: number;
  /** seed 000 §5.1: the `client.inventory` revision last sent to this conversation, and when. */
  readonly inventoryRevision?: string;
  readonly inventorySentAt?: number;
}

/**
 * One envelope of a conversation, in or out, in the order recorded (`seq`). A user's message (chat, Surface
 * event) is recorded before it is sent and carries `pending: 1` (listed by `by_pending`) until the transport
 * took it; then `sentAt`.
 */
export interface ConversationMessageRecord {
  readonly seq: number;
  readonly conversationId: string;
  readonly direction: 'in' | 'out';
  /** The envelope id: `by_envelope` ([direction, id]) finds a repeat. */
  readonly id: string;
  readonly type: string;
  readonly message: LineUpMessage;
  readonly at: number;
  readonly pending?: typeof MESSAGE_PENDING;
  readonly sentAt?: number;
}

/**
 * A `ConversationMessageRecord` as the `messages` store holds it: an envelope the client received from the agent
 * may be kept as the JSON text it came in (`text`, from version 10) instead of as the message — writing a string
 * costs a copy of its characters, where writing a large document's object graph costs a structured clone of
 * every value, on the page's thread, before the message can be shown. Reading it back parses the text.
 */
export type StoredMessageRecord = Omit<ConversationMessageRecord, 'message'> &
  (
    | { readonly message: LineUpMessage; readonly text?: never }
    | { readonly text: string; readonly message?: never }
  );

/** The last local state of one interface a host shows in a conversation (its own key). */
export interface ViewStateRecord {
  /** `conversationId + "\n" + viewKey`. */
  readonly key: string;
  readonly conversationId: string;
  readonly viewKey: string;
  readonly state: unknown;
  readonly at: number;
}
