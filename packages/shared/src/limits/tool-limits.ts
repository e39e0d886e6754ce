/** Limits of Agent Tool descriptors and MiniApp manifests (seed 003 §4). */
/*
 * The bounds a MiniApp page reads (the SDK's zod-free channel parser), one constant each, so that a page's
 * bundler writes the numbers in place and leaves out the frozen objects below.
 */
/** `AGENT_TOOL_LIMITS.maxAppScopeLength`: UTF-16 code units of an app scope. */
export const MAX_APP_SCOPE_LENGTH = 32;
/** `AGENT_TOOL_LIMITS.maxMethodLength`: UTF-16 code units of a method. */
export const MAX_METHOD_LENGTH = 64;

/** Bounds of descriptors and manifests. Seed 003 names none; each figure is a judgment stated once here. */
export const AGENT_TOOL_LIMITS = /* @__PURE__ */ Object.freeze({
  /** UTF-16 code units of an app scope. */
  maxAppScopeLength: MAX_APP_SCOPE_LENGTH,
  /** UTF-16 code units of a method. */
  maxMethodLength: MAX_METHOD_LENGTH,
  /** UTF-16 code units of the agent-facing description (as a capability description, seed 002 §13). */
  maxDescriptionLength: 4_096,
  /** UTF-8 bytes of one descriptor, both schemas included (as a capability descriptor, seed 002 §13). */
  maxDescriptorBytes: 65_536,
  /** Host capabilities one tool or one app may require. */
  maxPermissions: 32,
  /** Shortest `timeout_ms`: one second. */
  minTimeoutMs: 1_000,
  /** Longest `timeout_ms`: one day, enough for any operation a MiniApp runs (a focus session is minutes). */
  maxTimeoutMs: 86_400_000,
} as const);

/**
 * Bounds of the consent step (seed 003 §2.3: no call bypasses permission confirmation). Seed 003 names none; each
 * figure is a judgment stated once here.
 */
export const TOOL_CONSENT_LIMITS = /* @__PURE__ */ Object.freeze({
  /**
   * Calls of one conversation that may wait for the user's answer at once. A call past it is refused at once with
   * `permission_denied` (nothing runs, nobody is asked): an agent cannot bury the user under questions, and the
   * user still answers the first ones one at a time.
   */
  maxPendingPerConversation: 16,
} as const);
