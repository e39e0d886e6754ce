/**
 * Component streaming (seed 002 §12): a producer opens a generation with a full snapshot and advances it one
 * validated mutation at a time; a receiver accepts full-snapshot frames in any order and keeps the last valid
 * view. Both sides share one frozen state shape:
 *
 * ```ts
 * UIStreamState = {
 *   sourceCallId, uiId, generation,  // the binding: frames of another source or UI are rejected
 *   status,          // 'streaming' until a complete/cancel/error frame: 'completed' | 'cancelled' | 'failed'
 *   checkpoint,      // the last accepted frame, its snapshot being `document`
 *   document,        // the last valid snapshot (cancel and error keep it)
 *   seq,             // cursor 1: seq of the last accepted frame, terminal frames included
 *   revision,        // cursor 2: structural revision of `document`; the next mutation's baseRevision
 *   revisionSeq,     // cursor 3: seq of the first accepted frame that carried `revision`, i.e. the last
 *                    //   committed snapshot position (history and reconnect read the snapshot from there)
 *   digests,         // [{ seq, digest }] of every accepted frame, ascending; at most maxStreamFrames.
 *                    //   `digest` is computed when first read (see UIStreamDigest)
 *   frames, bytes,   // accepted frame count and their cumulative UTF-8 size (maxStreamBytes)
 * }
 * ```
 *
 * Why three cursors: `seq` orders frames (duplicates, stale frames, gaps), `revision` orders document
 * structure (terminal frames advance seq but not revision, and a receiver that missed frames may see both
 * jump), and `revisionSeq` says where the current document was committed, which neither of the other two can
 * (after complete, `seq` is one past it; after a gap, `seq - revision` is no longer constant).
 *
 * Local edit values are not part of this state (seed 002 §12: "Client 本地编辑值与网络 revision 分别维护"), and
 * nothing here runs `reset` or `invoke`. States are only ever made by `startUIStream`, `advanceUIStream` and
 * `acceptCheckpoint`; a failed call throws `UIStreamError` and the state passed in is untouched (it is frozen).
 */

