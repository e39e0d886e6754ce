/**
 * The Intelligent UI tools as any LLM framework can offer them (seed 004 §2, §5; seed 002 §1, §12): a name, a
 * description, the JSON Schema (Draft 2020-12) of the arguments generated from the same zod schemas the
 * validators use, and `parseArguments`, which runs the real validators and returns frozen, typed arguments.
 *
 * The JSON Schema is for the model and for editors; it is never the trust boundary. A framework whose tool
 * parameter language cannot express recursive `$ref` may declare a plain JSON object instead: `parseArguments`
 * checks everything either way (seed 004 §2).
 */
import { z } from 'zod';
import { parseDocument, resolveMaxDocumentBytes } from '../dsl/document.js';
import { UIDocumentSchema } from '../dsl/schema.js';
import type { UIDocument } from '../dsl/types.js';
import { LineUpProtocolError, UISchemaError, UIStreamError } from '../errors/errors.js';
import { createIssue } from '../errors/issues.js';
import { deepFreeze } from '../json/freeze.js';
import { type IssuesErrorClass, parseShape } from '../json/parse.js';
import type { SafeJSONBudget } from '../json/safe-json.js';
import { jsonSchemaFromZod } from '../json/zod-json-schema.js';
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import {
  prefixIssues,
  UI_STREAM_ENVELOPE_BUDGET,
  UIStreamGenerationSchema,
  UIStreamRevisionSchema,
  UIStreamSourceCallIdSchema,
} from '../stream/checkpoint.js';
import { UI_STREAM_EVENT_BUDGET, type UIStreamMutation, UIStreamMutationSchema } from '../stream/mutation.js';

/** The five tools, in the order a framework should list them. */
export const INTELLIGENT_UI_TOOL_NAMES = [
  'intelligent_ui',
  'intelligent_ui_open',
  'intelligent_ui_patch',
  'intelligent_ui_complete',
  'intelligent_ui_cancel',
] as const;
export type IntelligentUIToolName = (typeof INTELLIGENT_UI_TOOL_NAMES)[number];

/** The component stream tools (seed 002 §12). */
export const INTELLIGENT_UI_STREAM_TOOL_NAMES = [
  'intelligent_ui_open',
  'intelligent_ui_patch',
  'intelligent_ui_complete',
  'intelligent_ui_cancel',
] as const satisfies readonly IntelligentUIToolName[];

// ---------------------------------------------------------------------------------------------------------
// Argument schemas: the source of the JSON Schema and of the argument types

// The cast gives the inferred type the precise document union; at run time this is UIDocumentSchema itself.
const DocumentParameterSchema = (UIDocumentSchema as unknown as z.ZodType<UIDocument>).meta({
  description:
    'The complete Intelligent UI document as a JSON object (never a JSON string), DSL version "1.0" or "1.1".',
});

/** `intelligent_ui` and `intelligent_ui_open`: exactly one parameter, the document (seed 002 §1, §12). */
export const IntelligentUIDocumentArgumentsSchema = z.strictObject({ document: DocumentParameterSchema });
export type IntelligentUIDocumentArguments = Readonly<z.infer<typeof IntelligentUIDocumentArgumentsSchema>>;

const cursorShape = {
  sourceCallId: UIStreamSourceCallIdSchema.meta({
    description: 'The sourceCallId stated by the last successful result of this stream. Never invent it.',
  }),
  generation: UIStreamGenerationSchema.meta({
    description: 'The generation stated by the last successful result of this stream. Never invent it.',
  }),
  baseRevision: UIStreamRevisionSchema.meta({
    description: 'The revision stated by the last successful result of this stream. Never invent it.',
  }),
};

/** `intelligent_ui_complete` and `intelligent_ui_cancel`: the stream cursor (seed 002 §12). */
export const IntelligentUIStreamCursorArgumentsSchema = z.strictObject(cursorShape);
export type IntelligentUIStreamCursorArguments = Readonly<
  z.infer<typeof IntelligentUIStreamCursorArgumentsSchema>
>;

