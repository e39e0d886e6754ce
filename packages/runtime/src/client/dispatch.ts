/**
 * Where each message the client takes goes (seed 000 §3, seed 003 §4), by type: documents, checkpoints and
 * Surfaces to the host's views, tool calls to the runtime, capability calls to the capability runtime (or the
 * host), and answers to agent actions to the action runner. A `ui.open` by reference is checked first, and one
 * naming no installed, enabled Surface is answered `unsupported` instead of opened.
 */
import type { AppResultPayload, LineUpMessage } from '@lineup/shared/protocol';
import type { AgentClientHandlers, AgentClientOptions } from './agent-client-options.js';
import type { Answers } from './answers.js';

export class MessageDispatch {
  readonly #options: AgentClientOptions;
  readonly #handlers: AgentClientHandlers;
  readonly #answers: Answers;

  constructor(options: AgentClientOptions, handlers: AgentClientHandlers, answers: Answers) {
    this.#options = options;
    this.#handlers = handlers;
    this.#answers = answers;
  }

  /** Hands `message` on to what takes it; a call's direct answer (a replay, or nothing to run it) goes out here. */
  async dispatch(message: LineUpMessage): Promise<void> {
    const handlers = this.#handlers;
    switch (message.type) {
      case 'lineup.v1.ui.document':
        return handlers.document?.(message);
      case 'lineup.v1.ui.checkpoint':
        return handlers.checkpoint?.(message);
      case 'lineup.v1.ui.open': {
        const reference = message.payload.surface;
        if (reference !== undefined) {
          const status =
            (await this.#options.surfaces?.checkSurfaceReference(reference)) ?? 'unknown_reference';
          if (status !== 'available') {
            // A definite answer, never a fallback: nothing is opened or fetched.
            await this.#answers.refused(message.conversation_id, message.id, message.type, status);
            return;
          }
        }
        return handlers.surfaceOpen?.(message);
      }
      case 'lineup.v1.ui.patch':
        return handlers.surfacePatch?.(message);
      case 'lineup.v1.ui.close':
        return handlers.surfaceClose?.(message);
      case 'lineup.v1.chat.agent_message':
        return handlers.agentMessage?.(message);
      case 'lineup.v1.unsupported':
        return handlers.agentUnsupported?.(message);
      case 'lineup.v1.tool.call': {
        const tools = this.#options.tools;
        const key = `call:${message.id}`;
        if (tools === undefined) {
          await this.#answers.answer(
            message.conversation_id,
            'lineup.v1.tool.result',
            { call_id: message.payload.call_id, outcome: 'error', error: { code: 'unsupported' } },
            key,
          );
          return;
        }
        const { answer, disposition } = await tools.receive(message.conversation_id, message.payload);
        // A replay is answered from the persisted record and adds no outbox row (seed 003 §4.2); a new call's
        // answers are outbox rows, which the host delivers through `sendOutboxMessage`.
        if (disposition === 'replayed' || disposition === 'conflict')
          await this.#answers.answer(message.conversation_id, answer.type, answer.payload, key);
        return;
      }
      case 'lineup.v1.app.call': {
        const capabilities = this.#options.capabilities;
        const key = `call:${message.id}`;
        if (capabilities !== undefined) {
          // A new call is recorded and returns at once (the user is asked meanwhile); its result is an outbox row.
          const { answer } = await capabilities.receive(message.conversation_id, message.payload);
          if (answer !== undefined)
            await this.#answers.answer(message.conversation_id, 'lineup.v1.app.result', answer, key);
          return;
        }
        const result: AppResultPayload =
          handlers.appCall === undefined
            ? { call_id: message.payload.call_id, status: 'unsupported' }
            : await handlers.appCall(message);
        await this.#answers.answer(message.conversation_id, 'lineup.v1.app.result', result, key);
        return;
      }
      case 'lineup.v1.ui.action_result':
        // The runner settles only a running agent action of this conversation; anything else changes nothing.
        await this.#options.actions?.receiveAnswer(message.conversation_id, message.payload);
        return;
      default:
        // readEnvelopeText accepted it for agent → client, so no other type arrives here.
        return;
    }
  }
}
