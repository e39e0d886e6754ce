/**
 * The client's side of a conversation with the scripted agent, without a runtime: builds valid client → agent
 * envelopes, and parses every frame the agent sends as a client would (`parseEnvelopeText`, agent → client),
 * so a test fails on any invalid envelope.
 */
import {
  type LineUpMessage,
  type LineUpMessageOf,
  type LineUpMessageType,
  parseEnvelope,
  parseEnvelopeText,
} from '@lineup/shared/protocol';
import { createScriptedAgent, type ScriptedAgentOptions } from '../src/index.js';
import { POMODORO_INVENTORY_TOOLS } from './pomodoro.js';

export const CONVERSATION = 'conv_1';

export interface Harness {
  /** Every envelope the agent sent, parsed. */
  readonly sent: LineUpMessage[];
  readonly problems: unknown[];
  /** Sends a client envelope to the agent (validated first, so a test cannot send an invalid one by mistake). */
  receive(type: LineUpMessageType, payload: object, options?: { id?: string; conversation?: string }): void;
  /** The raw frame, unvalidated. */
  receiveText(text: string): void;
  inventory(revision: string, tools?: readonly object[], conversation?: string): void;
  say(text: string, conversation?: string): void;
  /** The envelopes sent since the last call. */
  take(): LineUpMessage[];
}

export function createHarness(options: Partial<ScriptedAgentOptions> = {}): Harness {
  const sent: LineUpMessage[] = [];
  const problems: unknown[] = [];
  let taken = 0;
  let ids = 0;
  let clientIds = 0;
  const agent = createScriptedAgent({
    ids: () => `a${++ids}`,
    onProblem: (problem) => problems.push(problem),
    ...options,
    send(text) {
      const parsed = parseEnvelopeText(text, { direction: 'agent_to_client' });
      if (parsed.kind !== 'message') throw new Error(`The agent sent an unsupported envelope: ${text}`);
      sent.push(parsed.message);
      options.send?.(text);
    },
  });
  const harness: Harness = {
    sent,
    problems,
    receive(type, payload, { id = `c${++clientIds}`, conversation = CONVERSATION } = {}) {
      const envelope = {
        v: 1,
        id,
        type,
        conversation_id: conversation,
        sender: { kind: 'client', id: 'test-host' },
        payload,
      };
      parseEnvelope(envelope, { direction: 'client_to_agent' });
      agent.receive(JSON.stringify(envelope));
    },
    receiveText: (text) => agent.receive(text),
    inventory(revision, tools = POMODORO_INVENTORY_TOOLS, conversation = CONVERSATION) {
      harness.receive(
        'lineup.v1.client.inventory',
        {
          revision,
          standard_components: [],
          // Pomodoro with its focus card, when its tools are listed (an inventory without them lists no app).
          applications:
            tools.length > 0
              ? [
                  {
                    id: 'com.lineup.pomodoro',
                    version: '1.0.0',
                    surfaces: [{ id: 'focus', events: ['start', 'stop'] }],
                  },
                ]
              : [],
          capabilities: [],
          tools,
        },
        { conversation },
      );
    },
    say(text, conversation = CONVERSATION) {
      harness.receive('lineup.v1.chat.user_message', { text }, { conversation });
    },
    take() {
      const next = sent.slice(taken);
      taken = sent.length;
      return next;
    },
  };
  return harness;
}

/** The messages of one type. */
export function ofType<T extends LineUpMessageType>(
  messages: readonly LineUpMessage[],
  type: T,
): LineUpMessageOf<T>[] {
  return messages.filter((message): message is LineUpMessageOf<T> => message.type === type);
}

/** The chat texts among the messages. */
export function texts(messages: readonly LineUpMessage[]): string[] {
  return ofType(messages, 'lineup.v1.chat.agent_message').map((message) => message.payload.text);
}

/** `type` without the `lineup.v1.` prefix, for compact assertions. */
export function types(messages: readonly LineUpMessage[]): string[] {
  return messages.map((message) => message.type.replace('lineup.v1.', ''));
}
