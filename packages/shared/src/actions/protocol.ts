/**
 * The DSL 1.1 action protocol (seed 002 §11 "请求、引用和可信回执", §13): the shared parameters of the host's
 * fixed action methods — `reserve` (a request), `get`/`cancel` (a query), `list` (receipts of one document),
 * `catalog` (capability descriptors) — and the trusted receipt. These are what a renderer sends and a runtime
 * answers; a model never writes them.
 *
 * Every parser checks safe JSON within its budget first, then the strict structure, then freezes the result
 * (`parseShape`). A list or catalog is never measured as one document: its array shell is checked first
 * (bounded, dense, no getters), then each element against its own budget (seed 002 §11, last paragraph).
 * Passing a parser proves structure only; authentication, session ownership, approval and the idempotency
 * ledger stay with the host (seed 002 §11; seed 004 §4).
 */
import { z } from 'zod';
import { ScalarSchema, UIIdentifierSchema } from '../dsl/schema.js';
import type { StateValue } from '../dsl/types.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { createIssue, type UIIssue, type UIIssueCode } from '../errors/issues.js';
import { hashCanonicalJSON } from '../json/canonical.js';
import { boundedDictionary, checkJSONBytes, JSONObjectSchema } from '../json/json-data.js';
import { messageBudget, parseShape } from '../json/parse.js';
import type { SafeJSONBudget } from '../json/safe-json.js';
import {
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_PROTOCOL_SHELL_RESERVE,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';

/** The bounds of seed 002 §13 that are not among the 14 `UI_PROTOCOL_LIMITS`, and this module's own. */
export const UI_ACTION_PROTOCOL_LIMITS = Object.freeze({
  /** UTF-16 code units of an `operationId` or `requestId` (printable ASCII, at least 1). */
  maxRemoteIdLength: 128,
  /** UTF-16 code units of a `sourceCallId` (printable ASCII, at least 1). */
  maxSourceCallIdLength: 256,
  /** UTF-8 bytes of a document reference. */
  maxDocumentRefBytes: 1_024,
  /** UTF-8 bytes of an action query. */
  maxActionQueryBytes: 1_024,
  /** UTF-16 code units of a receipt `message`. */
  maxReceiptMessageLength: 512,
  /** UTF-16 code units of a capability `title` (at least 1). */
  maxCapabilityTitleLength: 256,
  /** UTF-16 code units of a capability `description`. */
  maxCapabilityDescriptionLength: 4_096,
  /** Largest stream generation (seed 002 §12: 1–1,000,000,000; a complete UI uses 0). */
  maxGeneration: 1_000_000_000,
  /** Receipts in one `list` answer. Seed 002 names no figure; every answer must be bounded. */
  maxReceiptListLength: 128,
  /** JSON depth the fixed shell of a protocol message may add to its content (seed 002 §13). */
  shellDepthReserve: UI_PROTOCOL_SHELL_RESERVE.depth,
  /** JSON values the fixed shell of a protocol message may add to its content (seed 002 §13). */
  shellValueReserve: UI_PROTOCOL_SHELL_RESERVE.values,
} as const);

const LIMITS = UI_ACTION_PROTOCOL_LIMITS;

/** seed 002 §11: the eight receipt statuses. */
export const UI_ACTION_RECEIPT_STATUSES = [
  'queued',
  'awaiting_confirmation',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'unknown',
  'accepted',
] as const;
export type UIActionReceiptStatus = (typeof UI_ACTION_RECEIPT_STATUSES)[number];

/** seed 004 §4: the statuses of an operation still in progress; the others are final. */
export const UI_ACTION_ACTIVE_STATUSES: readonly UIActionReceiptStatus[] = Object.freeze([
  'queued',
  'awaiting_confirmation',
  'running',
]);

/**
 * Risk classes of a configured capability: `read` runs without asking, `write` needs the user's approval
 * (seed 002 §11 "写入能力属于 risk: \"write\"").
 */
export const UI_CAPABILITY_RISKS = ['read', 'write'] as const;
export type UICapabilityRisk = (typeof UI_CAPABILITY_RISKS)[number];

/** Printable ASCII, U+0020–U+007E. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const PARAMETER_HASH = /^[0-9a-f]{64}$/;

const issueParams = (code: UIIssueCode) => ({ code });

/** seed 002 §13: an `operationId` or `requestId` — printable ASCII, 1–128. Not a DSL identifier. */
export const UIRemoteIdSchema = z
  .string()
  .min(1)
  .max(LIMITS.maxRemoteIdLength)
  .regex(PRINTABLE_ASCII)
  .meta({ id: 'UIRemoteId', description: 'Printable ASCII, 1–128 characters.' });

/** seed 002 §13: the native tool call a UI came from — printable ASCII, 1–256. */
export const UISourceCallIdSchema = z
  .string()
  .min(1)
  .max(LIMITS.maxSourceCallIdLength)
  .regex(PRINTABLE_ASCII)
  .meta({ id: 'UISourceCallId', description: 'Printable ASCII, 1–256 characters.' });

const boundedNumber = () => z.number().min(-UI_LIMITS.maxAbsNumber).max(UI_LIMITS.maxAbsNumber);

/** A submitted state value: a string, number or boolean within the DSL's scalar bounds (seed 002 §3, §11). */
export const UIActionValueSchema: z.ZodType<StateValue> = z
  .union([z.string().max(UI_LIMITS.maxStringLength), boundedNumber(), z.boolean()])
  .meta({ id: 'UIActionValue' });

/** A complete UI uses generation 0 and revision 0; a stream has 1–1e9 and 0–256 (seed 002 §11–§12). */
export const UIDocumentRefSchema = z
  .strictObject({
    sourceCallId: UISourceCallIdSchema,
    uiId: UIIdentifierSchema,
    generation: z.int().min(0).max(LIMITS.maxGeneration),
    revision: z.int().min(0).max(UI_PROTOCOL_LIMITS.maxStreamFrames),
  })
  .superRefine((reference, context) => {
    if (reference.generation === 0 && reference.revision !== 0) {
      context.addIssue({
        code: 'custom',
        path: ['revision'],
        message: 'A complete UI (generation 0) has revision 0.',
        params: issueParams('invalid_value'),
      });
    }
  })
  .meta({ id: 'UIDocumentRef' });

/** The state snapshot of a click: at most one value per declared state field (seed 002 §9, §13). */
const actionValues = boundedDictionary(UIIdentifierSchema, UIActionValueSchema, {
  maxEntries: UI_LIMITS.maxStateFields,
  what: 'Submitted values',
});

export const UIActionReserveRequestSchema = z
  .strictObject({
    documentRef: UIDocumentRefSchema,
    requestId: UIRemoteIdSchema,
    actionId: UIIdentifierSchema,
    values: actionValues,
  })
  .meta({ id: 'UIActionReserveRequest' });

export const UIActionQuerySchema = z
  .strictObject({ operationId: UIRemoteIdSchema })
  .meta({ id: 'UIActionQuery' });

/** The public result: flat scalars under the field names the host allows (seed 002 §11, §13). */
export const UIActionResultSchema = boundedDictionary(UIIdentifierSchema, ScalarSchema, {
  maxEntries: UI_PROTOCOL_LIMITS.maxActionResultFields,
  maxBytes: UI_PROTOCOL_LIMITS.maxActionResultBytes,
  what: 'A public result',
}).meta({ id: 'UIActionResult' });

const unixMilliseconds = () => z.int().min(0);

export const UIActionReceiptSchema = z
  .strictObject({
    operationId: UIRemoteIdSchema,
    requestId: UIRemoteIdSchema,
    documentRef: UIDocumentRefSchema,
    actionId: UIIdentifierSchema,
    status: z.enum(UI_ACTION_RECEIPT_STATUSES),
    parameterHash: z.string().regex(PARAMETER_HASH),
    createdAt: unixMilliseconds(),
    updatedAt: unixMilliseconds(),
    message: z.string().max(LIMITS.maxReceiptMessageLength).exactOptional(),
    result: UIActionResultSchema.exactOptional(),
  })
  .superRefine((receipt, context) => {
    if (receipt.updatedAt < receipt.createdAt) {
      context.addIssue({
        code: 'custom',
        path: ['updatedAt'],
        message: 'Must not be earlier than createdAt.',
        params: issueParams('number_out_of_range'),
      });
    }
    if (receipt.result !== undefined && receipt.status !== 'succeeded') {
      context.addIssue({
        code: 'custom',
        path: ['result'],
        message: 'Only a succeeded receipt may carry a result.',
        params: issueParams('invalid_value'),
      });
    }
    checkJSONBytes(receipt, UI_PROTOCOL_LIMITS.maxActionReceiptBytes, context, 'A receipt');
  })
  .meta({ id: 'UIActionReceipt' });

export const UICapabilityDescriptorSchema = z
  .strictObject({
    id: UIIdentifierSchema,
    title: z.string().min(1).max(LIMITS.maxCapabilityTitleLength),
    description: z.string().max(LIMITS.maxCapabilityDescriptionLength),
    risk: z.enum(UI_CAPABILITY_RISKS),
    /** Safe JSON describing the parameters; execution uses the host tool's own registered schema (§13). */
    parameters: JSONObjectSchema,
    /** The top-level result fields the host makes public. */
    resultFields: z
      .array(UIIdentifierSchema)
      .max(UI_PROTOCOL_LIMITS.maxActionResultFields)
      .superRefine((fields, context) => addDuplicateIssues(fields, (field) => field, [], context)),
  })
  .superRefine((descriptor, context) =>
    checkJSONBytes(descriptor, UI_PROTOCOL_LIMITS.maxCapabilityBytes, context, 'A capability descriptor'),
  )
  .meta({ id: 'UICapabilityDescriptor' });

export const UIActionReceiptListSchema = z
  .array(UIActionReceiptSchema)
  .max(LIMITS.maxReceiptListLength)
  .superRefine((receipts, context) =>
    addDuplicateIssues(receipts, (receipt) => receipt.operationId, ['operationId'], context),
  )
  .meta({ id: 'UIActionReceiptList' });

export const UICapabilityCatalogSchema = z
  .array(UICapabilityDescriptorSchema)
  .max(UI_PROTOCOL_LIMITS.maxCapabilities)
  .superRefine((descriptors, context) =>
    addDuplicateIssues(descriptors, (descriptor) => descriptor.id, ['id'], context),
  )
  .meta({ id: 'UICapabilityCatalog' });

export type UIDocumentRef = z.infer<typeof UIDocumentRefSchema>;
export type UIActionReserveRequest = z.infer<typeof UIActionReserveRequestSchema>;
export type UIActionQuery = z.infer<typeof UIActionQuerySchema>;
export type UIActionResult = z.infer<typeof UIActionResultSchema>;
export type UIActionReceipt = z.infer<typeof UIActionReceiptSchema>;
export type UICapabilityDescriptor = z.infer<typeof UICapabilityDescriptorSchema>;
export type UIActionReceiptList = z.infer<typeof UIActionReceiptListSchema>;
export type UICapabilityCatalog = z.infer<typeof UICapabilityCatalogSchema>;

/** Adds `duplicate_id` at `[index, ...keyPath]` for every later element whose key was seen before. */
function addDuplicateIssues<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  keyPath: readonly string[],
  context: z.RefinementCtx,
): void {
  for (const index of duplicateIndexes(items, keyOf)) {
    context.addIssue({
      code: 'custom',
      path: [index, ...keyPath],
      message: 'This id is already used by an earlier entry.',
      params: issueParams('duplicate_id'),
    });
  }
}

