/** The runtime database's outbox (`outbox`): the messages for the agent side, written with their facts. */
import type {
  AppResultPayload,
  ClientInventoryPayload,
  ToolProgressPayload,
  ToolResultPayload,
} from '@lineup/shared/protocol';

/** The value of `OutboxRecord.pending` while a row waits to be sent. */
export const OUTBOX_PENDING = 1;

/**
 * A message for the agent side, written in the same transaction as its facts. While it waits it carries
 * `pending: 1`, which the `by_pending` index lists (IndexedDB cannot index a boolean, and a record without the
 * indexed field is left out of the index); once sent it carries `deliveredAt` instead.
 */
export type OutboxRecord = {
  readonly id?: number;
  readonly at: number;
  readonly pending?: typeof OUTBOX_PENDING;
  /** Unix milliseconds at which the transport accepted it. */
  readonly deliveredAt?: number;
  /** The conversation a tool answer goes to; inventories go to every conversation. */
  readonly conversationId?: string;
  /**
   * On the final result of a call handed to an MCP server: the id of the request it ended (the call's
   * `mcpInFlight`). The `by_request_ended` index is unique, so a request ends once: a second final result for it —
   * its answer, after a timeout or another tab's recovery ended the call — cannot be written.
   */
  readonly requestEnded?: string;
} & (
  | { readonly type: 'lineup.v1.client.inventory'; readonly payload: ClientInventoryPayload }
  | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
  | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload }
  | { readonly type: 'lineup.v1.app.result'; readonly payload: AppResultPayload }
);
