/**
 * The connection level of the agent transport (docs/protocol.md "WebSocket binding"): what a receiver does with a
 * frame it cannot answer in an envelope, because nothing in it names a conversation to answer in — a binary
 * frame, text that is not JSON, JSON that is not an envelope with a valid `conversation_id`, an envelope over its
 * budget whose header cannot be read — and with more frames than it can hold. Each is refused by closing the
 * connection with a WebSocket close code and a fixed reason (at most 123 bytes, RFC 6455 §5.5.1) that never
 * repeats the frame; the client dials again after its backoff, so anything the peer has not seen acknowledged it
 * sends again.
 */

/** Why a connection was closed by the receiver, with the close code and reason it is closed with. */
export const LINEUP_CONNECTION_REFUSALS = Object.freeze({
  /** RFC 6455 1003 (unsupported data): the binding carries text frames only. */
  binary_frame: Object.freeze({ code: 1003, reason: 'lineup: binary frames are not part of lineup.v1' }),
  /** 1007 (invalid frame payload data): text that is not JSON, with no readable id and conversation. */
  not_json: Object.freeze({ code: 1007, reason: 'lineup: a frame was not JSON' }),
  /** 1007: JSON without a valid `conversation_id` (and, for a message that is not a call, `id`). */
  not_an_envelope: Object.freeze({
    code: 1007,
    reason: 'lineup: a frame was not a lineup.v1 envelope with a valid id and conversation_id',
  }),
  /** 1009 (message too big): over the envelope's bytes, depth or values, its header unreadable. */
  too_large: Object.freeze({ code: 1009, reason: 'lineup: a frame was over the envelope budget' }),
  /** 1013 (try again later): more frames waiting than the receiver holds; later ones were not read. */
  overloaded: Object.freeze({
    code: 1013,
    reason: 'lineup: too many frames waiting; send what was not acknowledged again',
  }),
} as const);

export type LineUpConnectionRefusal = keyof typeof LINEUP_CONNECTION_REFUSALS;