/** `intelligent_ui_patch`: the stream cursor and one mutation (seed 002 §12). */
export const IntelligentUIPatchArgumentsSchema = z.strictObject({
  ...cursorShape,
  mutation: UIStreamMutationSchema,
});
export type IntelligentUIPatchArguments = Readonly<z.infer<typeof IntelligentUIPatchArgumentsSchema>>;

/** The parsed arguments of each tool. */
export interface IntelligentUIToolArguments {
  readonly intelligent_ui: IntelligentUIDocumentArguments;
  readonly intelligent_ui_open: IntelligentUIDocumentArguments;
  readonly intelligent_ui_patch: IntelligentUIPatchArguments;
  readonly intelligent_ui_complete: IntelligentUIStreamCursorArguments;
  readonly intelligent_ui_cancel: IntelligentUIStreamCursorArguments;
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

/** Options of `parseArguments`. */
export interface IntelligentUIToolParseOptions {
  /**
   * The host's document generation limit in UTF-8 bytes, from 1,024 up to the shared 262,144 (seed 002 §9);
   * it can only lower the shared budget.
   */
  readonly maxDocumentBytes?: number;
}

/**
 * What `parseArguments` throws. `intelligent_ui`: `LineUpProtocolError` for the arguments object,
 * `UISchemaError` for the document. The stream tools: `UIStreamError` for everything. Issue paths start at
 * the arguments' root (`document.root.props`, `mutation.node.id`).
 */
export type IntelligentUIToolArgumentsError = LineUpProtocolError | UISchemaError | UIStreamError;

// seed 002 §13: a fixed shell gets 4 JSON levels, 64 JSON values and the 4,096 bytes a stream frame adds to
// its snapshot; the inner document or mutation keeps its own budget. The stream envelope budget is exactly that.
const ENVELOPE_BUDGET: SafeJSONBudget = UI_STREAM_ENVELOPE_BUDGET;

/** Arguments that are no object at all are rejected first: the envelope budget is not meant for them. */
function requireArgumentsObject(input: unknown, ErrorClass: IssuesErrorClass): asserts input is object {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ErrorClass([createIssue([], 'invalid_type', 'Expected the arguments as a JSON object.')]);
  }
}

const OBJECT_PROTOTYPE: object = Object.prototype;
const { getPrototypeOf, getOwnPropertyDescriptors, create } = Object;

/**
 * Splits the arguments into the envelope (a copy without `parameter`) and that parameter's value, reading no
 * property through a getter, as the stream frame parser does with its snapshot: the small envelope goes
 * through `parseShape`, the bulky inner value through its own validator and budget. An accessor stays in the
 * envelope, where the safe-JSON check reports it without calling it; so does an object of another prototype,
 * which that check rejects at `$`.
 */
function splitParameter(
  input: unknown,
  parameter: string,
  ErrorClass: IssuesErrorClass,
): { envelope: unknown; value?: PropertyDescriptor } {
  requireArgumentsObject(input, ErrorClass);
  const prototype: unknown = getPrototypeOf(input);
  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) return { envelope: input };
  const descriptors: Record<PropertyKey, PropertyDescriptor> = getOwnPropertyDescriptors(input);
  const value = descriptors[parameter];
  if (value === undefined || !('value' in value)) return { envelope: input };
  delete descriptors[parameter];
  return { envelope: create(prototype as object | null, descriptors), value };
}

function requireParameter(
  value: PropertyDescriptor | undefined,
  parameter: string,
  ErrorClass: IssuesErrorClass,
): unknown {
  if (value === undefined) {
    throw new ErrorClass([createIssue([parameter], 'missing_property', 'This property is required.')]);
  }
  const inner: unknown = value.value;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    // seed 002 §1: a JSON string instead of an object is the usual mistake, so it gets its own sentence.
    throw new ErrorClass([
      createIssue(
        [parameter],
        'invalid_type',
        typeof inner === 'string'
          ? `Pass ${parameter} as a JSON object, not as a JSON string.`
          : `Expected ${parameter} as a JSON object.`,
      ),
    ]);
  }
  return inner;
}

