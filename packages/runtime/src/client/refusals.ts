/**
 * What the client answers for a frame it does not run (docs/protocol.md "What the client answers"): a call is
 * answered with its own result by `call_id`, any other message `lineup.v1.unsupported` by id, and a frame with
 * nothing to answer in is refused at the connection (`transport.refuse`). A message for a conversation outside this
 * session is answered where the agent addressed it, and nothing is recorded.
 */
import { LineUpProtocolError, type UIIssue, UISchemaError, UIStreamError } from '@lineup/shared';
import {
  type InvalidEnvelope,
  type LineUpConnectionRefusal,
  type UnsupportedEnvelope,
  wireIssues,
} from '@lineup/shared/protocol';
import type { AgentClientHandlers, AgentClientOptions } from './agent-client-options.js';
import type { Answers } from './answers.js';
import type { AgentSession } from './session.js';

const CALL_TYPES = ['lineup.v1.tool.call', 'lineup.v1.app.call'] as const;
type CallType = (typeof CALL_TYPES)[number];

export const isCallType = (type: string | undefined): type is CallType =>
  type === 'lineup.v1.tool.call' || type === 'lineup.v1.app.call';

/** The error codes a call can be refused with before it reaches a runtime, and what each says. */
const CALL_REFUSALS = {
  invalid_message: 'The call message is invalid: it was not recorded and did not run.',
  call_id_conflict: 'This call_id was already used for a different call.',
  unknown_conversation:
    'This conversation got no client.inventory on this connection; the call was not recorded and did not run.',
} as const;
type CallRefusal = keyof typeof CALL_REFUSALS;

/** The answer to a refused call: its own result, by `call_id`. */
function callRefusal(
  type: CallType,
  callId: string,
  code: CallRefusal,
  issues?: ReturnType<typeof wireIssues>,
): { readonly type: 'lineup.v1.tool.result' | 'lineup.v1.app.result'; readonly payload: object } {
  const error = { code, message: CALL_REFUSALS[code], ...(issues === undefined ? {} : { issues }) };
  return type === 'lineup.v1.tool.call'
    ? { type: 'lineup.v1.tool.result', payload: { call_id: callId, outcome: 'error', error } }
    : {
        type: 'lineup.v1.app.result',
        payload: { call_id: callId, status: code === 'unknown_conversation' ? 'rejected' : 'failed', error },
      };
}

/** How a frame that nothing can be answered in is refused: by what was wrong with it. */
function connectionRefusal(error: LineUpProtocolError): LineUpConnectionRefusal {
  const code = error.issues[0]?.code;
  if (code === 'too_large' || code === 'too_deep' || code === 'too_many') return 'too_large';
  return code === 'invalid_json' ? 'not_json' : 'not_an_envelope';
}

/**
 * The issues of an error that refuses a message's content, with the prefix of the place they are relative to:
 * a document's (`parseDocument`), a stream frame's (`acceptCheckpoint`), or the host's `check` (below
 * `payload`); undefined for any other error (a failure, not a refusal).
 */
export function refusedIssues(error: unknown): [readonly UIIssue[], string] | undefined {
  if (error instanceof UISchemaError) return [error.issues, 'payload.document'];
  if (error instanceof UIStreamError) return [error.issues, 'payload.checkpoint'];
  if (error instanceof LineUpProtocolError) return [error.issues, 'payload'];
  return undefined;
}

/** The answers to the frames the client refuses before anything is recorded or run. */
export class FrameRefusals {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #session: AgentSession;
  readonly #answers: Answers;

  constructor(
    options: AgentClientOptions,
    handlers: AgentClientHandlers,
    session: AgentSession,
    answers: Answers,
  ) {
    this.#options = options;
    this.#handlers = handlers;
    this.#session = session;
    this.#answers = answers;
  }

  /** A frame that is not a message this client accepts: answered by id where it can be, else at the connection. */
  async invalid({ error, header }: InvalidEnvelope): Promise<void> {
    this.#handlers.problem?.(error);
    const { id, type, conversation_id: conversationId, call_id: callId } = header;
    const call = isCallType(type) && callId !== undefined ? { type, callId } : undefined;
    if (conversationId === undefined || (id === undefined && call === undefined)) {
      this.#options.transport.refuse?.(connectionRefusal(error));
      return;
    }
    if (!this.#session.inSession(conversationId))
      return this.outsideSession(conversationId, id, type, call?.callId);
    const issues = wireIssues(error.issues);
    if (call !== undefined) {
      const recorded = await this.#callRecorded(call.type, conversationId, call.callId);
      const answer = callRefusal(
        call.type,
        call.callId,
        recorded ? 'call_id_conflict' : 'invalid_message',
        recorded ? undefined : issues,
      );
      await this.#answers.answer(
        conversationId,
        answer.type,
        answer.payload,
        `invalid:${id ?? `call:${call.callId}`}`,
      );
    } else {
      await this.#answers.refused(conversationId, id as string, type, 'invalid_message', issues);
    }
    this.#answers.acknowledge(id);
  }

  async #callRecorded(type: CallType, conversationId: string, callId: string): Promise<boolean> {
    const receiver = type === 'lineup.v1.tool.call' ? this.#options.tools : this.#options.capabilities;
    return (await receiver?.callRecorded?.(conversationId, callId)) ?? false;
  }

  /** A well-formed envelope of a type or version this client does not know: answered, never run. */
  async unsupported(read: UnsupportedEnvelope): Promise<void> {
    const { id, conversation_id: conversationId } = read;
    if (id === undefined || conversationId === undefined) {
      this.#options.transport.refuse?.('not_an_envelope');
      return;
    }
    if (!this.#session.inSession(conversationId)) return this.outsideSession(conversationId, id, read.type);
    await this.#answers.refused(conversationId, id, read.type, read.reason);
    this.#answers.acknowledge(id);
  }

  /**
   * A message for a conversation outside this session: answered where the agent addressed it, and nothing is
   * recorded, so no conversation appears that the user does not have.
   */
  async outsideSession(
    conversationId: string,
    id: string | undefined,
    type: string | undefined,
    callId?: string,
  ): Promise<void> {
    if (isCallType(type) && callId !== undefined) {
      const answer = callRefusal(type, callId, 'unknown_conversation');
      await this.#answers.answer(
        conversationId,
        answer.type,
        answer.payload,
        `outside:${id ?? `call:${callId}`}`,
        false,
      );
    } else if (id !== undefined) {
      await this.#answers.refused(conversationId, id, type, 'unknown_conversation', undefined, false);
    } else {
      this.#options.transport.refuse?.('not_an_envelope');
      return;
    }
    this.#answers.acknowledge(id);
  }
}
