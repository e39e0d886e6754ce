/**
 * The connection level of the agent transport (docs/protocol.md "WebSocket binding"): what a receiver does with a
 * frame it cannot answer in an envelope, because nothing in it names a conversation to answer in — a binary
 * frame, text that is not JSON, JSON that is not an envelope with a valid `conversation_id`, an envelope over its
 * budget whose header cannot be read — and with more frames than it can hold. Each is refused by closing the
 * connection with a close code and a fixed reason (at most 123 bytes, RFC 6455 §5.5.1) that never repeats the
 * frame; the client dials again after its backoff, so anything the peer has not seen acknowledged it sends again.
 *
 * The codes are in the range for applications, 4000–4999: a browser closes a WebSocket only with 1000 or
 * 3000–4999 (WHATWG WebSockets, `close()`), so each is 4000 plus the RFC 6455 code it stands for (1003 unsupported
 * data → 4003, 1007 invalid payload → 4007, 1009 too big → 4009, 1013 try again later → 4013).
 */

/** Why a connection was closed by the receiver, with the close code and reason it is closed with. */
export const LINEUP_CONNECTION_REFUSALS = Object.freeze({
  /** 4003 (as 1003, unsupported data): the binding carries text frames only. */
  binary_frame: Object.freeze({ code: 4003, reason: 'lineup: binary frames are not part of lineup.v1' }),
  /** 4007 (as 1007, invalid frame payload data): text that is not JSON, with no readable id and conversation. */
  not_json: Object.freeze({ code: 4007, reason: 'lineup: a frame was not JSON' }),
  /** 4007: JSON without a valid `conversation_id` (and, for a message that is not a call, `id`). */
  not_an_envelope: Object.freeze({
    code: 4007,
    reason: 'lineup: a frame was not a lineup.v1 envelope with a valid id and conversation_id',
  }),
  /** 4009 (as 1009, message too big): over the envelope's bytes, depth or values, its header unreadable. */
  too_large: Object.freeze({ code: 4009, reason: 'lineup: a frame was over the envelope budget' }),
  /** 4013 (as 1013, try again later): more frames waiting than the receiver holds; later ones were not read. */
  overloaded: Object.freeze({
    code: 4013,
    reason: 'lineup: too many frames waiting; send what was not acknowledged again',
  }),
  /**
   * 4008 (as 1008, policy violation): an agent host that authenticates devices found no valid device token on
   * the connection; nothing the connection sent was read.
   */
  unauthorized: Object.freeze({
    code: 4008,
    reason: 'lineup: no valid device token; ask the agent host for one',
  }),
  /** 4000: in `lineup.v1.ack`, an envelope was not acknowledged in time; the peer is not really there. */
  no_ack: Object.freeze({ code: 4000, reason: 'no ack' }),
} as const);

export type LineUpConnectionRefusal = keyof typeof LINEUP_CONNECTION_REFUSALS;
