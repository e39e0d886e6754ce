/**
 * Building and checking what the agent sends: every envelope is `{ v: 1, id, type, conversation_id, sender,
 * payload }`, validated with `parseEnvelope(…, { direction: 'agent_to_client' })` before it leaves.
 */
import {
  LINEUP_ID_PATTERN,
  type LineUpMessageType,
  type LineUpPayloadOf,
  parseEnvelope,
} from '@lineup/shared/protocol';

export type SendEnvelope = <T extends LineUpMessageType>(
  conversationId: string,
  type: T,
  payload: LineUpPayloadOf<T>,
) => string | undefined;

/** Returns a `send` that builds, validates and sends; on failure it reports and returns `undefined`. */
export function envelopeSender(options: {
  readonly agentId: string;
  readonly ids: () => string;
  readonly send: (text: string) => void;
  readonly report: (problem: unknown) => void;
}): SendEnvelope {
  return (conversationId, type, payload) => {
    try {
      const envelope = {
        v: 1,
        id: options.ids(),
        type,
        conversation_id: conversationId,
        sender: { kind: 'agent', id: options.agentId },
        payload,
      };
      const parsed = parseEnvelope(envelope, { direction: 'agent_to_client' });
      if (parsed.kind !== 'message') throw new TypeError(`${type} is not a message an agent sends.`);
      options.send(JSON.stringify(envelope));
      return envelope.id;
    } catch (error) {
      options.report(error);
      return undefined;
    }
  };
}

/** A model's tool call id as a LineUp id: printable ASCII without spaces, 1–128 characters. */
export function lineUpIdFrom(candidate: string, fallback: () => string): string {
  const cleaned = candidate.replace(/[^\x21-\x7e]/g, '_').slice(0, 128);
  return cleaned.length > 0 && LINEUP_ID_PATTERN.test(cleaned) ? cleaned : fallback();
}

/** A bounded set of recently seen ids, oldest forgotten first. */
export class RecentIds {
  readonly #ids = new Set<string>();
  constructor(readonly limit: number) {}
  /** Adds `id`; returns `false` when it was already there. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.limit) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
    return true;
  }

  /** Forgets `id`; returns whether it was there. */
  delete(id: string): boolean {
    return this.#ids.delete(id);
  }
}
