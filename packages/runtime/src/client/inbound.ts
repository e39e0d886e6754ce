/**
 * What the agent sends, from frame to handler (docs/protocol.md "What the client answers"). Frames wait in an
 * inbox, bounded by `AgentClientLimits` (past it the connection is refused as `overloaded` and nothing more is read
 * from it), and are drained one batch at a time, in order. Each is read as a `lineup.v1` envelope travelling
 * agent → client; one outside the session, a copy, or one refused by its content (a document, a stream frame, the
 * host's `check`) is answered here and goes no further. What is taken is recorded in the journal — consecutive
 * messages in one transaction —, handed on to its handler as soon as the journal knows it is new, and
 * acknowledged once it is on disk.
 */
import { parseDocument } from '@lineup/shared';
import { type LineUpMessage, readEnvelopeText, wireIssues } from '@lineup/shared/protocol';
import { AgentClientError } from './agent-client-error.js';
import type { AgentClientHandlers, AgentClientLimits, AgentClientOptions } from './agent-client-options.js';
import type { Answers } from './answers.js';
import { MessageDispatch } from './dispatch.js';
import { DRAIN_BATCH, Slice } from './drain-pacing.js';
import { ReceivedIds } from './received-ids.js';
import { FrameRefusals, isCallType, refusedIssues } from './refusals.js';
import type { AgentSession } from './session.js';
import { StreamReceivers } from './stream-receivers.js';

/**
 * A message taken from a frame, waiting to be recorded: the frame's text, and `false` when the client knows that
 * the journal has not recorded it (see `ReceivedManyOptions.recorded`).
 */
interface Taken {
  readonly message: LineUpMessage;
  readonly text: string;
  readonly recorded: false | undefined;
}

export class Inbound {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #limits: AgentClientLimits;
  readonly #session: AgentSession;
  readonly #answers: Answers;
  readonly #enqueue: (task: () => Promise<void>) => void;
  readonly #receivedIds: ReceivedIds;
  readonly #refusals: FrameRefusals;
  readonly #dispatch: MessageDispatch;
  readonly #streams: StreamReceivers;
  /** Frames received and not yet handled, and their length; one drain at a time takes them, in order. */
  readonly #inbox: string[] = [];
  #inboxChars = 0;
  /** Frames put in the inbox and taken out of it, since the start: where a connection's backlog ends. */
  #framesReceived = 0;
  #framesTaken = 0;
  #drainScheduled = false;
  /** Frames not read since the connection was refused as overloaded (reported once per connection). */
  #shed = 0;

