/**
 * The constants of `lineup.miniapp.v1` without zod: its namespace, bounds, name patterns and closed sets. The
 * channel's zod schemas (`miniapp.ts`) and its zod-free page parser (`miniapp-compact.ts`) both read them here.
 */
import { UI_LIMITS, UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';

export const MINIAPP_NAMESPACE = 'lineup.miniapp.v1';

/** The URL fragment parameter that tells a MiniApp page its instance id: `index.html#lineup-instance=<id>`. */
export const MINIAPP_INSTANCE_PARAMETER = 'lineup-instance';

/** Bounds of the MiniApp channel. Seed 003 names none; each is a judgment stated here once. */
export const MINIAPP_CHANNEL_LIMITS = Object.freeze({
  /** UTF-16 code units of a method, UI action name or app scope. */
  maxNameLength: 128,
  /** UTF-8 bytes of a tool invocation's arguments. */
  maxInvocationArgumentBytes: 65_536,
  /** UTF-8 bytes of a handler's `ok` result. */
  maxToolResultBytes: 65_536,
  /** UTF-8 bytes of a whole session data snapshot: bounded like a DSL state object (seed 002 §9). */
  maxSessionDataBytes: UI_LIMITS.maxStateBytes,
  /** Keys of a session data snapshot. */
  maxSessionDataKeys: 256,
  /** UTF-16 code units of a session data key. */
  maxSessionKeyLength: 128,
  /** UTF-8 bytes of the value of one session data write. */
  maxSessionValueBytes: 65_536,
  /** Flat arguments of a UI action: as many as a DSL tool action may have (seed 002 §13). */
  maxUIActionArguments: UI_PROTOCOL_LIMITS.maxActionArguments,
  /** UTF-8 bytes of a UI action's arguments: as a DSL tool action's (seed 002 §13). */
  maxUIActionArgumentBytes: UI_PROTOCOL_LIMITS.maxActionArgumentBytes,
  /** UTF-16 code units of an error code. */
  maxErrorCodeLength: 64,
  /** UTF-16 code units of an error message for people. */
  maxErrorMessageLength: 512,
  /** Located issues an error may carry (a `tool_return`'s `invalid_arguments` or `invalid_output`). */
  maxErrorIssues: 3,
  /** UTF-16 code units of one issue's path. */
  maxErrorIssuePathLength: 256,
  /** Largest session data revision. */
  maxRevision: Number.MAX_SAFE_INTEGER,
  /** UTF-8 bytes the fixed fields of a message may add to its payload. */
  maxEnvelopeBytes: 2_048,
} as const);

/** Phases of a `lifecycle` notice, a closed set. */
export const MINIAPP_LIFECYCLE_PHASES = ['foreground', 'background', 'close'] as const;
export type MiniAppLifecyclePhase = (typeof MINIAPP_LIFECYCLE_PHASES)[number];

/**
 * Codes the SDK itself returns in a `tool_return` error; a handler may return its own stable codes too.
 * `unknown_method`: no handler for the method; `invalid_arguments`: the arguments fail the tool's input schema
 * (the runtime checked them against the published JSON Schema; the SDK checks them against its source);
 * `handler_failed`: the handler threw; `invalid_output`: the handler's result fails the output schema or the
 * channel's size limit — the runtime's name for it too, so the author and the agent read one code. (Pages built with
 * an earlier SDK send it as `invalid_result`; the runtime still reads that name as `invalid_output`.)
 */
export const MINIAPP_SDK_ERROR_CODES = [
  'unknown_method',
  'invalid_arguments',
  'handler_failed',
  'invalid_output',
] as const;
export type MiniAppSdkErrorCode = (typeof MINIAPP_SDK_ERROR_CODES)[number];

/** A dotted name: `start`, `pomodoro.start`, `com.lineup.pomodoro`. */
export const MINIAPP_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*$/;
/** Session data keys: a letter, then letters, digits and `._:-`. */
export const MINIAPP_SESSION_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9._:-]*$/;

/** UTF-8 bytes of a whole message a frame may send: its largest payload plus the fixed fields. */
export const MINIAPP_FROM_FRAME_MAX_BYTES =
  Math.max(
    MINIAPP_CHANNEL_LIMITS.maxToolResultBytes,
    MINIAPP_CHANNEL_LIMITS.maxSessionValueBytes,
    MINIAPP_CHANNEL_LIMITS.maxUIActionArgumentBytes,
  ) + MINIAPP_CHANNEL_LIMITS.maxEnvelopeBytes;

/** UTF-8 bytes of a whole message the runtime may send a frame: its largest payload plus the fixed fields. */
export const MINIAPP_TO_FRAME_MAX_BYTES =
  Math.max(MINIAPP_CHANNEL_LIMITS.maxInvocationArgumentBytes, MINIAPP_CHANNEL_LIMITS.maxSessionDataBytes) +
  MINIAPP_CHANNEL_LIMITS.maxEnvelopeBytes;

/**
 * The path of an issue an error carries: `$` (the value itself), or names and indexes as an author writes them
 * (`items[2].text`, `tags[*]` for a key that is not a name). Only names and numbers: never a value.
 */
export const MINIAPP_ISSUE_PATH_PATTERN =
  /^(?:\$|(?:[A-Za-z_$][A-Za-z0-9_$-]*|\[(?:\d{1,9}|\*)\])(?:\.[A-Za-z_$][A-Za-z0-9_$-]*|\[(?:\d{1,9}|\*)\])*)$/;
