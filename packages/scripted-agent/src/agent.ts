/**
 * The demo agent's brain: `lineup.v1` envelopes in (client → agent, as JSON text), envelopes out (agent →
 * client, one per JSON text frame), nothing else. It knows no transport, framework or clock, so the same code
 * runs in a browser page behind an in-process transport and in Node behind a WebSocket server.
 *
 * Protocol duties it keeps (@lineup/shared docs/protocol.md):
 * - every frame is parsed with `parseEnvelopeText(text, { direction: 'client_to_agent' })`; an invalid one is
 *   reported to `onProblem` and otherwise ignored; a well-formed one of an unknown type or later version is
 *   answered `lineup.v1.unsupported` and never acted on (seed 000 §3);
 * - envelopes are deduplicated by `id` (delivery is at least once: the client resends after a reconnect);
 * - a `ui.action` (a DSL 1.1 agent action the user clicked) is answered `ui.action_result` `accepted` once per
 *   `operation_id` of its conversation, and its `prompt` is then handled as the user's next message;
 * - a tool is called only with an inventory of its conversation that lists it, and always with that
 *   inventory's `revision` (seed 003 §4.2 step 1);
 * - everything it sends is validated with `parseEnvelope(…, { direction: 'agent_to_client' })` first; an
 *   envelope that fails is reported and not sent.
 */
import {
  DeadlineOperationResultSchema,
  LineUpIdSchema,
  type LineUpMessage,
  type LineUpMessageOf,
  type LineUpMessageType,
  type LineUpPayloadOf,
  OperationInterruptResultSchema,
  parseEnvelope,
  parseEnvelopeText,
} from '@lineup/shared/protocol';
import { compoundInterestDocument } from './content/compound-interest.js';
import { productComparisonDocument } from './content/product-comparison.js';
import { savingsStreamFrames } from './content/savings-stream.js';
import { WEATHER_BUNDLE, WEATHER_REFRESH_EVENT, weatherState } from './content/weather-surface.js';
import { type IntentName, recognizeIntent } from './conversation/intents.js';
import { type Language, languageOf, normalizeText } from './conversation/language.js';
import { RecentMap } from './conversation/recent.js';
import { REPLIES, type Replies } from './conversation/replies.js';
import { type FocusKind, readFocusRequest } from './pomodoro/request.js';

export interface ScriptedAgentOptions {
  /** `sender.id` of every envelope: printable ASCII without spaces, 1–128 characters. */
  readonly agentId?: string;
  /** Sends one envelope, as JSON text, to the client. Called synchronously from `receive`. */
  readonly send: (text: string) => void;
  /** New ids for envelopes, tool calls and streams (default `crypto.randomUUID`); printable ASCII. */
  readonly ids?: () => string;
  /**
   * Paces a component stream: the first frame is sent at once, each next one `STREAM_FRAME_DELAY_MS` after
   * the previous, through this (`setTimeout` fits). Without it every frame is sent at once, in order.
   */
  readonly schedule?: (callback: () => void, delayMs: number) => void;
  /** A frame that was not a valid envelope, or anything else that went wrong; `receive` never throws. */
  readonly onProblem?: (problem: unknown) => void;
}

export interface ScriptedAgent {
  /** One frame from the client: JSON text of one `lineup.v1` envelope. Never throws. */
  receive(text: string): void;
}

/** `sender.id` when `agentId` is not given. */
export const DEFAULT_AGENT_ID = 'lineup-demo-agent';

/** The pause between two frames of a component stream when `schedule` is given. */
export const STREAM_FRAME_DELAY_MS = 400;

/** The tools the agent calls, as the inventory names them. */
export const POMODORO_TOOLS = Object.freeze({
  start: 'pomodoro.start',
  interrupt: 'pomodoro.interrupt',
} as const);

/** Pomodoro's focus card, a Surface an agent opens by reference (seed 000 §5.1). */
export const FOCUS_CARD = Object.freeze({ app_id: 'com.lineup.pomodoro', surface_id: 'focus' } as const);
const FOCUS_CARD_INSTANCE_ID = 'lineup-demo.focus-card';

/** The instance id of the weather Surface: one per conversation, reopening replaces it (seed 000 §4.1). */
const WEATHER_INSTANCE_ID = 'lineup-demo.weather';

/** How much the agent remembers: the client's dedupe window, and bounds on conversations and calls. */
const MEMORY = Object.freeze({
  envelopeIds: 4_096,
  conversations: 1_024,
  callsPerConversation: 64,
  operationsPerConversation: 1_024,
});

