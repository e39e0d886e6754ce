/**
 * The LLM agent: `lineup.v1` envelopes in and out, an OpenAI-compatible chat model in the middle.
 *
 * Per conversation it keeps the latest `client.inventory` and the chat history. A `chat.user_message` starts a
 * turn: the model gets the system prompt (with the generated Intelligent UI section), the history and the tools
 * (the inventory's Agent Tools plus the `intelligent_ui*` tools). Each tool call it makes is answered:
 * - an Agent Tool → `lineup.v1.tool.call` (`call_id` = the model's tool call id as a LineUp id, the latest
 *   `inventory_revision`, the parsed arguments); its final `tool.result` becomes the `tool` message;
 * - `intelligent_ui` → validated with the shared parser, sent as `lineup.v1.ui.document`, answered with the
 *   shared receipt or the shared model diagnostics;
 * - the stream tools → seed 004 §5: the `intelligent_ui_open` call id is the `sourceCallId`, the agent assigns
 *   the `generation`, every accepted step is a full-snapshot `lineup.v1.ui.checkpoint`.
 * Then the model is asked again, until it answers with text, which goes out as `chat.agent_message`.
 * A `ui.action` (a DSL 1.1 agent action the user clicked) is answered `ui.action_result` `accepted` at once — once
 * per `operation_id` of the conversation — and its `prompt` is queued as the next user message, exactly as if the
 * user had typed it. Turns of one conversation run one after another. Model or network errors become a polite
 * chat message (after an action, too: `accepted` only said it was queued).
 */
import {
  advanceUIStream,
  startUIStream,
  type UIDocument,
  type UIIssue,
  UIStreamError,
  type UIStreamState,
} from '@lineup/shared';
import {
  findIntelligentUITool,
  formatIssuesForModel,
  INTELLIGENT_UI_TOOL_NAMES,
  type IntelligentUIPatchArguments,
  type IntelligentUIStreamCursorArguments,
  intelligentUIPromptSection,
  intelligentUIStreamToolResult,
  intelligentUIToolResult,
} from '@lineup/shared/agent';
import {
  type AgentToolInventoryEntry,
  type LineUpMessage,
  type LineUpMessageOf,
  type LineUpPayloadOf,
  parseEnvelopeText,
} from '@lineup/shared/protocol';
import { StreamRefusal } from '../../store/streams.js';
import { envelopeSender, lineUpIdFrom, RecentIds } from '../envelopes.js';
import type { ChatMessage, ChatModel, ChatToolCall } from './chat.js';
import { buildToolTable, functionNameOf } from './tools.js';
import { userTurnContent } from './user-turn.js';

export interface LLMAgentOptions {
  readonly model: ChatModel;
  /** Sends one envelope, as JSON text, to the client. */
  readonly send: (text: string) => void;
  /** `sender.id` of every envelope (default `lineup-reference-agent`). */
  readonly agentId?: string;
  readonly ids?: () => string;
  /** Replaces the first paragraph of the system prompt; the Intelligent UI section is always appended. */
  readonly instructions?: string;
  /** Model rounds per user message before the agent gives up (default 8). */
  readonly maxRounds?: number;
  /**
   * Where the component streams' cursors are kept (seed 004 §5). Default: this agent's memory. `@lineup/agent`'s
   * host passes its persisted `StreamRecords` (run epochs: after a restart a stream of an earlier run is refused,
   * with its last valid snapshot to open a new generation from).
   */
  readonly streams?: StreamKeeper;
  readonly onProblem?: (problem: unknown) => void;
}

/** Issues and keeps stream cursors: opens a generation, and takes a step at exactly the cursor given. */
export interface StreamKeeper {
  open(conversationId: string, sourceCallId: string, document: unknown): Promise<UIStreamState>;
  step(
    conversationId: string,
    cursor: IntelligentUIStreamCursorArguments,
    event: unknown,
  ): Promise<UIStreamState>;
}