  /** `enqueue` runs a task after those before it: frames are handled one at a time, in arrival order. */
  constructor(
    options: AgentClientOptions,
    handlers: AgentClientHandlers,
    limits: AgentClientLimits,
    session: AgentSession,
    answers: Answers,
    enqueue: (task: () => Promise<void>) => void,
  ) {
    this.#options = options;
    this.#handlers = handlers;
    this.#limits = limits;
    this.#session = session;
    this.#answers = answers;
    this.#enqueue = enqueue;
    this.#receivedIds = new ReceivedIds(options, handlers);
    this.#refusals = new FrameRefusals(options, handlers, session, answers);
    this.#dispatch = new MessageDispatch(options, handlers, answers);
    const journal = options.journal;
    this.#streams = new StreamReceivers(
      journal?.checkpoints === undefined
        ? undefined
        : (conversationId, sourceCallId, uiId) => journal.checkpoints!(conversationId, sourceCallId, uiId),
      limits.streamReceivers,
    );
  }

  /** Frames put in the inbox since the start. */
  get framesReceived(): number {
    return this.#framesReceived;
  }

  /** Frames taken out of the inbox since the start. */
  get framesTaken(): number {
    return this.#framesTaken;
  }

  /** See `ReceivedIds.readRecent`. */
  readRecent(): Promise<void> {
    return this.#receivedIds.readRecent();
  }

  /** A new connection: what it sends is read again (an overload is reported once per connection). */
  opened(): void {
    this.#shed = 0;
  }

  /** A frame from the transport: into the inbox, unless the client holds all it can (then `overloaded`). */
  received(text: string): void {
    const length = typeof text === 'string' ? text.length : 0;
    if (
      this.#shed > 0 ||
      this.#inbox.length >= this.#limits.maxWaitingFrames ||
      this.#inboxChars + length > this.#limits.maxWaitingChars
    ) {
      this.#overloaded();
      return;
    }
    this.#inbox.push(text);
    this.#inboxChars += length;
    this.#framesReceived++;
    if (!this.#drainScheduled) {
      this.#drainScheduled = true;
      this.#enqueue(() => this.drain());
    }
  }

  /**
   * Handles the frames waiting, in order, at most `DRAIN_BATCH` at a time. Consecutive messages that are taken as
   * they are (no call, no refusal) are recorded in one journal transaction, handed on one by one once it knows
   * which are new, and acknowledged once it has committed: a burst costs one write per batch, not one per frame.
   */
  async drain(count = DRAIN_BATCH): Promise<void> {
    this.#drainScheduled = false;
    const frames = this.#inbox.splice(0, count);
    this.#framesTaken += frames.length;
    for (const text of frames) this.#inboxChars -= text.length;
    if (this.#inbox.length > 0 && !this.#drainScheduled) {
      this.#drainScheduled = true;
      this.#enqueue(() => this.drain());
    }
    const batch: Taken[] = [];
    const slice = new Slice();
    for (const text of frames) {
      await slice.pause();
      try {
        const read = readEnvelopeText(text, { direction: 'agent_to_client' });
        const message = read.kind === 'message' ? await this.#prepare(read.message) : undefined;
        // Not among the ids recorded last nor seen since (#prepare dropped those): not recorded. A call is looked up
        // by the journal (its id is not kept with the others: a call sent again is answered again).
        const recorded =
          this.#receivedIds.recentRead && !isCallType(message?.type) ? (false as const) : undefined;
        const taken: Taken | undefined = message === undefined ? undefined : { message, text, recorded };
        if (taken !== undefined && !isCallType(taken.message.type)) {
          batch.push(taken);
          continue;
        }
        // Anything else keeps its place: what waits is recorded and handed on first.
        await this.#record(batch.splice(0), slice);
        if (read.kind === 'invalid') await this.#refusals.invalid(read);
        else if (read.kind === 'unsupported') await this.#refusals.unsupported(read);
        else if (taken !== undefined) await this.#record([taken], slice);
      } catch (error) {
        this.#handlers.problem?.(error);
      }
    }
    await this.#record(batch, slice);
  }

  /**
   * A valid message of this side, before it is recorded: outside the session, a copy, or refused by its content,
   * it is answered (or acknowledged) here and nothing comes back; otherwise the message to record and hand on (a
   * document's carries parseDocument's frozen copy).
   */
  async #prepare(received: LineUpMessage): Promise<LineUpMessage | undefined> {
    const { id, conversation_id: conversationId, type } = received;
    if (!this.#session.inSession(conversationId)) {
      const callId = isCallType(type) ? (received.payload as { call_id: string }).call_id : undefined;
      await this.#refusals.outsideSession(conversationId, id, type, callId);
      return undefined;
    }
    // A call sent again is answered again from its record by call_id (the runtime's dedupe, seed 003 §4.2); any
    // other copy was handled when it first came.
    if (!isCallType(type) && this.#receivedIds.isDuplicate(id)) {
      this.#answers.acknowledge(id);
      return undefined;
    }
    try {
      return await this.#judge(received);
    } catch (error) {
      const refused = refusedIssues(error);
      if (refused === undefined) throw error;
      this.#handlers.problem?.(error);
      await this.#answers.refused(conversationId, id, type, 'invalid_message', wireIssues(...refused));
      // Refused, so it may come again corrected under the same id.
      this.#receivedIds.forget(id);
      this.#answers.acknowledge(id);
      return undefined;
    }
  }

  /**
   * Records taken messages in the journal (one transaction for all), hands each on as soon as the journal knows
   * which are new (before its transaction is on disk, so the user does not wait for the write), and acknowledges
   * them once they are recorded: the agent forgets only what is on disk.
   */
  async #record(entries: readonly Taken[], slice = new Slice()): Promise<void> {
    if (entries.length === 0) return;
    const messages = entries.map((entry) => entry.message);
    const journal = this.#options.journal;
    let fresh: readonly boolean[] = messages.map(() => true);
    let recorded: Promise<unknown> = Promise.resolve();
    if (journal !== undefined) {
      let known: (fresh: readonly boolean[]) => void = () => {};
      const early = new Promise<readonly boolean[]>((resolve) => (known = resolve));
      const recording =
        journal.receivedMany !== undefined
          ? journal.receivedMany(messages, {
              known,
              texts: entries.map((entry) => entry.text),
              recorded: entries.map((entry) => entry.recorded),
            })
          : Promise.all(messages.map((message) => journal.received(message)));
      // Not recorded: still shown now (a reload will not bring them back), and the host is told.
      recorded = recording.catch((error: unknown) => this.#handlers.problem?.(error));
      try {
        fresh = await Promise.race([early, recording]);
      } catch {
        // Reported through `recorded`; every message is shown.
      }
    }
    const taken: [id: string, answers: Promise<void>[]][] = [];
    for (const [index, message] of messages.entries()) {
      // The first goes on at once: handing it on is quick (a view renders it in a task of its own), and a pause
      // here, after a long judgement, would wait for the page's next frame before the user sees anything.
      if (index > 0) await slice.pause();
      // A repeat from before a reload is dropped; a call goes on to its runtime, whose own records answer it
      // again without running it twice (seed 003 §4.2).
      if (fresh[index] !== false || isCallType(message.type)) {
        this.#handlers.received?.(message);
        try {
          await this.#dispatch.dispatch(message);
        } catch (error) {
          this.#handlers.problem?.(error);
        }
      }
      taken.push([message.id, this.#answers.take()]);
    }
    await recorded;
    for (const [id, answers] of taken) this.#answers.acknowledge(id, answers);
  }

  /**
   * What the envelope cannot judge: a document (`parseDocument`; the message handed on carries its frozen copy),
   * a stream frame (its stream's receiver), and the host's own `check`. Throws the refusal.
   */
  async #judge(message: LineUpMessage): Promise<LineUpMessage> {
    this.#handlers.check?.(message);
    if (message.type === 'lineup.v1.ui.document') {
      // The document is JSON data (parseDocument proved it); its DSL type is narrower than the wire's.
      const document = parseDocument(message.payload.document) as unknown as typeof message.payload.document;
      return Object.freeze({ ...message, payload: Object.freeze({ ...message.payload, document }) });
    }
    if (message.type === 'lineup.v1.ui.checkpoint')
      await this.#streams.accept(message.conversation_id, message.payload.checkpoint);
    return message;
  }

  /** More frames than the client holds: the connection is refused once, and nothing more is read from it. */
  #overloaded(): void {
    if (this.#shed++ > 0) return;
    this.#options.transport.refuse?.('overloaded');
    this.#handlers.problem?.(
      new AgentClientError(
        'overloaded',
        `The agent sent more frames than the client holds (${this.#limits.maxWaitingFrames} frames or ` +
          `${this.#limits.maxWaitingChars} characters waiting): the connection was refused and later frames were ` +
          'not read; the agent sends again what it did not see acknowledged.',
      ),
    );
  }
}
