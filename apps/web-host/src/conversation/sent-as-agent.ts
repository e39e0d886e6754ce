/**
 * What the page sends from the agent's end of the in-process transport (the host's examples, a pasted lineup.v1
 * message), so it takes exactly the path of a remote agent's.
 */

/** A message built for the conversation shown at the moment it is sent (the host's own examples). */
export class ForConversation {
  constructor(readonly build: (conversationId: string) => object) {}
}

export function forConversation(value: object | ForConversation, conversationId: string): object {
  return value instanceof ForConversation ? value.build(conversationId) : value;
}

/** A pasted or example value is a lineup.v1 envelope when it has the envelope's `v` and `type`. */
export function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'v' in value && 'type' in value;
}
