/**
 * The component stream's strict event envelope (seed 002 §12 "严格事件信封"): every frame carries a complete,
 * independently valid snapshot, so a client can aggregate frames by source, UI and generation, and recover
 * from any later frame. This module owns the frame's shape and its single-frame rules; the rules between
 * frames (duplicates, gaps, revisions, the frozen contract, budgets) live in stream.ts.
 *
 * Parsing a frame is split in two on purpose: the small envelope goes through `parseShape` (safe JSON, strict
 * zod, freeze), the snapshot goes through `parseDocument` (the document trust boundary, seed 002 §9), whose
 * issues come back prefixed `snapshot` (seed 002 §8). The snapshot is never walked by zod as well: it is the
 * bulk of the frame and `parseDocument` already checks far more than structure.
 */

import { z } from 'zod';
import { UI_ACTION_PROTOCOL_LIMITS, UISourceCallIdSchema } from '../actions/protocol.js';
import { parseDocument, parseDocumentSharing } from '../dsl/document.js';
import { UIDocumentSchema, UIIdentifierSchema } from '../dsl/schema.js';
import type { UIDocument } from '../dsl/types.js';
import { UISchemaError, UIStreamError } from '../errors/errors.js';
import type { UIIssue } from '../errors/issues.js';
import { parseShape } from '../json/parse.js';
import type { SafeJSONBudget } from '../json/safe-json.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';

/** The envelope's protocol name (seed 002 §12). */
export const UI_STREAM_PROTOCOL = 'dsh.intelligent-ui.stream';
/** The envelope's own version, independent of the document version (seed 002 §10). */
export const UI_STREAM_VERSION = '1.0';

/** Frame types: the opening snapshot, the three mutations, and the three terminal events (seed 002 §12). */
export const UI_STREAM_FRAME_TYPES = [
  'snapshot',
  'add',
  'update',
  'remove',
  'complete',
  'cancel',
  'error',
] as const;
export type UIStreamFrameType = (typeof UI_STREAM_FRAME_TYPES)[number];

export const UI_STREAM_MUTATION_TYPES = ['add', 'update', 'remove'] as const;
export const UI_STREAM_TERMINAL_TYPES = ['complete', 'cancel', 'error'] as const;
export type UIStreamTerminalType = (typeof UI_STREAM_TERMINAL_TYPES)[number];

/**
 * Limits of the stream envelope that `UI_PROTOCOL_LIMITS` does not name (seed 002 §12–§13). The ones the action
 * protocol shares (generation, sourceCallId, message, the envelope reserve) are its numbers, named once there.
 */
export const UI_STREAM_LIMITS = Object.freeze({
  /** seed 002 §12: generation is an integer 1–1,000,000,000. */
  maxGeneration: UI_ACTION_PROTOCOL_LIMITS.maxGeneration,
  /** seed 002 §13: the native sourceCallId is non-empty printable ASCII, at most 256 characters. */
  maxSourceCallIdLength: UI_ACTION_PROTOCOL_LIMITS.maxSourceCallIdLength,
  /** seed 002 §13: "回执和流 message 最长 512". */
  maxMessageLength: UI_ACTION_PROTOCOL_LIMITS.maxReceiptMessageLength,
  /** seed 002 §13: the protocol pre-check reserves 4 JSON levels for the fixed envelope. */
  envelopeJsonDepth: UI_ACTION_PROTOCOL_LIMITS.shellDepthReserve,
  /** seed 002 §13: … and 64 JSON values. */
  envelopeJsonValues: UI_ACTION_PROTOCOL_LIMITS.shellValueReserve,
  /** The fixed envelope around a snapshot: the frame budget minus the document budget (4,096 bytes). */
  maxEnvelopeBytes: UI_PROTOCOL_LIMITS.maxStreamFrameBytes - UI_LIMITS.maxDocumentBytes,
} as const);

/** The native call id of the open call: the action protocol's `UISourceCallIdSchema` (one definition). */
export const UIStreamSourceCallIdSchema = UISourceCallIdSchema;

export const UIStreamGenerationSchema = z.int().min(1).max(UI_STREAM_LIMITS.maxGeneration);
export const UIStreamSeqSchema = z.int().min(1).max(UI_PROTOCOL_LIMITS.maxStreamFrames);
export const UIStreamRevisionSchema = z.int().min(0).max(UI_PROTOCOL_LIMITS.maxStreamFrames);
export const UIStreamMessageSchema = z.string().max(UI_STREAM_LIMITS.maxMessageLength);