// What is left of `{ document }` once the document is split off: nothing may remain.
const EmptyEnvelopeSchema = z.strictObject({});

/**
 * `{ document }`: exactly that one parameter, a JSON object that passes `parseDocument`. The document's
 * issues keep their codes, with paths from the arguments' root (`document.root.children[0].props`).
 */
function parseDocumentArguments(
  input: unknown,
  options: IntelligentUIToolParseOptions,
  EnvelopeError: IssuesErrorClass,
  DocumentError: IssuesErrorClass,
): IntelligentUIDocumentArguments {
  const maxDocumentBytes = resolveMaxDocumentBytes(options.maxDocumentBytes, 'parseArguments');
  const { envelope, value } = splitParameter(input, 'document', EnvelopeError);
  parseShape(EmptyEnvelopeSchema, envelope, { budget: ENVELOPE_BUDGET }, EnvelopeError);
  const candidate = requireParameter(value, 'document', EnvelopeError);
  let document: UIDocument;
  try {
    document = parseDocument(candidate, { maxDocumentBytes });
  } catch (error) {
    if (error instanceof UISchemaError) throw new DocumentError(prefixIssues(error.issues, 'document'));
    throw error;
  }
  return Object.freeze({ document });
}

/** `{ sourceCallId, generation, baseRevision }`, strictly; throws `UIStreamError`. */
function parseCursorArguments(input: unknown): IntelligentUIStreamCursorArguments {
  requireArgumentsObject(input, UIStreamError);
  return parseShape(
    IntelligentUIStreamCursorArgumentsSchema,
    input,
    { budget: ENVELOPE_BUDGET },
    UIStreamError,
  );
}

/**
 * The cursor plus one mutation. The mutation is checked on its own with the stream's event budget (seed 002
 * §13: at most 65,536 bytes), its issues prefixed `mutation`. Whether it applies to the current document is
 * the stream's decision (`advanceUIStream` re-validates the whole candidate tree).
 */
function parsePatchArguments(input: unknown): IntelligentUIPatchArguments {
  const { envelope, value } = splitParameter(input, 'mutation', UIStreamError);
  const cursor = parseCursorArguments(envelope);
  const candidate = requireParameter(value, 'mutation', UIStreamError);
  const mutation: UIStreamMutation = parseShape(
    UIStreamMutationSchema,
    candidate,
    { budget: UI_STREAM_EVENT_BUDGET, prefix: 'mutation' },
    UIStreamError,
  );
  return Object.freeze({ ...cursor, mutation });
}

// ---------------------------------------------------------------------------------------------------------
// Tool definitions

type JSONSchemaObject = { readonly [key: string]: unknown };

/** One tool as an LLM framework offers it. */
export interface IntelligentUITool<Name extends IntelligentUIToolName = IntelligentUIToolName> {
  readonly name: Name;
  /** What the model reads about the tool; the system-prompt section (guidance.ts) teaches the DSL itself. */
  readonly description: string;
  /** JSON Schema (Draft 2020-12) of the arguments object, generated from `argumentsSchema`; deep-frozen. */
  readonly parameters: JSONSchemaObject;
  /** The zod schema of the arguments: structure only, the source of `parameters` and of the types. */
  readonly argumentsSchema: z.ZodType<IntelligentUIToolArguments[Name]>;
  /**
   * Validates a call's arguments (already decoded JSON) with the real validators and returns them typed and
   * deep-frozen; the input is never modified. Throws an `IntelligentUIToolArgumentsError`.
   */
  parseArguments(input: unknown, options?: IntelligentUIToolParseOptions): IntelligentUIToolArguments[Name];
}

function toolParameters(schema: z.ZodType): JSONSchemaObject {
  // Recursive Expr and nodes stay `$ref`s into `$defs`, as in the document schema.
  return deepFreeze(jsonSchemaFromZod(schema));
}