function duplicateIndexes<T>(items: readonly T[], keyOf: (item: T) => string): number[] {
  const seen = new Set<string>();
  const duplicates: number[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) duplicates.push(index);
    else seen.add(key);
  });
  return duplicates;
}

// Budgets: the content's own bound plus the fixed shell reserve of seed 002 §13 (4 levels, 64 values).

const flatBudget = (maxBytes: number, contentValues: number): SafeJSONBudget =>
  Object.freeze({
    maxBytes,
    maxDepth: LIMITS.shellDepthReserve,
    maxValues: contentValues + LIMITS.shellValueReserve,
  });

const DOCUMENT_REF_BUDGET = flatBudget(LIMITS.maxDocumentRefBytes, 0);
const QUERY_BUDGET = flatBudget(LIMITS.maxActionQueryBytes, 0);
const REQUEST_BUDGET = flatBudget(UI_PROTOCOL_LIMITS.maxActionRequestBytes, UI_LIMITS.maxStateFields);
const RESULT_BUDGET = flatBudget(
  UI_PROTOCOL_LIMITS.maxActionResultBytes,
  UI_PROTOCOL_LIMITS.maxActionResultFields,
);
const RECEIPT_BUDGET = flatBudget(
  UI_PROTOCOL_LIMITS.maxActionReceiptBytes,
  UI_PROTOCOL_LIMITS.maxActionResultFields,
);
/** Capability parameters are arbitrary safe JSON (a JSON Schema): the document depth and value budgets. */
const CAPABILITY_BUDGET = messageBudget(UI_PROTOCOL_LIMITS.maxCapabilityBytes);