/** Every envelope field but the snapshot, in the seed's order. */
const envelopeShape = {
  protocol: z.literal(UI_STREAM_PROTOCOL),
  version: z.literal(UI_STREAM_VERSION),
  sourceCallId: UIStreamSourceCallIdSchema,
  // seed 002 §2 identifier: uiId is the snapshot's document id.
  uiId: UIIdentifierSchema,
  generation: UIStreamGenerationSchema,
  seq: UIStreamSeqSchema,
  baseRevision: UIStreamRevisionSchema.nullable(),
  revision: UIStreamRevisionSchema,
  type: z.enum(UI_STREAM_FRAME_TYPES),
};

type EnvelopeFields = {
  seq: number;
  revision: number;
  baseRevision: number | null;
  type: UIStreamFrameType;
};

export function isTerminalType(type: string): type is UIStreamTerminalType {
  return type === 'complete' || type === 'cancel' || type === 'error';
}

export function isMutationType(type: string): type is 'add' | 'update' | 'remove' {
  return type === 'add' || type === 'update' || type === 'remove';
}

/** The single-frame rules of seed 002 §12, shared by the exported schema and the envelope parser. */
function checkFrameRules(frame: EnvelopeFields, context: z.RefinementCtx): void {
  const issue = (path: string, code: 'invalid_value' | 'number_out_of_range', message: string) =>
    context.addIssue({ code: 'custom', path: [path], message, params: { code } });
  if (frame.seq <= frame.revision)
    issue('revision', 'number_out_of_range', 'revision must be lower than seq (seq > revision).');
  if (frame.type === 'snapshot') {
    if (frame.seq !== 1) issue('seq', 'invalid_value', 'A snapshot frame opens a generation: seq must be 1.');
    if (frame.baseRevision !== null)
      issue('baseRevision', 'invalid_value', 'A snapshot frame has baseRevision null.');
    return;
  }
  if (frame.seq === 1) issue('type', 'invalid_value', 'The frame with seq 1 must be the snapshot.');
  if (frame.baseRevision === null) {
    issue('baseRevision', 'invalid_value', 'Only a snapshot frame has baseRevision null.');
    return;
  }
  if (isMutationType(frame.type) && frame.revision !== frame.baseRevision + 1)
    issue('revision', 'invalid_value', 'An add, update or remove frame has revision = baseRevision + 1.');
  if (isTerminalType(frame.type) && frame.revision !== frame.baseRevision)
    issue('revision', 'invalid_value', 'A complete, cancel or error frame keeps revision = baseRevision.');
}

/** The envelope without its snapshot: what `parseShape` checks before `parseDocument` sees the snapshot. */
export const UIStreamEnvelopeSchema = z
  .strictObject({ ...envelopeShape, message: UIStreamMessageSchema.exactOptional() })
  .superRefine(checkFrameRules);
export type UIStreamEnvelope = z.infer<typeof UIStreamEnvelopeSchema>;

/**
 * One stream frame (seed 002 §12). Structure and the single-frame rules; the snapshot's structure is the
 * document schema. Use it for types and JSON Schema: `acceptCheckpoint` is what validates a frame, with
 * `parseDocument` on the snapshot and the rules between frames.
 */
export const UIStreamCheckpointSchema = z
  .strictObject({
    ...envelopeShape,
    snapshot: UIDocumentSchema as unknown as z.ZodType<UIDocument>,
    message: UIStreamMessageSchema.exactOptional(),
  })
  .superRefine((frame, context) => {
    checkFrameRules(frame, context);
    if (frame.snapshot.id !== frame.uiId)
      context.addIssue({
        code: 'custom',
        path: ['uiId'],
        message: 'uiId must equal the snapshot document id.',
        params: { code: 'invalid_value' },
      });
  })
  .meta({ id: 'UIStreamCheckpoint', description: 'One component stream frame with a full snapshot.' });
export type UIStreamCheckpoint = z.infer<typeof UIStreamCheckpointSchema>;

/** Budget of the envelope without its snapshot (seed 002 §13: 4 levels and 64 values for the shell). */
export const UI_STREAM_ENVELOPE_BUDGET: SafeJSONBudget = Object.freeze({
  maxBytes: UI_STREAM_LIMITS.maxEnvelopeBytes,
  maxDepth: UI_STREAM_LIMITS.envelopeJsonDepth,
  maxValues: UI_STREAM_LIMITS.envelopeJsonValues,
});