import type { UIDocument } from '../dsl/types.js';
import { UIStreamError } from '../errors/errors.js';
import { createIssue, IssueCollector, type IssuePath, type UIIssueCode } from '../errors/issues.js';
import { jsonEqual } from '../json/equal.js';
import { parseShape } from '../json/parse.js';
import { UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import {
  buildCheckpoint,
  isTerminalType,
  parseFrame,
  parseStreamDocument,
  UI_STREAM_ENVELOPE_BUDGET,
  UI_STREAM_PROTOCOL,
  UI_STREAM_VERSION,
  type UIStreamCheckpoint,
  type UIStreamEnvelope,
  UIStreamEnvelopeSchema,
  type UIStreamFrameType,
} from './checkpoint.js';
import { checkGenerationContract } from './contract.js';
import { frameBytes, frameDigest } from './digest.js';
import {
  applyMutation,
  UI_STREAM_EVENT_BUDGET,
  type UIStreamEvent,
  UIStreamEventSchema,
} from './mutation.js';

export const UI_STREAM_STATUSES = ['streaming', 'completed', 'cancelled', 'failed'] as const;
export type UIStreamStatus = (typeof UI_STREAM_STATUSES)[number];

/**
 * The content digest of one accepted frame. The record keeps the frame (frozen, sharing every unchanged
 * branch with its neighbours, so a generation's records hold no more than its byte budget of distinct
 * content) and `digest` is an enumerable getter that hashes it on first read, at most once: only a seq
 * arriving again needs a digest, and hashing every new frame would cost about a third of parsing it.
 */
export interface UIStreamDigest {
  readonly seq: number;
  /** `hashCanonicalJSON(frame)`: lowercase hex SHA-256 of the frame's canonical JSON. */
  readonly digest: string;
}

/** One generation of one UI from one source, as far as it was accepted (see the top of this file). */
export interface UIStreamState {
  readonly sourceCallId: string;
  readonly uiId: string;
  readonly generation: number;
  readonly status: UIStreamStatus;
  readonly checkpoint: UIStreamCheckpoint;
  readonly document: UIDocument;
  readonly seq: number;
  readonly revision: number;
  readonly revisionSeq: number;
  readonly digests: readonly UIStreamDigest[];
  readonly frames: number;
  readonly bytes: number;
}

/**
 * Budget reservation (seed 002 §12–§13: "进行中的流预留一个终止帧及一份最大帧容量"): while a generation is in
 * progress, a non-terminal frame is only accepted if one more frame number and one maximum frame's bytes are
 * still free afterwards, so ordinary patches can never use up the room for complete/cancel/error.
 */
export const UI_STREAM_RESERVE = Object.freeze({
  /** Frame numbers kept for the terminal frame. */
  frames: 1,
  /** Bytes kept for the terminal frame, which repeats a full snapshot. */
  bytes: UI_PROTOCOL_LIMITS.maxStreamFrameBytes,
} as const);

const STATUS_BY_TYPE: Readonly<Record<UIStreamFrameType, UIStreamStatus>> = {
  snapshot: 'streaming',
  add: 'streaming',
  update: 'streaming',
  remove: 'streaming',
  complete: 'completed',
  cancel: 'cancelled',
  error: 'failed',
};

/** Only states made here are accepted back, so a state never needs re-validating (and cannot be forged). */
const states = new WeakSet<UIStreamState>();

/** The frame behind each digest record made here. */
const recordedFrames = new WeakMap<UIStreamDigest, UIStreamCheckpoint>();

function digestRecord(checkpoint: UIStreamCheckpoint): UIStreamDigest {
  const record: UIStreamDigest = Object.freeze(
    Object.defineProperties(
      {},
      {
        seq: { value: checkpoint.seq, enumerable: true },
        digest: { get: () => frameDigest(checkpoint), enumerable: true },
      },
    ) as UIStreamDigest,
  );
  recordedFrames.set(record, checkpoint);
  return record;
}

function fail(path: IssuePath, code: UIIssueCode, message: string): never {
  throw new UIStreamError([createIssue(path, code, message)]);
}

function assertState(current: unknown): asserts current is UIStreamState {
  if (typeof current !== 'object' || current === null || !states.has(current as UIStreamState))
    fail(
      [],
      'invalid_value',
      'Expected a stream state returned by startUIStream, advanceUIStream or acceptCheckpoint.',
    );
}

/** Frame number and byte budget of one more frame, with the reservation while the stream goes on. */
function checkBudget(
  previous: { readonly frames: number; readonly bytes: number } | null,
  seq: number,
  type: UIStreamFrameType,
  frameBytes: number,
  seqPath: IssuePath,
): void {
  if (frameBytes > UI_PROTOCOL_LIMITS.maxStreamFrameBytes)
    fail([], 'too_large', `A stream frame is at most ${UI_PROTOCOL_LIMITS.maxStreamFrameBytes} bytes.`);
  const terminal = isTerminalType(type);
  const reservedFrames = terminal ? 0 : UI_STREAM_RESERVE.frames;
  const reservedBytes = terminal ? 0 : UI_STREAM_RESERVE.bytes;
  // Frames accepted are never more than seq (seq strictly grows), so the seq bound also bounds the count.
  if (seq + reservedFrames > UI_PROTOCOL_LIMITS.maxStreamFrames)
    fail(
      seqPath,
      'too_many',
      `A generation has at most ${UI_PROTOCOL_LIMITS.maxStreamFrames} frames and keeps the last one for complete, cancel or error.`,
    );
  const bytes = (previous?.bytes ?? 0) + frameBytes;
  if (bytes + reservedBytes > UI_PROTOCOL_LIMITS.maxStreamBytes)
    fail(
      [],
      'too_large',
      `A generation's frames total at most ${UI_PROTOCOL_LIMITS.maxStreamBytes} bytes, keeping one maximum frame for complete, cancel or error.`,
    );
}

/** Freezes and registers a new state. */
function commit(
  previous: UIStreamState | null,
  checkpoint: UIStreamCheckpoint,
  bytes: number,
): UIStreamState {
  const revisionSeq =
    previous !== null && previous.revision === checkpoint.revision ? previous.revisionSeq : checkpoint.seq;
  const state: UIStreamState = Object.freeze({
    sourceCallId: checkpoint.sourceCallId,
    uiId: checkpoint.uiId,
    generation: checkpoint.generation,
    status: STATUS_BY_TYPE[checkpoint.type],
    checkpoint,
    document: checkpoint.snapshot,
    seq: checkpoint.seq,
    revision: checkpoint.revision,
    revisionSeq,
    digests: Object.freeze([...(previous?.digests ?? []), digestRecord(checkpoint)]),
    frames: (previous?.frames ?? 0) + 1,
    bytes: (previous?.bytes ?? 0) + bytes,
  });
  states.add(state);
  return state;
}

/**
 * Opens a generation: validates `document` with `parseDocument` (issues at the document's own paths) and the
 * binding, and returns the frozen state holding the opening frame (seq 1, revision 0, baseRevision null,
 * type `snapshot`). The host is responsible for the real source and for persistence (seed 002 §8).
 */
export function startUIStream(document: unknown, sourceCallId: string, generation: number): UIStreamState {
  const snapshot = parseStreamDocument(document);
  const envelope = parseShape(
    UIStreamEnvelopeSchema,
    {
      protocol: UI_STREAM_PROTOCOL,
      version: UI_STREAM_VERSION,
      sourceCallId,
      uiId: snapshot.id,
      generation,
      seq: 1,
      baseRevision: null,
      revision: 0,
      type: 'snapshot',
    },
    { budget: UI_STREAM_ENVELOPE_BUDGET },
    UIStreamError,
  );
  const checkpoint = buildCheckpoint(envelope, snapshot);
  const bytes = frameBytes(checkpoint);
  checkBudget(null, checkpoint.seq, checkpoint.type, bytes, ['seq']);
  return commit(null, checkpoint, bytes);
}

/**
 * Advances a generation by one mutation or ends it with a terminal intent. A mutation is applied to an
 * independent candidate tree that shares every unchanged branch, and the whole candidate is re-validated with
 * `parseDocument` and checked against the generation's frozen contract before anything is committed; issues
 * of the candidate keep the document's paths, issues of the mutation itself point at its fields. Returns the
 * new state with the new frame (seq + 1; revision + 1 for a mutation, unchanged for a terminal event).
 */
export function advanceUIStream(current: UIStreamState, event: unknown): UIStreamState {
  assertState(current);
  const parsed: UIStreamEvent = parseShape(
    UIStreamEventSchema,
    event,
    { budget: UI_STREAM_EVENT_BUDGET },
    UIStreamError,
  );
  if (current.status !== 'streaming')
    fail(
      [],
      'invalid_value',
      'This generation has ended (complete, cancel or error); open a new generation.',
    );
  const seq = current.seq + 1;
  const terminal = isTerminalType(parsed.type);
  // Fail fast on the frame count before building and validating a candidate.
  if (!terminal && seq + UI_STREAM_RESERVE.frames > UI_PROTOCOL_LIMITS.maxStreamFrames)
    checkBudget(current, seq, parsed.type, 0, []);

  let document = current.document;
  if (parsed.type === 'add' || parsed.type === 'update' || parsed.type === 'remove') {
    // The candidate already holds every unchanged branch of the current document; validating it against that
    // document keeps them and copies (and freezes) only what the mutation changed.
    const candidate = applyMutation(current.document, parsed);
    const validated = parseStreamDocument(candidate, undefined, current.document);
    const issues = new IssueCollector();
    checkGenerationContract(current.document, validated, { nodeTypes: true }, issues);
    if (!issues.empty) throw new UIStreamError(issues.issues);
    document = validated;
  }
  const envelope: UIStreamEnvelope = {
    protocol: UI_STREAM_PROTOCOL,
    version: UI_STREAM_VERSION,
    sourceCallId: current.sourceCallId,
    uiId: current.uiId,
    generation: current.generation,
    seq,
    baseRevision: current.revision,
    revision: terminal ? current.revision : current.revision + 1,
    type: parsed.type,
  };
  if ('message' in parsed && parsed.message !== undefined) envelope.message = parsed.message;
  const checkpoint = buildCheckpoint(envelope, document);
  const bytes = frameBytes(checkpoint);
  checkBudget(current, seq, checkpoint.type, bytes, []);
  return commit(current, checkpoint, bytes);
}

function recordAt(digests: readonly UIStreamDigest[], seq: number): UIStreamDigest | undefined {
  let low = 0;
  let high = digests.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const entry = digests[middle]!;
    if (entry.seq === seq) return entry;
    if (entry.seq < seq) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** The rules between an accepted frame and the next newer one of the same generation (seed 002 §12). */
function checkSuccession(
  base: UIStreamState,
  envelope: UIStreamEnvelope,
  document: UIDocument,
  frameIssues: IssueCollector,
  snapshotIssues: IssueCollector,
): void {
  const consecutive = envelope.seq === base.seq + 1;
  const { baseRevision, revision } = envelope;
  if (revision < base.revision)
    frameIssues.add(['revision'], 'number_out_of_range', 'revision never goes back within a generation.');
  else if (revision - base.revision > envelope.seq - base.seq)
    frameIssues.add(['revision'], 'number_out_of_range', 'revision grows by at most one per frame.');
  else if (revision === base.revision && document !== base.document)
    frameIssues.add(
      ['revision'],
      'invalid_value',
      'A frame that changes the document must increment revision.',
    );
  // The frame rules guarantee a number here: only the seq-1 snapshot has baseRevision null.
  if (baseRevision !== null) {
    if (consecutive && baseRevision !== base.revision)
      frameIssues.add(
        ['baseRevision'],
        'invalid_value',
        "A consecutive frame's baseRevision is the previous frame's revision.",
      );
    else if (!consecutive && baseRevision < base.revision)
      frameIssues.add(
        ['baseRevision'],
        'number_out_of_range',
        'baseRevision never goes back within a generation.',
      );
  }
  // Gaps: the node may have been removed and added again as another type in a frame this receiver missed.
  checkGenerationContract(base.document, document, { nodeTypes: consecutive }, snapshotIssues);
}

/**
 * Validates one full frame and folds it into `current` (seed 002 §12 "重复、乱序、恢复与终止"):
 *
 * - `current === null`: any valid frame becomes the first visible one, even with seq/revision above the
 *   initial values (paged history, reconnect). A frame of a newer generation also starts afresh.
 * - A frame of another `sourceCallId` or `uiId` is rejected.
 * - An already accepted seq with the same content digest returns `current` itself; with another digest it
 *   is a conflict and rejected. Only this case computes digests, and only for frames whose content differs.
 * - A frame of an older generation, or an older seq never seen (skipped by a gap), is ignored: `current` is
 *   returned and the view is not overwritten.
 * - A newer frame after complete/cancel/error is rejected: the generation has ended.
 * - Otherwise it must follow `current`: the right baseRevision when consecutive, revision never going back
 *   and incremented whenever the document changed, the generation's frozen contract, and the budgets with the
 *   terminal reservation. Forward seq gaps are fine: every frame carries a full snapshot.
 *
 * Snapshot issues are prefixed `snapshot`. Unchanged branches keep the previous frame's objects.
 */
export function acceptCheckpoint(current: UIStreamState | null, input: unknown): UIStreamState {
  if (current !== null) assertState(current);
  // A newer frame of the current generation is validated against its document, sharing what is unchanged.
  const { envelope, snapshot } = parseFrame(input, (frame) =>
    current !== null &&
    current.status === 'streaming' &&
    frame.sourceCallId === current.sourceCallId &&
    frame.uiId === current.uiId &&
    frame.generation === current.generation &&
    frame.seq > current.seq
      ? current.document
      : null,
  );
  if (current !== null) {
    const issues = new IssueCollector();
    if (envelope.sourceCallId !== current.sourceCallId)
      issues.add(['sourceCallId'], 'invalid_value', 'This frame belongs to another source call.');
    if (envelope.uiId !== current.uiId)
      issues.add(['uiId'], 'invalid_value', 'This frame belongs to another UI.');
    if (!issues.empty) throw new UIStreamError(issues.issues);
    if (envelope.generation < current.generation) return current;
  }
  const base = current !== null && current.generation === envelope.generation ? current : null;

  if (base === null) {
    const checkpoint = buildCheckpoint(envelope, snapshot);
    const bytes = frameBytes(checkpoint);
    checkBudget(null, checkpoint.seq, checkpoint.type, bytes, ['seq']);
    return commit(null, checkpoint, bytes);
  }

  if (envelope.seq <= base.seq) {
    const record = recordAt(base.digests, envelope.seq);
    if (record === undefined) return base;
    const frame = buildCheckpoint(envelope, snapshot);
    // The digest decides, but equal content has equal canonical JSON and so an equal digest: only a frame
    // that differs is hashed (a reconnect replaying many identical frames hashes none of them).
    if (jsonEqual(frame, recordedFrames.get(record)) || frameDigest(frame) === record.digest) return base;
    fail(
      ['seq'],
      'duplicate_id',
      'A different frame with this seq was already accepted (its content digest differs).',
    );
  }
  if (base.status !== 'streaming')
    fail(
      ['seq'],
      'invalid_value',
      'This generation has ended (complete, cancel or error); no later frame applies.',
    );
  const document = snapshot;
  const checkpoint = buildCheckpoint(envelope, document);
  const frameIssues = new IssueCollector();
  const snapshotIssues = new IssueCollector('snapshot');
  checkSuccession(base, envelope, document, frameIssues, snapshotIssues);
  if (!frameIssues.empty || !snapshotIssues.empty)
    throw new UIStreamError([...frameIssues.issues, ...snapshotIssues.issues]);
  const bytes = frameBytes(checkpoint);
  checkBudget(base, checkpoint.seq, checkpoint.type, bytes, ['seq']);
  return commit(base, checkpoint, bytes);
}