const parse = <T>(schema: z.ZodType<T>, input: unknown, budget: SafeJSONBudget): T =>
  parseShape(schema, input, { budget }, LineUpProtocolError);

export function parseUIDocumentRef(input: unknown): UIDocumentRef {
  return parse(UIDocumentRefSchema, input, DOCUMENT_REF_BUDGET);
}

export function parseUIActionReserveRequest(input: unknown): UIActionReserveRequest {
  return parse(UIActionReserveRequestSchema, input, REQUEST_BUDGET);
}

export function parseUIActionQuery(input: unknown): UIActionQuery {
  return parse(UIActionQuerySchema, input, QUERY_BUDGET);
}

export function parseUIActionResult(input: unknown): UIActionResult {
  return parse(UIActionResultSchema, input, RESULT_BUDGET);
}

export function parseUIActionReceipt(input: unknown): UIActionReceipt {
  return parse(UIActionReceiptSchema, input, RECEIPT_BUDGET);
}

export function parseUICapabilityDescriptor(input: unknown): UICapabilityDescriptor {
  return parse(UICapabilityDescriptorSchema, input, CAPABILITY_BUDGET);
}

/** Receipts of a `list` answer: at most 128, each within the receipt budget, distinct `operationId`s. */
export function parseUIActionReceiptList(input: unknown): UIActionReceiptList {
  const receipts = parseCollection(input, UIActionReceiptSchema, RECEIPT_BUDGET, LIMITS.maxReceiptListLength);
  throwIfDuplicates(receipts, (receipt) => receipt.operationId, 'operationId');
  return receipts;
}