function defineTool<Name extends IntelligentUIToolName>(
  name: Name,
  description: string,
  argumentsSchema: z.ZodType<IntelligentUIToolArguments[Name]>,
  parse: (input: unknown, options: IntelligentUIToolParseOptions) => IntelligentUIToolArguments[Name],
): IntelligentUITool<Name> {
  return Object.freeze({
    name,
    description,
    parameters: toolParameters(argumentsSchema),
    argumentsSchema,
    parseArguments: (input: unknown, options: IntelligentUIToolParseOptions = {}) => parse(input, options),
  });
}

const NEVER_INVENT =
  'Copy sourceCallId, generation and baseRevision (the last revision) from the last successful result of this stream; never invent them.';

const intelligentUI = defineTool(
  'intelligent_ui',
  'Show the user a declarative UI (Intelligent UI DSL 1.0/1.1) that the host validates and renders with trusted components: cards, tables, charts, or local interactive calculators and forms. Pass exactly one parameter, `document`: the complete document as a JSON object, never a JSON string. There are no html, code, url or tool parameters. On success you get a short receipt; on failure, up to ' +
    `${UI_SCHEMA_LIMITS.maxToolIssues} issues as "path: code — message" to fix before calling again.`,
  IntelligentUIDocumentArgumentsSchema,
  (input, options) => parseDocumentArguments(input, options, LineUpProtocolError, UISchemaError),
);

const intelligentUIOpen = defineTool(
  'intelligent_ui_open',
  'Start a component stream: show a complete, valid initial document (a JSON object, never a JSON string) that you then change with intelligent_ui_patch and finish with intelligent_ui_complete. The result states sourceCallId, generation, revision and seq for the next call.',
  IntelligentUIDocumentArgumentsSchema,
  (input, options) => parseDocumentArguments(input, options, UIStreamError, UIStreamError),
);

const intelligentUIPatch = defineTool(
  'intelligent_ui_patch',
  `Change a streamed UI by one mutation: add a complete subtree under a layout node, update (replace) one node's props, or remove a non-root node. The whole document must stay valid. ${NEVER_INVENT}`,
  IntelligentUIPatchArgumentsSchema,
  (input) => parsePatchArguments(input),
);

const intelligentUIComplete = defineTool(
  'intelligent_ui_complete',
  `Finish a streamed UI; its action buttons become usable. ${NEVER_INVENT}`,
  IntelligentUIStreamCursorArgumentsSchema,
  (input) => parseCursorArguments(input),
);

const intelligentUICancel = defineTool(
  'intelligent_ui_cancel',
  `Stop a streamed UI; the user keeps its last valid state. ${NEVER_INVENT}`,
  IntelligentUIStreamCursorArgumentsSchema,
  (input) => parseCursorArguments(input),
);

/** The tools by name. */
export const INTELLIGENT_UI_TOOL_BY_NAME: Readonly<{
  [Name in IntelligentUIToolName]: IntelligentUITool<Name>;
}> = Object.freeze({
  intelligent_ui: intelligentUI,
  intelligent_ui_open: intelligentUIOpen,
  intelligent_ui_patch: intelligentUIPatch,
  intelligent_ui_complete: intelligentUIComplete,
  intelligent_ui_cancel: intelligentUICancel,
});

/** All five tools, in `INTELLIGENT_UI_TOOL_NAMES` order. */
export const INTELLIGENT_UI_TOOLS: readonly IntelligentUITool[] = Object.freeze(
  INTELLIGENT_UI_TOOL_NAMES.map((name) => INTELLIGENT_UI_TOOL_BY_NAME[name] as IntelligentUITool),
);

export function isIntelligentUIToolName(name: unknown): name is IntelligentUIToolName {
  return typeof name === 'string' && (INTELLIGENT_UI_TOOL_NAMES as readonly string[]).includes(name);
}

/** The tool called `name`, or `undefined` for any other name (a call a host should route elsewhere). */
export function findIntelligentUITool(name: string): IntelligentUITool | undefined {
  return isIntelligentUIToolName(name) ? (INTELLIGENT_UI_TOOL_BY_NAME[name] as IntelligentUITool) : undefined;
}
