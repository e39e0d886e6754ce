/**
 * The envelopes the client sends (seed 000 §3): each built with `v`, its `id`, `conversation_id` and `sender`, and
 * validated before it goes, then written to the transport and recorded in the journal. Ids that must be the same
 * when the same thing is sent again (an answer, an inventory, an outbox row) are derived from what they carry, so
 * the agent can drop the copy.
 */
import { hashCanonicalJSON, LineUpProtocolError } from '@lineup/shared';
import { type LineUpMessage, parseEnvelope } from '@lineup/shared/protocol';
import { AgentClientError, notConnected } from './agent-client-error.js';
import type { AgentClientHandlers, AgentClientOptions } from './agent-client-options.js';
import type { ConnectionStatus } from './connection-status.js';

export class Outgoing {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #status: ConnectionStatus;
  readonly #ids: () => string;

  constructor(options: AgentClientOptions, handlers: AgentClientHandlers, status: ConnectionStatus) {
    this.#options = options;
    this.#handlers = handlers;
    this.#status = status;
    this.#ids = options.ids ?? (() => crypto.randomUUID());
  }

  /** Builds, validates and sends one envelope; `not_connected` while the agent is away. */
  async send(
    conversationId: string,
    type: string,
    payload: unknown,
    id: string,
    record = true,
  ): Promise<void> {
    if (this.#status.current !== 'open') throw notConnected();
    await this.transmit(this.build(conversationId, type, payload, id), record);
  }

  /** A validated envelope of ours (`invalid_message` when the protocol refuses it). */
  build(conversationId: string, type: string, payload: unknown, id: string): LineUpMessage {
    const envelope = {
      v: 1,
      id,
      type,
      conversation_id: conversationId,
      sender: { kind: 'client', id: this.#options.clientId },
      payload,
    };
    let parsed: ReturnType<typeof parseEnvelope>;
    try {
      parsed = parseEnvelope(envelope, { direction: 'client_to_agent' });
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      throw new AgentClientError(
        'invalid_message',
        `Refused to send an invalid ${type}: ${error.issues[0]?.path} ${error.issues[0]?.message}`,
        { cause: error },
      );
    }
    if (parsed.kind !== 'message')
      throw new AgentClientError('invalid_message', `${type} is not a message this client sends.`);
    return parsed.message;
  }

  /** Sends one envelope; `record` logs it in the journal (a queued message is already there). */
  async transmit(message: LineUpMessage, record = true): Promise<void> {
    if (this.#status.current !== 'open') throw notConnected();
    await this.#options.transport.send(JSON.stringify(message));
    this.#handlers.sent?.(message);
    const journal = this.#options.journal;
    if (record && journal !== undefined)
      await journal.sent(message).catch((error: unknown) => this.#handlers.problem?.(error));
  }

  /** A new id, for a message of the user's. */
  newId(): string {
    return `${this.#options.clientId}:${this.#ids()}`;
  }

  /** The id of an answer: derived from the conversation and what it answers (`key`). */
  answerId(conversationId: string, key: string): string {
    return `${this.#options.clientId}:a:${shortHash([conversationId, key])}`;
  }

  /** The id of an inventory sent at session start: one per revision and conversation. */
  inventoryId(revision: string, conversationId: string): string {
    return `${this.#options.clientId}:inv:${shortHash([revision, conversationId])}`;
  }

  /** The id of an outbox row's envelope (for a row sent to every conversation, one per conversation). */
  rowId(rowId: number, conversationId?: string): string {
    const base = `${this.#options.clientId}:o${rowId}`;
    return conversationId === undefined ? base : `${base}:${shortHash(conversationId)}`;
  }
}

/** 16 hex digits of the SHA-256 of a JSON value: short, stable names for ids. */
function shortHash(value: unknown): string {
  return hashCanonicalJSON(value).slice(0, 16);
}