/** A capability catalog: at most 64 descriptors, each within the descriptor budget, distinct `id`s. */
export function parseUICapabilityCatalog(input: unknown): UICapabilityCatalog {
  const descriptors = parseCollection(
    input,
    UICapabilityDescriptorSchema,
    CAPABILITY_BUDGET,
    UI_PROTOCOL_LIMITS.maxCapabilities,
  );
  throwIfDuplicates(descriptors, (descriptor) => descriptor.id, 'id');
  return descriptors;
}

function throwIfDuplicates<T>(items: readonly T[], keyOf: (item: T) => string, key: string): void {
  const duplicates = duplicateIndexes(items, keyOf);
  if (duplicates.length > 0) {
    throw new LineUpProtocolError(
      duplicates.map((index) =>
        createIssue([index, key], 'duplicate_id', 'This id is already used by an earlier entry.'),
      ),
    );
  }
}

const ARRAY_PROTOTYPE: object = Array.prototype;
const { getPrototypeOf, getOwnPropertyDescriptor, hasOwn } = Object;
const { ownKeys } = Reflect;
const { isArray } = Array;

type ArrayShell = { readonly elements: readonly unknown[] } | { readonly issue: UIIssue };

/**
 * The elements of a bounded, dense, plain array without getters or extra properties, read without running
 * any code of the input. Only a Proxy can throw here, which is reported as an issue too.
 */
