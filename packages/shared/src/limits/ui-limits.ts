/**
 * Every limit of the Intelligent UI DSL (seed 002 §9 and §13), named once. Validators, the JSON Schema
 * export, the renderer and the runtime read them from here; no other file writes one of these numbers.
 */

/** The 20 document, expression and state budgets of seed 002 §9. */
export const UI_LIMITS = Object.freeze({
  /** UTF-8 bytes of a document serialized as JSON. Hosts may lower (never raise) this for generation. */
  maxDocumentBytes: 262_144,
  /** UTF-8 bytes of a complete state object serialized as JSON. */
  maxStateBytes: 262_144,
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
  maxStringLength: 4_096,
  /** Largest absolute value of any number, literal or computed; numbers must also be finite. */
  maxAbsNumber: 1e15,
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
  maxJsonDepth: 128,
  /** JSON values (every object, array and primitive) that `assertSafeJSON` admits for a document. */
  maxJsonValues: 65_536,
} as const);

/** The 14 budgets of the action, receipt, capability and streaming protocol (seed 002 §13). */
export const UI_PROTOCOL_LIMITS = Object.freeze({
  /** Action definitions in one 1.1 document. */
  maxActions: 16,
  /** Flat argument fields of one tool action. */
  maxActionArguments: 32,
  /** UTF-8 bytes of the computed argument object of one action. */
  maxActionArgumentBytes: 16_384,
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
export const UI_SCHEMA_LIMITS = Object.freeze({
  /** Identifiers: `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. */
  maxIdentifierLength: 64,
  /** Arguments of a variadic operator (`add`, `mul`, `min`, `max`, `and`, `or`, `concat`). */
  maxOperatorArguments: 16,
  /** Decimal places of `round` and of `ResultFormat.digits`. */
  maxFractionDigits: 6,
  /** A string state's `maxLength` range. */
  minStringMaxLength: 1,
  /** Issues reported by one `UISchemaError` or `UIStreamError`. */
  maxIssues: 20,
  /** Characters of an issue path. */
  maxIssuePathLength: 512,
  /** Characters of an issue message. */
  maxIssueMessageLength: 300,
  /** Issues a host shows a model in a tool result (seed 002 §8). */
  maxToolIssues: 10,
} as const);

/**
 * seed 002 §13: a protocol pre-check reserves only 4 JSON levels and 64 JSON values for a message's fixed shell
 * on top of the budgets of the document or state it carries.
 */
export const UI_PROTOCOL_SHELL_RESERVE = Object.freeze({ depth: 4, values: 64 } as const);

/** The lowest document size a host may configure as its generation limit (seed 002 §9). */
export const MIN_HOST_DOCUMENT_BYTES = 1_024;
