/**
 * Every limit of the Intelligent UI DSL (seed 002 §9 and §13), named once. Validators, the JSON Schema
 * export, the renderer and the runtime read them from here; no other file writes one of these numbers.
 */

/*
 * The limits a MiniApp page may read (through the channel's constants and the issues and errors it builds), one
 * constant each, so that a page's bundler writes the numbers in place and leaves out the frozen objects below,
 * which name them with the rest. Each figure is written here only.
 */
/** `UI_LIMITS.maxStateBytes`: UTF-8 bytes of a complete state object serialized as JSON. */
export const MAX_STATE_BYTES = 262_144;
/** `UI_LIMITS.maxStringLength`: UTF-16 code units of any scalar string, literal or computed. */
export const MAX_STRING_LENGTH = 4_096;
/** `UI_LIMITS.maxAbsNumber`: largest absolute value of any number, literal or computed. */
export const MAX_ABS_NUMBER = 1e15;
/** `UI_LIMITS.maxJsonDepth`: JSON nesting depth (objects and arrays) that `assertSafeJSON` admits. */
export const MAX_JSON_DEPTH = 128;
/** `UI_LIMITS.maxJsonValues`: JSON values (every object, array and primitive) that `assertSafeJSON` admits. */
export const MAX_JSON_VALUES = 65_536;
/** `UI_PROTOCOL_LIMITS.maxActionArguments`: flat argument fields of one tool action. */
export const MAX_ACTION_ARGUMENTS = 32;
/** `UI_PROTOCOL_LIMITS.maxActionArgumentBytes`: UTF-8 bytes of the computed argument object of one action. */
export const MAX_ACTION_ARGUMENT_BYTES = 16_384;
/** `UI_SCHEMA_LIMITS.maxIssues`: issues reported by one error. */
export const MAX_ISSUES = 20;
/** `UI_SCHEMA_LIMITS.maxIssuePathLength`: characters of an issue path. */
export const MAX_ISSUE_PATH_LENGTH = 512;
/** `UI_SCHEMA_LIMITS.maxIssueMessageLength`: characters of an issue message. */
export const MAX_ISSUE_MESSAGE_LENGTH = 300;

/** The 20 document, expression and state budgets of seed 002 §9. */
export const UI_LIMITS = /* @__PURE__ */ Object.freeze({
  /** UTF-8 bytes of a document serialized as JSON. Hosts may lower (never raise) this for generation. */
  maxDocumentBytes: 262_144,
  /** UTF-8 bytes of a complete state object serialized as JSON. */
  maxStateBytes: MAX_STATE_BYTES,
  /** Components (nodes) in one document, root included. */
  maxComponents: 200,
  /** UI nesting depth; the root node is depth 1. */
  maxDepth: 16,
  /** Declared state fields. */
  maxStateFields: 64,
  /** Declared derived fields. */
  maxDerivedFields: 64,
  /** Expression nodes in a whole document, every literal and reference included. */
  maxExpressionNodes: 2_048,
  /** Nesting depth of one expression; a literal or a reference alone has depth 1. */
  maxExpressionDepth: 24,
  /** Evaluation steps of one evaluation call (every node visited costs one step). */
  maxEvaluationSteps: 8_192,
  /** UTF-16 code units of any scalar string, literal or computed. */
  maxStringLength: MAX_STRING_LENGTH,
  /** Largest absolute value of any number, literal or computed; numbers must also be finite. */
  maxAbsNumber: MAX_ABS_NUMBER,
  /** UTF-16 code units of a document title (at least 1). */
  maxTitleLength: 256,
  /** UTF-16 code units of labels, card titles, placeholders and submit labels. */
  maxLabelLength: 512,
  /** UTF-16 code units of a Markdown component's text. */
  maxMarkdownLength: 16_384,
  /** Columns of a Table (at least 1). */
  maxTableColumns: 32,
  /** Rows of a Table. */
  maxTableRows: 500,
  /** Data points of a Chart (at least 1). */
  maxChartPoints: 200,
  /** Options of a Select (at least 1). */
  maxSelectOptions: 100,
  /** JSON nesting depth (objects and arrays) that `assertSafeJSON` admits for a document. */
  maxJsonDepth: MAX_JSON_DEPTH,
  /** JSON values (every object, array and primitive) that `assertSafeJSON` admits for a document. */
  maxJsonValues: MAX_JSON_VALUES,
} as const);

/** The 14 budgets of the action, receipt, capability and streaming protocol (seed 002 §13). */
export const UI_PROTOCOL_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Action definitions in one 1.1 document. */
  maxActions: 16,
  /** Flat argument fields of one tool action. */
  maxActionArguments: MAX_ACTION_ARGUMENTS,
  /** UTF-8 bytes of the computed argument object of one action. */
  maxActionArgumentBytes: MAX_ACTION_ARGUMENT_BYTES,
  /** Public result fields, `resultMap` entries and a capability's public field list. */
  maxActionResultFields: 32,
  /** UTF-8 bytes of a complete public scalar result. */
  maxActionResultBytes: 32_768,
  /** UTF-16 code units of an agent callback's computed, non-empty prompt. */
  maxAgentPromptLength: 4_096,
  /** UTF-8 bytes of a complete action request, state snapshot and reference included. */
  maxActionRequestBytes: 32_768,
  /** UTF-8 bytes of a trusted action receipt. */
  maxActionReceiptBytes: 36_864,
  /** UTF-8 bytes of one public capability descriptor with its parameter schema. */
  maxCapabilityBytes: 65_536,
  /** Capabilities in a shared catalog. */
  maxCapabilities: 64,
  /** UTF-8 bytes of one stream frame: a full snapshot plus the fixed envelope. */
  maxStreamFrameBytes: 266_240,
  /** UTF-8 bytes of one component mutation or terminal intent. */
  maxStreamMutationBytes: 65_536,
  /** Frames (and the highest `seq`) of one generation, a terminal frame included. */
  maxStreamFrames: 256,
  /** UTF-8 bytes of all accepted frames of one generation, room for a terminal frame included. */
  maxStreamBytes: 16_777_216,
} as const);

/** Limits of the DSL's vocabulary and of its diagnostics that are not budgets (seed 002 §2–§5, §8). */
export const UI_SCHEMA_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Identifiers: `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. */
  maxIdentifierLength: 64,
  /** Arguments of a variadic operator (`add`, `mul`, `min`, `max`, `and`, `or`, `concat`). */
  maxOperatorArguments: 16,
  /** Decimal places of `round` and of `ResultFormat.digits`. */
  maxFractionDigits: 6,
  /** A string state's `maxLength` range. */
  minStringMaxLength: 1,
  /** Issues reported by one `UISchemaError` or `UIStreamError`. */
  maxIssues: MAX_ISSUES,
  /** Characters of an issue path. */
  maxIssuePathLength: MAX_ISSUE_PATH_LENGTH,
  /** Characters of an issue message. */
  maxIssueMessageLength: MAX_ISSUE_MESSAGE_LENGTH,
  /** Issues a host shows a model in a tool result (seed 002 §8). */
  maxToolIssues: 10,
} as const);

/**
 * seed 002 §13: a protocol pre-check reserves only 4 JSON levels and 64 JSON values for a message's fixed shell
 * on top of the budgets of the document or state it carries.
 */
export const UI_PROTOCOL_SHELL_RESERVE = /* @__PURE__ */ Object.freeze({ depth: 4, values: 64 } as const);

/** The lowest document size a host may configure as its generation limit (seed 002 §9). */
export const MIN_HOST_DOCUMENT_BYTES = 1_024;