export interface LLMAgent {
  /** One frame from the client. Never throws; the work it starts runs in the background. */
  receive(text: string): void;
  /**
   * Rebuilds the memory of conversations from their log (after a restart, on another worker), calling no model and
   * sending nothing: the inventory, the chat history (what was shown as a note), calls still waiting for their final
   * result, the actions answered. When the log ends with a message of the user that the agent never answered (a
   * turn cut off), that turn runs again now.
   */
  restore(
    entries: readonly { readonly direction: 'in' | 'out'; readonly envelope: Record<string, unknown> }[],
  ): void;
  /** Resolves when every turn started so far has finished (for tests and shutdown). */
  idle(): Promise<void>;
  /** Whether a turn is running or queued now (a model call, or a wait for a tool result within a turn). */
  busy(): boolean;
}

export const DEFAULT_INSTRUCTIONS =
  'You are an assistant inside LineUp, a client that can show interactive UI and run apps on the user’s device. ' +
  'Use the app tools when the user asks for something they do; a tool result tells what really happened, so ' +
  'never claim success before it. Answer briefly, in the language of the user.';

const POLITE_FAILURE =
  'Sorry — I could not reach the language model just now, so I cannot answer. Please try again in a moment.';

type ToolResultPayload = LineUpPayloadOf<'lineup.v1.tool.result'>;

interface PendingCall {
  readonly tool: string;
  /** Set while a turn waits for this result; cleared once the model got an interim answer instead. */
  resolve?: (content: string) => void;
}

interface Conversation {
  inventory?: { readonly revision: string; readonly tools: readonly AgentToolInventoryEntry[] };
  readonly history: ChatMessage[];
  /** Agent Tool calls sent and not yet answered with a final result, by `call_id`. */
  readonly calls: Map<string, PendingCall>;
  /** Open component streams by `sourceCallId`, and the last generation used per `uiId`. */
  readonly streams: Map<string, UIStreamState>;
  readonly generations: Map<string, number>;
  /** The chain of turns: each starts when the previous one ended. */
  queue: Promise<void>;
  /** How many user messages are queued behind the running turn. */
  waitingUsers: number;
  /** The `operation_id`s of the `ui.action`s answered, so a second envelope for one is not answered again. */
  readonly operations: RecentIds;
}