/** A snapshot's issues as frame issues: prefixed `snapshot` (seed 002 §8), still at most 512 characters. */
export function prefixIssues(issues: readonly UIIssue[], prefix: string): UIIssue[] {
  const max = UI_SCHEMA_LIMITS.maxIssuePathLength;
  return issues.map((issue) => {
    const path =
      issue.path === '$'
        ? prefix
        : issue.path.startsWith('[')
          ? prefix + issue.path
          : `${prefix}.${issue.path}`;
    return Object.freeze({
      path: path.length <= max ? path : `${path.slice(0, max - 1)}…`,
      code: issue.code,
      message: issue.message,
    });
  });
}

/**
 * `parseDocument` with its failures as `UIStreamError`, paths prefixed when `prefix` is given. With `base`
 * (the generation's previous document), every part equal to `base`'s is `base`'s own object (dsl/copy.ts).
 */
export function parseStreamDocument(input: unknown, prefix?: string, base?: UIDocument | null): UIDocument {
  try {
    return base == null ? parseDocument(input) : parseDocumentSharing(input, base);
  } catch (error) {
    if (error instanceof UISchemaError)
      throw new UIStreamError(prefix === undefined ? error.issues : prefixIssues(error.issues, prefix));
    throw error;
  }
}

const OBJECT_PROTOTYPE: object = Object.prototype;
const { getPrototypeOf, getOwnPropertyDescriptors, create } = Object;

/**
 * Splits an untrusted frame into its envelope (a copy without `snapshot`) and the snapshot value, without
 * reading any property through a getter: descriptors are copied as they are, so `parseShape` still reports
 * an accessor, a symbol key or a non-enumerable property exactly where it sits. Anything but a plain object
 * goes to `parseShape` whole, which rejects it at `$`.
 */
function splitFrame(input: unknown): { envelope: unknown; snapshot?: PropertyDescriptor } {
  // An array is not a frame whatever it holds: an empty one is rejected at `$` without walking its items.
  if (Array.isArray(input)) return { envelope: [] };
  if (typeof input !== 'object' || input === null) return { envelope: input };
  const prototype: unknown = getPrototypeOf(input);
  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) return { envelope: input };
  const descriptors: Record<PropertyKey, PropertyDescriptor> = getOwnPropertyDescriptors(input);
  const snapshot = descriptors.snapshot;
  // An accessor stays in the envelope, where the safe-JSON check reports it without calling it.
  if (snapshot !== undefined && 'value' in snapshot) delete descriptors.snapshot;
  const envelope: unknown = create(prototype as object | null, descriptors);
  return snapshot === undefined ? { envelope } : { envelope, snapshot };
}

/** A frame whose envelope and snapshot are each valid on their own; the snapshot is deep-frozen. */
export interface ParsedFrame {
  readonly envelope: UIStreamEnvelope;
  readonly snapshot: UIDocument;
}

/**
 * Validates one frame on its own: the envelope and its single-frame rules, then the snapshot with
 * `parseDocument` (issues prefixed `snapshot`), then `uiId` against the snapshot's id. Throws `UIStreamError`.
 * `baseFor` names, once the envelope is valid, the document the snapshot may share unchanged parts with.
 */
export function parseFrame(
  input: unknown,
  baseFor?: (envelope: UIStreamEnvelope) => UIDocument | null,
): ParsedFrame {
  const { envelope, snapshot } = splitFrame(input);
  const parsed = parseShape(
    UIStreamEnvelopeSchema,
    envelope,
    { budget: UI_STREAM_ENVELOPE_BUDGET },
    UIStreamError,
  );
  if (snapshot === undefined)
    throw new UIStreamError([
      Object.freeze({ path: 'snapshot', code: 'missing_property', message: 'This property is required.' }),
    ]);
  const document = parseStreamDocument(snapshot.value, 'snapshot', baseFor?.(parsed));
  if (document.id !== parsed.uiId)
    throw new UIStreamError([
      Object.freeze({
        path: 'uiId',
        code: 'invalid_value',
        message: 'uiId must equal the snapshot document id.',
      }),
    ]);
  return { envelope: parsed, snapshot: document };
}

/** Assembles a frozen checkpoint in the seed's key order; `message` only when present. */
export function buildCheckpoint(envelope: UIStreamEnvelope, snapshot: UIDocument): UIStreamCheckpoint {
  const checkpoint: UIStreamCheckpoint = {
    protocol: envelope.protocol,
    version: envelope.version,
    sourceCallId: envelope.sourceCallId,
    uiId: envelope.uiId,
    generation: envelope.generation,
    seq: envelope.seq,
    baseRevision: envelope.baseRevision,
    revision: envelope.revision,
    type: envelope.type,
    snapshot,
  };
  if (envelope.message !== undefined) checkpoint.message = envelope.message;
  return Object.freeze(checkpoint);
}
