/**
 * The client's direct answers to what the agent sent, and the acknowledgement that waits for them
 * (docs/protocol.md "What the client answers"). An answer's envelope id is derived from what it answers, so an
 * answer sent again is a copy the agent can drop; the envelope answered is acknowledged only once its answers are
 * delivered, so one whose answer is lost comes again and is answered again.
 */
import type { LineUpUnsupportedReason, wireIssues } from '@lineup/shared/protocol';
import type { AgentClientHandlers, AgentClientOptions } from './agent-client-options.js';
import type { Outgoing } from './outgoing.js';

export class Answers {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #outgoing: Outgoing;
  /** Deliveries of the direct answers to the envelope being handled: its ack waits for them. */
  readonly #pending: Promise<void>[] = [];

  constructor(options: AgentClientOptions, handlers: AgentClientHandlers, outgoing: Outgoing) {
    this.#options = options;
    this.#handlers = handlers;
    this.#outgoing = outgoing;
  }

  /** The deliveries of the answers sent since the last take: those of the envelope just handled. */
  take(): Promise<void>[] {
    return this.#pending.splice(0);
  }

  /** `lineup.v1.unsupported` for message `id`: why it was not run, with issues for `invalid_message`. */
  async refused(
    conversationId: string,
    id: string,
    type: string | undefined,
    reason: LineUpUnsupportedReason,
    issues?: ReturnType<typeof wireIssues>,
    record = true,
  ): Promise<void> {
    await this.answer(
      conversationId,
      'lineup.v1.unsupported',
      {
        message_id: id,
        ...(type === undefined ? {} : { message_type: type }),
        reason,
        ...(issues === undefined ? {} : { issues }),
      },
      `${reason}:${id}`,
      record,
    );
  }

  /**
   * Sends an answer whose envelope id derives from what it answers (`key`), so answering a copy again sends a copy
   * the agent drops. Unrecorded (`record` false) for a conversation outside the session.
   *
   * The frame is written to the connection now, in order; its delivery (the agent's ack, in `lineup.v1.ack`) is
   * awaited apart, so the agent's next frames are taken meanwhile: an agent slow to ack, or one that never does,
   * holds up nothing it sends. The envelope answered is acknowledged only once its answers are delivered
   * (`acknowledge`): an answer that is lost leaves it unacknowledged, so the agent sends it again and gets the
   * answer again. A failure is the host's `problem`.
   */
  async answer(
    conversationId: string,
    type: string,
    payload: unknown,
    key: string,
    record = true,
  ): Promise<void> {
    const id = this.#outgoing.answerId(conversationId, key);
    const delivery = this.#outgoing.send(conversationId, type, payload, id, record);
    this.#pending.push(delivery);
    delivery.catch((error: unknown) => this.#handlers.problem?.(error));
  }

  /**
   * Acknowledges agent envelope `id`, which has been handled: at once, or, when it was answered directly, once
   * every answer is delivered (never, if one is not: the agent sends the envelope again).
   */
  acknowledge(id: string | undefined, answers = this.take()): void {
    if (id === undefined) return;
    if (answers.length === 0) this.#acknowledgeNow(id);
    else
      Promise.all(answers).then(
        () => this.#acknowledgeNow(id),
        () => {
          // Not acknowledged: the answer was not delivered, and the copy the agent sends gets it again.
        },
      );
  }

  #acknowledgeNow(id: string): void {
    try {
      this.#options.transport.acknowledge?.(id);
    } catch (error) {
      this.#handlers.problem?.(error);
    }
  }
}