export function createLLMAgent(options: LLMAgentOptions): LLMAgent {
  const agentId = options.agentId ?? 'lineup-reference-agent';
  const ids = options.ids ?? (() => crypto.randomUUID());
  const maxRounds = options.maxRounds ?? 8;
  const report = (problem: unknown) => {
    try {
      options.onProblem?.(problem);
    } catch {
      // never let a problem handler break the agent
    }
  };
  const send = envelopeSender({ agentId, ids, send: options.send, report });
  const streams: StreamKeeper = options.streams ?? {
    async open(conversationId, sourceCallId, document) {
      const conversation = conversationOf(conversationId);
      const uiId = (document as { id: string }).id;
      const state = startUIStream(document, sourceCallId, (conversation.generations.get(uiId) ?? 0) + 1);
      conversation.generations.set(state.uiId, state.generation);
      conversation.streams.set(state.sourceCallId, state);
      return state;
    },
    async step(conversationId, cursor, event) {
      const conversation = conversationOf(conversationId);
      const state = advanceUIStream(streamAt(conversation, cursor), event);
      if (state.status === 'streaming') conversation.streams.set(state.sourceCallId, state);
      else conversation.streams.delete(state.sourceCallId);
      return state;
    },
  };
  const seen = new RecentIds(4_096);
  const conversations = new Map<string, Conversation>();
  /** Turns queued or running, over all conversations. */
  let turns = 0;
  /** Chains `turn` after the conversation's queue, counted in `turns` until it ends. */
  const chainTurn = (conversation: Conversation, turn: () => Promise<void>) => {
    turns += 1;
    conversation.queue = conversation.queue.then(turn).finally(() => {
      turns -= 1;
    });
  };
  /** The `tool.call` envelopes sent, by envelope id → `call_id`, to answer an `unsupported`. */
  const sentCalls = new Map<string, string>();
  const systemPrompt = [
    options.instructions ?? DEFAULT_INSTRUCTIONS,
    intelligentUIPromptSection({ tools: INTELLIGENT_UI_TOOL_NAMES }),
  ]
    .filter((part) => part.length > 0)
    .join('\n\n');

  function conversationOf(id: string): Conversation {
    let conversation = conversations.get(id);
    if (conversation === undefined) {
      conversation = {
        history: [],
        calls: new Map(),
        streams: new Map(),
        generations: new Map(),
        queue: Promise.resolve(),
        waitingUsers: 0,
        operations: new RecentIds(1_024),
      };
      conversations.set(id, conversation);
    }
    return conversation;
  }

  const say = (conversationId: string, text: string) =>
    send(conversationId, 'lineup.v1.chat.agent_message', { text: text.slice(0, 16_384) });

  /** Queues a turn that first appends `message` to the history. */
  function enqueueTurn(conversationId: string, message: ChatMessage, fromUser: boolean): void {
    const conversation = conversationOf(conversationId);
    if (fromUser) {
      conversation.waitingUsers += 1;
      // A turn that waits for a tool result must not hold the user's next words (a "stop" for a running
      // operation): the waiting calls get an interim answer now and their final result arrives as a later note.
      releaseWaitingCalls(conversation);
    }
    chainTurn(conversation, async () => {
      if (fromUser) conversation.waitingUsers -= 1;
      conversation.history.push(message);
      await runTurn(conversationId, conversation).catch(report);
    });
  }

  function releaseWaitingCalls(conversation: Conversation): void {
    for (const [callId, pending] of conversation.calls) {
      const resolve = pending.resolve;
      if (resolve === undefined) continue;
      delete pending.resolve;
      resolve(
        JSON.stringify({
          status: 'pending',
          call_id: callId,
          note: 'The call is still running; its final result will be reported in a later message.',
        }),
      );
    }
  }

  async function runTurn(conversationId: string, conversation: Conversation): Promise<void> {
    for (let round = 0; round < maxRounds; round += 1) {
      const table = buildToolTable(conversation.inventory?.tools ?? []);
      let completion: Awaited<ReturnType<ChatModel['complete']>>;
      try {
        completion = await options.model.complete(
          [{ role: 'system', content: systemPrompt }, ...conversation.history],
          table.tools,
        );
      } catch (error) {
        report(error);
        say(conversationId, POLITE_FAILURE);
        return;
      }
      const { message } = completion;
      conversation.history.push(message);
      if (message.content !== null && message.content.trim().length > 0) say(conversationId, message.content);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) return;
      // Every tool call is answered, in order, before the model is asked again.
      const answers = calls.map((call) =>
        answerToolCall(conversationId, conversation, table.agentTools, call),
      );
      for (const [index, answer] of answers.entries()) {
        const call = calls[index] as ChatToolCall;
        conversation.history.push({ role: 'tool', tool_call_id: call.id, content: await answer });
      }
    }
    say(conversationId, 'Sorry — I stopped after too many tool steps without an answer. Please try again.');
  }

  /** The content of the `tool` message for one call. */
  async function answerToolCall(
    conversationId: string,
    conversation: Conversation,
    agentTools: ReadonlyMap<string, string>,
    call: ChatToolCall,
  ): Promise<string> {
    let args: unknown;
    try {
      args = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
    } catch {
      return 'The arguments were not valid JSON. Nothing was done; call the tool again with a JSON object.';
    }
    const toolName = agentTools.get(call.function.name);
    if (toolName !== undefined) return callAgentTool(conversationId, conversation, toolName, call, args);
    const uiTool = findIntelligentUITool(call.function.name);
    if (uiTool === undefined) return `There is no tool called ${JSON.stringify(call.function.name)}.`;
    const callId = lineUpIdFrom(call.id, ids);
    try {
      const parsed: unknown = uiTool.parseArguments(args);
      switch (uiTool.name) {
        case 'intelligent_ui': {
          const { document } = parsed as { document: UIDocument };
          const result = intelligentUIToolResult(document);
          if (
            send(conversationId, 'lineup.v1.ui.document', {
              document: toJSON(result.presentationMeta.document),
            }) === undefined
          )
            return 'The document was valid but could not be sent to the client; nothing was shown.';
          return result.render;
        }
        case 'intelligent_ui_open': {
          const { document } = parsed as { document: UIDocument };
          return sendCheckpoint(conversationId, await streams.open(conversationId, callId, document));
        }
        case 'intelligent_ui_patch': {
          const { mutation, ...cursor } = parsed as IntelligentUIPatchArguments;
          return sendCheckpoint(conversationId, await streams.step(conversationId, cursor, mutation));
        }
        case 'intelligent_ui_complete':
        case 'intelligent_ui_cancel': {
          const type = uiTool.name === 'intelligent_ui_complete' ? 'complete' : 'cancel';
          const cursor = parsed as IntelligentUIStreamCursorArguments;
          return sendCheckpoint(conversationId, await streams.step(conversationId, cursor, { type }));
        }
      }
    } catch (error) {
      if (error instanceof StreamRefusal) return streamRefusalText(error);
      return formatIssuesForModel(error);
    }
  }

  /** The open stream the cursor names, at exactly that generation and revision (never guessed). */
  function streamAt(conversation: Conversation, cursor: IntelligentUIStreamCursorArguments): UIStreamState {
    const state = conversation.streams.get(cursor.sourceCallId);
    const reject = (path: string, message: string): never => {
      const issue: UIIssue = { path, code: 'invalid_value', message };
      throw new UIStreamError([issue]);
    };
    if (state === undefined)
      return reject('sourceCallId', 'No open stream has this sourceCallId; copy it from the last result.');
    if (state.generation !== cursor.generation)
      return reject('generation', `This stream is at generation ${state.generation}.`);
    if (state.revision !== cursor.baseRevision)
      return reject('baseRevision', `This stream is at revision ${state.revision}.`);
    return state;
  }

  function sendCheckpoint(conversationId: string, state: UIStreamState): string {
    const checkpoint = toJSON(state.checkpoint) as LineUpPayloadOf<'lineup.v1.ui.checkpoint'>['checkpoint'];
    if (send(conversationId, 'lineup.v1.ui.checkpoint', { checkpoint }) === undefined)
      return 'The stream step was accepted but could not be sent to the client now; the user may not see it yet.';
    return intelligentUIStreamToolResult(state.checkpoint).render;
  }

  function callAgentTool(
    conversationId: string,
    conversation: Conversation,
    tool: string,
    call: ChatToolCall,
    args: unknown,
  ): Promise<string> {
    const inventory = conversation.inventory;
    if (inventory === undefined) return Promise.resolve('No app tools are available right now.');
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return Promise.resolve('The arguments must be a JSON object. Nothing was done.');
    const callId = lineUpIdFrom(call.id, ids);
    if (conversation.calls.has(callId))
      return Promise.resolve('A call with this id is still running; use a new tool call id.');
    return new Promise((resolve) => {
      conversation.calls.set(callId, { tool, resolve });
      const sent = send(conversationId, 'lineup.v1.tool.call', {
        call_id: callId,
        inventory_revision: inventory.revision,
        tool,
        arguments: args as Record<string, never>,
      });
      if (sent === undefined) {
        conversation.calls.delete(callId);
        resolve('The call could not be sent to the client; nothing was done.');
        return;
      }
      sentCalls.set(sent, callId);
      if (sentCalls.size > 4_096) sentCalls.delete(sentCalls.keys().next().value as string);
      if (conversation.waitingUsers > 0) releaseWaitingCalls(conversation); // the user already said more
    });
  }

  // ── What the client reports ───────────────────────────────────────────────────────────────────────────

  function toolResult(message: LineUpMessageOf<'lineup.v1.tool.result'>): void {
    const conversation = conversationOf(message.conversation_id);
    const pending = conversation.calls.get(message.payload.call_id);
    if (pending === undefined) return; // not ours, or answered already
    conversation.calls.delete(message.payload.call_id);
    const content = resultContent(message.payload);
    if (pending.resolve !== undefined) {
      pending.resolve(content);
      return;
    }
    // The model already got an interim answer: the final result is a note of its own, and a new turn.
    enqueueTurn(
      message.conversation_id,
      {
        role: 'user',
        content: `[LineUp] The final result of the earlier ${pending.tool} call ${message.payload.call_id}: ${content}`,
      },
      false,
    );
  }

  /**
   * A DSL 1.1 agent action the user clicked: answered `accepted` (queued, nothing more) before anything else, then
   * its prompt becomes the user's next message — a plain `user` message with the prompt as it is, no more
   * authority than typed text. When the answer cannot be sent, nothing is queued and the operation is forgotten,
   * so a later envelope for it can still be answered.
   */
  function uiAction(message: LineUpMessageOf<'lineup.v1.ui.action'>): void {
    const conversation = conversationOf(message.conversation_id);
    const { operation_id: operationId, prompt } = message.payload;
    if (!conversation.operations.add(operationId)) return;
    const answered = send(message.conversation_id, 'lineup.v1.ui.action_result', {
      operation_id: operationId,
      status: 'accepted',
    });
    if (answered === undefined) {
      conversation.operations.delete(operationId);
      return;
    }
    enqueueTurn(message.conversation_id, { role: 'user', content: prompt }, true);
  }

  const MESSAGE_HANDLERS: { [T in LineUpMessage['type']]?: (message: LineUpMessageOf<T>) => void } = {
    'lineup.v1.client.inventory': (message) => {
      conversationOf(message.conversation_id).inventory = {
        revision: message.payload.revision,
        tools: message.payload.tools ?? [],
      };
    },
    'lineup.v1.chat.user_message': (message) =>
      enqueueTurn(message.conversation_id, { role: 'user', content: userTurnContent(message.payload) }, true),
    'lineup.v1.ui.action': uiAction,
    'lineup.v1.tool.result': toolResult,
    'lineup.v1.unsupported': (message) => {
      // A tool call the client did not support never gets a result: answer the waiting turn now.
      const conversation = conversationOf(message.conversation_id);
      const callId = sentCalls.get(message.payload.message_id);
      const pending = callId === undefined ? undefined : conversation.calls.get(callId);
      if (callId !== undefined && pending !== undefined) {
        conversation.calls.delete(callId);
        pending.resolve?.(JSON.stringify({ outcome: 'error', error: { code: 'unsupported' } }));
      }
      report(
        new Error(`The client did not support ${message.payload.message_id}: ${message.payload.reason}`),
      );
    },
  };

  function receive(text: string): void {
    let parsed: ReturnType<typeof parseEnvelopeText>;
    try {
      parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
    } catch (error) {
      report(error);
      return;
    }
    if (parsed.kind === 'unsupported') {
      if (parsed.id === undefined || parsed.conversation_id === undefined || !seen.add(parsed.id)) return;
      send(parsed.conversation_id, 'lineup.v1.unsupported', {
        message_id: parsed.id,
        ...(parsed.type === undefined ? {} : { message_type: parsed.type }),
        reason: parsed.reason,
      });
      return;
    }
    const { message } = parsed;
    if (!seen.add(message.id)) return;
    const handler = MESSAGE_HANDLERS[message.type] as ((message: LineUpMessage) => void) | undefined;
    handler?.(message);
  }

  function restore(entries: Parameters<LLMAgent['restore']>[0]): void {
    /** Per conversation: whether the last thing the user said still waits for an answer. */
    const unanswered = new Map<string, boolean>();
    for (const { direction, envelope } of entries) {
      const conversationId = String(envelope.conversation_id);
      const conversation = conversationOf(conversationId);
      const payload = (envelope.payload ?? {}) as Record<string, unknown>;
      if (direction === 'in' && typeof envelope.id === 'string') seen.add(envelope.id);
      switch (envelope.type) {
        case 'lineup.v1.client.inventory':
          conversation.inventory = {
            revision: String(payload.revision),
            tools: (payload.tools as AgentToolInventoryEntry[] | undefined) ?? [],
          };
          break;
        case 'lineup.v1.chat.user_message':
          conversation.history.push({
            role: 'user',
            content: userTurnContent(payload as Parameters<typeof userTurnContent>[0]),
          });
          unanswered.set(conversationId, true);
          break;
        case 'lineup.v1.ui.action':
          conversation.operations.add(String(payload.operation_id));
          conversation.history.push({ role: 'user', content: String(payload.prompt) });
          unanswered.set(conversationId, true);
          break;
        case 'lineup.v1.chat.agent_message':
          conversation.history.push({ role: 'assistant', content: String(payload.text) });
          unanswered.set(conversationId, false);
          break;
        case 'lineup.v1.tool.call': {
          // As the model made it, answered at once with the interim note: its final result comes as a note.
          const callId = String(payload.call_id);
          const tool = String(payload.tool);
          conversation.calls.set(callId, { tool });
          conversation.history.push({
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: callId,
                type: 'function',
                function: { name: functionNameOf(tool), arguments: JSON.stringify(payload.arguments ?? {}) },
              },
            ],
          });
          conversation.history.push({
            role: 'tool',
            tool_call_id: callId,
            content: JSON.stringify({
              status: 'pending',
              call_id: callId,
              note: 'The final result comes later.',
            }),
          });
          break;
        }
        case 'lineup.v1.tool.result': {
          const callId = String(payload.call_id);
          const pending = conversation.calls.get(callId);
          if (pending === undefined) break;
          conversation.calls.delete(callId);
          conversation.history.push({
            role: 'user',
            content: `[LineUp] The final result of the earlier ${pending.tool} call ${callId}: ${resultContent(payload as unknown as ToolResultPayload)}`,
          });
          break;
        }
        case 'lineup.v1.ui.document':
        case 'lineup.v1.ui.checkpoint':
          conversation.history.push({
            role: 'assistant',
            content: `[LineUp] Shown to the user earlier: ${envelope.type === 'lineup.v1.ui.document' ? 'a UI document' : 'a step of a streamed UI'}.`,
          });
          break;
      }
    }
    // A turn the end of the run cut off runs again: the model answers what it had not answered.
    for (const [conversationId, waiting] of unanswered) {
      if (!waiting) continue;
      const conversation = conversationOf(conversationId);
      chainTurn(conversation, () => runTurn(conversationId, conversation).catch(report));
    }
  }

  return {
    receive(text) {
      try {
        receive(text);
      } catch (error) {
        report(error);
      }
    },
    restore(entries) {
      try {
        restore(entries);
      } catch (error) {
        report(error);
      }
    },
    busy: () => turns > 0,
    async idle() {
      let before: Promise<void>[];
      do {
        before = [...conversations.values()].map((conversation) => conversation.queue);
        await Promise.all(before);
      } while (
        [...conversations.values()].some((conversation, index) => conversation.queue !== before[index])
      );
    },
  };
}

/** A tool result as the model reads it: the result JSON, or the error code and message. */
function resultContent(payload: ToolResultPayload): string {
  if (payload.outcome === 'completed')
    return JSON.stringify({ outcome: 'completed', result: payload.result ?? null });
  return JSON.stringify({ outcome: 'error', error: payload.error ?? { code: 'execution_failed' } });
}

/** A frozen, typed value as plain JSON data for an envelope payload. */
function toJSON<T>(value: T): never {
  return JSON.parse(JSON.stringify(value)) as never;
}

/**
 * What the model reads for a stream step the keeper refused: what is wrong and what to call; for a stream of an
 * earlier run, its last valid snapshot too, to open a new generation from (seed 004 §5).
 */
export function streamRefusalText(refusal: StreamRefusal): string {
  if (refusal.code !== 'stream_epoch_ended' || refusal.checkpoint === undefined) return refusal.message;
  return `${refusal.message}\nThe last valid snapshot (the document for intelligent_ui_open):\n${JSON.stringify(refusal.checkpoint.snapshot)}`;
}
