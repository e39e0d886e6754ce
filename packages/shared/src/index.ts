/**
 * @lineup/shared — the protocol core of LineUp. Runtime-neutral: no DOM, Node or React API.
 *
 * Intelligent UI DSL 1.0/1.1 (seed 002): validate documents with `parseDocument`, then compute state,
 * derived values and actions with the helpers below. Never hand an unvalidated object to the helpers.
 */

// DSL 1.1 action protocol (seed 002 §11)
export {
  assertSameRequestContent,
  computeParameterHash,
  parseUIActionQuery,
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  parseUIDocumentRef,
  UI_ACTION_ACTIVE_STATUSES,
  UI_ACTION_PROTOCOL_LIMITS,
  UI_ACTION_RECEIPT_STATUSES,
  UI_CAPABILITY_RISKS,
  type UIActionQuery,
  UIActionQuerySchema,
  type UIActionReceipt,
  type UIActionReceiptList,
  UIActionReceiptListSchema,
  UIActionReceiptSchema,
  type UIActionReceiptStatus,
  type UIActionReserveRequest,
  UIActionReserveRequestSchema,
  type UIActionResult,
  UIActionResultSchema,
  type UICapabilityCatalog,
  UICapabilityCatalogSchema,
  type UICapabilityDescriptor,
  UICapabilityDescriptorSchema,
  type UICapabilityRisk,
  type UIDocumentRef,
  UIDocumentRefSchema,
} from './actions/protocol.js';
export {
  applyActionResult,
  dispatchLocalAction,
  type ResolvedAgentAction,
  type ResolvedToolAction,
  type ResolvedUIAction,
  resolveUIAction,
} from './dsl/actions.js';
// Vocabulary
export {
  type ExpressionOperator,
  type ExpressionType,
  isUIIdentifier,
  UI_ACTION_KINDS,
  UI_BADGE_TONES,
  UI_BUTTON_VARIANTS,
  UI_CHART_KINDS,
  UI_DEFAULT_PROGRESS_MAX,
  UI_DEFAULT_RESULT_DIGITS,
  UI_DOCUMENT_MODES,
  UI_DOCUMENT_VERSIONS,
  UI_EXPRESSION_OPERATORS,
  UI_FORBIDDEN_IDENTIFIERS,
  UI_GAPS,
  UI_GRID_COLUMNS,
  UI_HEADING_LEVELS,
  UI_LOCAL_ACTION_TYPES,
  UI_MARKDOWN_ALLOWED_ELEMENTS,
  UI_OPERATORS,
  UI_RESULT_CURRENCIES,
  UI_RESULT_STYLES,
  type UIDocumentMode,
  type UIDocumentVersion,
} from './dsl/catalog.js';
// Derived from the component table (dsl/components.ts)
export {
  UI_COMPONENT_TYPES,
  UI_COMPONENTS,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
  type UIComponentType,
} from './dsl/components.js';
// Documents
export { type ParseDocumentOptions, parseDocument } from './dsl/document.js';
export { evaluateExpression } from './dsl/expression.js';
export { documentJsonSchema, UI_DOCUMENT_SCHEMA_ID } from './dsl/json-schema.js';
export {
  UIDocumentSchema,
  UIDocumentV10Schema,
  UIDocumentV11Schema,
} from './dsl/schema.js';
// State, values, expressions and actions
export { assertValidState, initialState, restoreState, updateState } from './dsl/state.js';
export type * from './dsl/types.js';
export { evaluateDerived, resolveDocumentValue, resolveValue } from './dsl/values.js';
// Errors: one family (`LineUpError`, `isLineUpError`), located issues
export {
  isLineUpError,
  LINEUP_ERROR_CODES,
  LineUpError,
  LineUpProtocolError,
  UIActionError,
  UIExpressionError,
  UISchemaError,
  UIStateError,
  UIStreamError,
} from './errors/errors.js';
export { UI_ISSUE_CODES, type UIIssue, type UIIssueCode } from './errors/issues.js';
export {
  describeRefusedPlaces,
  MAX_DESCRIBED_PLACES,
  type RefusedPlace,
  refusedPlaceSentence,
  schemaWants,
} from './errors/refused-places.js';
export { canonicalJSONString, hashCanonicalJSON } from './json/canonical.js';
// zod's issues as ours (a code, a path, a message that echoes no value): for a checker built on zod schemas
export { fromZodIssue } from './json/parse.js';
// JSON safety and content binding
export { assertSafeJSON, type SafeJSONBudget } from './json/safe-json.js';
// The code and path of a zod issue without a message: what fromZodIssue reports, for a checker that sends no text
export { type ZodIssuePlace, zodIssuePlace } from './json/zod-issue-place.js';
export {
  type JSONSchemaFromZodOptions,
  type JSONSchemaObject,
  jsonSchemaFromZod,
} from './json/zod-json-schema.js';
// Limits (seed 002 §9, §13)
export {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_PROTOCOL_SHELL_RESERVE,
  UI_SCHEMA_LIMITS,
} from './limits/ui-limits.js';
// Component streaming (seed 002 §12)
export {
  UI_STREAM_FRAME_TYPES,
  UI_STREAM_LIMITS,
  UI_STREAM_MUTATION_TYPES,
  UI_STREAM_PROTOCOL,
  UI_STREAM_TERMINAL_TYPES,
  UI_STREAM_VERSION,
  type UIStreamCheckpoint,
  UIStreamCheckpointSchema,
  type UIStreamEnvelope,
  UIStreamEnvelopeSchema,
  type UIStreamFrameType,
  UIStreamMessageSchema,
  type UIStreamTerminalType,
} from './stream/checkpoint.js';
// Stream mutations
export {
  type UIStreamEvent,
  UIStreamEventSchema,
  type UIStreamMutation,
  UIStreamMutationSchema,
  type UIStreamTerminalIntent,
} from './stream/mutation.js';
// Stream state
export {
  acceptCheckpoint,
  advanceUIStream,
  startUIStream,
  UI_STREAM_RESERVE,
  UI_STREAM_STATUSES,
  type UIStreamDigest,
  type UIStreamState,
  type UIStreamStatus,
} from './stream/stream.js';
// Text a person decides about: the characters that render as nothing, made visible
export {
  findHiddenCharacters,
  HIDDEN_CHARACTER_KINDS,
  type HiddenCharacter,
  type HiddenCharacterKind,
  hiddenCharacterKind,
  revealHiddenCharacters,
} from './text/hidden-characters.js';
