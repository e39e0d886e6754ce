/** Limits of Agent Tool descriptors and MiniApp manifests (seed 003 §4). */
/** Bounds of descriptors and manifests. Seed 003 names none; each figure is a judgment stated once here. */
export const AGENT_TOOL_LIMITS = Object.freeze({
  /** UTF-16 code units of an app scope. */
  maxAppScopeLength: 32,
  /** UTF-16 code units of a method. */
  maxMethodLength: 64,
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