type PendingCall =
  | {
      readonly tool: typeof POMODORO_TOOLS.start;
      readonly minutes: number;
      readonly focus: FocusKind;
      started: boolean;
    }
  | { readonly tool: typeof POMODORO_TOOLS.interrupt };

interface Conversation {
  /** The latest `client.inventory`: its revision, tool names and `app_id/surface_id` of each Surface. */
  inventory?: {
    readonly revision: string;
    readonly tools: ReadonlySet<string>;
    readonly surfaces: ReadonlySet<string>;
  };
  /** The language of the user's latest message. */
  language: Language;
  /** Tool calls sent and not yet answered with a final result, by `call_id`. */
  readonly calls: RecentMap<string, PendingCall>;
  /** The `operation_id`s of the `ui.action`s answered, so a second envelope for one is not answered again. */
  readonly operations: RecentMap<string, true>;
  /** How many times the weather Surface was refreshed. */
  weatherRefreshes: number;
  weatherOpen: boolean;
  focusCardOpen: boolean;
}

/** What the agent sent, by envelope id, to explain an `unsupported` answer. */
interface SentRecord {
  readonly type: LineUpMessageType;
  readonly callId?: string;
}

type Message<T extends LineUpMessageType> = LineUpMessageOf<T>;

export function createScriptedAgent(options: ScriptedAgentOptions): ScriptedAgent {
  const agentId = options.agentId ?? DEFAULT_AGENT_ID;
  if (!LineUpIdSchema.safeParse(agentId).success)
    throw new TypeError(
      'createScriptedAgent: agentId must be 1–128 printable ASCII characters without spaces.',
    );
  if (typeof options.send !== 'function')
    throw new TypeError('createScriptedAgent: send must be a function.');
  const nextId = options.ids ?? (() => crypto.randomUUID());
  const report = (problem: unknown) => {
    try {
      options.onProblem?.(problem);
    } catch {
      // A failing problem handler must not make `receive` throw.
    }
  };

  const seen = new RecentMap<string, true>(MEMORY.envelopeIds);
  const sent = new RecentMap<string, SentRecord>(MEMORY.envelopeIds);
  const conversations = new RecentMap<string, Conversation>(MEMORY.conversations);

  function conversationOf(id: string): Conversation {
    let conversation = conversations.get(id);
    if (conversation === undefined) {
      conversation = {
        language: 'en',
        calls: new RecentMap(MEMORY.callsPerConversation),
        operations: new RecentMap(MEMORY.operationsPerConversation),
        weatherRefreshes: 0,
        weatherOpen: false,
        focusCardOpen: false,
      };
      conversations.set(id, conversation);
    }
    return conversation;
  }

  /** Builds, validates and sends one envelope; returns its id, or `undefined` when nothing was sent. */
  function send<T extends LineUpMessageType>(
    conversationId: string,
    type: T,
    payload: LineUpPayloadOf<T>,
    callId?: string,
  ): string | undefined {
    try {
      const envelope = {
        v: 1,
        id: nextId(),
        type,
        conversation_id: conversationId,
        sender: { kind: 'agent', id: agentId },
        payload,
      };
      const parsed = parseEnvelope(envelope, { direction: 'agent_to_client' });
      if (parsed.kind !== 'message') throw new TypeError(`${type} is not a message the agent sends.`);
      // Recorded before it leaves: a transport may answer from inside `send`.
      sent.set(envelope.id, callId === undefined ? { type } : { type, callId });
      try {
        options.send(JSON.stringify(envelope));
      } catch (error) {
        sent.delete(envelope.id);
        throw error;
      }
      return envelope.id;
    } catch (error) {
      report(error);
      return undefined;
    }
  }

  const say = (conversationId: string, text: string) =>
    send(conversationId, 'lineup.v1.chat.agent_message', { text });

  const repliesOf = (conversation: Conversation): Replies => REPLIES[conversation.language];

  /** Why the tool cannot be called in this conversation (no inventory, or not in it), or `undefined`. */
  function unavailable(conversation: Conversation, tool: string): string | undefined {
    const replies = repliesOf(conversation);
    if (conversation.inventory === undefined) return replies.noInventory();
    if (!conversation.inventory.tools.has(tool)) return replies.toolMissing(tool);
    return undefined;
  }

  /** Sends a tool call with the revision of the conversation's latest inventory, and remembers it. */
  function callTool(
    conversationId: string,
    conversation: Conversation,
    pending: PendingCall,
    args: LineUpPayloadOf<'lineup.v1.tool.call'>['arguments'],
  ): void {
    const { inventory } = conversation;
    if (inventory === undefined) return; // `unavailable` said why
    const callId = nextId();
    const payload = {
      call_id: callId,
      inventory_revision: inventory.revision,
      tool: pending.tool,
      arguments: args,
    };
    // Remembered before it leaves (a transport may answer from inside `send`), forgotten if it never did.
    conversation.calls.set(callId, pending);
    if (send(conversationId, 'lineup.v1.tool.call', payload, callId) === undefined)
      conversation.calls.delete(callId);
  }

  // ── What the user says ────────────────────────────────────────────────────────────────────────────────

  type IntentHandler = (conversationId: string, conversation: Conversation, text: string) => void;

  /** One handler per intent, and one for what the agent does not understand. */
  const INTENT_HANDLERS = {
    pomodoro_start(conversationId, conversation, text) {
      const replies = repliesOf(conversation);
      const request = readFocusRequest(text);
      if (request.kind === 'out_of_range') {
        say(conversationId, replies.pomodoroOutOfRange(request.minutes));
        return;
      }
      const why = unavailable(conversation, POMODORO_TOOLS.start);
      if (why !== undefined) {
        say(conversationId, why);
        return;
      }
      const { minutes, focus, defaulted } = request;
      const label = replies.focusLabels[focus];
      // seed 003 §7: until progress `started`, Pomodoro is opening; the timer has not begun.
      say(conversationId, replies.pomodoroOpening(minutes, label, defaulted));
      callTool(
        conversationId,
        conversation,
        { tool: POMODORO_TOOLS.start, minutes, focus, started: false },
        { minutes, label },
      );
    },
    pomodoro_stop(conversationId, conversation) {
      const why = unavailable(conversation, POMODORO_TOOLS.interrupt);
      if (why !== undefined) {
        say(conversationId, why);
        return;
      }
      say(conversationId, repliesOf(conversation).stopping());
      // The runtime finds what to stop in this conversation; the tool takes no arguments.
      callTool(conversationId, conversation, { tool: POMODORO_TOOLS.interrupt }, {});
    },
    compound_interest(conversationId, conversation) {
      say(conversationId, repliesOf(conversation).compoundInterest());
      send(conversationId, 'lineup.v1.ui.document', {
        document: compoundInterestDocument(conversation.language),
      });
    },
    product_comparison(conversationId, conversation) {
      say(conversationId, repliesOf(conversation).productComparison());
      send(conversationId, 'lineup.v1.ui.document', {
        document: productComparisonDocument(conversation.language),
      });
    },
    focus_card(conversationId, conversation) {
      const replies = repliesOf(conversation);
      if (!conversation.inventory?.surfaces.has(`${FOCUS_CARD.app_id}/${FOCUS_CARD.surface_id}`)) {
        say(conversationId, replies.focusCardMissing());
        return;
      }
      say(conversationId, replies.focusCardOpened());
      // By reference: the app id and surface id the inventory lists, never code (seed 000 §5.1).
      const opened = send(conversationId, 'lineup.v1.ui.open', {
        instance_id: FOCUS_CARD_INSTANCE_ID,
        surface: { ...FOCUS_CARD },
        state: { minutes: 25, lang: conversation.language === 'zh' ? 'zh-CN' : 'en' },
      });
      conversation.focusCardOpen = opened !== undefined;
    },
    weather_surface(conversationId, conversation) {
      conversation.weatherRefreshes = 0;
      const state = weatherState(conversation.language, 0);
      say(conversationId, repliesOf(conversation).weatherOpened(state.city));
      const opened = send(conversationId, 'lineup.v1.ui.open', {
        instance_id: WEATHER_INSTANCE_ID,
        app: { ...WEATHER_BUNDLE },
        state,
      });
      conversation.weatherOpen = opened !== undefined;
    },
    ui_stream(conversationId, conversation) {
      const frames = savingsStreamFrames(conversation.language, nextId());
      say(conversationId, repliesOf(conversation).streaming(frames.length));
      const sendFrame = (index: number) => {
        const frame = frames[index];
        if (frame === undefined) return;
        // A checkpoint is JSON data; its type (a typed document) does not say so.
        const checkpoint = frame as unknown as LineUpPayloadOf<'lineup.v1.ui.checkpoint'>['checkpoint'];
        if (send(conversationId, 'lineup.v1.ui.checkpoint', { checkpoint }) === undefined) return;
        if (options.schedule === undefined) sendFrame(index + 1);
        else if (index + 1 < frames.length)
          options.schedule(() => sendFrame(index + 1), STREAM_FRAME_DELAY_MS);
      };
      sendFrame(0);
    },
    help(conversationId, conversation) {
      say(conversationId, repliesOf(conversation).help());
    },
    unknown(conversationId, conversation) {
      say(conversationId, repliesOf(conversation).unknown());
    },
  } satisfies Record<IntentName | 'unknown', IntentHandler>;

  /** One turn of the user: what they typed, or the prompt of an agent action they clicked. */
  function userTurn(conversationId: string, said: string): void {
    const conversation = conversationOf(conversationId);
    conversation.language = languageOf(said);
    const text = normalizeText(said);
    INTENT_HANDLERS[recognizeIntent(text)](conversationId, conversation, text);
  }

  function userMessage(message: Message<'lineup.v1.chat.user_message'>): void {
    userTurn(message.conversation_id, message.payload.text);
  }

  /**
   * A DSL 1.1 agent action the user clicked: answered `accepted` first (queued, nothing more), then its prompt is
   * the user's next message, on the same path as `chat.user_message` and with no more authority. An
   * `operation_id` already answered in this conversation (under another envelope id) is not answered again. When
   * the answer cannot be sent, the prompt is not acted on and the operation is forgotten, so a later envelope for
   * it can still be answered.
   */
  function uiAction(message: Message<'lineup.v1.ui.action'>): void {
    const conversation = conversationOf(message.conversation_id);
    const { operation_id: operationId, prompt } = message.payload;
    if (conversation.operations.has(operationId)) return;
    conversation.operations.set(operationId, true);
    const answered = send(message.conversation_id, 'lineup.v1.ui.action_result', {
      operation_id: operationId,
      status: 'accepted',
    });
    if (answered === undefined) {
      conversation.operations.delete(operationId);
      return;
    }
    userTurn(message.conversation_id, prompt);
  }

  // ── What the client reports ───────────────────────────────────────────────────────────────────────────

  function inventory(message: Message<'lineup.v1.client.inventory'>): void {
    const { revision, tools = [], applications } = message.payload;
    conversationOf(message.conversation_id).inventory = {
      revision,
      tools: new Set(tools.map((tool) => tool.name)),
      surfaces: new Set(
        applications.flatMap((app) => app.surfaces.map((surface) => `${app.id}/${surface.id}`)),
      ),
    };
  }

  function toolProgress(message: Message<'lineup.v1.tool.progress'>): void {
    const conversation = conversationOf(message.conversation_id);
    const pending = conversation.calls.get(message.payload.call_id);
    // Only `started` is news to the user: the timer really runs (seed 003 §7). A failed start ends with a
    // final result, which says what happened.
    if (pending?.tool !== POMODORO_TOOLS.start || message.payload.status !== 'started' || pending.started)
      return;
    pending.started = true;
    const replies = repliesOf(conversation);
    say(
      message.conversation_id,
      replies.pomodoroRunning(pending.minutes, replies.focusLabels[pending.focus]),
    );
  }

  function toolResult(message: Message<'lineup.v1.tool.result'>): void {
    const conversation = conversationOf(message.conversation_id);
    const { call_id: callId } = message.payload;
    const pending = conversation.calls.get(callId);
    if (pending === undefined) return; // not ours, or answered already
    conversation.calls.delete(callId);
    say(message.conversation_id, describeResult(repliesOf(conversation), pending, message.payload));
  }

  function describeResult(
    replies: Replies,
    pending: PendingCall,
    payload: LineUpPayloadOf<'lineup.v1.tool.result'>,
  ): string {
    if (payload.outcome === 'error' || payload.result === undefined) {
      const code = payload.error?.code;
      return code === undefined
        ? replies.unexpectedResult(pending.tool)
        : replies.toolError(pending.tool, code);
    }
    if (pending.tool === POMODORO_TOOLS.interrupt) {
      const result = OperationInterruptResultSchema.safeParse(payload.result);
      return result.success ? replies.stopResult(result.data.status) : replies.unexpectedResult(pending.tool);
    }
    const result = DeadlineOperationResultSchema.safeParse(payload.result);
    if (!result.success) return replies.unexpectedResult(pending.tool);
    const label = replies.focusLabels[pending.focus];
    switch (result.data.status) {
      case 'completed':
        return replies.pomodoroCompleted(result.data.minutes, label);
      case 'interrupted':
        return replies.pomodoroInterrupted(result.data.by, result.data.focused_seconds, label);
      case 'not_started':
        return replies.pomodoroNotStarted(result.data.reason);
    }
  }

  /** The focus card's events: start a focus of its minutes, stop it, or its close. */
  function focusCardEvent(message: Message<'lineup.v1.ui.event'>, conversation: Conversation): void {
    const { event, data } = message.payload;
    if (event === 'close') {
      conversation.focusCardOpen = false;
      say(message.conversation_id, repliesOf(conversation).focusCardClosed());
      return;
    }
    if (event === 'stop') {
      INTENT_HANDLERS.pomodoro_stop(message.conversation_id, conversation);
      return;
    }
    if (event !== 'start') return;
    const minutes = typeof data.minutes === 'number' ? data.minutes : 25;
    INTENT_HANDLERS.pomodoro_start(message.conversation_id, conversation, `focus ${minutes} minutes`);
  }

  function uiEvent(message: Message<'lineup.v1.ui.event'>): void {
    const { instance_id: instanceId, event } = message.payload;
    const conversation = conversationOf(message.conversation_id);
    if (instanceId === FOCUS_CARD_INSTANCE_ID && conversation.focusCardOpen) {
      focusCardEvent(message, conversation);
      return;
    }
    // Only the Surface this agent opened is answered; an event of any other instance is not ours to explain.
    if (instanceId !== WEATHER_INSTANCE_ID || !conversation.weatherOpen) return;
    const replies = repliesOf(conversation);
    if (event === 'close') {
      conversation.weatherOpen = false;
      say(message.conversation_id, replies.weatherClosed());
      return;
    }
    if (event !== WEATHER_REFRESH_EVENT) {
      say(message.conversation_id, replies.weatherEvent(event));
      return;
    }
    conversation.weatherRefreshes += 1;
    const state = weatherState(conversation.language, conversation.weatherRefreshes);
    say(message.conversation_id, replies.weatherRefreshed(state.city));
    send(message.conversation_id, 'lineup.v1.ui.patch', { instance_id: WEATHER_INSTANCE_ID, state });
  }

  function unsupported(message: Message<'lineup.v1.unsupported'>): void {
    const conversation = conversationOf(message.conversation_id);
    const { message_id: messageId, message_type: messageType, reason } = message.payload;
    const record = sent.get(messageId);
    // A tool call the client did not support will never get a result.
    if (record?.callId !== undefined) conversation.calls.delete(record.callId);
    say(
      message.conversation_id,
      repliesOf(conversation).clientUnsupported(record?.type ?? messageType, reason),
    );
  }

  const MESSAGE_HANDLERS: { [T in LineUpMessageType]?: (message: Message<T>) => void } = {
    'lineup.v1.client.inventory': inventory,
    'lineup.v1.chat.user_message': userMessage,
    'lineup.v1.ui.action': uiAction,
    'lineup.v1.tool.progress': toolProgress,
    'lineup.v1.tool.result': toolResult,
    'lineup.v1.ui.event': uiEvent,
    'lineup.v1.unsupported': unsupported,
    // `app.list` and `app.result` are valid and need nothing: the demo calls no capability.
  };

  function dispatch(message: LineUpMessage): void {
    const handler = MESSAGE_HANDLERS[message.type] as ((message: LineUpMessage) => void) | undefined;
    handler?.(message);
  }

  function receive(text: string): void {
    let parsed: ReturnType<typeof parseEnvelopeText>;
    try {
      parsed = parseEnvelopeText(text, { direction: 'client_to_agent' });
    } catch (error) {
      report(error);
      return;
    }
    if (parsed.kind === 'unsupported') {
      // seed 000 §3: a type (or version) this agent does not know is answered, never acted on.
      if (parsed.id === undefined || parsed.conversation_id === undefined) return;
      const key = JSON.stringify(['', parsed.conversation_id, parsed.id]);
      if (seen.has(key)) return;
      seen.set(key, true);
      send(parsed.conversation_id, 'lineup.v1.unsupported', {
        message_id: parsed.id,
        ...(parsed.type === undefined ? {} : { message_type: parsed.type }),
        reason: parsed.reason,
      });
      return;
    }
    const { message } = parsed;
    // An envelope id is its sender's within a conversation: two devices may both send `o1`, and both are heard.
    const key = JSON.stringify([message.sender.id, message.conversation_id, message.id]);
    if (seen.has(key)) return;
    seen.set(key, true);
    dispatch(message);
  }

  return {
    receive(text) {
      try {
        receive(text);
      } catch (error) {
        report(error);
      }
    },
  };
}
