/**
 * The constants of `lineup.miniapp.v1` without zod: its namespace, bounds, name patterns and closed sets. The
 * channel's zod schemas (`miniapp.ts`) read them here, and a MiniApp page reads the few it needs without
 * pulling in the schemas.
 */
import { MAX_ACTION_ARGUMENT_BYTES, MAX_ACTION_ARGUMENTS, MAX_STATE_BYTES } from '../limits/ui-limits.js';

/** An error code on the channel: snake_case, starting with a letter (`not_found`). */
export { TOKEN_PATTERN as MINIAPP_ERROR_CODE_PATTERN } from '../names/patterns.js';

export const MINIAPP_NAMESPACE = 'lineup.miniapp.v1';

/** The URL fragment parameter that tells a MiniApp page its instance id: `index.html#lineup-instance=<id>`. */
export const MINIAPP_INSTANCE_PARAMETER = 'lineup-instance';

/*
 * The bounds of the MiniApp channel, one constant each, so a page's bundler writes the numbers it reads in place
 * and leaves out those it does not read. `MINIAPP_CHANNEL_LIMITS`
 * names them all. Seed 003 names none; each is a judgment stated here once.
 */
/** UTF-16 code units of a method, UI action name or app scope. */
export const MAX_NAME_LENGTH = 128;
/** UTF-8 bytes of a tool invocation's arguments. */
export const MAX_INVOCATION_ARGUMENT_BYTES = 65_536;
/** UTF-8 bytes of a handler's `ok` result. */
export const MAX_TOOL_RESULT_BYTES = 65_536;
/** UTF-8 bytes of a whole session data snapshot: bounded like a DSL state object (seed 002 §9). */
export const MAX_SESSION_DATA_BYTES = MAX_STATE_BYTES;
/** Keys of a session data snapshot. */
export const MAX_SESSION_DATA_KEYS = 256;
/** UTF-16 code units of a session data key. */
export const MAX_SESSION_KEY_LENGTH = 128;
/** UTF-8 bytes of the value of one session data write. */
export const MAX_SESSION_VALUE_BYTES = 65_536;
/** Flat arguments of a UI action: as many as a DSL tool action may have (seed 002 §13). */
export const MAX_UI_ACTION_ARGUMENTS = MAX_ACTION_ARGUMENTS;
/** UTF-8 bytes of a UI action's arguments: as a DSL tool action's (seed 002 §13). */
export const MAX_UI_ACTION_ARGUMENT_BYTES = MAX_ACTION_ARGUMENT_BYTES;
/** UTF-16 code units of an error code. */
export const MAX_ERROR_CODE_LENGTH = 64;
/** UTF-16 code units of an error message for people. */
export const MAX_ERROR_MESSAGE_LENGTH = 512;
/** Located issues an error may carry (a `tool_return`'s `invalid_arguments` or `invalid_output`). */
export const MAX_ERROR_ISSUES = 3;
/** UTF-16 code units of one issue's path. */
export const MAX_ERROR_ISSUE_PATH_LENGTH = 256;
/** Largest session data revision. */
export const MAX_REVISION = Number.MAX_SAFE_INTEGER;
/** UTF-8 bytes the fixed fields of a message may add to its payload. */
export const MAX_ENVELOPE_BYTES = 2_048;

/** Bounds of the MiniApp channel (the constants above, by name). */
export const MINIAPP_CHANNEL_LIMITS = /* @__PURE__ */ Object.freeze({
  maxNameLength: MAX_NAME_LENGTH,
  maxInvocationArgumentBytes: MAX_INVOCATION_ARGUMENT_BYTES,
  maxToolResultBytes: MAX_TOOL_RESULT_BYTES,
  maxSessionDataBytes: MAX_SESSION_DATA_BYTES,
  maxSessionDataKeys: MAX_SESSION_DATA_KEYS,
  maxSessionKeyLength: MAX_SESSION_KEY_LENGTH,
  maxSessionValueBytes: MAX_SESSION_VALUE_BYTES,
  maxUIActionArguments: MAX_UI_ACTION_ARGUMENTS,
  maxUIActionArgumentBytes: MAX_UI_ACTION_ARGUMENT_BYTES,
  maxErrorCodeLength: MAX_ERROR_CODE_LENGTH,
  maxErrorMessageLength: MAX_ERROR_MESSAGE_LENGTH,
  maxErrorIssues: MAX_ERROR_ISSUES,
  maxErrorIssuePathLength: MAX_ERROR_ISSUE_PATH_LENGTH,
  maxRevision: MAX_REVISION,
  maxEnvelopeBytes: MAX_ENVELOPE_BYTES,
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
  Math.max(MAX_TOOL_RESULT_BYTES, MAX_SESSION_VALUE_BYTES, MAX_UI_ACTION_ARGUMENT_BYTES) + MAX_ENVELOPE_BYTES;

/** UTF-8 bytes of a whole message the runtime may send a frame: its largest payload plus the fixed fields. */
export const MINIAPP_TO_FRAME_MAX_BYTES =
  Math.max(MAX_INVOCATION_ARGUMENT_BYTES, MAX_SESSION_DATA_BYTES) + MAX_ENVELOPE_BYTES;

/**
 * The path of an issue an error carries: `$` (the value itself), or names and indexes as an author writes them
 * (`items[2].text`, `tags[*]` for a key that is not a name). Only names and numbers: never a value.
 */
export const MINIAPP_ISSUE_PATH_PATTERN =
  /^(?:\$|(?:[A-Za-z_$][A-Za-z0-9_$-]*|\[(?:\d{1,9}|\*)\])(?:\.[A-Za-z_$][A-Za-z0-9_$-]*|\[(?:\d{1,9}|\*)\])*)$/;