function readArrayShell(input: unknown, maxLength: number): ArrayShell {
  const fail = (path: readonly number[], code: UIIssueCode, message: string): ArrayShell => ({
    issue: createIssue(path, code, message),
  });
  try {
    if (!isArray(input)) return fail([], 'invalid_type', 'Expected array.');
    if (getPrototypeOf(input) !== ARRAY_PROTOTYPE)
      return fail([], 'invalid_json', 'Must be a plain JSON array.');
    const length = input.length;
    // Refused before its keys are listed, which allocates one string per element.
    if (length > maxLength) return fail([], 'too_many', `At most ${maxLength} entries are allowed.`);
    // Own keys list indexes ascending, then `length`: exactly `length + 1` keys ending in `length` means dense
    // with no extra (or symbol) keys.
    const keys = ownKeys(input);
    if (keys.length !== length + 1 || keys[length] !== 'length') {
      return fail([], 'invalid_json', 'Must be a dense JSON array without extra properties.');
    }
    const elements: unknown[] = [];
    for (let index = 0; index < length; index++) {
      const descriptor = getOwnPropertyDescriptor(input, index);
      if (descriptor === undefined || !hasOwn(descriptor, 'value')) {
        return fail([index], 'invalid_json', 'Must be plain data, not an accessor.');
      }
      elements.push(descriptor.value);
    }
    return { elements };
  } catch {
    return fail([], 'invalid_json', 'Cannot be inspected as JSON data.');
  }
}

/**
 * Shell first, then each element through `parseShape` against its own budget, with issue paths prefixed by
 * the element's index. Returns a frozen array of frozen elements.
 */
function parseCollection<T>(
  input: unknown,
  schema: z.ZodType<T>,
  elementBudget: SafeJSONBudget,
  maxLength: number,
): T[] {
  const shell = readArrayShell(input, maxLength);
  if ('issue' in shell) throw new LineUpProtocolError([shell.issue]);
  const items: T[] = [];
  const issues: UIIssue[] = [];
  shell.elements.forEach((element, index) => {
    if (issues.length >= UI_SCHEMA_LIMITS.maxIssues) return;
    try {
      items.push(
        parseShape(schema, element, { budget: elementBudget, prefix: `[${index}]` }, LineUpProtocolError),
      );
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      issues.push(...error.issues);
    }
  });
  if (issues.length > 0) throw new LineUpProtocolError(issues);
  return Object.freeze(items) as T[];
}

/**
 * The SHA-256 (64 lowercase hex) that binds a request id to its content: the canonical JSON of the request's
 * `documentRef`, `actionId` and `values` — everything but `requestId` (seed 002 §11 "内容摘要由 Host 使用规范化
 * 数据重新生成"; seed 004 §4 "请求摘要绑定 documentRef、actionId 和提交值"). The request is validated again
 * first, so only well-formed content is ever hashed. A matching hash binds content; it authorizes nothing.
 */
export function computeParameterHash(request: UIActionReserveRequest): string {
  const valid = parseUIActionReserveRequest(request);
  return hashCanonicalJSON(
    { documentRef: valid.documentRef, actionId: valid.actionId, values: valid.values },
    REQUEST_BUDGET,
  );
}

/**
 * For a `requestId` the host has seen before: returns the request's parameter hash when it equals
 * `existingHash` (a network retry of the same request), and throws `LineUpProtocolError` (`duplicate_id` at
 * `requestId`) when the same id comes with different content (seed 002 §11 "相同 ID 配不同内容必须拒绝").
 */
export function assertSameRequestContent(existingHash: string, request: UIActionReserveRequest): string {
  const hash = computeParameterHash(request);
  if (hash !== existingHash) {
    throw new LineUpProtocolError([
      createIssue(['requestId'], 'duplicate_id', 'This requestId was already used for different content.'),
    ]);
  }
  return hash;
}
