/**
 * Bounds of the `lineup.v1` wire protocol (seed 000 §3–§5, seed 003 §4) that are not already named elsewhere.
 * Where a seed gives a figure it is cited; every other figure is a judgment stated here once. Limits that the
 * iframe channels share with the wire (event data, Surface state, tool arguments and results) are read from
 * the bridge modules, so a message that passes here can always be delivered there.
 */
import { SURFACE_CHANNEL_LIMITS } from '../../bridge/surface.js';
import { UI_LIMITS, UI_PROTOCOL_SHELL_RESERVE } from '../../limits/ui-limits.js';

export const LINEUP_WIRE_LIMITS = Object.freeze({
  /**
   * UTF-8 bytes of one envelope as JSON. The largest legitimate payloads are a stream checkpoint
   * (266,240 bytes, seed 002 §13) and a `ui.open` with a 160 KiB bundle and a 256 KiB state; 1 MiB holds
   * either with room for JSON escaping, and is a common transport frame cap.
   */
  maxEnvelopeBytes: 1_048_576,
  /** JSON nesting of an envelope: a document's 128 levels plus the shell (envelope, payload, checkpoint). */
  maxEnvelopeDepth: UI_LIMITS.maxJsonDepth + UI_PROTOCOL_SHELL_RESERVE.depth,
  /** JSON values of an envelope: bounds the walk of an inventory or a state full of small values. */
  maxEnvelopeValues: 262_144,
  /** UTF-16 code units of a message, conversation, call, party or revision id (printable ASCII). */
  maxIdLength: 128,
  /** UTF-16 code units of a message `type`. */
  maxTypeLength: 128,
  /** UTF-16 code units of a machine token: a party kind, a close or progress reason, an error code. */
  maxTokenLength: 64,
  /** UTF-8 bytes of an inline Surface bundle (`html` + `css` + `js`): seed 000 §4.1 "160 KiB". */
  maxBundleBytes: SURFACE_CHANNEL_LIMITS.maxBundleBytes,
  /** UTF-16 code units of an app or capability display name. */
  maxNameLength: 128,
  /** UTF-16 code units of an app id (reverse-DNS) or a capability name. */
  maxQualifiedNameLength: 128,
  /** UTF-16 code units of a SemVer or contract version. */
  maxVersionLength: 64,
  /** UTF-16 code units of the `reason` the host shows the user for an `app.call` (seed 000 §5.3). */
  maxCallReasonLength: 512,
  /** UTF-16 code units of an error message for people in `app.result` / `tool.result`. */
  maxErrorMessageLength: 512,
  /** UTF-8 bytes of an `app.call`'s arguments and of an `app.result`'s result. */
  maxCapabilityDataBytes: 65_536,
  /** Standard components listed by one inventory. */
  maxStandardComponents: 64,
  /** Enabled applications listed by one inventory. */
  maxApplications: 128,
  /** Declared Surfaces of one application. */
  maxSurfacesPerApplication: 16,
  /** Declared events of one Surface. */
  maxEventsPerSurface: 64,
  /** Agent Tools published by one inventory. */
  maxInventoryTools: 256,
  /** UTF-16 code units of an RFC 3339 timestamp. */
  maxTimestampLength: 64,
  /** UTF-16 code units of one chat turn's `text` (user or agent): several pages of prose. */
  maxChatTextLength: 16_384,
  /**
   * UTF-16 code units of the `message` of a `ui.action_result`: a sentence or two the client shows with the
   * settled receipt, well within a receipt's own `message` (`UI_ACTION_PROTOCOL_LIMITS.maxReceiptMessageLength`).
   */
  maxActionAnswerMessageLength: 256,
} as const);
